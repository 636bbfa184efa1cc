import Synchronization

/// Counts the bodies a parallel finalize pass flags as fast (only fast bodies touch it).
final class FastCounter: @unchecked Sendable {
    private let value = Atomic<Int>(0)
    func reset() { value.store(0, ordering: .relaxed) }
    func add(_ n: Int) { value.add(n, ordering: .relaxed) }
    /// Read after the pass (the pass's join orders it after every `add`).
    var count: Int { value.load(ordering: .relaxed) }
}

/// What the continuous step keeps between steps: the count of the bodies the finalize pass
/// flagged as fast, each parallel sweep chunk's stops, each narrow-phase chunk's first static
/// touch that acts, and how many one-sided boundary segments there are (it looks for bodies
/// leaving them only when there are some).
struct ContinuousState {
    /// Bodies the last finalize pass flagged as fast (see `World.solveContinuous`).
    let fastCounter = FastCounter()
    /// Per chunk of the parallel fast-body sweep: its stops (summed after the sweep).
    let chunkHits = Column<Int>()
    /// Per narrow-phase chunk: its first static touch that moves a body, or -1 (see
    /// `World.keepCoresOutOfTouchedStatics`).
    let firstActing = Column<Int>()
    /// Live one-sided boundary segments (containers' walls; see
    /// `World.keepInsideOneSidedBoundaries`).
    var oneSidedSegments = 0
}

/// What a core circle's move does against one static shape (see `World.sweepCore`).
enum CoreSweep {
    /// The path does not reach the shape grown by the radius.
    case miss
    /// The path enters the grown shape at this fraction of the move.
    case hit(Float)
    /// The path starts inside the grown shape; `normal` points out of it where the path
    /// starts (the way the contact pushes: the face of least penetration).
    case startsInside(normal: Vec2)
}

/// What the core sweeps read and write (see `World.solveContinuous`): the bodies' placements
/// and velocities, the shape records and the vertex pool — views, so that sweeps on worker
/// threads retain and release nothing. Cheap to make (the contacts' core check makes one
/// every step that has static touches).
struct CoreSweepViews: @unchecked Sendable {
    let sims: MutableView<BodySim>
    let states: MutableView<BodyState>
    let geometry: ShapeGeometry
    /// `WorldSettings.linearSlop`: how far before a hit a stopped body is put.
    let slop: Float

    /// Puts body `i`'s centre of mass at `c` (rotation kept).
    @inline(__always) func moveCenter(_ i: Int, to c: Vec2) {
        sims[i].center = c
        sims[i].xf.p = c - sims[i].xf.q.rotate(sims[i].localCenter)
    }

    /// Puts body `i` just before fraction `t` of its move this step (backed off by the slop).
    /// The caller counts the hit.
    @inline(__always) func stopBody(_ i: Int, at t: Float) {
        let c0 = sims[i].center0
        let d = sims[i].center - c0
        let f = max(0, t - slop / max(length(d), 1.0e-6))
        moveCenter(i, to: c0 + f * d)
    }

    /// Sweeps body `i`'s inner core from the step's start to its current centre against static
    /// shape `s`: stops it before it enters, or, when it starts inside, removes the part of its
    /// move (and of its velocity) deeper into the shape. Returns 1 when it changed the body.
    func constrainInnerCore(body i: Int, shape s: Int) -> Int {
        let c0 = sims[i].center0
        let d = sims[i].center - c0
        switch innerCoreSweep(body: i, shape: s) {
        case .miss: return 0
        case .hit(let t): stopBody(i, at: t); return 1
        case .startsInside(let n):
            let dn = dot(d, n)
            guard dn < 0 else { return 0 }
            moveCenter(i, to: sims[i].center - dn * n)
            let vn = dot(states[i].v, n)
            if vn < 0 { states[i].v -= vn * n }
            return 1
        }
    }

    /// Body `i`'s inner core swept over its move this step against static shape `s`.
    @inline(__always) func innerCoreSweep(body i: Int, shape s: Int) -> CoreSweep {
        let c0 = sims[i].center0
        return sweepCore(shape: s, from: c0, by: sims[i].center - c0, radius: World.innerCoreFraction * sims[i].coreRadius)
    }

    /// Whether `constrainInnerCore(body: i, shape: s)` would change the body (it reads only).
    func innerCoreActs(body i: Int, shape s: Int) -> Bool {
        switch innerCoreSweep(body: i, shape: s) {
        case .miss: return false
        case .hit: return true
        case .startsInside(let n): return dot(sims[i].center - sims[i].center0, n) < 0
        }
    }

    /// One-sided segment `s` (a side of a loop that keeps bodies inside) against body `i`'s
    /// move this step. Only a centre that starts in front of the segment's line (inside) is
    /// held, and only where its move ends over the segment or crosses the line on it:
    ///
    /// - A body whose core started clear of the line and whose inner core would end past it
    ///   is stopped on its path where its core first touches (as against other static shapes).
    /// - Otherwise its centre may end no nearer the line than its inner core
    ///   (`innerCoreFraction` of the core radius), or than it started if it started nearer:
    ///   the end is pushed back along the inward normal (a body sliding along the wall keeps
    ///   sliding) and its velocity into the wall is removed. However hard a crowd or a driven
    ///   body presses it, a body sinks into the wall by half its core at most, as it does
    ///   into a two-sided static shape.
    ///
    /// A move that ends beyond the segment's ends is left to the neighbouring sides, unless
    /// its centre crossed this segment's line on the segment (its ends grown by the core
    /// radius: a centre leaving through a corner of the loop crosses one of the two lines just
    /// beyond the end of its segment); then the body is put back on its path where it was
    /// half its core inside. Returns 1 when it changed the body.
    func holdInside(body i: Int, segment s: Int) -> Int {
        let rec = geometry.records[s]
        let xf = sims[Int(rec.body)].xf
        let st = Int(rec.vertexStart)
        let v1 = xf.apply(geometry.vertices[st]), v2 = xf.apply(geometry.vertices[st + 1])
        let n = xf.q.rotate(geometry.normals[st])
        let c0 = sims[i].center0, c1 = sims[i].center
        let side0 = dot(n, c0 - v1), side1 = dot(n, c1 - v1)
        let r = sims[i].coreRadius
        let target = min(side0, World.innerCoreFraction * r)
        guard side0 >= 0, side1 < target else { return 0 }
        let e = v2 - v1, ee = dot(e, e)
        guard ee > 0 else { return 0 }
        let le = ee.squareRoot()
        if side0 >= r, case .hit(let t) = sweepCore(shape: s, from: c0, by: c1 - c0, radius: r) {
            stopBody(i, at: t)
            return 1
        }
        let u1 = dot(c1 - v1, e) / ee
        let tolerance = slop / le
        if u1 >= -tolerance && u1 <= 1 + tolerance {
            moveCenter(i, to: c1 + (target - side1) * n)
        } else {
            guard side1 < 0 else { return 0 }
            let x = c0 + (side0 / (side0 - side1)) * (c1 - c0)
            let u = dot(x - v1, e) / ee, grow = max(slop, r) / le
            guard u >= -grow, u <= 1 + grow else { return 0 }
            // Back along the path to where the centre is `target` in front of the line.
            moveCenter(i, to: c0 + ((side0 - target) / (side0 - side1)) * (c1 - c0))
        }
        let vn = dot(states[i].v, n)
        if vn < 0 { states[i].v -= vn * n }
        return 1
    }

    /// What a circle of radius `r` moving from `o` by `d` does against shape `s` (at its
    /// body's current placement; static in all but the bullets' sweep):
    /// where it first touches it (as a fraction of `d`), or that it starts inside it (with the
    /// outward normal of least penetration). Polygons and segments are grown by `r` with
    /// square corners (a little early at corners: safe for stopping). A one-sided segment
    /// stops only paths crossing its inside face and never reports `startsInside`.
    func sweepCore(shape s: Int, from o: Vec2, by d: Vec2, radius r: Float) -> CoreSweep {
        let rec = geometry.records[s]
        let xf = sims[Int(rec.body)].xf
        switch rec.kind {
        case .circle:
            let c = xf.apply(rec.center)
            let R = rec.radius + r
            let p = o - c
            let a = dot(d, d)
            let b = dot(p, d)
            let cc = dot(p, p) - R * R
            if cc <= 0 {
                let l = length(p)
                return .startsInside(normal: l > 0 ? p / l : (a > 0 ? -d / a.squareRoot() : Vec2(0, 1)))
            }
            if a <= 0 || b >= 0 { return .miss }  // not approaching
            let disc = b * b - a * cc
            if disc < 0 { return .miss }
            let t = (-b - disc.squareRoot()) / a
            return t <= 1 ? .hit(max(t, 0)) : .miss
        case .polygon:
            let st = Int(rec.vertexStart), n = Int(rec.vertexCount)
            var planes = PlaneClip(origin: o, translation: d)
            // The face of least penetration, should the origin be inside every plane.
            var least = -Float.infinity, leastNormal = Vec2(0, 1)
            var missed = false
            for k in 0..<n {
                let nw = xf.q.rotate(geometry.normals[st + k])
                let offset = dot(nw, xf.apply(geometry.vertices[st + k])) + r + rec.radius
                let sep = dot(nw, o) - offset
                if sep > least { least = sep; leastNormal = nw }
                if !missed && !planes.clip(normal: nw, offset: offset) { missed = true }
            }
            if least <= 0 { return .startsInside(normal: leastNormal) }
            if missed { return .miss }
            return planes.entry.map { .hit($0) } ?? .miss
        case .segment:
            let st = Int(rec.vertexStart)
            let v1 = xf.apply(geometry.vertices[st]), v2 = xf.apply(geometry.vertices[st + 1])
            let e = v2 - v1
            let le = length(e)
            guard le > 0 else { return .miss }
            let u = e / le
            var planes = PlaneClip(origin: o, translation: d)
            if rec.oneSided {
                // Along the segment, grown by r at both ends.
                guard planes.clip(normal: u, offset: dot(u, v2) + r), planes.clip(normal: -u, offset: -dot(u, v1) + r) else { return .miss }
                // Only the inside face stops bodies: the slab from r in front of the line to
                // far behind it; a body already past the line is left to the contact.
                let n = xf.q.rotate(geometry.normals[st])
                let behind = length(d) + 2 * r
                guard planes.clip(normal: n, offset: dot(n, v1) + r), planes.clip(normal: -n, offset: -dot(n, v1) + behind) else { return .miss }
                return planes.entryPlane == 2 ? .hit(planes.entry!) : .miss
            }
            // A two-sided segment: the box around it grown by r.
            let n = rightPerp(u)
            let side = dot(n, o - v1), along = dot(u, o - v1)
            if abs(side) <= r && along >= -r && along <= le + r {
                // Inside: out through the nearer side of the line, or the nearer end.
                let toStart = along + r, toEnd = le + r - along
                if min(toStart, toEnd) < r - abs(side) { return .startsInside(normal: toStart < toEnd ? -u : u) }
                return .startsInside(normal: side >= 0 ? n : -n)
            }
            guard planes.clip(normal: u, offset: dot(u, v2) + r), planes.clip(normal: -u, offset: -dot(u, v1) + r),
                  planes.clip(normal: n, offset: dot(n, v1) + r), planes.clip(normal: -n, offset: -dot(n, v1) + r) else { return .miss }
            return planes.entry.map { .hit($0) } ?? .miss
        }
    }
}

/// The continuous step's views of the world for the fast-body sweep: the core sweeps' views,
/// the body records, the shapes' boxes, the static grid and the large static shapes. The
/// per-body work below reaches the world only through these (and, for collision groups with
/// index ≥ 64 only, through `world`), so the workers of the parallel fast-body sweep retain
/// and release nothing per body.
///
/// Lifetime: made after the static grid is current; the step grows no column while the
/// continuous step runs, so the views stay valid. Concurrency: a fast body's sweep writes only
/// that body's placement, velocity and `isFast`, and reads only its own record and static
/// geometry (which nothing writes in the step), so bodies may be swept on any worker.
struct ContinuousViews: @unchecked Sendable {
    let core: CoreSweepViews
    let metas: MutableView<BodyMeta>
    let boxes: View<AABB>
    let staticGrid: GridView
    let staticLarge: View<Int32>
    /// The shapes' filters and each body's shape list (`World.shapeNext`).
    let filters: View<ShapeFilter>
    let shapeNext: View<Int32>
    /// Only for the collision filter's slow path (groups with index ≥ 64).
    unowned(unsafe) let world: World

    /// Does some shape of body `i` pass the shape filters with shape `s`? (A body's core, not
    /// its shapes, is swept: it stops at a shape any of its own shapes would collide with.)
    @inline(__always) func filtersAllow(body i: Int, shape s: Int) -> Bool {
        let shapes = core.geometry.records
        var t = Int(metas[i].firstShape)
        if t < 0 { return true }
        while t >= 0 {
            if !(shapes[t].filtered || shapes[s].filtered) || filters[t].collides(with: filters[s]) { return true }
            t = Int(shapeNext[t])
        }
        return false
    }

    /// A fast body's sweep against every static shape along its path (see
    /// `World.solveContinuous`); returns how many times it was stopped or turned.
    func sweepFastBody(_ i: Int) -> Int {
        let sims = core.sims, shapes = core.geometry.records
        let c0 = sims[i].center0
        let r = sims[i].coreRadius
        var hits = 0
        // Each shape against the path as the earlier ones left it: every change only shortens
        // the path or turns it out of a shape, so it keeps what the earlier ones ensured.
        // The static shapes whose box overlaps the path's box (static grid order, then the
        // large static shapes), that body `i` collides with.
        let c1 = sims[i].center
        let sweep = AABB(lower: pointwiseMin(c0, c1) - Vec2(r, r), upper: pointwiseMax(c0, c1) + Vec2(r, r))
        @inline(__always) func visit(_ s: Int) {
            let rec = shapes[s]
            guard rec.alive, rec.isStatic, boxes[s].overlaps(sweep), staticShapeCollides(body: i, shape: rec),
                  filtersAllow(body: i, shape: s) else { return }
            if rec.oneSided { hits += core.holdInside(body: i, segment: s); return }
            switch core.sweepCore(shape: s, from: c0, by: sims[i].center - c0, radius: r) {
            case .miss: break
            case .hit(let t): core.stopBody(i, at: t); hits += 1
            // Its whole core starts in the shape: its inner core is swept against it.
            case .startsInside: hits += core.constrainInnerCore(body: i, shape: s)
            }
        }
        let g = staticGrid
        if g.geo.nx > 0 {
            let range = g.geo.cellRange(sweep)
            let nx = Int(g.geo.nx)
            for y in range.y...range.w {
                for x in range.x...range.z {
                    let c = Int(y) * nx + Int(x)
                    for e in Int(g.cellStart[c])..<Int(g.cellStart[c + 1]) { visit(Int(g.entries[e])) }
                }
            }
        }
        for k in 0..<staticLarge.count { visit(Int(staticLarge[k])) }
        return hits
    }

    /// The broad phase's filter for dynamic body `i` and a static shape `rec` (of another body).
    @inline(__always) func staticShapeCollides(body i: Int, shape rec: ShapeRecord) -> Bool {
        let b = Int(rec.body)
        if b == i { return false }
        if rec.isBoundary {
            let g = rec.boundaryGroup
            if g < 64 { return metas[i].boundaryMask & (1 << UInt64(g)) != 0 }
            return world.bodyCollidesWithBoundary(i, group: g)
        }
        if metas[i].itemMask & metas[b].itemMask != 0 { return true }
        if !(metas[i].overflow && metas[b].overflow) { return false }
        return world.bodiesCollide(i, b)
    }

}

/// The fast-body sweep over body slots `range` (one chunk): every fast body swept, a flagged
/// body that died or is no longer dynamic unflagged. Writes only the bodies of its range and
/// `hits[part]` (the chunk's count of stops), which the caller sums.
struct FastBodySweep: RangeTask, @unchecked Sendable {
    let views: ContinuousViews
    /// The bodies the step moved; a range is of positions in this list (nil: of body slots).
    let bodies: View<Int32>?
    let hits: MutableView<Int>

    func run(_ range: Range<Int>, part: Int) {
        let v = views, metas = views.metas
        var n = 0
        for k in range {
            let i = bodies.map { Int($0[k]) } ?? k
            guard metas[i].isFast else { continue }
            guard metas[i].alive, metas[i].type == .dynamic else { metas[i].isFast = false; continue }
            n += v.sweepFastBody(i)
        }
        hits[part] = n
    }
}

/// The narrow phase's lists of contacts with a static body (`ContactSet.staticTouches`) and
/// what holding their bodies' inner cores out of the static shapes reads and writes (see
/// `World.keepCoresOutOfTouchedStatics`); views, for worker threads.
struct StaticTouches: @unchecked Sendable {
    let contacts: View<Contact>
    let shapes: View<ShapeRecord>
    let metas: View<BodyMeta>
    let core: CoreSweepViews
    let lists: ChunkBuffers<UInt16>
    /// Whether the passes ask for contacts and bodies ahead (a large world's are scattered).
    let prefetches: Bool

    init(ctx: StepContext, core: CoreSweepViews, lists: ChunkBuffers<UInt16>, prefetches: Bool) {
        contacts = ctx.contacts.readOnly; shapes = ctx.shapes; metas = ctx.metas.readOnly
        self.core = core; self.lists = lists; self.prefetches = prefetches
    }

    /// How many entries ahead a pass asks for a contact's bodies (and twice as far for the
    /// contact itself).
    static let lead = 6

    /// Listed contact `k`: the dynamic body (not fast, moved this step) whose inner core it
    /// holds out of its static shape (not one-sided), or nil when it holds nothing.
    @inline(__always)
    func touch(_ k: Int) -> (body: Int, shape: Int)? {
        let sa = Int(contacts[k].shapeA)
        guard sa >= 0, contacts[k].flags & Contact.hasPoints != 0 else { return nil }
        let sb = Int(contacts[k].shapeB)
        let s: Int, b: Int
        if shapes[sa].isStatic { s = sa; b = Int(contacts[k].bodyB) }
        else if shapes[sb].isStatic { s = sb; b = Int(contacts[k].bodyA) }
        else { return nil }
        guard metas[b].type == .dynamic, !metas[b].isFast, !shapes[s].oneSided,
              core.sims[b].center != core.sims[b].center0 else { return nil }
        return (b, s)
    }

    /// Asks for what entry `j` of a chunk's list will read: the contact two leads ahead and
    /// the bodies of the one a lead ahead (entries are scattered among the contacts, their
    /// bodies anywhere).
    @inline(__always)
    func prefetch(_ list: UnsafeBufferPointer<UInt16>, _ j: Int, base: Int) {
        guard prefetches else { return }
        let lead = Self.lead
        if j + 2 * lead < list.count { contacts.prefetch(base + Int(list[j + 2 * lead])) }
        if j + lead < list.count {
            let a = Int(contacts[base + Int(list[j + lead])].bodyA), b = Int(contacts[base + Int(list[j + lead])].bodyB)
            metas.prefetch(a); metas.prefetch(b)
            core.sims.prefetch(a); core.sims.prefetch(b)
        }
    }

    /// Holds the bodies of chunk `c`'s entries from `j0` on, in order; returns how many changed.
    @inline(__always)
    func hold(chunk c: Int, from j0: Int) -> Int {
        var hits = 0
        let base = c * ContactSet.chunkSize
        lists.withBuffer(c) { list in
            list.withUnsafeBufferPointer { list in
                for j in j0..<list.count {
                    prefetch(list, j, base: base)
                    if let t = touch(base + Int(list[j])) { hits += core.constrainInnerCore(body: t.body, shape: t.shape) }
                }
            }
        }
        return hits
    }

    /// The first entry of chunk `c` whose contact would change its body as the world is now,
    /// or -1.
    func firstActing(chunk c: Int) -> Int {
        var first = -1
        let base = c * ContactSet.chunkSize
        lists.withBuffer(c) { list in
            list.withUnsafeBufferPointer { list in
                for j in 0..<list.count {
                    prefetch(list, j, base: base)
                    if let t = touch(base + Int(list[j])), core.innerCoreActs(body: t.body, shape: t.shape) { first = j; return }
                }
            }
        }
        return first
    }
}

/// The parallel look of `World.keepCoresOutOfTouchedStatics`: each chunk's first acting
/// entry (reads only; chunk `c` writes `first[c]`).
struct FirstActingTouch: RangeTask, @unchecked Sendable {
    let touches: StaticTouches
    let first: MutableView<Int>
    func run(_ range: Range<Int>, part: Int) {
        for c in range { first[c] = touches.firstActing(chunk: c) }
    }
}

extension World {
    /// The share of its core radius with which a body is swept against a static shape its
    /// whole core already overlaps at the step's start (a circle resting on a wall, a body
    /// pressed into one), and against the static shapes it touches whatever its speed.
    static let innerCoreFraction: Float = 0.5

    /// The continuous step, after the bodies' final placements. No dynamic body's centre of
    /// mass crosses static geometry, whatever moved it (its own speed, a collision, a joint,
    /// a kinematic body squeezing it against a wall) and however fast:
    ///
    /// - A body that moved more than half its core radius (`BodySim.coreRadius`) this step —
    ///   a fast body — has the path of its core (the largest circle around its centre of mass
    ///   inside one of its shapes) swept from the step's start to its end against the static
    ///   shapes and boundaries it collides with. Where the core would first touch one, the
    ///   body is placed just before that point (rotation and velocity kept: next step's
    ///   speculative contact stops it).
    /// - Against a static shape its whole core already overlaps at the step's start, and
    ///   against every static shape it touches (has a contact with) whatever its speed, a
    ///   body's inner core (`innerCoreFraction` of the core) is swept the same way: a body
    ///   pushed into a wall — slowly by a joint or a kinematic body, or fast while resting
    ///   on it — stops with its inner core at the wall's surface: squeezed, its centre outside.
    /// - A body whose inner core already overlaps a static shape at the step's start (made or
    ///   teleported there) may leave it only the way the contact pushes it (the face of least
    ///   penetration): the part of its move deeper along that face's normal, and its velocity
    ///   into the face, are removed.
    ///
    /// A fast bullet (`BodyDef.isBullet`) is then swept against the other dynamic bodies too.
    ///
    /// One-sided boundary segments (containers' walls) act only on bodies whose centres are
    /// inside: such a body is stopped or held as above, its centre at least half its core in
    /// front of the wall, whether it is fast (in the sweep) or only touches the wall
    /// (`keepInsideOneSidedBoundaries`); see `CoreSweepViews.holdInside`. The fast bodies are
    /// swept in parallel (each one's sweep depends only on its own record and static geometry);
    /// everything else runs on the calling thread in body and contact order: the result does
    /// not depend on the worker count.
    /// `bodies`: the bodies this step moved (`finalizeBodies`), the only ones flagged fast.
    func solveContinuous(_ ctx: StepContext, bodies: View<Int32>?) {
        guard settings.isContinuousEnabled else { return }
        if continuous.oneSidedSegments > 0 { keepInsideOneSidedBoundaries(ctx) }
        let fastCount = continuous.fastCounter.count
        if fastCount > 0 {
            if broadPhase.staticDirty { rebuildStaticGrid() }
            sweepFastBodies(continuousViews(ctx), bodies: bodies, fastCount: fastCount, workers: ctx.workers)
        }
        keepCoresOutOfTouchedStatics(ctx)
        guard fastCount > 0 else { return }
        let metas = ctx.metas
        for k in 0..<(bodies?.count ?? Int(bodySlots.count)) {
            let i = bodies.map { Int($0[k]) } ?? k
            guard metas[i].isFast else { continue }
            metas[i].isFast = false
            if metas[i].isBullet { sweepBullet(i, coreSweepViews(ctx)) }
        }
    }

    /// The continuous step's views for the fast-body sweep (after the static grid is current;
    /// see `ContinuousViews`).
    func continuousViews(_ ctx: StepContext) -> ContinuousViews {
        let n = Int(bodySlots.count)
        return ContinuousViews(core: coreSweepViews(ctx), metas: ctx.metas.subview(0..<n), boxes: ctx.boxes.readOnly,
                               staticGrid: GridView(broadPhase.staticGrid), staticLarge: broadPhase.staticLarge.view,
                               filters: broadPhase.filters.view, shapeNext: shapeNext.view, world: self)
    }

    /// The core sweeps' views (see `CoreSweepViews`), from the step context's (a small world's
    /// step does not fetch the column objects again).
    @inline(__always) func coreSweepViews(_ ctx: StepContext) -> CoreSweepViews {
        let n = Int(bodySlots.count)
        return CoreSweepViews(sims: ctx.sims.subview(0..<n), states: ctx.states.subview(0..<n),
                              geometry: ctx.geometry, slop: settings.linearSlop)
    }

    /// Sweeps every fast body (`fastCount` were flagged) against the static shapes: in chunks
    /// of the moved bodies on the step's workers when there are enough, each chunk counting its
    /// stops; the counts are summed in chunk order.
    func sweepFastBodies(_ v: ContinuousViews, bodies: View<Int32>?, fastCount: Int, workers: Int) {
        let nb = bodies?.count ?? v.metas.count
        let parallel = workers > 1 && fastCount >= options.parallelMin(256)
        let chunkSize = parallel ? (options.minWorkForParallel == 0 ? 8 : 1024) : max(nb, 1)
        let chunks = (nb + chunkSize - 1) / chunkSize
        continuous.chunkHits.grow(to: max(chunks, 1), with: 0)
        let task = FastBodySweep(views: v, bodies: bodies, hits: continuous.chunkHits.mutableView)
        if parallel {
            Parallel.forChunks(workers: workers, count: nb, chunkSize: chunkSize, task)
        } else {
            task.run(0..<nb, part: 0)
        }
        for c in 0..<max(chunks, 1) { counters.continuousHits += continuous.chunkHits[c] }
    }

    /// A fast bullet's core swept against the other dynamic bodies (not bullets) at their
    /// placements after this step: stopped before the first it would touch (bodies it starts
    /// in are left to the contacts). The bodies are found by a pass over all of them, each
    /// bounded by the circle of its extent.
    func sweepBullet(_ i: Int, _ v: CoreSweepViews) {
        let c0 = sims[i].center0, r = sims[i].coreRadius
        var c1 = sims[i].center
        let lo = pointwiseMin(c0, c1) - Vec2(r, r), hi = pointwiseMax(c0, c1) + Vec2(r, r)
        for b in 0..<Int(bodySlots.count) where b != i && metas[b].alive && metas[b].type == .dynamic && !metas[b].isBullet {
            let c = sims[b].center, e = sims[b].maxExtent
            guard c.x + e >= lo.x, c.x - e <= hi.x, c.y + e >= lo.y, c.y - e <= hi.y, bodiesCollide(i, b) else { continue }
            forEachShape(of: b) { s in
                guard bodyFilterAllows(body: i, shape: s) else { return }
                if case .hit(let t) = v.sweepCore(shape: s, from: c0, by: c1 - c0, radius: r) {
                    v.stopBody(i, at: t)
                    counters.continuousHits += 1
                    c1 = sims[i].center
                }
            }
        }
    }

    /// A body that touches a static shape (has a contact with points on it) and moved: its
    /// inner core may not enter the shape (see `solveContinuous`). Fast bodies were swept
    /// against every static shape already. The contacts are the ones the narrow phase listed
    /// (awake, with points, a static body on one side), held in contact order. With several
    /// workers a large list is first looked over in parallel, reading only, for the first contact
    /// that changes its body: the ones before it change nothing (no body moved yet), so the
    /// pass in order starts there — most steps nowhere — and its result is the serial one.
    @inline(__always)
    func keepCoresOutOfTouchedStatics(_ ctx: StepContext) {
        // (Most steps of a small world have no contact: the call costs them a test.)
        if contacts.chunkCount > 0 { holdCoresOutOfTouchedStatics(ctx) }
    }

    /// `keepCoresOutOfTouchedStatics` when the narrow phase wrote lists.
    func holdCoresOutOfTouchedStatics(_ ctx: StepContext) {
        // (Nothing below grows the columns: the views stay valid.)
        let chunks = contacts.chunkCount
        var listed = 0
        for c in 0..<chunks { listed += contacts.staticTouches[c].count }
        guard listed > 0 else { return }
        let touches = StaticTouches(ctx: ctx, core: coreSweepViews(ctx), lists: ChunkBuffers(contacts.staticTouches.mutableView),
                                    prefetches: contacts.count >= options.prefetchingContacts)
        var start = (chunk: 0, entry: 0)
        if ctx.workers > 1 && chunks > 1 && listed >= options.parallelMin(Self.parallelStaticTouches) {
            continuous.firstActing.grow(to: chunks, with: -1)
            Parallel.forChunks(workers: ctx.workers, count: chunks, chunkSize: 1,
                               FirstActingTouch(touches: touches, first: continuous.firstActing.mutableView))
            start = (chunks, 0)
            for c in 0..<chunks where continuous.firstActing[c] >= 0 { start = (c, continuous.firstActing[c]); break }
        }
        var hits = 0
        for c in start.chunk..<chunks {
            let from = c == start.chunk ? start.entry : 0
            if contacts.staticTouches[c].count > from { hits += touches.hold(chunk: c, from: from) }
        }
        counters.continuousHits += hits
    }

    /// Listed static touches from which several workers first look for the one that acts
    /// (`keepCoresOutOfTouchedStatics`).
    static let parallelStaticTouches = 1024

    /// A one-sided boundary (a container's wall) keeps centres of mass inside at any speed:
    /// every dynamic body that is not fast (the fast-body sweep holds those against every
    /// segment along their paths) and has a contact with such a segment is held by it
    /// (`CoreSweepViews.holdInside`): squeezed through slowly by a joint, or pressed into the
    /// wall by a crowd or a driven body, its centre stays half its core inside. Looks only at
    /// contacts with one-sided segments, in contact order.
    func keepInsideOneSidedBoundaries(_ ctx: StepContext) {
        let views = coreSweepViews(ctx)
        var hits = 0
        for k in contacts.indices where contacts[k].shapeA >= 0 {
            let sa = Int(contacts[k].shapeA), sb = Int(contacts[k].shapeB)
            let seg: Int, b: Int
            // (Shape A has the larger kind: when it is no segment, neither is B, and B's record
            // is not read.)
            if shapes[sa].oneSided { seg = sa; b = Int(contacts[k].bodyB) }
            else if shapes[sa].kind == .segment && shapes[sb].oneSided { seg = sb; b = Int(contacts[k].bodyA) }
            else { continue }
            // (An island that fell asleep this step is checked too: its last move counts.)
            guard metas[b].type == .dynamic, !metas[b].isFast else { continue }
            hits += views.holdInside(body: b, segment: seg)
        }
        counters.continuousHits += hits
    }
}

/// Clips the ray `origin + t · translation`, t in [0, 1], against half-planes n·x ≤ offset;
/// `entry` is where it enters their intersection (nil when it starts inside or misses).
struct PlaneClip {
    let origin: Vec2
    let translation: Vec2
    var lower: Float = 0
    var upper: Float = 1
    /// Index (in clip order) of the plane the ray enters last, or -1.
    var entryPlane = -1
    private var count = 0

    init(origin: Vec2, translation: Vec2) { self.origin = origin; self.translation = translation }

    /// False once the ray cannot meet the region.
    mutating func clip(normal n: Vec2, offset: Float) -> Bool {
        defer { count += 1 }
        let num = offset - dot(n, origin)  // ≥ 0: the origin is inside this plane
        let den = dot(n, translation)
        if den == 0 { return num >= 0 }
        let t = num / den
        if den < 0 {
            // Moving into this half-plane: inside from t on.
            if t > lower { lower = t; entryPlane = count }
        } else if t < upper {
            upper = t
        }
        return lower <= upper
    }

    /// The entry fraction, or nil when the origin already is inside every plane.
    var entry: Float? { entryPlane >= 0 ? lower : nil }
}
