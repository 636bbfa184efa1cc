/// What the members of a collision group collide with.
public struct CollisionMode: OptionSet, Sendable, Hashable {
    /// The option bits: 1 items, 2 boundaries.
    public let rawValue: UInt8
    /// A mode from its option bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Members collide with each other.
    public static let items = CollisionMode(rawValue: 1)
    /// Members collide with the group's boundaries.
    public static let boundaries = CollisionMode(rawValue: 2)
    /// Both.
    public static let everything: CollisionMode = [.items, .boundaries]
}

extension World {
    /// Creates a collision group. Bodies collide only with bodies and boundaries of a group
    /// they share, as the group's `mode` allows. There is no limit on the number of groups;
    /// the first 64 live groups use a bit-mask fast path.
    public func createCollisionGroup(mode: CollisionMode = .everything) -> CollisionGroupID {
        structuralChange("createCollisionGroup")
        // Reuse the lowest free index so indices stay below 64 when possible.
        let slot: Int32
        if let k = groups.slots.freeSlots.indices.min(by: { groups.slots.freeSlots[$0] < groups.slots.freeSlots[$1] }) {
            slot = groups.slots.freeSlots.remove(at: k)
            groups.records[Int(slot)].generation &+= 1
        } else {
            slot = groups.slots.count
            groups.slots.count += 1
            groups.records.append(GroupRecord())
        }
        let g = Int(slot)
        groups.records[g].alive = true
        groups.records[g].mode = mode
        groups.records[g].boundaries.removeAllKeepingCapacity()
        return CollisionGroupID(index: slot, generation: groups.records[g].generation)
    }

    /// True when `g` is a live group of this world.
    public func isValid(_ g: CollisionGroupID) -> Bool {
        groups.records.holdsLive(g.index, generation: g.generation)
    }

    func groupSlot(_ g: CollisionGroupID, _ function: StaticString = #function) -> Int {
        liveSlot(g.index, of: g, isLive: isValid(g), "collision group", function)
    }

    /// Destroys a group: its boundaries are removed and its members leave it.
    public func destroyCollisionGroup(_ g: CollisionGroupID) {
        structuralChange("destroyCollisionGroup")
        let gi = groupSlot(g)
        precondition(gi != 0, "the default collision group cannot be destroyed")
        // The list is moved out while it is walked (the removals edit the group's list, which
        // would copy it) and kept, emptied, for the slot's next group.
        var boundaries: [Int32] = []
        swap(&boundaries, &groups.records[gi].boundaries)
        for s in boundaries { removeBoundaryShape(Int(s)) }
        forEachMember(of: gi) { removeFromGroupUnchecked(body: $0, group: gi) }
        boundaries.removeAllKeepingCapacity()
        groups.records[gi].alive = false
        groups.records[gi].boundaries = boundaries
        groups.slots.release(Int32(gi))
    }

    /// The group's mode.
    public func mode(of g: CollisionGroupID) -> CollisionMode { groups.records[groupSlot(g)].mode }

    /// Changes what a group's members collide with; wakes its members.
    public func setMode(_ mode: CollisionMode, of g: CollisionGroupID) {
        stateChanged()
        let gi = groupSlot(g)
        groups.records[gi].mode = mode
        forEachMember(of: gi) { recomputeMasks(body: $0); wakeBody($0) }
    }

    /// Visits the live bodies in group slot `gi`, in slot order (a pass over every body).
    func forEachMember(of gi: Int, _ visit: (Int) -> Void) {
        for i in 0..<Int(bodySlots.count) where metas[i].alive && groups.ofBody[i].contains(Int32(gi)) { visit(i) }
    }

    /// Adds a body to a group (no effect if it is already a member).
    public func addBody(_ h: BodyHandle, to g: CollisionGroupID) {
        stateChanged()
        let i = slot(h), gi = groupSlot(g)
        addToGroupUnchecked(body: i, group: gi)
        wakeBody(i)
    }

    /// Removes a body from a group (no effect if it is not a member).
    public func removeBody(_ h: BodyHandle, from g: CollisionGroupID) {
        stateChanged()
        let i = slot(h), gi = groupSlot(g)
        removeFromGroupUnchecked(body: i, group: gi)
        wakeBody(i)
    }

    /// The groups a body belongs to.
    public func groups(of h: BodyHandle) -> [CollisionGroupID] {
        groups.ofBody[slot(h)].map { CollisionGroupID(index: $0, generation: groups.records[Int($0)].generation) }
    }

    func addToGroupUnchecked(body i: Int, group gi: Int) {
        if groups.ofBody[i].contains(Int32(gi)) { return }
        groups.ofBody.append(Int32(gi), toBody: i)
        recomputeMasks(body: i)
    }

    func removeFromGroupUnchecked(body i: Int, group gi: Int) {
        guard let k = groups.ofBody[i].firstIndex(of: Int32(gi)) else { return }
        groups.ofBody.remove(at: k, ofBody: i)
        recomputeMasks(body: i)
    }

    func recomputeMasks(body i: Int) {
        // (A body without shapes has no pairs: the shapes it gets are taken in with its masks.)
        if metas[i].shapeCount > 0 { broadPhase.dirty = true }
        var items: UInt64 = 0, bounds: UInt64 = 0, overflow = false
        for g in groups.ofBody[i] {
            if g >= 64 { overflow = true; continue }
            let mode = groups.records[Int(g)].mode
            if mode.contains(.items) { items |= 1 << UInt64(g) }
            if mode.contains(.boundaries) { bounds |= 1 << UInt64(g) }
        }
        metas[i].itemMask = items
        metas[i].boundaryMask = bounds
        metas[i].overflow = overflow
    }

    /// Should bodies `a` and `b` (both non-boundary) collide? The slow path runs only for
    /// bodies in groups with index ≥ 64.
    @inline(__always)
    func bodiesCollide(_ a: Int, _ b: Int) -> Bool {
        if metas[a].itemMask & metas[b].itemMask != 0 { return true }
        if !(metas[a].overflow && metas[b].overflow) { return false }
        for g in groups.ofBody[a] where g >= 64 && groups.records[Int(g)].mode.contains(.items) {
            if groups.ofBody[b].contains(g) { return true }
        }
        return false
    }

    /// Do shapes `s` and `t` pass each other's `ShapeFilter`?
    @inline(__always)
    func shapeFiltersAllow(_ s: Int, _ t: Int) -> Bool {
        guard shapes[s].filtered || shapes[t].filtered else { return true }
        return broadPhase.filters[s].collides(with: broadPhase.filters[t])
    }

    /// Does some shape of body `b` pass the filters with shape `s`? (The continuous step
    /// sweeps a body's core, not its shapes, against a shape: it stops the body there when
    /// any of its shapes would collide with it.)
    func bodyFilterAllows(body b: Int, shape s: Int) -> Bool {
        if metas[b].firstShape < 0 { return true }
        var allowed = false
        forEachShape(of: b) { t in if !allowed && shapeFiltersAllow(t, s) { allowed = true } }
        return allowed
    }

    /// Should body `b` collide with a boundary of group `g`?
    @inline(__always)
    func bodyCollidesWithBoundary(_ b: Int, group g: Int32) -> Bool {
        if g < 64 { return metas[b].boundaryMask & (1 << UInt64(g)) != 0 }
        return metas[b].overflow && groups.records[Int(g)].mode.contains(.boundaries) && groups.ofBody[b].contains(g)
    }

    // MARK: - Boundaries

    /// Adds a two-sided boundary segment to a group. `id` is returned in contact events.
    @discardableResult
    public func addBoundary(_ a: Vec2, _ b: Vec2, group g: CollisionGroupID, id: UInt64 = 0,
                            material: Material = Material()) throws -> BoundaryHandle {
        structuralChange("addBoundary")
        let gi = groupSlot(g)
        guard a.isFinite, b.isFinite else { throw GeometryError.nonFinite("boundary end points") }
        guard distance(a, b) > 1.0e-4 else { throw GeometryError.degenerateSegment }
        try material.validate()
        let s = Int(addShape(body: Int(boundaryBody), def: ShapeDef(.segment(a, b), material: material), prepared: .direct))
        shapes[s].isBoundary = true
        shapes[s].boundaryGroup = Int32(gi)
        shapes[s].boundaryID = id
        groups.records[gi].boundaries.append(Int32(s))
        broadPhase.staticDirty = true
        wakeTouching(boundary: s)
        return BoundaryHandle(shape: Int32(s), generation: shapes[s].generation)
    }

    /// Adds an open polyline (or a closed loop) of boundary segments; returns one handle per segment.
    @discardableResult
    ///
    /// With `keepsBodiesInside` (closed loops of 3 or more points only, either winding) every
    /// segment is one-sided: it pushes bodies only toward the loop's interior, so a body that a
    /// strong joint or a crowd squeezes past the line is pushed back in rather than out. Use
    /// it for containers (the animator's reference bounds); leave it off for obstacles.
    public func addBoundaryPath(_ points: [Vec2], closed: Bool, group g: CollisionGroupID, id: UInt64 = 0,
                                material: Material = Material(), keepsBodiesInside: Bool = false) throws -> [BoundaryHandle] {
        stateChanged()
        guard points.count >= 2 else { throw GeometryError.tooFewPoints(points.count) }
        for p in points where !p.isFinite { throw GeometryError.nonFinite("boundary point") }
        precondition(!keepsBodiesInside || (closed && points.count >= 3),
                     "addBoundaryPath: keepsBodiesInside needs a closed loop of at least 3 points")
        var out: [BoundaryHandle] = []
        let n = points.count
        // Twice the signed area tells the winding: the interior is left of each edge when positive.
        var area2: Float = 0
        for k in 0..<n { let a = points[k], b = points[(k + 1) % n]; area2 += a.x * b.y - a.y * b.x }
        let segments = closed && n > 2 ? n : n - 1
        for k in 0..<segments {
            let a = points[k], b = points[(k + 1) % n]
            if distance(a, b) <= 1.0e-4 { continue }  // skip repeated points
            let h = try addBoundary(a, b, group: g, id: id, material: material)
            if keepsBodiesInside && area2 != 0 {
                let s = Int(h.shape)
                let e = normalize(b - a)
                shapes[s].oneSided = true
                continuous.oneSidedSegments += 1
                pool.normals[Int(shapes[s].vertexStart)] = area2 > 0 ? leftPerp(e) : rightPerp(e)
            }
            out.append(h)
        }
        if out.isEmpty { throw GeometryError.degenerateSegment }
        return out
    }

    /// True when `h` addresses a live boundary.
    public func isValid(_ h: BoundaryHandle) -> Bool {
        shapes.holdsLive(h.shape, generation: h.generation) && shapes[Int(h.shape)].isBoundary
    }

    func boundarySlot(_ h: BoundaryHandle, _ function: StaticString = #function) -> Int {
        liveSlot(h.shape, of: h, isLive: isValid(h), "boundary", function)
    }

    /// Removes a boundary; bodies resting on it wake up.
    public func removeBoundary(_ h: BoundaryHandle) {
        structuralChange("removeBoundary")
        removeBoundaryShape(boundarySlot(h))
    }

    func removeBoundaryShape(_ s: Int) {
        wakeTouching(boundary: s)
        endContacts(ofShape: s)
        let gi = Int(shapes[s].boundaryGroup)
        groups.records[gi].boundaries.removeAll { $0 == Int32(s) }
        // Unlink from the boundary body's shape list.
        let b = Int(boundaryBody)
        if metas[b].firstShape == Int32(s) {
            metas[b].firstShape = shapeNext[s]
        } else {
            var t = Int(metas[b].firstShape)
            while t >= 0 && shapeNext[t] != Int32(s) { t = Int(shapeNext[t]) }
            if t >= 0 { shapeNext[t] = shapeNext[s] }
        }
        metas[b].shapeCount -= 1
        releaseShape(s)
        broadPhase.staticDirty = true
    }

    /// The end points of a boundary.
    public func endPoints(of h: BoundaryHandle) -> (Vec2, Vec2) {
        let st = Int(shapes[boundarySlot(h)].vertexStart)
        return (pool.vertices[st], pool.vertices[st + 1])
    }
}
