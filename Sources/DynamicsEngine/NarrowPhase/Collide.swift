/// Narrow phase: contact manifolds for pairs of shapes.
///
/// Conventions shared by every routine:
/// - Shapes are given in their local frames; `xfA` / `xfB` place them in the world.
/// - Shape A must have the larger `ShapeKind` raw value (segment ≥ polygon ≥ circle).
/// - The returned normal is a world unit vector pointing from A toward B; points are world
///   positions midway between the two surfaces; `separation` is the signed gap along the normal
///   (negative: overlap). Only points with `separation < speculative` are emitted.
/// - Computation happens in A's local frame (`xfA.invMul(xfB)`) so that large world coordinates
///   do not cost precision.
/// - `radius` of a circle is its radius; for polygons and segments a non-zero radius is treated
///   as a uniform skin (rounded shape) around the core geometry.
///
/// Feature ids: circle pairs (circle–circle, polygon–circle, segment–circle) use id 0. Polygon
/// pairs (polygon–polygon, segment–polygon) use the pair of vertices a point lies between,
/// `featureID(vertexOfA, vertexOfB)`, whichever polygon gives the reference face (see
/// `CollidePolygons.swift`).
enum Collide {
    /// The engine's linear slop in points (100 pt = 1 m).
    @inline(__always) static var linearSlop: Float { 0.5 }
    /// Hysteresis for the choice of the reference face: B's face is used only when its
    /// separation exceeds A's by more than this, so the choice does not flip-flop.
    @inline(__always) static var referenceTolerance: Float { 0.1 * linearSlop }
    /// Distances below this (points) are too small to define a direction.
    @inline(__always) static var directionEpsilon: Float { 1.0e-6 }

    /// Computes the manifold for any supported pair. `a.kind.rawValue >= b.kind.rawValue`
    /// is required; a segment–segment pair yields an empty manifold. (Inlined into the narrow
    /// phase, its one caller: called, it copies the shapes' views in and the manifold out.)
    @inline(__always)
    static func manifold(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                         speculative: Float) -> Manifold {
        precondition(a.kind.rawValue >= b.kind.rawValue,
                     "Collide.manifold: shape A must have the larger kind (segment > polygon > circle)")
        switch a.kind {
        case .circle:
            return circles(a, xfA, b, xfB, speculative: speculative)
        case .polygon:
            // (A two-vertex polygon is a capsule: its segment, grown by its radius.)
            if b.kind == .circle {
                if a.count == 2 { return segmentCircle(a, xfA, b, xfB, speculative: speculative) }
                return polygonCircle(a, xfA, b, xfB, speculative: speculative)
            }
            if a.count == 2 && b.count == 2 { return capsules(a, xfA, b, xfB, speculative: speculative) }
            return polygons(a, xfA, b, xfB, speculative: speculative)
        case .segment:
            if a.oneSided && b.kind != .segment { return oneSidedSegment(a, xfA, b, xfB, speculative: speculative) }
            switch b.kind {
            case .circle: return segmentCircle(a, xfA, b, xfB, speculative: speculative)
            case .polygon:
                if b.count == 2 { return capsules(a, xfA, b, xfB, speculative: speculative) }
                return segmentPolygon(a, xfA, b, xfB, speculative: speculative)
            case .segment: return Manifold()
            }
        }
    }

    // MARK: - Circle pairs

    /// Circle A against circle B.
    static func circles(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                        speculative: Float) -> Manifold {
        let xf = xfA.invMul(xfB)
        let cA = a.center
        let cB = xf.apply(b.center)
        return pointAgainstCircle(cA, a.radius, cB, b.radius, fallbackNormal: Vec2(0, 1),
                                  xfA, speculative)
    }

    /// Polygon A against circle B.
    static func polygonCircle(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                              speculative: Float) -> Manifold {
        let xf = xfA.invMul(xfB)
        let c = xf.apply(b.center)
        let rA = a.radius, rB = b.radius
        let count = a.count
        let vs = a.vertices, ns = a.normals

        // Face of maximum separation of the circle centre.
        var face = 0
        var maxSep = -Float.greatestFiniteMagnitude
        for i in 0..<count {
            let s = dot(ns[i], c - vs[i])
            if s > maxSep { maxSep = s; face = i }
        }
        // The face separation is a lower bound of the distance to the polygon.
        if maxSep - rA - rB >= speculative { return Manifold() }

        let v1 = vs[face]
        let v2 = vs[face + 1 == count ? 0 : face + 1]
        if maxSep > 0 {
            // Centre outside: check the vertex regions at the face's end points.
            let e = v2 - v1
            let u1 = dot(c - v1, e)
            let u2 = dot(c - v2, -e)
            if u1 < 0 || u2 < 0 {
                let v = u1 < 0 ? v1 : v2
                return pointAgainstCircle(v, rA, c, rB, fallbackNormal: ns[face], xfA, speculative)
            }
        }
        // Face region (also used when the centre is inside the polygon).
        let n = ns[face]
        let sep = maxSep - rA - rB
        if !(sep < speculative) { return Manifold() }
        let onA = c - (maxSep - rA) * n
        let onB = c - rB * n
        return single(xfA, normal: n, point: 0.5 * (onA + onB), separation: sep, id: 0)
    }

    /// Segment A (two-sided) against circle B.
    static func segmentCircle(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                              speculative: Float) -> Manifold {
        let xf = xfA.invMul(xfB)
        let c = xf.apply(b.center)
        let v1 = a.vertices[0], v2 = a.vertices[1]
        let e = v2 - v1
        let ee = dot(e, e)
        let t: Float = ee > 0 ? clamp(dot(c - v1, e) / ee, 0, 1) : 0
        let p = v1 + t * e
        let side = ee > 0 ? leftPerp(e) * (1 / ee.squareRoot()) : Vec2(0, 1)
        return pointAgainstCircle(p, a.radius, c, b.radius, fallbackNormal: side, xfA, speculative)
    }

    /// Capsule (or two-sided segment) A against capsule B: the closest points of the two
    /// segments, each grown by its radius. Nearly parallel segments that overlap along their
    /// length touch along a line: two points, at the ends of the overlap, so that a capsule
    /// lying on another (or on a boundary) rests flat. Ids: a single point pairs the features
    /// it joins (0 and 1 the end points, 2 the inside of a segment); the two points of a
    /// parallel contact are told apart by the end of the overlap they mark.
    static func capsules(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                         speculative: Float) -> Manifold {
        let xf = xfA.invMul(xfB)
        let p1 = a.vertices[0], q1 = a.vertices[1]
        let p2 = xf.apply(b.vertices[0]), q2 = xf.apply(b.vertices[1])
        let rA = a.radius, rB = b.radius, rTotal = rA + rB
        let d1 = q1 - p1, d2 = q2 - p2
        let l1 = length(d1), l2 = length(d2)
        guard l1 > 0, l2 > 0 else { return Manifold() }
        let u1 = d1 * (1 / l1)
        // Parallel within about a degree and overlapping along A: a line contact.
        if abs(cross(u1, d2)) < 0.02 * l2 {
            var n = rightPerp(u1)
            let side = dot(n, p2 - p1)
            if side < 0 { n = -n }
            let off = abs(side)
            // B's end points along A, and the overlap of the two extents.
            let s2 = dot(p2 - p1, u1), t2 = dot(q2 - p1, u1)
            let lo = max(0, min(s2, t2)), hi = min(l1, max(s2, t2))
            if off > directionEpsilon && hi - lo > linearSlop {
                if off - rTotal >= speculative { return Manifold() }
                var m = Manifold()
                m.normal = xfA.q.rotate(n)
                let reversed = s2 > t2
                for (k, along) in [lo, hi].enumerated() {
                    // The point of B's segment at this place along A, and its height above A.
                    let f = clamp((along - s2) / (t2 - s2), 0, 1)
                    let pB = p2 + f * d2
                    let h = dot(pB - p1, n)
                    let sep = h - rTotal
                    guard sep < speculative else { continue }
                    let onA = pB - (h - rA) * n, onB = pB - rB * n
                    m.append(point: xfA.apply(0.5 * (onA + onB)), separation: sep,
                             id: featureID(3, (k == 1) != reversed ? 1 : 0))
                }
                if m.pointCount > 0 { return m }
                m.normal = .zero
                return m
            }
        }
        let (s, t) = segmentClosestFractions(p1, q1, p2, q2)
        let c1 = p1 + s * d1, c2 = p2 + t * d2
        let d = c2 - c1
        let dist = length(d)
        let sep = dist - rTotal
        guard sep < speculative else { return Manifold() }
        var n: Vec2
        if dist > directionEpsilon {
            n = d * (1 / dist)
        } else {
            // The segments cross: out along A's side that B's centre lies on.
            n = rightPerp(u1)
            if dot(n, 0.5 * (p2 + q2) - p1) < 0 { n = -n }
        }
        @inline(__always) func feature(_ f: Float) -> Int { f == 0 ? 0 : (f == 1 ? 1 : 2) }
        let onA = c1 + rA * n, onB = c2 - rB * n
        return single(xfA, normal: n, point: 0.5 * (onA + onB), separation: sep, id: featureID(feature(s), feature(t)))
    }

    /// One-sided segment A (a side of a loop that keeps bodies inside) against circle or
    /// polygon B: A acts as the half-plane behind it, limited to the segment's extent, and
    /// pushes only along its inward normal. The (up to) two deepest points of B form the
    /// manifold, so even a body whose centre was squeezed past the line is pushed back in.
    static func oneSidedSegment(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                                speculative: Float) -> Manifold {
        let xf = xfA.invMul(xfB)
        let v1 = a.vertices[0], v2 = a.vertices[1]
        let n = a.normals[0]
        let e = v2 - v1
        let ee = dot(e, e)
        guard ee > 0 else { return Manifold() }
        let reach = a.radius + b.radius
        // Points of B in A's frame: the circle's centre, or the polygon's vertices.
        let count = b.kind == .circle ? 1 : b.count
        var best0 = (s: Float.greatestFiniteMagnitude, p: Vec2.zero, i: -1)
        var best1 = best0
        for i in 0..<count {
            let p = xf.apply(b.kind == .circle ? b.center : b.vertices[i])
            let t = dot(p - v1, e) / ee
            // Beyond the segment's ends the neighbouring side of the loop takes over.
            if t < -0.01 || t > 1.01 { continue }
            let s = dot(p - v1, n) - reach
            if s < best0.s { best1 = best0; best0 = (s, p, i) } else if s < best1.s { best1 = (s, p, i) }
        }
        var m = Manifold()
        m.normal = xfA.q.rotate(n)
        for c in [best0, best1] where c.i >= 0 && c.s < speculative {
            // The point midway between the line (pushed out by A's radius) and B's surface.
            let onB = c.p - b.radius * n
            m.append(point: xfA.apply(onB - 0.5 * c.s * n), separation: c.s, id: featureID(0, c.i, side: 1))
        }
        return m
    }

    // MARK: - Helpers

    /// One contact between a (possibly rounded) point `pA` of radius `rA` and a circle at `pB`
    /// of radius `rB`, both in A's local frame.
    @inline(__always)
    static func pointAgainstCircle(_ pA: Vec2, _ rA: Float, _ pB: Vec2, _ rB: Float,
                                   fallbackNormal: Vec2, _ xfA: Transform,
                                   _ speculative: Float) -> Manifold {
        let d = pB - pA
        let distSq = dot(d, d)
        let reach = rA + rB + speculative
        if reach <= 0 || distSq >= reach * reach { return Manifold() }
        let dist = distSq.squareRoot()
        let sep = dist - rA - rB
        if !(sep < speculative) { return Manifold() }
        let n = dist > directionEpsilon ? d * (1 / dist) : fallbackNormal
        let onA = pA + rA * n
        let onB = pB - rB * n
        return single(xfA, normal: n, point: 0.5 * (onA + onB), separation: sep, id: 0)
    }

    /// A one-point manifold from a local normal and point in A's frame.
    @inline(__always)
    static func single(_ xfA: Transform, normal n: Vec2, point p: Vec2, separation: Float,
                       id: UInt32) -> Manifold {
        var m = Manifold()
        m.normal = xfA.q.rotate(n)
        m.append(point: xfA.apply(p), separation: separation, id: id)
        return m
    }

    @inline(__always)
    static func nextIndex(_ i: Int, _ count: Int) -> Int { i + 1 == count ? 0 : i + 1 }
}
