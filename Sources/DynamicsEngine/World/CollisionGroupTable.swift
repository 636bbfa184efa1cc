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
/// 4 bytes per body instead of an array of its own (8 bytes, plus a heap block of about 48
/// bytes once the body has a group — 50 MB of a million-body pile). A body in two or more
/// groups keeps them in one of `lists`; a list freed by a destroyed body is reused by the next
/// body that needs one.
struct BodyGroupTable {
    /// Per body slot: its only group (≥ 0), no group (-1), or `-2 - k`: its groups are `lists[k]`.
    let head = Column<Int32>()
    private(set) var lists: [[Int32]] = []
    private var freeLists: [Int32] = []

    /// Number of body slots.
    var count: Int { head.count }

    /// Body `i`'s groups, in the order it joined them.
    @inline(__always)
    subscript(i: Int) -> BodyGroupList {
        let h = head[i]
        if h >= -1 { return BodyGroupList(single: h, list: nil) }
        return BodyGroupList(single: -1, list: lists[Int(-2 - h)])
    }

    mutating func reserveCapacity(_ n: Int) { head.reserveCapacity(n) }

    /// A new body slot with the groups `list` (none by default).
    mutating func appendSlot(_ list: [Int32] = []) {
        head.append(-1)
        for g in list { append(g, toBody: head.count - 1) }
    }

    /// Body `i` joins group `g` (last in its order; the caller checks it is not a member yet).
    mutating func append(_ g: Int32, toBody i: Int) {
        let h = head[i]
        if h == -1 { head[i] = g; return }
        if h >= 0 {
            let k: Int
            if let f = freeLists.popLast() { k = Int(f) } else { k = lists.count; lists.append([]) }
            lists[k].append(h)
            lists[k].append(g)
            head[i] = Int32(-2 - k)
            return
        }
        lists[Int(-2 - h)].append(g)
    }

    /// Body `i` leaves its `n`-th group (in its order).
    mutating func remove(at n: Int, ofBody i: Int) {
        let h = head[i]
        if h >= 0 { precondition(n == 0, "BodyGroupTable: body \(i) has one group"); head[i] = -1; return }
        precondition(h != -1, "BodyGroupTable: body \(i) has no group")
        lists[Int(-2 - h)].remove(at: n)
    }

    /// Body `i` leaves every group (its list, if it had one, is kept for reuse).
    mutating func removeAll(ofBody i: Int) {
        let h = head[i]
        if h <= -2 {
            lists[Int(-2 - h)].removeAll(keepingCapacity: true)
            freeLists.append(-2 - h)
        }
        head[i] = -1
    }
}

/// One body's collision groups (see `BodyGroupTable`): its inline group or its list.
struct BodyGroupList: RandomAccessCollection {
    let single: Int32
    let list: [Int32]?
    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { list?.count ?? (single >= 0 ? 1 : 0) }
    @inline(__always) subscript(n: Int) -> Int32 {
        if let list { return list[n] }
        precondition(n == 0 && single >= 0, "BodyGroupList: index \(n) out of range")
        return single
    }
}
