/// Polygon–polygon and segment–polygon manifolds: separating axis test, reference face,
/// incident edge, clipping.
///
/// Feature ids (Box2D's scheme): a point's id is the pair of vertices it lies between,
/// `featureID(vertexOfA, vertexOfB)`. A clipped point pairs the incident vertex it was produced
/// from with the reference face's vertex at the same end (the incident edge runs opposite to
/// the reference face, so its first vertex lies at the face's second); a vertex–vertex contact
/// pairs its two vertices. For a segment A, vertices 0 and 1 are its end points (edge 0 is the
/// side with normal `rightPerp(v1 - v0)`, edge 1 the opposite side).
/// The same touching configuration gives the same ids from one step to the next, whichever
/// polygon gives the reference face: two nearly parallel faces (boxes resting on each other)
/// trade the reference face back and forth as they tilt by a hair either way, and ids naming
/// the reference polygon would lose the points' warm start at every trade. A point also keeps
/// its id when it is clipped or unclipped, and when the incident edge changes to the other
/// edge sharing the same vertex.
extension Collide {
    /// Polygon A against polygon B.
    static func polygons(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                         speculative: Float) -> Manifold {
        polygonCore(a.count, a.vertices, a.normals, a.radius, b, xfA, xfB, speculative)
    }

    /// Segment A (a two-sided static boundary) against polygon B. The segment is treated as a
    /// degenerate polygon with vertices (v0, v1) and normals (n, -n), n = rightPerp(v1 - v0)/len.
    static func segmentPolygon(_ a: ShapeView, _ xfA: Transform, _ b: ShapeView, _ xfB: Transform,
                               speculative: Float) -> Manifold {
        let n = normalize(rightPerp(a.vertices[1] - a.vertices[0]))
        return withView(of: (n, -n)) { nA in polygonCore(2, a.vertices, nA, a.radius, b, xfA, xfB, speculative) }
    }

    /// The two polygons of a polygon pair, all that the contact stage needs (no allocation).
    private struct PolygonPair {
        /// Each polygon's vertex count, vertices, normals and radius.
        var countA: Int
        var vA, nA: View<Vec2>
        var rA: Float
        var countB: Int
        var vB, nB: View<Vec2>
        var rB: Float
        /// B's frame expressed in A's frame.
        var xf: Transform
    }

    /// The face of polygon 1 (`count1` vertices `v1`, normals `n1`) along whose normal polygon 2
    /// lies farthest out, and that separation. Polygon 1 is placed in polygon 2's frame by `xf`
    /// (`inverse`: by its inverse). Stops at the first face that separates them (separation
    /// − `rTotal` ≥ `speculative`): the caller needs no more.
    @inline(__always)
    private static func maxSeparation(_ count1: Int, _ v1: View<Vec2>, _ n1: View<Vec2>, _ count2: Int, _ v2: View<Vec2>,
                                      _ xf: Transform, inverse: Bool, rTotal: Float, speculative: Float) -> (edge: Int, separation: Float) {
        var edge = 0
        var best = -Float.greatestFiniteMagnitude
        for i in 0..<count1 {
            let n = inverse ? xf.q.invRotate(n1[i]) : xf.q.rotate(n1[i])
            let v = inverse ? xf.invApply(v1[i]) : xf.apply(v1[i])
            var s = Float.greatestFiniteMagnitude
            for j in 0..<count2 { s = min(s, dot(n, v2[j] - v)) }
            if s - rTotal >= speculative { return (i, s) }  // a separating axis: done
            if s > best { best = s; edge = i }
        }
        return (edge, best)
    }

    /// The SAT + clipping core. Polygon A is given by its vertices and normals (so a segment can pose as a
    /// two-vertex polygon); B is a polygon view. Everything is computed in A's frame.
    private static func polygonCore(_ countA: Int, _ vA: View<Vec2>,
                                    _ nA: View<Vec2>, _ rA: Float, _ b: ShapeView,
                                    _ xfA: Transform, _ xfB: Transform,
                                    _ speculative: Float) -> Manifold {
        let pair = PolygonPair(countA: countA, vA: vA, nA: nA, rA: rA,
                               countB: b.count, vB: b.vertices, nB: b.normals, rB: b.radius,
                               xf: xfA.invMul(xfB))
        let countB = pair.countB, vB = pair.vB, nB = pair.nB, xf = pair.xf
        let rTotal = rA + pair.rB

        // Axes of maximum separation among A's normals (measured in B's frame), then B's (in
        // A's frame); a separating axis ends the test.
        let (edgeA, sepA) = maxSeparation(countA, vA, nA, countB, vB, xf, inverse: true, rTotal: rTotal, speculative: speculative)
        if sepA - rTotal >= speculative { return Manifold() }
        let (edgeB, sepB) = maxSeparation(countB, vB, nB, countA, vA, xf, inverse: false, rTotal: rTotal, speculative: speculative)
        if sepB - rTotal >= speculative { return Manifold() }

        // Prefer A's face unless B's separates clearly more (hysteresis against flip-flop).
        let flip = sepB > sepA + referenceTolerance
        if let m = faceContact(pair, flip: flip, edge: flip ? edgeB : edgeA,
                               separation: flip ? sepB : sepA, xfA, speculative) {
            return m
        }
        // The incident edge lies beside the preferred reference face (possible when the other
        // face was only just inside the tolerance): use the other polygon's best face.
        return faceContact(pair, flip: !flip, edge: flip ? edgeA : edgeB,
                           separation: flip ? sepA : sepB, xfA, speculative) ?? Manifold()
    }

    /// The edge (of `count` with outward `normals`) whose normal is most anti-parallel to `n`
    /// (the first of equals).
    @inline(__always)
    private static func incidentEdge(_ normals: View<Vec2>, _ count: Int, _ n: Vec2) -> Int {
        var inc = 0
        var minDot = Float.greatestFiniteMagnitude
        for i in 0..<count {
            let d = dot(normals[i], n)
            if d < minDot { minDot = d; inc = i }
        }
        return inc
    }

    /// Contact against reference face `edge` of polygon A (`flip == false`) or B (`flip == true`).
    /// Returns nil when the incident edge does not overlap the reference face's side planes.
    private static func faceContact(_ pair: PolygonPair, flip: Bool, edge refEdge: Int,
                                    separation: Float, _ xfA: Transform,
                                    _ speculative: Float) -> Manifold? {
        let xf = pair.xf
        let rTotal = pair.rA + pair.rB
        let i21: Int, i22: Int
        // The reference face runs from vertex i11 to i12.
        let i11 = refEdge, i12 = nextIndex(refEdge, flip ? pair.countB : pair.countA)
        let n1: Vec2, v11: Vec2, v12: Vec2, v21: Vec2, v22: Vec2
        let r1: Float, r2: Float
        if !flip {
            n1 = pair.nA[refEdge]
            v11 = pair.vA[refEdge]
            v12 = pair.vA[nextIndex(refEdge, pair.countA)]
            // Incident edge: B's edge whose normal is most anti-parallel to n1.
            i21 = incidentEdge(pair.nB, pair.countB, xf.q.invRotate(n1))
            i22 = nextIndex(i21, pair.countB)
            v21 = xf.apply(pair.vB[i21])
            v22 = xf.apply(pair.vB[i22])
            r1 = pair.rA; r2 = pair.rB
        } else {
            n1 = xf.q.rotate(pair.nB[refEdge])
            v11 = xf.apply(pair.vB[refEdge])
            v12 = xf.apply(pair.vB[nextIndex(refEdge, pair.countB)])
            i21 = incidentEdge(pair.nA, pair.countA, n1)
            i22 = nextIndex(i21, pair.countA)
            v21 = pair.vA[i21]
            v22 = pair.vA[i22]
            r1 = pair.rB; r2 = pair.rA
        }

        // Clearly apart with no face overlap: when the closest features of the two edges are
        // two vertices, the face normal underestimates the gap; use the vertex–vertex direction.
        // (Tried only when the face contact yields no point: parallel overlapping edges also
        // report end points as "closest", and there the two-point face contact is right.)
        func cornerContact() -> Manifold? {
            // (Rounded shapes whose cores are apart touch at their corners' arcs.)
            guard separation > referenceTolerance || (rTotal > 0 && separation > 0) else { return nil }
            let f = segmentClosestFractions(v11, v12, v21, v22)
            guard (f.0 == 0 || f.0 == 1) && (f.1 == 0 || f.1 == 1) else { return nil }
            let p1 = f.0 == 0 ? v11 : v12
            let p2 = f.1 == 0 ? v21 : v22
            let d = p2 - p1
            let dist = length(d)
            guard dist > directionEpsilon else { return nil }
            let sep = dist - rTotal
            if !(sep < speculative) { return Manifold() }
            let n = d * (1 / dist)  // from polygon 1 toward polygon 2
            let mid = 0.5 * ((p1 + r1 * n) + (p2 - r2 * n))
            let id = vertexPairID(reference: f.0 == 0 ? i11 : i12, incident: f.1 == 0 ? i21 : i22, flip: flip)
            return single(xfA, normal: flip ? -n : n, point: mid, separation: sep, id: id)
        }

        // Clip the incident edge v21→v22 against the reference face's side planes. The tangent
        // runs along the reference face (v11 → v12); u is the coordinate along it.
        let t = leftPerp(n1)
        let upper1 = dot(v12 - v11, t)
        let u21 = dot(v21 - v11, t)
        let u22 = dot(v22 - v11, t)
        let du = u22 - u21
        var sLo: Float = 0, sHi: Float = 1  // parameter range kept on v21→v22
        if abs(du) > 1.0e-3 {
            let sa = -u21 / du
            let sb = (upper1 - u21) / du
            sLo = max(0, min(sa, sb))
            sHi = min(1, max(sa, sb))
            if sLo > sHi { return cornerContact() }
        } else {
            // Incident edge (almost) perpendicular to the reference face: keep it or drop it.
            let um = 0.5 * (u21 + u22)
            if um < 0 || um > upper1 { return cornerContact() }
        }
        let e2 = v22 - v21
        let pLo = v21 + sLo * e2
        let pHi = v21 + sHi * e2
        let dLo = dot(pLo - v11, n1)
        let dHi = dot(pHi - v11, n1)

        var m = Manifold()
        m.normal = xfA.q.rotate(flip ? -n1 : n1)
        let merged = (sHi - sLo) * (sHi - sLo) * dot(e2, e2) < 1.0e-4 * linearSlop * linearSlop
        // pLo comes from v21, at the reference face's second vertex; pHi from v22, at its first.
        let idLo = vertexPairID(reference: i12, incident: i21, flip: flip)
        let idHi = vertexPairID(reference: i11, incident: i22, flip: flip)
        if merged {
            // The clipped edge shrank to (almost) a point: keep a single point, the deeper end.
            if dLo <= dHi {
                emit(&m, pLo, dLo, n1, r1, r2, idLo, xfA, speculative)
            } else {
                emit(&m, pHi, dHi, n1, r1, r2, idHi, xfA, speculative)
            }
        } else {
            emit(&m, pLo, dLo, n1, r1, r2, idLo, xfA, speculative)
            emit(&m, pHi, dHi, n1, r1, r2, idHi, xfA, speculative)
        }
        if m.pointCount == 0 {
            // The face gives nothing within reach; a vertex pair may still be closer.
            if let corner = cornerContact() { return corner }
            m.normal = .zero
        }
        return m
    }

    /// The id of a point between reference-face vertex `reference` and incident vertex
    /// `incident` (of polygon B when `flip`, else of A): `featureID(vertexOfA, vertexOfB)`, the
    /// same whichever polygon gives the reference face.
    @inline(__always)
    private static func vertexPairID(reference: Int, incident: Int, flip: Bool) -> UInt32 {
        flip ? featureID(incident, reference) : featureID(reference, incident)
    }

    /// Appends the clipped point `p` (on polygon 2's core, `d` = its distance above the
    /// reference face along `n1`) if it is within the speculative distance.
    @inline(__always)
    private static func emit(_ m: inout Manifold, _ p: Vec2, _ d: Float, _ n1: Vec2,
                             _ r1: Float, _ r2: Float, _ id: UInt32, _ xfA: Transform,
                             _ speculative: Float) {
        let sep = d - r1 - r2
        if sep < speculative {
            let mid = p + (0.5 * (r1 - r2 - d)) * n1
            m.append(point: xfA.apply(mid), separation: sep, id: id)
        }
    }

    /// Fractions (along p1→q1 and p2→q2) of the closest points of two segments of non-zero
    /// length. End points come out as exactly 0 or 1 (the values are clamped).
    @inline(__always)
    static func segmentClosestFractions(_ p1: Vec2, _ q1: Vec2, _ p2: Vec2, _ q2: Vec2)
        -> (Float, Float)
    {
        let d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2
        let a = dot(d1, d1), e = dot(d2, d2)
        let c = dot(d1, r), f = dot(d2, r)
        if a <= 0 || e <= 0 {
            if a <= 0 && e <= 0 { return (0, 0) }
            if a <= 0 { return (0, clamp(f / e, 0, 1)) }
            return (clamp(-c / a, 0, 1), 0)
        }
        let bb = dot(d1, d2)
        let denom = a * e - bb * bb
        var s: Float = denom > 1.0e-6 * a * e ? clamp((bb * f - c * e) / denom, 0, 1) : 0
        var t = (bb * s + f) / e
        if t < 0 {
            t = 0
            s = clamp(-c / a, 0, 1)
        } else if t > 1 {
            t = 1
            s = clamp((bb - c) / a, 0, 1)
        }
        return (s, t)
    }
}
