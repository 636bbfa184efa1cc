import Testing
@testable import DynamicsEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixtures for the narrow-phase tests: shapes whose arrays stay alive while a `ShapeView`
/// of them is in use.
private struct NPShape {
    var kind: ShapeKind
    var vertices: [Vec2]
    var normals: [Vec2]
    var center: Vec2
    var radius: Float

    static func box(_ hx: Float, _ hy: Float, center: Vec2 = .zero, angle: Float = 0) throws -> NPShape {
        try polygon(GeometryBuilder.boxPoints(halfWidth: hx, halfHeight: hy, center: center, angle: angle))
    }

    static func polygon(_ points: [Vec2]) throws -> NPShape {
        let d = try GeometryBuilder.polygon(points)
        return NPShape(kind: .polygon, vertices: d.vertices, normals: d.normals, center: d.centroid, radius: 0)
    }

    static func circle(_ r: Float, center: Vec2 = .zero) -> NPShape {
        // One dummy element so the buffers have a base address; count is 0 in the view.
        NPShape(kind: .circle, vertices: [.zero], normals: [.zero], center: center, radius: r)
    }

    static func segment(_ a: Vec2, _ b: Vec2) -> NPShape {
        NPShape(kind: .segment, vertices: [a, b], normals: [.zero, .zero], center: 0.5 * (a + b), radius: 0)
    }

    func withView<R>(_ body: (ShapeView) -> R) -> R {
        vertices.withUnsafeBufferPointer { vp in
            normals.withUnsafeBufferPointer { np in
                body(ShapeView(kind: kind, count: kind == .circle ? 0 : vertices.count,
                               vertices: View(vp.baseAddress!, vp.count), normals: View(np.baseAddress!, np.count),
                               center: center, radius: radius))
            }
        }
    }

    /// Distance of a world point to this shape's boundary placed by `xf`: signed for polygons
    /// (max face separation, exact on and inside the boundary) and circles, unsigned for segments.
    func boundaryDistance(_ pw: Vec2, _ xf: Transform) -> Float {
        let p = xf.invApply(pw)
        switch kind {
        case .circle:
            return length(p - center) - radius
        case .segment:
            let e = vertices[1] - vertices[0]
            let t = clamp(dot(p - vertices[0], e) / dot(e, e), 0, 1)
            return length(p - (vertices[0] + t * e))
        case .polygon:
            var s = -Float.greatestFiniteMagnitude
            for i in 0..<vertices.count { s = max(s, dot(normals[i], p - vertices[i])) }
            return s
        }
    }

    /// Exact distance between two shapes when they do not overlap (brute force), 0 otherwise.
    /// Circles are reduced to their centres (the radius is subtracted).
    static func gap(_ a: NPShape, _ xfA: Transform, _ b: NPShape, _ xfB: Transform) -> Float {
        func points(_ s: NPShape, _ xf: Transform) -> [Vec2] {
            s.kind == .circle ? [xf.apply(s.center)] : s.vertices.map { xf.apply($0) }
        }
        func segDist(_ p: Vec2, _ v: Vec2, _ w: Vec2) -> Float {
            let e = w - v
            let ee = dot(e, e)
            let t = ee > 0 ? clamp(dot(p - v, e) / ee, 0, 1) : 0
            return length(p - (v + t * e))
        }
        func dist(_ p: Vec2, _ s: NPShape, _ xf: Transform) -> Float {
            let q = points(s, xf)
            if q.count == 1 { return length(p - q[0]) }
            var d = Float.greatestFiniteMagnitude
            for i in 0..<q.count { d = min(d, segDist(p, q[i], q[(i + 1) % q.count])) }
            return d
        }
        func crosses(_ p: Vec2, _ q: Vec2, _ r: Vec2, _ s: Vec2) -> Bool {
            let d1 = cross(q - p, r - p), d2 = cross(q - p, s - p)
            let d3 = cross(s - r, p - r), d4 = cross(s - r, q - r)
            return d1 * d2 < 0 && d3 * d4 < 0
        }
        let pa = points(a, xfA), pb = points(b, xfB)
        // Overlap: a point of one inside the other, or crossing edges.
        if a.kind != .segment, pb.contains(where: { a.boundaryDistance($0, xfA) < 0 }) { return 0 }
        if b.kind != .segment, pa.contains(where: { b.boundaryDistance($0, xfB) < 0 }) { return 0 }
        if pa.count > 1 && pb.count > 1 {
            for i in 0..<pa.count {
                for j in 0..<pb.count
                where crosses(pa[i], pa[(i + 1) % pa.count], pb[j], pb[(j + 1) % pb.count]) {
                    return 0
                }
            }
        }
        var d = Float.greatestFiniteMagnitude
        for p in pb { d = min(d, dist(p, a, xfA)) }
        for p in pa { d = min(d, dist(p, b, xfB)) }
        return max(0, d - (a.kind == .circle ? a.radius : 0) - (b.kind == .circle ? b.radius : 0))
    }
}

private enum NP {
    static func xf(_ x: Float, _ y: Float, _ angle: Float = 0) -> Transform {
        Transform(p: Vec2(x, y), q: Rot(angle: angle))
    }

    static func collide(_ a: NPShape, _ xfA: Transform, _ b: NPShape, _ xfB: Transform,
                        speculative: Float = 4) -> Manifold {
        a.withView { va in b.withView { vb in Collide.manifold(va, xfA, vb, xfB, speculative: speculative) } }
    }

    static func ray(_ s: NPShape, _ xf: Transform, _ origin: Vec2, _ translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        s.withView { RayCaster.cast($0, xf, origin: origin, translation: translation) }
    }

    /// A vertex-pair feature id with its two vertices swapped (the pair seen from the other shape).
    static func swapped(_ id: UInt32) -> UInt32 { ((id & 0xFF) << 8) | ((id >> 8) & 0xFF) | (id & ~0xFFFF) }

    static func near(_ a: Float, _ b: Float, _ tol: Float = 1e-3) -> Bool { abs(a - b) <= tol }
    static func near(_ a: Vec2, _ b: Vec2, _ tol: Float = 1e-3) -> Bool { length(a - b) <= tol }

    /// True when the manifold has a point near `p` with separation near `sep`.
    static func hasPoint(_ m: Manifold, _ p: Vec2, sep: Float, tol: Float = 1e-3) -> Bool {
        for i in 0..<m.pointCount where near(m[i].point, p, tol) && near(m[i].separation, sep, tol) {
            return true
        }
        return false
    }

    static func separations(_ m: Manifold) -> [Float] {
        (0..<m.pointCount).map { m[$0].separation }.sorted()
    }
}

@Suite("Narrow phase: circles")
struct NarrowPhaseCircleTests {
    @Test func overlappingCircles() {
        let m = NP.collide(.circle(5), NP.xf(0, 0), .circle(3), NP.xf(7, 0))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(1, 0)))
        // Surfaces at x = 5 (A) and x = 4 (B): gap -1, midpoint 4.5.
        #expect(NP.hasPoint(m, Vec2(4.5, 0), sep: -1))
    }

    @Test func circlesWithOffsetCentersAndRotatedFrames() {
        // Local centres offset; A's body rotated by 90° so its local (2, 0) is world (0, 2).
        let a = NPShape.circle(1, center: Vec2(2, 0))
        let b = NPShape.circle(1, center: Vec2(0, 1))
        let m = NP.collide(a, NP.xf(10, 10, .pi / 2), b, NP.xf(10, 14, 0))
        // World centres (10, 12) and (10, 15): distance 3, separation 1.
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(10, 13.5), sep: 1))
    }

    @Test func circlesSpeculativeLimit() {
        let inside = NP.collide(.circle(1), NP.xf(0, 0), .circle(1), NP.xf(5, 0), speculative: 4)
        #expect(inside.pointCount == 1)
        #expect(NP.near(inside[0].separation, 3))
        let outside = NP.collide(.circle(1), NP.xf(0, 0), .circle(1), NP.xf(5, 0), speculative: 2)
        #expect(outside.pointCount == 0)
    }

    @Test func polygonCircleFaceRegion() throws {
        let box = try NPShape.box(10, 10)
        let m = NP.collide(box, NP.xf(0, 0), .circle(2), NP.xf(3, 11))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        // Box top at y = 10, circle bottom at y = 9.
        #expect(NP.hasPoint(m, Vec2(3, 9.5), sep: -1))
    }

    @Test func polygonCircleVertexRegion() throws {
        let box = try NPShape.box(10, 10)
        // Centre (13, 14) is beyond the corner (10, 10): distance 5, radius 4.
        let m = NP.collide(box, NP.xf(0, 0), .circle(4), NP.xf(13, 14))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0.6, 0.8)))
        // Surfaces at (10, 10) and (10.6, 10.8).
        #expect(NP.hasPoint(m, Vec2(10.3, 10.4), sep: 1))
        // Out of speculative reach at the corner though within reach of the face planes.
        let far = NP.collide(box, NP.xf(0, 0), .circle(1), NP.xf(13, 14), speculative: 3.5)
        #expect(far.pointCount == 0)
    }

    @Test func polygonCircleCentreInside() throws {
        let box = try NPShape.box(10, 10)
        let m = NP.collide(box, NP.xf(0, 0), .circle(1), NP.xf(2, 8))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        // Top face at 10, circle bottom at 7: separation -3.
        #expect(NP.hasPoint(m, Vec2(2, 8.5), sep: -3))
    }

    @Test func polygonCircleRotatedPolygon() throws {
        // Box turned 90° in the world: its local right face (+x) faces world +y.
        let box = try NPShape.box(4, 1)
        let m = NP.collide(box, NP.xf(0, 0, .pi / 2), .circle(1), NP.xf(0, 5.5))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(0, 4.25), sep: 0.5))
    }

    @Test func segmentCircleBothSidesAndEnd() {
        let seg = NPShape.segment(Vec2(-10, 0), Vec2(10, 0))
        let above = NP.collide(seg, NP.xf(0, 0), .circle(2), NP.xf(3, 1.5))
        #expect(above.pointCount == 1)
        #expect(NP.near(above.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(above, Vec2(3, -0.25), sep: -0.5))

        let below = NP.collide(seg, NP.xf(0, 0), .circle(2), NP.xf(3, -1.5))
        #expect(below.pointCount == 1)
        #expect(NP.near(below.normal, Vec2(0, -1)))
        #expect(NP.hasPoint(below, Vec2(3, 0.25), sep: -0.5))

        let end = NP.collide(seg, NP.xf(0, 0), .circle(3), NP.xf(13, 4))
        #expect(end.pointCount == 1)
        #expect(NP.near(end.normal, Vec2(0.6, 0.8)))
        // Distance 5 from the end point (10, 0), radius 3: surfaces at (10, 0) and (11.2, 1.6).
        #expect(NP.hasPoint(end, Vec2(10.6, 0.8), sep: 2))

        let far = NP.collide(seg, NP.xf(0, 0), .circle(1), NP.xf(0, 10))
        #expect(far.pointCount == 0)
    }
}

@Suite("Narrow phase: polygons")
struct NarrowPhasePolygonTests {
    @Test func boxesOverlappingByTwo() throws {
        let ground = try NPShape.box(10, 10)
        let top = try NPShape.box(5, 5)
        let m = NP.collide(ground, NP.xf(0, 0), top, NP.xf(0, 13))
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        // Top face of A at y = 10, bottom of B at y = 8.
        #expect(NP.hasPoint(m, Vec2(-5, 9), sep: -2))
        #expect(NP.hasPoint(m, Vec2(5, 9), sep: -2))
        #expect(m[0].id != m[1].id)
    }

    @Test func boxesOverlapSideways() throws {
        let a = try NPShape.box(10, 10)
        let b = try NPShape.box(5, 5)
        let m = NP.collide(a, NP.xf(0, 0), b, NP.xf(-14.5, 2))
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(-1, 0)))
        #expect(NP.hasPoint(m, Vec2(-9.75, -3), sep: -0.5))
        #expect(NP.hasPoint(m, Vec2(-9.75, 7), sep: -0.5))
    }

    @Test func boxOnItsCornerGivesOnePoint() throws {
        let ground = try NPShape.box(20, 10)
        let diamond = try NPShape.box(5, 5)
        let h = 5 * Float(2).squareRoot()
        // Lowest corner 1 pt below the ground's top face (y = 10).
        let m = NP.collide(ground, NP.xf(0, 0), diamond, NP.xf(3, 10 + h - 1, .pi / 4))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(3, 9.5), sep: -1, tol: 2e-3))
    }

    @Test func speculativeContactsAreKeptOrDropped() throws {
        let a = try NPShape.box(10, 10)
        let b = try NPShape.box(5, 5)
        let xfB = NP.xf(2, 18)  // B's bottom at y = 13: 3 pt above A's top
        let near = NP.collide(a, NP.xf(0, 0), b, xfB, speculative: 4)
        #expect(near.pointCount == 2)
        #expect(NP.near(near.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(near, Vec2(-3, 11.5), sep: 3))
        #expect(NP.hasPoint(near, Vec2(7, 11.5), sep: 3))
        let far = NP.collide(a, NP.xf(0, 0), b, xfB, speculative: 2)
        #expect(far.pointCount == 0)
    }

    @Test func speculativeKeepsOnlyTheNearCornerOfATiltedBox() throws {
        let a = try NPShape.box(10, 10)
        let b = try NPShape.box(5, 1)
        // Tilted by atan(0.1): the bottom edge's ends are ~1 pt apart in height.
        let angle = atanf(0.1)
        let m = NP.collide(a, NP.xf(0, 0), b, NP.xf(0, 12, angle), speculative: 1.3)
        // Corners at separations ≈ 0.51 (left) and ≈ 1.50 (right): only the left one is kept.
        #expect(m.pointCount == 1)
        #expect(m.pointCount == 1 && NP.near(m[0].separation, 0.508, 0.01) && m[0].point.x < 0)
    }

    @Test func normalPointsFromAToBWhenBIsReference() throws {
        // A is a tilted box on top of a wide box B: B's top face is the reference face.
        let a = try NPShape.box(5, 5)
        let b = try NPShape.box(20, 10)
        let xfA = NP.xf(0, 14.5, 0.1)
        let xfB = NP.xf(0, 0)
        let m = NP.collide(a, xfA, b, xfB)
        #expect(m.pointCount >= 1)
        #expect(NP.near(m.normal, Vec2(0, -1)))  // from A (above) down to B
        // Ids pair a vertex of A with one of B: B's top face runs from vertex 2 to 3, A's bottom
        // edge from 0 to 1, so A's vertex 0 meets B's vertex 3 and A's 1 meets B's 2.
        let faceIDs: Set<UInt32> = [featureID(0, 3), featureID(1, 2)]
        for i in 0..<m.pointCount { #expect(faceIDs.contains(m[i].id)) }

        // Same pair in the other order: opposite normal, same points and separations, and the
        // same vertex pairs (now B's vertex first).
        let r = NP.collide(b, xfB, a, xfA)
        #expect(NP.near(r.normal, Vec2(0, 1)))
        #expect(r.pointCount == m.pointCount)
        #expect(Set((0..<r.pointCount).map { r[$0].id }) == Set((0..<m.pointCount).map { NP.swapped(m[$0].id) }))
        let sm = NP.separations(m), sr = NP.separations(r)
        for i in 0..<min(sm.count, sr.count) { #expect(NP.near(sm[i], sr[i])) }
        for i in 0..<m.pointCount { #expect(NP.hasPoint(r, m[i].point, sep: m[i].separation)) }
        // The deepest point is A's lowest corner, on the incident side; B's top face is at y = 10.
        let corner = xfA.apply(Vec2(-5, -5))
        let deepest = m[0].separation < (m.pointCount > 1 ? m[1].separation : .infinity) ? m[0] : m[1]
        #expect(NP.near(deepest.separation, corner.y - 10))
        #expect(NP.near(deepest.point, Vec2(corner.x, 0.5 * (corner.y + 10))))
    }

    @Test func referenceFacePrefersAWithinTolerance() throws {
        // Equal boxes stacked: A's and B's faces separate equally; A must be the reference (its
        // top face's normal, exactly), as when B is turned by a hair.
        let a = try NPShape.box(5, 5)
        for angle: Float in [0, 0.0002, -0.0002] {
            let m = NP.collide(a, NP.xf(0, 0), a, NP.xf(1, 9.5, angle))
            #expect(m.pointCount == 2)
            #expect(m.normal == Vec2(0, 1))
        }
    }

    @Test func featureIDsSurviveAReferenceFaceTrade() throws {
        // A wide box resting on a narrower one: flat, both faces separate equally and A's top
        // face is the reference; turned by a hair, B's bottom face separates more and becomes
        // the reference (the normal turns with B). The points keep their ids either way, so the
        // solver keeps their warm start.
        let a = try NPShape.box(25, 50), b = try NPShape.box(50, 50)
        let m0 = NP.collide(a, NP.xf(0, 0), b, NP.xf(0, 99, 0))
        let m1 = NP.collide(a, NP.xf(0, 0), b, NP.xf(0, 99, 0.01))
        #expect(m0.pointCount == 2 && m1.pointCount == 2)
        #expect(m0.normal == Vec2(0, 1))
        #expect(m1.normal != Vec2(0, 1) && NP.near(m1.normal, Vec2(-sinf(0.01), cosf(0.01))))
        // A's top face runs from vertex 2 (right) to 3 (left), B's bottom face from 0 (left) to
        // 1 (right): the right point lies between A's 2 and B's 1, the left one between 3 and 0.
        for m in [m0, m1] {
            #expect(Set((0..<m.pointCount).map { m[$0].id }) == [featureID(2, 1), featureID(3, 0)])
            for i in 0..<m.pointCount { #expect((m[i].id == featureID(2, 1)) == (m[i].point.x > 0)) }
        }
    }

    @Test func featureIDsStableUnderSmallMotion() throws {
        let ground = try NPShape.box(20, 10)
        let box = try NPShape.box(5, 5)
        let configs: [(NPShape, Transform, NPShape, Transform)] = [
            (ground, NP.xf(0, 0), box, NP.xf(2, 14.5, 0)),         // flat, A reference
            (ground, NP.xf(0, 0), box, NP.xf(2, 14.5, 0.003)),     // slightly tilted
            (box, NP.xf(2, 14.5, 0.1), ground, NP.xf(0, 0)),       // B reference (flip)
            (ground, NP.xf(0, 0), box, NP.xf(3, 10 + 5 * Float(2).squareRoot() - 1, .pi / 4)),
        ]
        for (a, xfA, b, xfB) in configs {
            let m0 = NP.collide(a, xfA, b, xfB)
            #expect(m0.pointCount > 0)
            for delta in [Vec2(0.01, 0), Vec2(-0.01, 0), Vec2(0, 0.01), Vec2(0, -0.01), Vec2(0.01, -0.01)] {
                var moved = xfB
                moved.p += delta
                let m1 = NP.collide(a, xfA, b, moved)
                #expect(m1.pointCount == m0.pointCount)
                for i in 0..<min(m0.pointCount, m1.pointCount) {
                    #expect(m0[i].id == m1[i].id)
                    #expect(NP.near(m0[i].point, m1[i].point, 0.02))
                }
            }
        }
    }

    @Test func featureIDsStableUnderJitter() throws {
        // A resting box jiggling slightly from step to step (as in a settled stack) must keep
        // its reference face and ids, so the solver can warm start.
        let ground = try NPShape.box(20, 10)
        let box = try NPShape.box(5, 5)
        var rng = TestRandom(seed: 7)
        for (a, b, base) in [(ground, box, NP.xf(3, 14.6)), (box, box, NP.xf(1, 9.6))] {
            let m0 = NP.collide(a, NP.xf(0, 0), b, base)
            #expect(m0.pointCount == 2)
            let ids0 = Set([m0[0].id, m0[1].id])
            for _ in 0..<200 {
                let xfB = NP.xf(base.p.x + rng.float(-0.02, 0.02), base.p.y + rng.float(-0.02, 0.02),
                                rng.float(-0.002, 0.002))
                let m = NP.collide(a, NP.xf(0, 0), b, xfB)
                #expect(m.pointCount == 2)
                if m.pointCount == 2 { #expect(Set([m[0].id, m[1].id]) == ids0) }
            }
        }
    }

    @Test func nearTieWithIncidentEdgeBesideThePreferredFace() throws {
        // Regression (found by the randomized test): A's best face is preferred within the
        // tolerance although B's incident edge lies beside it; B's face must be used instead.
        let a = try NPShape.box(5, 5)
        let b = try NPShape.polygon([Vec2(-3, -2), Vec2(2, -3), Vec2(4, 1), Vec2(0, 4), Vec2(-4, 2)])
        let xfA = Transform(p: Vec2(10.445015, 6.224972), q: Rot(c: -0.76189893, s: 0.6476959))
        let xfB = Transform(p: Vec2(-0.7471752, 6.2720547), q: Rot(c: 0.92198163, s: -0.38723364))
        let gap = NPShape.gap(a, xfA, b, xfB)
        #expect(gap > 0.05 && gap < 0.1)
        let m = NP.collide(a, xfA, b, xfB, speculative: 4)
        #expect(m.pointCount >= 1)
        var minSep = Float.infinity
        for i in 0..<m.pointCount { minSep = min(minSep, m[i].separation) }
        #expect(NP.near(minSep, gap, 1e-2))
    }

    @Test func featureIDsDistinguishReferenceFaces() throws {
        let ground = try NPShape.box(20, 10)
        let box = try NPShape.box(5, 5)
        let onTop = NP.collide(ground, NP.xf(0, 0), box, NP.xf(0, 14.5))
        let onSide = NP.collide(ground, NP.xf(0, 0), box, NP.xf(24.5, 0))
        #expect(onTop.pointCount == 2 && onSide.pointCount == 2)
        let topIDs = Set([onTop[0].id, onTop[1].id])
        let sideIDs = Set([onSide[0].id, onSide[1].id])
        #expect(topIDs.isDisjoint(with: sideIDs))
    }

    @Test func cornerToCornerGapUsesVertexDirection() throws {
        let a = try NPShape.box(5, 5)
        // B's lower-left corner (8, 9) vs A's upper-right corner (5, 5): gap 5 along (0.6, 0.8).
        let m = NP.collide(a, NP.xf(0, 0), a, NP.xf(13, 14), speculative: 6)
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(0.6, 0.8)))
        #expect(NP.hasPoint(m, Vec2(6.5, 7), sep: 5))
        let none = NP.collide(a, NP.xf(0, 0), a, NP.xf(13, 14), speculative: 4.5)
        #expect(none.pointCount == 0)
    }

    /// Regression: equal boxes exactly aligned with a gap (a stack, a pile's columns) must get
    /// the two-point face contact, not a single corner point (which makes landings spin).
    @Test(arguments: [Float(0), 0.5, 10])
    func alignedEqualBoxesWithAGapGetTwoPoints(gap: Float) throws {
        let a = try NPShape.box(50, 50)
        let m = NP.collide(a, NP.xf(0, 0), a, NP.xf(0, 100 + gap), speculative: 27)
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(-50, 50 + gap / 2), sep: gap))
        #expect(NP.hasPoint(m, Vec2(50, 50 + gap / 2), sep: gap))
    }

    @Test func largeWorldCoordinates() throws {
        let ground = try NPShape.box(10, 10)
        let top = try NPShape.box(5, 5)
        let m = NP.collide(ground, NP.xf(20_000, -15_000), top, NP.xf(20_000, -14_987))
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        for i in 0..<m.pointCount { #expect(NP.near(m[i].separation, -2, 1e-2)) }
    }

    @Test func irregularPolygonsRotatedFrames() throws {
        // A triangle pointing down into a box's top face, everything rotated by 30°.
        let tri = try NPShape.polygon([Vec2(0, -3), Vec2(4, 2), Vec2(-4, 2)])
        let box = try NPShape.box(10, 2)
        let q = Rot(angle: .pi / 6)
        let xfA = Transform(p: Vec2(5, 5), q: q)
        // Triangle tip 0.5 below the box top (local y = 2) in the box's frame.
        let xfB = Transform(p: xfA.apply(Vec2(1, 4.5)), q: q)
        let m = NP.collide(box, xfA, tri, xfB)
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, q.rotate(Vec2(0, 1))))
        #expect(NP.hasPoint(m, xfA.apply(Vec2(1, 1.75)), sep: -0.5))
    }

    /// Geometric consistency on many random pairs of every kind: the two surface points of each
    /// contact (point ∓ separation/2 · normal) lie on the boundaries of A and B; pairs that
    /// overlap get a point with negative separation; pairs clearly within the speculative
    /// distance get a point.
    @Test func randomPairsSurfacePointsLieOnBoundaries() throws {
        var rng = TestRandom(seed: 12345)
        let polygons: [NPShape] = [
            try .box(5, 5), try .box(12, 2), try .box(3, 7, center: Vec2(1, -1), angle: 0.3),
            try .polygon([Vec2(0, -3), Vec2(4, 2), Vec2(-4, 2)]),
            try .polygon([Vec2(-3, -2), Vec2(2, -3), Vec2(4, 1), Vec2(0, 4), Vec2(-4, 2)]),
        ]
        let circles: [NPShape] = [.circle(3), .circle(1, center: Vec2(2, 1))]
        let segments: [NPShape] = [.segment(Vec2(-20, 0), Vec2(20, 0)), .segment(Vec2(-3, -2), Vec2(5, 4))]
        let speculative: Float = 2
        var contacts = 0, overlapsWithoutPoints = 0, nearMisses = 0, deepChecked = 0
        for trial in 0..<6000 {
            let a: NPShape, b: NPShape
            switch trial % 5 {
            case 0: a = rng.pick(circles); b = rng.pick(circles)
            case 1: a = rng.pick(polygons); b = rng.pick(circles)
            case 2: a = rng.pick(segments); b = rng.pick(circles)
            case 3: a = rng.pick(segments); b = rng.pick(polygons)
            default: a = rng.pick(polygons); b = rng.pick(polygons)
            }
            let xfA = NP.xf(rng.float(-50, 50), rng.float(-50, 50), rng.float(-3.2, 3.2))
            let xfB = NP.xf(xfA.p.x + rng.float(-15, 15), xfA.p.y + rng.float(-15, 15), rng.float(-3.2, 3.2))
            let m = NP.collide(a, xfA, b, xfB, speculative: speculative)
            if m.pointCount > 0 { #expect(NP.near(length(m.normal), 1)) }
            var minSep = Float.greatestFiniteMagnitude
            for i in 0..<m.pointCount {
                contacts += 1
                let p = m[i].point, s = m[i].separation, n = m.normal
                minSep = min(minSep, s)
                #expect(s < speculative)
                let onA = p - 0.5 * s * n, onB = p + 0.5 * s * n
                #expect(abs(a.boundaryDistance(onA, xfA)) < 5e-3)
                #expect(abs(b.boundaryDistance(onB, xfB)) < 5e-3)
            }
            let gap = NPShape.gap(a, xfA, b, xfB)
            if gap == 0 {
                // Overlap by more than a sliver (a vertex or centre of B well inside A).
                var deep = false
                if a.kind != .segment {
                    let probe = b.kind == .circle ? [b.center] : b.vertices
                    for v in probe where a.boundaryDistance(xfB.apply(v), xfA) < -0.5 - (b.kind == .circle ? b.radius : 0) { deep = true }
                }
                if deep {
                    deepChecked += 1
                    if m.pointCount == 0 || minSep >= 0 { overlapsWithoutPoints += 1 }
                }
            } else if gap < speculative - 0.25 && m.pointCount == 0 {
                nearMisses += 1
            } else if m.pointCount > 0 {
                // A contact's separation never underestimates... it is at least the true gap.
                #expect(minSep >= gap - 1e-2)
            }
        }
        #expect(contacts > 1000)
        #expect(deepChecked > 100)
        #expect(overlapsWithoutPoints == 0)
        #expect(nearMisses == 0)
    }
}

@Suite("Narrow phase: segments")
struct NarrowPhaseSegmentTests {
    @Test func boxRestingFlatOnLongSegment() throws {
        let seg = NPShape.segment(Vec2(-50, 0), Vec2(50, 0))
        let box = try NPShape.box(5, 5)
        let m = NP.collide(seg, NP.xf(0, 0), box, NP.xf(7, 4))  // bottom at y = -1
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(2, -0.5), sep: -1))
        #expect(NP.hasPoint(m, Vec2(12, -0.5), sep: -1))
        #expect(m[0].id != m[1].id)
    }

    @Test func segmentIsTwoSided() throws {
        let seg = NPShape.segment(Vec2(-50, 0), Vec2(50, 0))
        let box = try NPShape.box(5, 5)
        let m = NP.collide(seg, NP.xf(0, 0), box, NP.xf(0, -4.5))  // top at y = 0.5
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, -1)))
        #expect(NP.hasPoint(m, Vec2(-5, 0.25), sep: -0.5))
        #expect(NP.hasPoint(m, Vec2(5, 0.25), sep: -0.5))
    }

    @Test func segmentInRotatedFrame() throws {
        // A segment body rotated by 90°: local x axis is world y. A box rests against it from +x.
        let seg = NPShape.segment(Vec2(-50, 0), Vec2(50, 0))
        let box = try NPShape.box(2, 2)
        let m = NP.collide(seg, NP.xf(10, 0, .pi / 2), box, NP.xf(11.5, 3))
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(1, 0)))
        #expect(NP.hasPoint(m, Vec2(9.75, 1), sep: -0.5))
        #expect(NP.hasPoint(m, Vec2(9.75, 5), sep: -0.5))
    }

    @Test func boxAgainstSegmentEndPoint() throws {
        let seg = NPShape.segment(Vec2(0, 0), Vec2(10, 0))
        let box = try NPShape.box(1, 1)
        // Box's left face 0.2 pt past the end point (10, 0).
        let m = NP.collide(seg, NP.xf(0, 0), box, NP.xf(10.8, 0))
        #expect(m.pointCount == 1)
        #expect(NP.near(m.normal, Vec2(1, 0)))
        #expect(NP.hasPoint(m, Vec2(9.9, 0), sep: -0.2))

        // Gap of 0.5 past the end point: a speculative point.
        let gap = NP.collide(seg, NP.xf(0, 0), box, NP.xf(11.5, 0))
        #expect(gap.pointCount == 1)
        #expect(NP.near(gap.normal, Vec2(1, 0)))
        #expect(NP.hasPoint(gap, Vec2(10.25, 0), sep: 0.5))
    }

    @Test func boxCornerNearSegmentEndPoint() throws {
        let seg = NPShape.segment(Vec2(0, 0), Vec2(10, 0))
        let box = try NPShape.box(1, 1)
        // Lower-left corner at (11, 0.5): closest to the end point (10, 0).
        let m = NP.collide(seg, NP.xf(0, 0), box, NP.xf(12, 1.5))
        #expect(m.pointCount == 1)
        let d = Vec2(1, 0.5)
        #expect(NP.near(m.normal, normalize(d)))
        #expect(NP.hasPoint(m, Vec2(10.5, 0.25), sep: length(d)))
    }

    @Test func boxHangingOverSegmentEnd() throws {
        // Box straddles the end point: one bottom corner over the segment, the other edge point
        // clipped at the segment's end point.
        let seg = NPShape.segment(Vec2(0, 0), Vec2(10, 0))
        let box = try NPShape.box(2, 2)
        let m = NP.collide(seg, NP.xf(0, 0), box, NP.xf(10, 1.5))
        #expect(m.pointCount == 2)
        #expect(NP.near(m.normal, Vec2(0, 1)))
        #expect(NP.hasPoint(m, Vec2(8, -0.25), sep: -0.5))
        #expect(NP.hasPoint(m, Vec2(10, -0.25), sep: -0.5))
    }

    @Test func wrongOrderIsRejected() async {
        await #expect(processExitsWith: .failure) {
            let circle = NPShape.circle(1)
            let seg = NPShape.segment(Vec2(0, 0), Vec2(10, 0))
            _ = NP.collide(circle, NP.xf(0, 0), seg, NP.xf(0, 0))
        }
    }

    @Test func segmentPairsAreEmpty() {
        let s = NPShape.segment(Vec2(0, 0), Vec2(10, 0))
        let m = NP.collide(s, NP.xf(0, 0), s, NP.xf(0, 0))
        #expect(m.pointCount == 0)
    }
}

@Suite("Ray casts")
struct NarrowPhaseRayCastTests {
    @Test func circleHitMissInside() {
        let c = NPShape.circle(2, center: Vec2(1, 0))
        let xf = NP.xf(9, 0)  // world centre (10, 0)
        let hit = NP.ray(c, xf, Vec2(0, 0), Vec2(20, 0))
        #expect(hit != nil)
        if let h = hit {
            #expect(NP.near(h.fraction, 0.4))
            #expect(NP.near(h.point, Vec2(8, 0)))
            #expect(NP.near(h.normal, Vec2(-1, 0)))
        }
        let oblique = NP.ray(c, xf, Vec2(10, 10), Vec2(0, -20))
        #expect(oblique.map { NP.near($0.point, Vec2(10, 2)) && NP.near($0.normal, Vec2(0, 1)) } == true)
        #expect(NP.ray(c, xf, Vec2(0, 0), Vec2(0, 20)) == nil)      // misses
        #expect(NP.ray(c, xf, Vec2(0, 0), Vec2(5, 0)) == nil)       // too short
        #expect(NP.ray(c, xf, Vec2(10.5, 0), Vec2(20, 0)) == nil)   // starts inside
        #expect(NP.ray(c, xf, Vec2(20, 0), Vec2(20, 0)) == nil)     // points away
    }

    @Test func polygonHitMissInside() throws {
        let box = try NPShape.box(2, 1)
        let xf = NP.xf(10, 0, .pi / 2)  // world extent x ∈ [9, 11], y ∈ [-2, 2]
        let hit = NP.ray(box, xf, Vec2(0, 1), Vec2(20, 0))
        #expect(hit != nil)
        if let h = hit {
            #expect(NP.near(h.fraction, 0.45))
            #expect(NP.near(h.point, Vec2(9, 1)))
            #expect(NP.near(h.normal, Vec2(-1, 0)))
        }
        let fromAbove = NP.ray(box, xf, Vec2(10.5, 10), Vec2(0, -10))
        #expect(fromAbove.map { NP.near($0.fraction, 0.8) && NP.near($0.normal, Vec2(0, 1)) } == true)
        #expect(NP.ray(box, xf, Vec2(0, 3), Vec2(20, 0)) == nil)     // passes above
        #expect(NP.ray(box, xf, Vec2(0, 0), Vec2(8, 0)) == nil)      // too short
        #expect(NP.ray(box, xf, Vec2(10, 0), Vec2(20, 0)) == nil)    // starts inside
    }

    @Test func diamondHitsSlantedFace() throws {
        let box = try NPShape.box(1, 1)
        let xf = NP.xf(0, 0, .pi / 4)  // corners at (±√2, 0), (0, ±√2)
        let hit = NP.ray(box, xf, Vec2(-5, 0.5), Vec2(10, 0))
        #expect(hit != nil)
        if let h = hit {
            // Upper-left face: x - y = -√2  →  x = 0.5 - √2.
            #expect(NP.near(h.point, Vec2(0.5 - Float(2).squareRoot(), 0.5)))
            #expect(NP.near(h.normal, normalize(Vec2(-1, 1))))
        }
    }

    @Test func segmentHitBothSidesAndMiss() {
        let seg = NPShape.segment(Vec2(0, -5), Vec2(0, 5))
        let xf = NP.xf(10, 0)
        let left = NP.ray(seg, xf, Vec2(0, 0), Vec2(20, 0))
        #expect(left.map { NP.near($0.fraction, 0.5) && NP.near($0.normal, Vec2(-1, 0)) && NP.near($0.point, Vec2(10, 0)) } == true)
        let right = NP.ray(seg, xf, Vec2(20, 3), Vec2(-20, 0))
        #expect(right.map { NP.near($0.fraction, 0.5) && NP.near($0.normal, Vec2(1, 0)) && NP.near($0.point, Vec2(10, 3)) } == true)
        #expect(NP.ray(seg, xf, Vec2(0, 6), Vec2(20, 0)) == nil)     // passes beyond the end
        #expect(NP.ray(seg, xf, Vec2(0, 0), Vec2(9, 0)) == nil)      // too short
        #expect(NP.ray(seg, xf, Vec2(0, 0), Vec2(0, 20)) == nil)     // parallel
    }
}

fileprivate extension TestRandom {
    mutating func pick(_ shapes: [NPShape]) -> NPShape { shapes[Int(next() % UInt64(shapes.count))] }
}

@Suite("Narrow phase: pairs apart")
struct NarrowPhaseApartTests {
    /// The narrow phase computes no manifold for two bodies whose bounding circles lie farther
    /// apart than the pair's margin (`NarrowPhaseContext.apart`); that must be exactly the pairs
    /// whose manifold would be empty. Bodies of every kind of shape — boxes, irregular and
    /// rounded polygons, capsules, circles off their body's centre, ellipses and two-shape
    /// bodies — at random places and angles, most pairs near the bounding circles' reach.
    @Test func bodiesApartHaveNoManifoldPoints() throws {
        let world = TestWorld.make(gravity: .zero)
        var rng = TestRandom(seed: 20261207)
        let kinds: [[Geometry]] = [
            [.box(halfWidth: 20, halfHeight: 8)],
            [.polygon([Vec2(0, -15), Vec2(18, 10), Vec2(-12, 12)])],
            [.roundedPolygon([Vec2(-10, -6), Vec2(10, -6), Vec2(10, 6), Vec2(-10, 6)], radius: 4)],
            [.capsule(Vec2(-15, 0), Vec2(15, 0), radius: 6)],
            [.circle(radius: 9, center: Vec2(5, -3))],
            [.ellipse(halfWidth: 18, halfHeight: 7)],
            [.box(halfWidth: 6, halfHeight: 6, center: Vec2(-14, 0)), .capsule(Vec2(5, -5), Vec2(20, 5), radius: 3)],
        ]
        var handles: [BodyHandle] = []
        for i in 0..<240 {
            let shapes = kinds[i % kinds.count].map { ShapeDef($0) }
            let def = BodyDef(type: .dynamic, position: Vec2(rng.float(0, 320), rng.float(0, 320)), angle: rng.float(-3.2, 3.2))
            handles.append(try world.createBody(def, shapes: shapes))
        }
        let geometry = ShapeGeometry(records: world.shapes.view, vertices: world.pool.vertices.view, normals: world.pool.normals.view)
        var apart = 0, nearReach = 0, withPoints = 0
        for i in 0..<handles.count {
            for j in (i + 1)..<handles.count {
                let a = Int(handles[i].index), b = Int(handles[j].index)
                let simA = world.sims[a], simB = world.sims[b]
                let reach = length(simB.center - simA.center) - simA.maxExtent - simB.maxExtent
                for margin: Float in [2, 12, 40] where NarrowPhaseContext.apart(simA, simB, margin: margin) {
                    apart += 1
                    if reach < margin + 3 { nearReach += 1 }
                    world.forEachShape(of: a) { sa in
                        world.forEachShape(of: b) { sb in
                            var (va, xfA, vb, xfB) = (geometry.shape(sa), simA.xf, geometry.shape(sb), simB.xf)
                            if va.kind.rawValue < vb.kind.rawValue { swap(&va, &vb); swap(&xfA, &xfB) }
                            let m = Collide.manifold(va, xfA, vb, xfB, speculative: margin)
                            #expect(m.pointCount == 0, "bodies \(i) and \(j), margin \(margin): bounding circles \(reach) apart, yet \(m.pointCount) points")
                        }
                    }
                }
                // (And pairs within reach do touch: the test sees manifolds with points.)
                world.forEachShape(of: a) { sa in
                    world.forEachShape(of: b) { sb in
                        var (va, xfA, vb, xfB) = (geometry.shape(sa), simA.xf, geometry.shape(sb), simB.xf)
                        if va.kind.rawValue < vb.kind.rawValue { swap(&va, &vb); swap(&xfA, &xfB) }
                        if Collide.manifold(va, xfA, vb, xfB, speculative: 12).pointCount > 0 { withPoints += 1 }
                    }
                }
            }
        }
        #expect(apart > 40_000)
        #expect(nearReach > 300)
        #expect(withPoints > 300)
    }
}

/// A contact whose bodies are apart and which had no points is passed over without its data
/// slot being read (`NarrowPhaseContext.update`): that is only right while a contact without
/// points always holds an empty manifold and an apart pair is never cached for recycling.
@Suite("Apart contacts pass over their data")
struct ApartContactTests {
    @Test func contactsWithoutPointsHoldEmptyManifolds() throws {
        let seed: UInt64 = 11
        let (w, bodies, _) = try ContactSetTests.pile(seed: seed, count: 160)
        let replay = "replay: swift test --filter ApartContactTests (seed \(seed))"
        var rng = TestRandom(seed: seed)
        var passedOver = 0, passedOverAfterPoints = 0, withPoints = 0, lost = 0
        var hadPoints = Set<UInt64>()
        for step in 0..<400 {
            // Bodies thrown across the pile and back: pairs go from touching to apart and back.
            if step % 15 == 0 {
                for (k, b) in bodies.enumerated() where k % 5 == (step / 15) % 5 {
                    w.setLinearVelocity(b, Vec2(rng.float(-1500, 1500), rng.float(-1500, 300)))
                }
            }
            let before = Dictionary(uniqueKeysWithValues: w.contacts.view.filter { $0.shapeA >= 0 }.map { ($0.key, $0.flags) })
            w.step()
            for c in w.contacts.view where c.shapeA >= 0 {
                let m = w.contacts.data[Int(c.slot)].manifold
                let hasPoints = c.flags & Contact.hasPoints != 0
                if hasPoints != (m.pointCount > 0) {
                    lost += 1
                    Issue.record("step \(step), contact \(c.shapeA)–\(c.shapeB): flags \(c.flags), \(m.pointCount) points; \(replay)")
                }
                if hasPoints { withPoints += 1 }
                // (No points before nor after, nothing cached though neither shape is a circle,
                // whose contacts are never cached: a pair that stayed apart.)
                if let f = before[c.key], f & (Contact.hasPoints | Contact.cached) == 0, c.flags == 0,
                   w.shapes[Int(c.shapeA)].kind != .circle && w.shapes[Int(c.shapeB)].kind != .circle {
                    passedOver += 1
                    // (One that had points before: its apart manifold was computed, and not cached.)
                    if hadPoints.contains(c.key) { passedOverAfterPoints += 1 }
                }
                if hasPoints { hadPoints.insert(c.key) }
            }
            // (A pair whose contact ended starts afresh when it is found again.)
            hadPoints.formIntersection(w.contacts.view.lazy.filter { $0.shapeA >= 0 }.map(\.key))
            if lost > 3 { break }
        }
        #expect(passedOver > 1000, "only \(passedOver) contacts of two polygons stayed apart without points")
        #expect(passedOverAfterPoints > 100, "only \(passedOverAfterPoints) contacts that had points were passed over once apart")
        #expect(withPoints > 10_000)
    }
}
