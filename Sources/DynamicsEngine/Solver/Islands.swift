/// Islands of the current step: awake dynamic bodies connected by contacts with points or by
/// joints (union–find). Static and kinematic bodies do not join islands. Islands are numbered
/// in the order of their lowest body slot, and every list is filled in slot / contact order,
/// so the grouping is the same whatever the worker count.
struct IslandBuilder {
    var parent: [Int32] = []
    /// Island of each body slot this step (-1: not in an island).
    var islandOf: [Int32] = []
    var count = 0
    /// `bodies[bodyStart[i] ..< bodyStart[i + 1]]` are island i's bodies (slot order).
    var bodyStart: [Int32] = []
    var bodies: [Int32] = []
    /// Contact indices per island, in contact order.
    var contactStart: [Int32] = []
    var contactList: [Int32] = []
    /// Joint slots per island.
    var jointStart: [Int32] = []
    var jointList: [Int32] = []
    /// 0 when something keeps the island awake (a moving kinematic body touches it).
    var canSleep: [UInt8] = []

    @inline(__always)
    mutating func find(_ x: Int32) -> Int32 {
        var r = x
        while parent[Int(r)] != r { r = parent[Int(r)] }
        var y = x
        while parent[Int(y)] != r { let n = parent[Int(y)]; parent[Int(y)] = r; y = n }
        return r
    }

    @inline(__always)
    mutating func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra == rb { return }
        // The lower slot becomes the root: deterministic, independent of call order.
        if ra < rb { parent[Int(rb)] = ra } else { parent[Int(ra)] = rb }
    }
}

extension World {
    /// True for an awake dynamic body (one that the solver moves).
    @inline(__always)
    func isSolverBody(_ i: Int) -> Bool { metas[i].type == .dynamic && metas[i].awake }

    func buildIslands() {
        contacts.withUnsafeBufferPointer { cs in
        metas.withUnsafeBufferPointer { me in
        joints.withUnsafeBufferPointer { js in
        states.withUnsafeBufferPointer { st in
            buildIslands(cs, me, js, st)
        }}}}
    }

    /// `buildIslands` over buffer views (no class property access per body or contact).
    private func buildIslands(_ cs: UnsafeBufferPointer<Contact>, _ me: UnsafeBufferPointer<BodyMeta>,
                              _ js: UnsafeBufferPointer<JointRecord>, _ st: UnsafeBufferPointer<BodyState>) {
        @inline(__always) func isSolverBody(_ i: Int) -> Bool { me[i].type == .dynamic && me[i].awake }
        @inline(__always) func isMovingKinematic(_ i: Int) -> Bool {
            me[i].type == .kinematic && (st[i].v != .zero || st[i].w != 0)
        }
        let nb = Int(bodySlots.count)
        var ib = islands
        islands = IslandBuilder()  // take the buffers out to avoid overlapping access
        defer { islands = ib }
        if ib.parent.count < nb {
            ib.parent.append(contentsOf: repeatElement(0, count: nb - ib.parent.count))
            ib.islandOf.append(contentsOf: repeatElement(-1, count: nb - ib.islandOf.count))
        }
        for i in 0..<nb { ib.parent[i] = Int32(i); ib.islandOf[i] = -1 }
        for k in cs.indices where cs[k].flags & Contact.hasPoints != 0 {
            let a = Int(cs[k].bodyA), b = Int(cs[k].bodyB)
            if isSolverBody(a) && isSolverBody(b) { ib.union(Int32(a), Int32(b)) }
        }
        for j in 0..<Int(jointSlots.count) where js[j].alive {
            let a = Int(js[j].bodyA), b = Int(js[j].bodyB)
            if isSolverBody(a) && isSolverBody(b) { ib.union(Int32(a), Int32(b)) }
        }
        // Number islands by their root (lowest slot) in slot order.
        ib.count = 0
        for i in 0..<nb where isSolverBody(i) {
            let r = Int(ib.find(Int32(i)))
            if r == i { ib.islandOf[i] = Int32(ib.count); ib.count += 1 }
        }
        for i in 0..<nb where isSolverBody(i) { ib.islandOf[i] = ib.islandOf[Int(ib.find(Int32(i)))] }
        let n = ib.count
        @inline(__always) func contactIsland(_ k: Int) -> Int32 {
            let ia = ib.islandOf[Int(cs[k].bodyA)]
            return ia >= 0 ? ia : ib.islandOf[Int(cs[k].bodyB)]
        }
        @inline(__always) func jointIsland(_ j: Int) -> Int32 {
            let ia = ib.islandOf[Int(js[j].bodyA)]
            return ia >= 0 ? ia : ib.islandOf[Int(js[j].bodyB)]
        }
        func resize(_ a: inout [Int32], _ m: Int) {
            if a.count < m { a.append(contentsOf: repeatElement(0, count: m - a.count)) }
            for k in 0..<m { a[k] = 0 }
        }
        resize(&ib.bodyStart, n + 1)
        resize(&ib.contactStart, n + 1)
        resize(&ib.jointStart, n + 1)
        if ib.canSleep.count < n { ib.canSleep.append(contentsOf: repeatElement(1, count: n - ib.canSleep.count)) }
        for k in 0..<n { ib.canSleep[k] = 1 }
        // Counting sort of bodies, contacts and joints by island.
        var nBodies = 0
        for i in 0..<nb where ib.islandOf[i] >= 0 { ib.bodyStart[Int(ib.islandOf[i]) + 1] += 1; nBodies += 1 }
        var nContacts = 0
        for k in cs.indices where cs[k].flags & Contact.hasPoints != 0 {
            let isl = contactIsland(k)
            if isl >= 0 { ib.contactStart[Int(isl) + 1] += 1; nContacts += 1 }
        }
        var nJoints = 0
        for j in 0..<Int(jointSlots.count) where js[j].alive {
            let isl = jointIsland(j)
            if isl >= 0 { ib.jointStart[Int(isl) + 1] += 1; nJoints += 1 }
        }
        for k in 0..<n {
            ib.bodyStart[k + 1] += ib.bodyStart[k]
            ib.contactStart[k + 1] += ib.contactStart[k]
            ib.jointStart[k + 1] += ib.jointStart[k]
        }
        resize(&ib.bodies, nBodies)
        resize(&ib.contactList, nContacts)
        resize(&ib.jointList, nJoints)
        // Fill with cursors (copies of the starts).
        // Move the cursor buffer out (a copy would share it and reallocate on write).
        var cur = solver.cursor
        solver.cursor = []
        resize(&cur, n)
        for k in 0..<n { cur[k] = ib.bodyStart[k] }
        for i in 0..<nb where ib.islandOf[i] >= 0 {
            let isl = Int(ib.islandOf[i]); ib.bodies[Int(cur[isl])] = Int32(i); cur[isl] += 1
        }
        for k in 0..<n { cur[k] = ib.contactStart[k] }
        for k in cs.indices where cs[k].flags & Contact.hasPoints != 0 {
            let isl = contactIsland(k)
            if isl < 0 { continue }
            ib.contactList[Int(cur[Int(isl)])] = Int32(k); cur[Int(isl)] += 1
            // A moving kinematic body keeps the island awake.
            let a = Int(cs[k].bodyA), b = Int(cs[k].bodyB)
            if isMovingKinematic(a) || isMovingKinematic(b) { ib.canSleep[Int(isl)] = 0 }
        }
        for k in 0..<n { cur[k] = ib.jointStart[k] }
        for j in 0..<Int(jointSlots.count) where js[j].alive {
            let isl = jointIsland(j)
            if isl < 0 { continue }
            ib.jointList[Int(cur[Int(isl)])] = Int32(j); cur[Int(isl)] += 1
        }
        solver.cursor = cur
    }

    @inline(__always)
    func isMovingKinematic(_ i: Int) -> Bool {
        metas[i].type == .kinematic && (states[i].v != .zero || states[i].w != 0)
    }
}
