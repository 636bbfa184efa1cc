/// A world's collision groups: their records (by group slot), their slots, and each body's
/// groups.
struct CollisionGroupTable {
    var records: [GroupRecord] = []
    var slots = SlotAllocator()
    /// Per body slot: the groups it belongs to, in the order it joined them.
    var ofBody = BodyGroupTable()
}

/// A collision group: its mode and boundaries. (Its members are the bodies whose lists in
/// `BodyGroupTable` name it: a body joins and leaves at no cost that grows with the group;
/// destroying a group or changing its mode, rare, looks through the bodies.)
struct GroupRecord {
    var generation: UInt32 = 0
    var alive = false
    var mode = CollisionMode.everything
    var boundaries: [Int32] = []
}

/// The collision groups of each body slot, in the order the body joined them.
///
/// Nearly every body is in exactly one group (the default one), so that group is kept inline:
/// 4 bytes per body instead of a list of its own. A body in two or more groups keeps them in a
/// list: a run of `pool` (at `listStart[k]`, `listCount[k]` groups, room for
/// `listCapacity[k]`); a list freed by a destroyed body is reused, with its room, by the next
/// body that needs one, so once warm, bodies come and go without allocating. A list that
/// outgrows its room moves to a run twice as long at the pool's end.
struct BodyGroupTable {
    /// Per body slot: its only group (≥ 0), no group (-1), or `-2 - k`: its groups are list k.
    let head = Column<Int32>()
    let pool = Column<Int32>()
    let listStart = Column<Int32>(), listCount = Column<Int32>(), listCapacity = Column<Int32>()
    let freeLists = Column<Int32>()

    /// Number of body slots.
    var count: Int { head.count }

    /// Body `i`'s groups, in the order it joined them (a view of the table: valid until it changes).
    @inline(__always)
    subscript(i: Int) -> BodyGroupList {
        let h = head[i]
        if h >= -1 { return BodyGroupList(single: h, list: nil) }
        let k = Int(-2 - h)
        return BodyGroupList(single: -1, list: pool.view.subview(Int(listStart[k])..<Int(listStart[k] + listCount[k])))
    }

    func reserveCapacity(_ n: Int) { head.reserveCapacity(n) }

    /// A new body slot with the groups `list` (none by default).
    func appendSlot(_ list: [Int32] = []) {
        head.append(-1)
        for g in list { append(g, toBody: head.count - 1) }
    }

    /// A list with room for at least `room` groups, empty: a freed one if any, else a new run.
    private func newList(room: Int32) -> Int {
        if let f = freeLists.popLast() {
            let k = Int(f)
            if listCapacity[k] >= room { return k }
            freeLists.append(f)
        }
        let k = listStart.count
        listStart.append(Int32(pool.count)); listCount.append(0); listCapacity.append(room)
        pool.grow(to: pool.count + Int(room), with: -1)
        return k
    }

    /// Body `i` joins group `g` (last in its order; the caller checks it is not a member yet).
    func append(_ g: Int32, toBody i: Int) {
        let h = head[i]
        if h == -1 { head[i] = g; return }
        if h >= 0 {
            let k = newList(room: 4)
            pool[Int(listStart[k])] = h
            pool[Int(listStart[k]) + 1] = g
            listCount[k] = 2
            head[i] = Int32(-2 - k)
            return
        }
        let k = Int(-2 - h)
        if listCount[k] == listCapacity[k] {
            // Moves to a run twice as long at the pool's end (the old run stays unused).
            let start = Int32(pool.count), n = listCount[k]
            pool.grow(to: pool.count + Int(2 * n), with: -1)
            for t in 0..<Int(n) { pool[Int(start) + t] = pool[Int(listStart[k]) + t] }
            listStart[k] = start; listCapacity[k] = 2 * n
        }
        pool[Int(listStart[k] + listCount[k])] = g
        listCount[k] += 1
    }

    /// Body `i` leaves its `n`-th group (in its order).
    func remove(at n: Int, ofBody i: Int) {
        let h = head[i]
        if h >= 0 { precondition(n == 0, "BodyGroupTable: body \(i) has one group"); head[i] = -1; return }
        precondition(h != -1, "BodyGroupTable: body \(i) has no group")
        let k = Int(-2 - h), start = Int(listStart[k]), c = Int(listCount[k])
        precondition(n >= 0 && n < c, "BodyGroupTable: body \(i) has \(c) groups, not \(n + 1)")
        for t in n..<(c - 1) { pool[start + t] = pool[start + t + 1] }
        listCount[k] -= 1
    }

    /// Body `i` leaves every group (its list, if it had one, is kept for reuse).
    func removeAll(ofBody i: Int) {
        let h = head[i]
        if h <= -2 {
            listCount[Int(-2 - h)] = 0
            freeLists.append(-2 - h)
        }
        head[i] = -1
    }
}

/// One body's collision groups (see `BodyGroupTable`): its inline group or its list.
struct BodyGroupList: RandomAccessCollection {
    let single: Int32
    let list: View<Int32>?
    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { list?.count ?? (single >= 0 ? 1 : 0) }
    @inline(__always) subscript(n: Int) -> Int32 {
        if let list { return list[n] }
        precondition(n == 0 && single >= 0, "BodyGroupList: index \(n) out of range")
        return single
    }
}
