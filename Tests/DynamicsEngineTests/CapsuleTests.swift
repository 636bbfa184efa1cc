import Foundation
import Testing
@testable import DynamicsEngine

/// Capsules and rounded polygons: mass properties against closed forms and a grid integration,
/// resting heights, ray casts onto their rounded outlines, the capsule pairs' manifolds, bad
/// geometry, shape inspection and snapshots.
@Suite("Capsules and rounded polygons")
struct CapsuleTests {
    /// The engine's mass per pt² at density 1 (100 × 100 pt at density 1 weighs 1).
    let perArea: Float = 1.0e-4

    func body(_ world: World, _ g: Geometry, at p: Vec2 = .zero, angle: Float = 0, type: BodyType = .dynamic,
              fixedRotation: Bool = false) throws -> BodyHandle {
        var def = BodyDef()
        def.type = type; def.position = p; def.angle = angle; def.fixedRotation = fixedRotation
        return try world.createBody(def, shapes: [ShapeDef(g)])
    }

    @Test("a capsule's mass and inertia are the rectangle's and the two half discs' (exact to 1e-4)")
    func capsuleMass() throws {
        let world = World(gravity: .zero)
        let L: Float = 100, r: Float = 20
        let h = try body(world, .capsule(Vec2(-L / 2, 10), Vec2(L / 2, 10), radius: r))
        let rho = perArea
        let mRect = rho * 2 * r * L, mDisc = rho * Float.pi * r * r
        // Each half disc: its centre of mass 4r/3π beyond its flat side; I = m r²/2 about that
        // side's centre, moved by the parallel-axis theorem.
        let g = 4 * r / (3 * Float.pi)
        let iHalves = mDisc * (r * r / 2 - g * g) + mDisc * (L / 2 + g) * (L / 2 + g)
        let iRect = mRect * (L * L + 4 * r * r) / 12
        #expect(abs(world.mass(h) - (mRect + mDisc)) <= 1e-4 * (mRect + mDisc))
        #expect(abs(world.inertia(h) - (iRect + iHalves)) <= 1e-4 * (iRect + iHalves), "inertia \(world.inertia(h)) vs \(iRect + iHalves)")
        // The centre of mass is the segment's middle.
        #expect(abs((world.worldCenter(h) - world.position(h)).y - 10) < 1e-4 && abs((world.worldCenter(h) - world.position(h)).x) < 1e-4)
    }

    /// Area, centroid and polar moment about the centroid of the points within `r` of the
    /// convex core `core`, by midpoint sampling on a grid of `cell` pt.
    func integrate(_ core: [Vec2], radius r: Float, cell: Float) -> (area: Double, center: (Double, Double), polar: Double) {
        var lo = core[0], hi = core[0]
        for p in core { lo = Vec2(min(lo.x, p.x), min(lo.y, p.y)); hi = Vec2(max(hi.x, p.x), max(hi.y, p.y)) }
        lo -= Vec2(r, r); hi += Vec2(r, r)
        func inside(_ p: Vec2) -> Bool {
            var within = true
            var nearest = Float.infinity
            for i in core.indices {
                let a = core[i], b = core[(i + 1) % core.count], e = b - a
                if cross(e, p - a) < 0 { within = false }
                let t = max(0, min(1, dot(p - a, e) / dot(e, e)))
                nearest = min(nearest, length(p - (a + t * e)))
            }
            return within || nearest <= r
        }
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0
        var y = lo.y + cell / 2
        while y < hi.y {
            var x = lo.x + cell / 2
            while x < hi.x {
                if inside(Vec2(x, y)) { n += 1; sx += Double(x); sy += Double(y); sxx += Double(x * x + y * y) }
                x += cell
            }
            y += cell
        }
        let a = n * Double(cell * cell)
        let cx = sx / n, cy = sy / n
        return (a, (cx, cy), sxx * Double(cell * cell) - a * (cx * cx + cy * cy))
    }

    @Test("a rounded triangle's mass, centre and inertia match a grid integration of its outline (0.5 %)")
    func roundedPolygonMass() throws {
        let world = World(gravity: .zero)
        let core = [Vec2(0, 0), Vec2(120, 10), Vec2(30, 80)]
        let r: Float = 15
        let h = try body(world, .roundedPolygon(core, radius: r))
        let grid = integrate(core, radius: r, cell: 0.25)
        let rho = Double(perArea)
        #expect(abs(Double(world.mass(h)) / (rho * grid.area) - 1) < 0.005, "mass \(world.mass(h)) vs \(rho * grid.area)")
        #expect(abs(Double(world.inertia(h)) / (rho * grid.polar) - 1) < 0.005, "inertia \(world.inertia(h)) vs \(rho * grid.polar)")
        let c = (world.worldCenter(h) - world.position(h))
        #expect(abs(Double(c.x) - grid.center.0) < 0.1 && abs(Double(c.y) - grid.center.1) < 0.1, "centre \(c) vs \(grid.center)")
        // Exact area: core + perimeter × r + π r².
        let perimeter = length(core[1] - core[0]) + length(core[2] - core[1]) + length(core[0] - core[2])
        let area = 0.5 * cross(core[1] - core[0], core[2] - core[0]) + perimeter * r + Float.pi * r * r
        #expect(abs(world.mass(h) / (perArea * area) - 1) < 1e-5)
    }

    /// Steps `world` 3 s at 60 Hz.
    func settle(_ world: World) { for _ in 0..<180 { world.step(dt: 1.0 / 60) } }

    @Test("a capsule rests on its side at its radius, and on its end at half its length plus its radius (within the linear slop)")
    func restingHeights() throws {
        let world = World(gravity: Vec2(0, -1000))
        _ = try body(world, .segment(Vec2(-1000, 0), Vec2(1000, 0)), type: .static)
        let r: Float = 10, half: Float = 40
        let lying = try body(world, .capsule(Vec2(-half, 0), Vec2(half, 0), radius: r), at: Vec2(-300, 30))
        // Standing on one end (kept upright: balanced on a point it would topple).
        let standing = try body(world, .capsule(Vec2(0, -half), Vec2(0, half), radius: r), at: Vec2(300, 80), fixedRotation: true)
        settle(world)
        let slop = Collide.linearSlop
        #expect(abs(world.position(lying).y - r) <= slop, "lying at \(world.position(lying).y)")
        #expect(abs(world.angle(lying)) < 1e-3, "a lying capsule stays flat (angle \(world.angle(lying)))")
        #expect(abs(world.position(standing).y - (half + r)) <= slop, "standing at \(world.position(standing).y)")
        // A capsule lying across another, parallel, rests a diameter up and flat.
        let upper = try body(world, .capsule(Vec2(-half, 0), Vec2(half, 0), radius: r), at: Vec2(-290, 50))
        settle(world)
        #expect(abs(world.position(upper).y - 3 * r) <= 2 * slop, "the upper capsule at \(world.position(upper).y)")
        #expect(abs(world.angle(upper)) < 1e-2, "and flat (angle \(world.angle(upper)))")
        // A rounded box rests at its core's half height plus its radius.
        let rounded = try body(world, .roundedPolygon([Vec2(-20, -15), Vec2(20, -15), Vec2(20, 15), Vec2(-20, 15)], radius: 5), at: Vec2(0, 60))
        settle(world)
        #expect(abs(world.position(rounded).y - 20) <= slop, "the rounded box at \(world.position(rounded).y)")
    }

    @Test("a ray onto a rounded top hits the flat face a radius above the core, and the corner's arc with the arc's normal")
    func rayOntoRoundedTop() throws {
        let world = World(gravity: .zero)
        let h = try body(world, .roundedPolygon([Vec2(-50, -50), Vec2(50, -50), Vec2(50, 50), Vec2(-50, 50)], radius: 10),
                         at: Vec2(0, 0), type: .static)
        world.step(dt: 1.0 / 60)
        let top = try #require(world.rayCast(from: Vec2(0, 200), translation: Vec2(0, -400)))
        #expect(top.body == h && abs(top.point.y - 60) < 1e-3 && abs(top.normal.y - 1) < 1e-5)
        #expect(abs(top.fraction - 140.0 / 400) < 1e-5)
        // Over the corner arc, 5 pt beyond the core's side: 50 + √(10² − 5²) high.
        let arc = try #require(world.rayCast(from: Vec2(55, 200), translation: Vec2(0, -400)))
        let y = 50 + (100 - 25 as Float).squareRoot()
        #expect(abs(arc.point.y - y) < 1e-3, "hit at \(arc.point)")
        #expect(abs(arc.normal.x - 0.5) < 1e-4 && abs(arc.normal.y - y / 10 + 5) < 1e-4, "normal \(arc.normal)")
        // Beyond the radius: no hit. From inside the rounded skin: none either.
        #expect(world.rayCast(from: Vec2(61, 200), translation: Vec2(0, -400)) == nil)
        #expect(world.rayCast(from: Vec2(0, 55), translation: Vec2(0, 100)) == nil)
        // A capsule from its side and from its end.
        let cap = try body(world, .capsule(Vec2(-30, 0), Vec2(30, 0), radius: 8), at: Vec2(0, 300), type: .static)
        world.step(dt: 1.0 / 60)
        let side = try #require(world.rayCast(from: Vec2(10, 400), translation: Vec2(0, -200)))
        #expect(side.body == cap && abs(side.point.y - 308) < 1e-3)
        let end = try #require(world.rayCast(from: Vec2(100, 300), translation: Vec2(-200, 0)))
        #expect(abs(end.point.x - 38) < 1e-3 && abs(end.normal.x - 1) < 1e-5, "along the axis: \(end.point)")
        let off = try #require(world.rayCast(from: Vec2(100, 301), translation: Vec2(-200, 0)))
        let x = 30 + (64 - 1 as Float).squareRoot()
        #expect(abs(off.point.x - x) < 1e-3 && abs(off.normal.x - (x - 30) / 8) < 1e-4, "1 pt off the axis: \(off.point), \(off.normal)")
    }

    /// The manifold of two shapes given as (kind, vertices, normals, radius), A placed by `xfA`
    /// and B by `xfB` (A of the larger kind, as `Collide.manifold` wants).
    func manifold(_ a: (ShapeKind, [Vec2], [Vec2], Float), _ xfA: Transform,
                  _ b: (ShapeKind, [Vec2], [Vec2], Float), _ xfB: Transform) -> Manifold {
        func view<R>(_ s: (ShapeKind, [Vec2], [Vec2], Float), _ f: (ShapeView) -> R) -> R {
            let vs = s.1.isEmpty ? [Vec2.zero] : s.1, ns = s.2.isEmpty ? [Vec2.zero] : s.2
            return vs.withUnsafeBufferPointer { vp in
                ns.withUnsafeBufferPointer { np in
                    f(ShapeView(kind: s.0, count: s.0 == .circle ? 0 : s.1.count, vertices: View(vp.baseAddress!, vp.count),
                                normals: View(np.baseAddress!, np.count), center: s.0 == .circle ? .zero : 0.5 * (s.1[0] + s.1[1]), radius: s.3))
                }
            }
        }
        return view(a) { va in view(b) { vb in Collide.manifold(va, xfA, vb, xfB, speculative: 4 * Collide.linearSlop) } }
    }

    func capsule(_ a: Vec2, _ b: Vec2, _ r: Float) throws -> (ShapeKind, [Vec2], [Vec2], Float) {
        let c = try GeometryBuilder.capsule(a, b, radius: r)
        return (.polygon, [c.a, c.b], [c.normal, -c.normal], r)
    }

    @Test("capsule pairs: a circle past a capsule's end touches only within the radii; crossing and parallel capsules")
    func capsuleManifolds() throws {
        let cap = try capsule(Vec2(-50, 0), Vec2(50, 0), 10)
        let circle: (ShapeKind, [Vec2], [Vec2], Float) = (.circle, [], [], 10)
        let id = Transform(p: .zero, q: Rot(angle: 0))
        func at(_ x: Float, _ y: Float, _ angle: Float = 0) -> Transform { Transform(p: Vec2(x, y), q: Rot(angle: angle)) }
        // In line with the axis, 30 pt beyond the end (with the radii): nothing, not even a
        // speculative point.
        #expect(manifold(cap, id, circle, at(100, 0)).pointCount == 0)
        // 5 pt into the end: one point, normal along the axis, 5 pt deep.
        let end = manifold(cap, id, circle, at(65, 0))
        #expect(end.pointCount == 1 && abs(end.normal.x - 1) < 1e-5 && abs(end.p0.separation + 5) < 1e-4, "\(end)")
        // A capsule turned across the first one's side, 5 pt into it: one point, normal up.
        let across = try capsule(Vec2(-40, 0), Vec2(40, 0), 5)
        let x = manifold(cap, id, across, at(20, 50, .pi / 2))
        #expect(x.pointCount == 1 && abs(x.normal.y - 1) < 1e-5 && abs(x.p0.separation + 5) < 1e-4, "\(x)")
        // End to end in line: the two caps, 2 pt into each other.
        let line = manifold(cap, id, across, at(103, 0))
        #expect(line.pointCount == 1 && abs(line.normal.x - 1) < 1e-5 && abs(line.p0.separation + 2) < 1e-4, "\(line)")
        // Parallel, overlapping along 60 pt, 2 pt deep: two points at the overlap's ends.
        let side = try capsule(Vec2(-40, 0), Vec2(40, 0), 10)
        let par = manifold(cap, id, side, at(30, 18))
        #expect(par.pointCount == 2 && abs(par.normal.y - 1) < 1e-5, "\(par)")
        #expect(abs(par.p0.separation + 2) < 1e-4 && abs(par.p1.separation + 2) < 1e-4)
        let xs = [par.p0.point.x, par.p1.point.x].sorted()
        #expect(abs(xs[0] - -10) < 1e-3 && abs(xs[1] - 50) < 1e-3, "the overlap runs from −10 to 50: \(xs)")
        // A boundary segment under a capsule lying on it: two points as well.
        let seg: (ShapeKind, [Vec2], [Vec2], Float) = (.segment, [Vec2(-500, 0), Vec2(500, 0)], [Vec2(0, -1), Vec2(0, 1)], 0)
        let ground = manifold(seg, id, side, at(0, 9))
        #expect(ground.pointCount == 2 && abs(ground.normal.y - 1) < 1e-5 && abs(ground.p0.separation + 1) < 1e-4, "\(ground)")
    }

    @Test("degenerate capsules and rounded polygons throw GeometryError from createBody")
    func badGeometry() {
        let world = World(gravity: .zero)
        func throwsError(_ g: Geometry, _ expected: GeometryError) {
            #expect(throws: expected) { _ = try body(world, g) }
        }
        throwsError(.capsule(Vec2(1, 1), Vec2(1, 1), radius: 5), .degenerateSegment)
        throwsError(.capsule(Vec2(0, 0), Vec2(10, 0), radius: 0), .nonPositiveSize("capsule radius"))
        throwsError(.capsule(Vec2(0, 0), Vec2(10, 0), radius: -1), .nonPositiveSize("capsule radius"))
        throwsError(.capsule(Vec2(0, .nan), Vec2(10, 0), radius: 1), .nonFinite("capsule centres and radius"))
        throwsError(.capsule(Vec2(0, 0), Vec2(10, 0), radius: .infinity), .nonFinite("capsule centres and radius"))
        throwsError(.roundedPolygon([Vec2(0, 0), Vec2(10, 0)], radius: 2), .tooFewVertices(2))
        throwsError(.roundedPolygon([Vec2(0, 0), Vec2(10, 0), Vec2(0, 10)], radius: 0), .nonPositiveSize("rounded polygon radius"))
        throwsError(.roundedPolygon([Vec2(0, 0), Vec2(0, 10), Vec2(10, 0)], radius: 1), .clockwise)
        #expect(world.bodyCount == 0, "nothing was created")
    }

    @Test("shapes(of:) gives capsules and rounded polygons back, and a snapshot restores them to step on bit for bit")
    func inspectionAndSnapshots() throws {
        let world = World(gravity: Vec2(0, -1000))
        _ = try body(world, .segment(Vec2(-500, 0), Vec2(500, 0)), type: .static)
        let cap = Geometry.capsule(Vec2(-20, 0), Vec2(20, 0), radius: 6)
        let round = Geometry.roundedPolygon([Vec2(-10, -10), Vec2(10, -10), Vec2(10, 10), Vec2(-10, 10)], radius: 3)
        let h1 = try body(world, cap, at: Vec2(0, 40), angle: 0.3)
        let h2 = try body(world, round, at: Vec2(10, 100), angle: -0.2)
        #expect(world.shapes(of: h1) == [cap] && world.shapes(of: h2) == [round])
        for _ in 0..<30 { world.step(dt: 1.0 / 60) }
        let copy = try World(snapshot: world.snapshot())
        #expect(copy.shapes(of: h1) == [cap] && copy.shapes(of: h2) == [round])
        for _ in 0..<60 { world.step(dt: 1.0 / 60); copy.step(dt: 1.0 / 60) }
        #expect(copy.stateDigest() == world.stateDigest())
        #expect(world.touchingContactCount >= 2, "both rest on the ground")
    }

    @Test("a fast capsule does not pass through a thin boundary (continuous step)")
    func fastCapsule() throws {
        let world = World(gravity: .zero)
        _ = try body(world, .segment(Vec2(-500, 0), Vec2(500, 0)), type: .static)
        var def = BodyDef()
        def.position = Vec2(0, 300); def.angle = 0.4
        def.linearVelocity = Vec2(0, -60_000)   // 1 000 pt a step
        let h = try world.createBody(def, shapes: [ShapeDef(.capsule(Vec2(-15, 0), Vec2(15, 0), radius: 4))])
        for _ in 0..<5 { world.step(dt: 1.0 / 60) }
        #expect(world.position(h).y > 0, "the capsule stayed above the line (y \(world.position(h).y))")
    }
}
