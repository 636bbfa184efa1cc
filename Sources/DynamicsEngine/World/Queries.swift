/// The closest hit of a ray cast.
public struct RayHit: Sendable, Equatable {
    /// The body hit, or nil when the ray hit a boundary.
    public var body: BodyHandle?
    /// The boundary hit, or nil when the ray hit a body.
    public var boundary: BoundaryHandle?
    /// The world point hit and the surface normal there (facing the ray).
    public var point: Vec2
    /// The unit surface normal at `point`, facing back along the ray.
    public var normal: Vec2
    /// Fraction of the ray's translation at the hit (0 … 1).
    public var fraction: Float
}

/// What the world queries (`bodies(overlapping:)`, `rayCast`) keep besides the broad phase's
/// grids, which they read as the last step left them.
///
/// The grids place each shape by its fat box as of the step's box update; the solve, the
/// continuous step and `setTransform` may since have moved a shape out of it. So before the
/// first query after a step or a `setTransform` (`isStale`), every shape of the grids is
/// checked once: those whose box (at their placement now) is not inside the fat box they were
/// placed by go to `outside`, which the queries test one by one. The step never reads any of
/// this: the queries cannot change a result of the simulation.
///
/// After a structural change (a body created or destroyed, a body type or a body's collision
/// groups changed, a static body moved, a boundary added or removed, a snapshot restored:
/// `BroadPhase.dirty`, `shapesChanged`, `staticDirty`) the grids are out of date until the next
/// step, and the queries scan every shape instead.
struct QueryIndex {
    /// Raised by every step and by `setTransform` (whatever moves a body): `outside` must be
    /// recomputed before the next query.
    var isStale = true
    /// The shapes in a grid whose box is not inside the fat box the grid placed them by.
    let outside = Column<Int32>()
    /// Per body / shape slot: the stamp of the last query that reported it (a body with
    /// several shapes, a shape in several cells or also in `outside`, is reported once).
    let bodyStamps = Column<UInt32>()
    let shapeStamps = Column<UInt32>()
    var stamp: UInt32 = 0
    /// Queries that scanned every shape because the grids were out of date (for tests).
    var scans = 0
    /// The broad phase's loners (moving shapes that can have no moving partner, which its
    /// moving grid leaves out), gridded by their fat boxes for the queries, and the
    /// `BroadPhase.lonersVersion` it was built for: built by the first query that needs it,
    /// so a world that is never queried never builds it.
    var lonerGrid = UniformGrid()
    var lonerGridVersion = -1
}

extension World {
    /// Number of islands (groups of awake dynamic bodies linked by contacts or joints) the last
    /// step solved.
    public var islandCount: Int { islands.count }

    /// Reads the placement of every body in `handles` into `out` (resized to match), in one
    /// pass: the bulk path for writing results back to items.
    /// - Precondition: every handle is a live body of this world.
    public func transforms(of handles: [BodyHandle], into out: inout [Transform]) {
        if out.count != handles.count { out = Array(repeating: .identity, count: handles.count) }
        let me = metas.view, si = sims.view
        for k in handles.indices {
            let h = handles[k], i = Int(h.index)
            precondition(i >= 0 && i < me.count && me[i].alive && me[i].generation == h.generation,
                         "transforms(of:into:): \(h) is not a live body of this world")
            out[k] = si[i].xf
        }
    }

    /// Bodies (not boundaries) whose bounding box overlaps `box`, in slot order. Static
    /// bodies are included; the boundary owner is not.
    ///
    /// A body's bounding box is the union of its shapes' (as `aabb(_:)`, without margin). The
    /// query reads the broad phase's grids: its cost grows with the cells `box` covers and the
    /// shapes in them, not with the world (the first query after a step or a `setTransform`
    /// also checks every shape's box once; after a structural change — a body created,
    /// destroyed or given another type, a static body moved, a boundary added or removed, a
    /// body's collision groups changed — every query until the next step scans all bodies).
    public func bodies(overlapping box: AABB) -> [BodyHandle] {
        precondition(box.isValid, "bodies(overlapping:): the box must be finite with lower ≤ upper")
        guard prepareQueryIndex() else { return scanBodies(overlapping: box) }
        let stamp = nextQueryStamp()
        let sh = shapes.view, si = sims.view, marks = queryIndex.bodyStamps.mutableView
        let owner = Int(boundaryBody)
        var found: [Int32] = []
        forEachCandidate(overlapping: box) { s in
            let b = Int(sh[s].body)
            if b == owner || marks[b] == stamp { return }
            if shapeAABB(s, si[b].xf).overlaps(box) {
                marks[b] = stamp
                found.append(Int32(b))
            }
        }
        found.sort()
        return found.map { handle(ofBody: Int($0)) }
    }

    /// Casts a ray from `origin` along `translation` and returns the closest shape hit
    /// (bodies and boundaries), or nil. A ray starting inside a shape does not hit it. Of
    /// shapes hit at the same fraction, the one of the lowest shape slot is reported.
    ///
    /// The ray visits the grid cells along its path only (see `bodies(overlapping:)` for when
    /// a query scans instead).
    public func rayCast(from origin: Vec2, translation: Vec2) -> RayHit? {
        precondition(origin.isFinite && translation.isFinite, "rayCast: origin and translation must be finite")
        let end = origin + translation
        let rayBox = AABB(lower: pointwiseMin(origin, end), upper: pointwiseMax(origin, end))
        guard prepareQueryIndex() else { return scanRay(from: origin, translation: translation) }
        let stamp = nextQueryStamp()
        let marks = queryIndex.shapeStamps.mutableView
        var best = RayBest()
        forEachCandidate(alongRay: origin, translation, box: rayBox) { s in
            if marks[s] == stamp { return }
            marks[s] = stamp
            castRay(at: s, origin: origin, translation: translation, rayBox: rayBox, into: &best)
        }
        return rayHit(best)
    }

    // MARK: - Scans (every shape; used while the grids are out of date, and by the tests)

    /// `bodies(overlapping:)` by scanning every body.
    func scanBodies(overlapping box: AABB) -> [BodyHandle] {
        var out: [BodyHandle] = []
        for i in 0..<Int(bodySlots.count) where metas[i].alive && Int32(i) != boundaryBody {
            var hit = false
            forEachShape(of: i) { s in
                if !hit && shapeAABB(s, sims[i].xf).overlaps(box) { hit = true }
            }
            if hit { out.append(handle(ofBody: i)) }
        }
        return out
    }

    /// `rayCast(from:translation:)` by casting against every shape.
    func scanRay(from origin: Vec2, translation: Vec2) -> RayHit? {
        let end = origin + translation
        let rayBox = AABB(lower: pointwiseMin(origin, end), upper: pointwiseMax(origin, end))
        var best = RayBest()
        for s in 0..<Int(shapeSlots.count) where shapes[s].alive {
            castRay(at: s, origin: origin, translation: translation, rayBox: rayBox, into: &best)
        }
        return rayHit(best)
    }

    // MARK: - Shared parts

    /// The closest hit so far and its shape.
    struct RayBest {
        var shape = -1
        var hit: (fraction: Float, point: Vec2, normal: Vec2) = (0, .zero, .zero)
    }

    /// Casts against shape `s` (if its box overlaps the ray's) and keeps the hit in `best` when
    /// it is closer, or as close and of a lower slot: the result does not depend on the order
    /// the shapes are visited in.
    @inline(__always)
    private func castRay(at s: Int, origin: Vec2, translation: Vec2, rayBox: AABB, into best: inout RayBest) {
        let xf = sims[Int(shapes[s].body)].xf
        guard shapeAABB(s, xf).overlaps(rayBox) else { return }
        guard let hit = RayCaster.cast(shapeGeometry.shape(s), xf,
                                       origin: origin, translation: translation) else { return }
        if best.shape < 0 || hit.fraction < best.hit.fraction || (hit.fraction == best.hit.fraction && s < best.shape) {
            best = RayBest(shape: s, hit: hit)
        }
    }

    private func rayHit(_ best: RayBest) -> RayHit? {
        let s = best.shape
        guard s >= 0 else { return nil }
        let isBoundary = shapes[s].isBoundary
        return RayHit(body: isBoundary ? nil : handle(ofBody: Int(shapes[s].body)),
                      boundary: isBoundary ? BoundaryHandle(shape: Int32(s), generation: shapes[s].generation) : nil,
                      point: best.hit.point, normal: best.hit.normal, fraction: best.hit.fraction)
    }

    // MARK: - The grids

    /// Whether the queries can read the grids; recomputes `outside` when stale. False while
    /// a structural change waits for the next step (or inside a step).
    private func prepareQueryIndex() -> Bool {
        if broadPhase.dirty || broadPhase.shapesChanged || broadPhase.staticDirty || isStepping {
            queryIndex.scans += 1
            return false
        }
        if queryIndex.isStale {
            refreshOutside()
            queryIndex.isStale = false
        }
        return true
    }

    /// The shapes of the grids whose box at their placement now is not inside their fat box
    /// (the box each grid placed them by, unchanged since it was built).
    private func refreshOutside() {
        let outside = queryIndex.outside
        outside.removeAllKeepingCapacity()
        let fat = broadPhase.fatBoxes.view, sh = shapes.view, si = sims.view, verts = pool.vertices.view
        func check(_ list: View<Int32>) {
            for k in list.indices {
                let s = Int(list[k])
                let b = PairContext.shapeAABB(sh[s], si[Int(sh[s].body)].xf, verts), f = fat[s]
                if !(b.lower.x >= f.lower.x && b.lower.y >= f.lower.y && b.upper.x <= f.upper.x && b.upper.y <= f.upper.y) {
                    outside.append(Int32(s))
                }
            }
        }
        check(broadPhase.staticSmall.view)
        if broadPhase.moving.count > 0 { check(broadPhase.movingSmall.view) }
    }

    /// A fresh stamp for the query marks (sized to the slots).
    private func nextQueryStamp() -> UInt32 {
        queryIndex.bodyStamps.grow(to: Int(bodySlots.count), with: 0)
        queryIndex.shapeStamps.grow(to: Int(shapeSlots.count), with: 0)
        queryIndex.stamp &+= 1
        if queryIndex.stamp == 0 {
            for k in queryIndex.bodyStamps.indices { queryIndex.bodyStamps[k] = 0 }
            for k in queryIndex.shapeStamps.indices { queryIndex.shapeStamps[k] = 0 }
            queryIndex.stamp = 1
        }
        return queryIndex.stamp
    }

    /// Every shape whose box may overlap `box`: those of the grids' cells `box` covers whose
    /// fat box overlaps it (each once: in the cell of the two boxes' intersection's lower
    /// corner, as the pair finder), the large shapes and `outside` (a shape may come twice).
    @inline(__always)
    private func forEachCandidate(overlapping box: AABB, _ visit: (Int) -> Void) {
        let fat = broadPhase.fatBoxes.view
        forEachIndexed({ g in
            let r = g.geo.cellRange(box)
            for y in r.y...r.w {
                for x in r.x...r.z {
                    g.forEachEntry(x, y) { t in
                        let tb = fat[t]
                        guard tb.overlaps(box) else { return }
                        let ref = g.geo.cell(of: vmax(box.lower, tb.lower))
                        if ref.x == x && ref.y == y { visit(t) }
                    }
                }
            }
        }, visit)
    }

    /// Every shape the ray from `o` along `d` may hit: those of the grid cells within a small
    /// pad of the segment (row by row: the segment's part inside the row's band, padded) whose
    /// fat box overlaps the ray's box, the large shapes and `outside` (a shape may come
    /// several times). A shape the ray hits has a point on the segment inside its box, hence
    /// inside its fat box, whose cell lists it; the pad covers rounding in the cell bounds.
    @inline(__always)
    private func forEachCandidate(alongRay o: Vec2, _ d: Vec2, box: AABB, _ visit: (Int) -> Void) {
        let fat = broadPhase.fatBoxes.view
        let slack = 0.5 * speculativeDistance
        forEachIndexed({ g in
            let geo = g.geo
            let size = 1 / geo.invCellSize
            let pad = max(slack, 1.0e-3 * size)
            let r = geo.cellRange(box.expanded(by: pad))
            for y in r.y...r.w {
                var x0 = r.x, x1 = r.z
                if d.y != 0 {
                    let b0 = geo.origin.y + Float(y) * size - pad, b1 = b0 + size + 2 * pad
                    var t0 = (b0 - o.y) / d.y, t1 = (b1 - o.y) / d.y
                    if t0 > t1 { swap(&t0, &t1) }
                    t0 = max(t0, 0); t1 = min(t1, 1)
                    if !(t0 <= t1) { continue }
                    let xa = o.x + t0 * d.x, xb = o.x + t1 * d.x
                    x0 = max(x0, geo.cell(of: Vec2(min(xa, xb) - pad, geo.origin.y)).x)
                    x1 = min(x1, geo.cell(of: Vec2(max(xa, xb) + pad, geo.origin.y)).x)
                    if x0 > x1 { continue }
                }
                for x in x0...x1 {
                    g.forEachEntry(x, y) { t in if fat[t].overlaps(box) { visit(t) } }
                }
            }
        }, visit)
    }

    /// The loners' grid (`QueryIndex.lonerGrid`), built if the broad phase's loners changed
    /// since.
    private func lonerGrid() -> GridView {
        if queryIndex.lonerGridVersion != broadPhase.lonersVersion {
            queryIndex.lonerGrid.build(ids: broadPhase.loners.view, boxes: broadPhase.fatBoxes.view, cellSize: broadPhase.cellSize)
            queryIndex.lonerGridVersion = broadPhase.lonersVersion
        }
        return GridView(queryIndex.lonerGrid)
    }

    /// The query structure in order: each built grid handed to `cells`, the large shapes and
    /// `outside` to `visit`.
    @inline(__always)
    private func forEachIndexed(_ cells: (GridView) -> Void, _ visit: (Int) -> Void) {
        let index = broadPhase.index(masks: false)
        if index.staticGrid.geo.nx > 0 { cells(index.staticGrid) }
        for t in index.staticLarge { visit(Int(t)) }
        if index.moving.count > 0 {
            if index.grid.geo.nx > 0 { cells(index.grid) }
            if !broadPhase.loners.isEmpty { cells(lonerGrid()) }
            // (It may still list shapes whose bodies woke since, which `grid` lists too: a
            // shape may come twice.)
            if index.sleepGrid.geo.nx > 0 { cells(index.sleepGrid) }
            for t in index.movingLarge { visit(Int(t)) }
        }
        for t in queryIndex.outside { visit(Int(t)) }
    }
}

extension GridView {
    /// Calls `f` with each shape listed in cell (`x`, `y`).
    @inline(__always)
    func forEachEntry(_ x: Int32, _ y: Int32, _ f: (Int) -> Void) {
        let c = Int(y) * Int(geo.nx) + Int(x)
        for e in Int(cellStart[c])..<Int(cellStart[c + 1]) { f(Int(entries[e])) }
    }
}
