/// The joints attached to each body, so that what concerns one body's joints (destroying the
/// body, waking it) costs that body's joints rather than a pass over every joint of the world.
///
/// A joint slot j has two edges: 2j (its body A) and 2j + 1 (its body B). Each body slot heads
/// a doubly linked list of the edges that end at it (newest first), so a joint leaves both
/// lists in constant time. Derived from the joint records: a restored world marks it `stale`
/// and the next use makes it again from every live joint. Nothing reads the lists' order
/// where it could change a result (the callers sort what they collect).
struct JointGraph {
    /// Per body slot: its first edge, or -1 (slots past the end have none).
    let heads = Column<Int32>()
    /// Per edge: the next and the previous edge at the same body, or -1.
    let next = Column<Int32>()
    let prev = Column<Int32>()
    /// The lists must be made again from the joint records before they are read.
    var stale = false
    /// `World.collectJoints(ofBody:)`'s list (kept for its capacity).
    let scratch = Column<Int32>()

    /// Adds joint `j` between bodies `a` and `b` (slots) to both bodies' lists.
    mutating func link(joint j: Int, bodyA a: Int, bodyB b: Int) {
        let edges = 2 * (j + 1)
        if next.count < edges { next.grow(to: edges, with: -1); prev.grow(to: edges, with: -1) }
        let top = max(a, b) + 1
        if heads.count < top { heads.grow(to: top, with: -1) }
        push(edge: 2 * j, body: a)
        push(edge: 2 * j + 1, body: b)
    }

    /// Takes joint `j` (between bodies `a` and `b`) out of both bodies' lists.
    mutating func unlink(joint j: Int, bodyA a: Int, bodyB b: Int) {
        remove(edge: 2 * j, body: a)
        remove(edge: 2 * j + 1, body: b)
    }

    private func push(edge e: Int, body: Int) {
        let h = heads[body]
        next[e] = h
        prev[e] = -1
        if h >= 0 { prev[Int(h)] = Int32(e) }
        heads[body] = Int32(e)
    }

    private func remove(edge e: Int, body: Int) {
        let n = next[e], p = prev[e]
        if p >= 0 { next[Int(p)] = n } else {
            assert(heads[body] == Int32(e), "a joint edge without a previous edge is not its body's first")
            heads[body] = n
        }
        if n >= 0 { prev[Int(n)] = p }
        next[e] = -1; prev[e] = -1
    }

    /// Calls `visit` with each joint slot attached to body slot `body` (in no particular order).
    @inline(__always)
    func forEachJoint(ofBody body: Int, _ visit: (Int) -> Void) {
        guard body < heads.count else { return }
        var e = heads[body]
        while e >= 0 {
            visit(Int(e) >> 1)
            e = next[Int(e)]
        }
    }

    /// Makes the lists again from every live joint of `joints` (after a restore).
    mutating func rebuild(joints: View<JointRecord>) {
        heads.removeAllKeepingCapacity(); next.removeAllKeepingCapacity(); prev.removeAllKeepingCapacity()
        for j in joints.indices where joints[j].alive {
            link(joint: j, bodyA: Int(joints[j].bodyA), bodyB: Int(joints[j].bodyB))
        }
        stale = false
    }
}

extension World {
    /// The joint graph, made again first when stale (`JointGraph.stale`).
    @inline(__always)
    func currentJointGraph() {
        if jointGraph.stale { jointGraph.rebuild(joints: joints.view) }
    }

    /// The joint slots attached to body slot `i`, in slot order (valid until the next call).
    func collectJoints(ofBody i: Int) -> View<Int32> {
        currentJointGraph()
        let list = jointGraph.scratch
        list.removeAllKeepingCapacity()
        jointGraph.forEachJoint(ofBody: i) { list.append(Int32($0)) }
        sortKeys(list.mutableView)
        return list.view
    }
}
