import Synchronization

/// Counts the bodies a parallel finalize pass flags as fast (only fast bodies touch it).
final class FastCounter: @unchecked Sendable {
    private let value = Atomic<Int>(0)
    func reset() { value.store(0, ordering: .relaxed) }
    func add(_ n: Int) { value.add(n, ordering: .relaxed) }
    /// Read after the pass (the pass's join orders it after every `add`).
    var count: Int { value.load(ordering: .relaxed) }
}

extension World {
    /// The continuous step, after the bodies' final placements: a dynamic body that moved
    /// more than half its core radius (`BodySim.coreRadius`) this step has the path of its core
    /// — the largest circle around its centre of mass inside one of its shapes — swept from the
    /// step's start to its end against the static shapes and boundaries it collides with. Where
    /// the core would first touch one, the body is placed just before that point (its rotation
    /// and velocity are kept: next step's speculative contact stops it). So no centre of mass
    /// crosses static geometry however fast the body went and whatever made it fast (its own
    /// speed, a collision, a joint). One-sided boundary segments stop only bodies leaving the
    /// inside. Runs on the calling thread in body order: the result does not depend on the
    /// worker count.
    func solveContinuous() {
        guard settings.isContinuousEnabled else { return }
        if oneSidedSegmentCount > 0 { keepInsideOneSidedBoundaries() }
        guard fastCounter.count > 0 else { return }
        if staticDirty { rebuildStaticGrid() }
        let slop = settings.linearSlop
        for i in 0..<Int(bodySlots.count) where metas[i].isFast {
            metas[i].isFast = false
            guard metas[i].alive, metas[i].type == .dynamic else { continue }
            let c0 = sims[i].center0, c1 = sims[i].center
            let d = c1 - c0
            let r = sims[i].coreRadius
            guard let t = earliestStaticHit(body: i, from: c0, by: d, radius: r) else { continue }
            // Back off by the slop so the core stops just short of the surface.
            let len = length(d)
            let f = max(0, t - slop / max(len, 1.0e-6))
            let c = c0 + f * d
            sims[i].center = c
            sims[i].xf.p = c - sims[i].xf.q.rotate(sims[i].localCenter)
            continuousHits += 1
        }
    }

    /// A one-sided boundary (a container's wall) keeps centres of mass inside at any speed:
    /// a dynamic body with a contact on such a segment whose centre went from its inside to
    /// past its line this step — squeezed through slowly by a joint, say, which the fast-body
    /// sweep does not see — is put back just inside the line, and its outward velocity across
    /// the line is removed. Looks only at contacts with one-sided segments.
    func keepInsideOneSidedBoundaries() {
        let slop = settings.linearSlop
        for k in contacts.indices where contacts[k].shapeA >= 0 {
            let sa = Int(contacts[k].shapeA), sb = Int(contacts[k].shapeB)
            let seg: Int, b: Int
            if shapes[sa].oneSided { seg = sa; b = Int(contacts[k].bodyB) }
            else if shapes[sb].oneSided { seg = sb; b = Int(contacts[k].bodyA) }
            else { continue }
            // (An island that fell asleep this step is checked too: its last move counts.)
            guard metas[b].type == .dynamic else { continue }
            let st = Int(shapes[seg].vertexStart)
            let xf = sims[Int(shapes[seg].body)].xf
            let v1 = xf.apply(pool.vertices[st]), v2 = xf.apply(pool.vertices[st + 1]), n = xf.q.rotate(pool.normals[st])
            let c0 = sims[b].center0, c1 = sims[b].center
            let side0 = dot(n, c0 - v1), side1 = dot(n, c1 - v1)
            guard side0 >= 0, side1 < 0 else { continue }
            // Where the path crosses the line must lie on the segment, its ends grown by the
            // body's core radius: a centre leaving through a corner of the loop crosses one of
            // the two lines just beyond the end of its segment.
            let t = side0 / (side0 - side1)
            let x = c0 + t * (c1 - c0)
            let e = v2 - v1
            let u = dot(x - v1, e) / max(dot(e, e), 1.0e-12)
            let grow = max(slop, sims[b].coreRadius) / max(length(e), 1.0e-6)
            guard u >= -grow, u <= 1 + grow else { continue }
            let c = c1 + (slop - side1) * n
            sims[b].center = c
            sims[b].xf.p = c - sims[b].xf.q.rotate(sims[b].localCenter)
            let vn = dot(states[b].v, n)
            if vn < 0 { states[b].v -= vn * n }
            continuousHits += 1
        }
    }

    /// The smallest fraction of `d` at which a circle of `radius` moving from `c0` touches a
    /// static shape body `i` collides with; nil when it touches none (or starts touching one:
    /// then the regular contact handles it).
    func earliestStaticHit(body i: Int, from c0: Vec2, by d: Vec2, radius r: Float) -> Float? {
        let c1 = c0 + d
        let sweep = AABB(lower: pointwiseMin(c0, c1) - Vec2(r, r), upper: pointwiseMax(c0, c1) + Vec2(r, r))
        var best: Float = 1
        var hit = false
        @inline(__always) func test(_ s: Int) {
            guard shapes[s].alive, shapes[s].isStatic, aabbs[s].overlaps(sweep), staticShapeCollides(body: i, shape: s) else { return }
            if let t = sweepCore(shape: s, from: c0, by: d, radius: r), t < best { best = t; hit = true }
        }
        let g = broadPhase.staticGrid
        if g.nx > 0 {
            let geo = GridGeometry(origin: g.origin, invCellSize: g.invCellSize, nx: g.nx, ny: g.ny)
            let range = geo.cellRange(sweep)
            let nx = Int(g.nx)
            for y in range.y...range.w {
                for x in range.x...range.z {
                    let c = Int(y) * nx + Int(x)
                    for e in Int(g.cellStart[c])..<Int(g.cellStart[c + 1]) { test(Int(g.entries[e])) }
                }
            }
        }
        for s in broadPhase.staticLarge { test(Int(s)) }
        return hit ? best : nil
    }

    /// The broad phase's filter for a dynamic body and a static shape.
    func staticShapeCollides(body i: Int, shape s: Int) -> Bool {
        let b = Int(shapes[s].body)
        if b == i { return false }
        if shapes[s].isBoundary { return bodyCollidesWithBoundary(i, group: shapes[s].boundaryGroup) }
        return bodiesCollide(i, b)
    }

    /// When a circle of radius `r` moving from `o` by `d` first touches static shape `s`
    /// (as a fraction of `d`), or nil. Polygons and segments are grown by `r` with square
    /// corners (a little early at corners: safe for stopping).
    func sweepCore(shape s: Int, from o: Vec2, by d: Vec2, radius r: Float) -> Float? {
        let rec = shapes[s]
        let xf = sims[Int(rec.body)].xf
        switch rec.kind {
        case .circle:
            let c = xf.apply(rec.center)
            let R = rec.radius + r
            let p = o - c
            let a = dot(d, d)
            let b = dot(p, d)
            let cc = dot(p, p) - R * R
            if cc <= 0 || a <= 0 || b >= 0 { return nil }  // starts touching, or not approaching
            let disc = b * b - a * cc
            if disc < 0 { return nil }
            let t = (-b - disc.squareRoot()) / a
            return t <= 1 ? max(t, 0) : nil
        case .polygon:
            let st = Int(rec.vertexStart), n = Int(rec.vertexCount)
            var planes = PlaneClip(origin: o, translation: d)
            for k in 0..<n {
                let nw = xf.q.rotate(pool.normals[st + k])
                let vw = xf.apply(pool.vertices[st + k])
                if !planes.clip(normal: nw, offset: dot(nw, vw) + r + rec.radius) { return nil }
            }
            return planes.entry
        case .segment:
            let st = Int(rec.vertexStart)
            let v1 = xf.apply(pool.vertices[st]), v2 = xf.apply(pool.vertices[st + 1])
            let e = v2 - v1
            let le = length(e)
            guard le > 0 else { return nil }
            let u = e / le
            var n = rightPerp(u)
            var planes = PlaneClip(origin: o, translation: d)
            // Along the segment, grown by r at both ends.
            guard planes.clip(normal: u, offset: dot(u, v2) + r), planes.clip(normal: -u, offset: -dot(u, v1) + r) else { return nil }
            if rec.oneSided {
                // Only the inside face stops bodies: the slab from r in front of the line to
                // far behind it; a body already past the line is left to the contact.
                n = xf.q.rotate(pool.normals[st])
                let behind = length(d) + 2 * r
                guard planes.clip(normal: n, offset: dot(n, v1) + r), planes.clip(normal: -n, offset: -dot(n, v1) + behind) else { return nil }
                return planes.entryPlane == 2 ? planes.entry : nil
            }
            guard planes.clip(normal: n, offset: dot(n, v1) + r), planes.clip(normal: -n, offset: -dot(n, v1) + r) else { return nil }
            return planes.entry
        }
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
