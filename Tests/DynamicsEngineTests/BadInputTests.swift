import Testing
@testable import DynamicsEngine

/// Every kind of bad input gets its documented outcome: a thrown error for data, a
/// precondition failure (checked in a child process) for programmer errors, and never a NaN
/// inside the world.
@Suite("Bad input")
struct BadInputTests {
    let w = TestWorld.make()

    func make(_ g: Geometry, at p: Vec2 = .zero, material: Material = Material()) throws {
        try w.createBody(BodyDef(type: .dynamic, position: p), shapes: [ShapeDef(g, material: material)])
    }

    @Test("non-finite or non-positive sizes are rejected")
    func nonFiniteOrNonPositiveSizesAreRejected() {
        #expect(throws: GeometryError.nonPositiveSize("box half extents")) { try make(.box(halfWidth: 0, halfHeight: 10)) }
        #expect(throws: GeometryError.nonPositiveSize("box half extents")) { try make(.box(halfWidth: -5, halfHeight: 10)) }
        #expect(throws: GeometryError.nonFinite("box size, center or angle")) { try make(.box(halfWidth: .nan, halfHeight: 10)) }
        #expect(throws: GeometryError.nonFinite("box size, center or angle")) { try make(.box(halfWidth: .infinity, halfHeight: 10)) }
        #expect(throws: GeometryError.nonPositiveSize("circle radius")) { try make(.circle(radius: 0)) }
        #expect(throws: GeometryError.nonFinite("circle radius and center")) { try make(.circle(radius: .nan)) }
        #expect(w.bodyCount == 0, "nothing half-created")
    }

    @Test("non-finite positions, velocities and materials are rejected")
    func positions() {
        #expect(throws: WorldError.nonFinite("body position and angle")) { try make(.circle(radius: 1), at: Vec2(.nan, 0)) }
        #expect(throws: WorldError.nonFinite("body position and angle")) { try make(.circle(radius: 1), at: Vec2(0, -.infinity)) }
        var def = BodyDef(type: .dynamic, position: .zero)
        def.linearVelocity = Vec2(.infinity, 0)
        #expect(throws: WorldError.nonFinite("body velocity")) { try w.createBody(def, shapes: [ShapeDef(.circle(radius: 1))]) }
        #expect(throws: WorldError.negative("material")) { try make(.circle(radius: 1), material: Material(density: -1)) }
        #expect(throws: WorldError.nonFinite("material")) { try make(.circle(radius: 1), material: Material(friction: .nan)) }
        #expect(throws: WorldError.dynamicBodyWithoutMass) { try make(.circle(radius: 1), material: Material(density: 0)) }
    }

    @Test("polygons: fewer than 3 vertices, zero area, clockwise, non-convex are rejected")
    func polygons() {
        #expect(throws: GeometryError.tooFewVertices(2)) { try make(.polygon([Vec2(0, 0), Vec2(1, 0)])) }
        #expect(throws: GeometryError.zeroArea) { try make(.polygon([Vec2(0, 0), Vec2(1, 0), Vec2(2, 0)])) }
        #expect(throws: GeometryError.clockwise) { try make(.polygon([Vec2(0, 0), Vec2(0, 10), Vec2(10, 10), Vec2(10, 0)])) }
        // A dart (non-convex quadrilateral) and a pentagram (every turn left, but it winds twice).
        #expect(throws: GeometryError.notConvex) { try make(.polygon([Vec2(0, 0), Vec2(10, 0), Vec2(3, 3), Vec2(0, 10)])) }
        let star = (0..<5).map { k -> Vec2 in let a = Float(k) * 4 * Float.pi / 5; return Vec2(10 * cosf(a), 10 * sinf(a)) }
        #expect(throws: GeometryError.notConvex) { try make(.polygon(star)) }
        #expect(throws: GeometryError.nonFinite("polygon vertex")) { try make(.polygon([Vec2(0, 0), Vec2(10, 0), Vec2(.nan, 10)])) }
        #expect(throws: GeometryError.tooManyVertices(65)) {
            try make(.polygon((0..<65).map { k in Vec2(cosf(Float(k) * 0.0966), sinf(Float(k) * 0.0966)) }))
        }
        // A valid counter-clockwise square is accepted.
        #expect(throws: Never.self) { try make(.polygon([Vec2(0, 0), Vec2(10, 0), Vec2(10, 10), Vec2(0, 10)])) }
    }

    @Test("boundaries: degenerate segments, short paths, non-finite points, segments on moving bodies")
    func boundaries() {
        #expect(throws: GeometryError.degenerateSegment) { try w.addBoundary(Vec2(1, 1), Vec2(1, 1), group: .default) }
        #expect(throws: GeometryError.nonFinite("boundary end points")) { try w.addBoundary(Vec2(.nan, 1), Vec2(1, 1), group: .default) }
        #expect(throws: GeometryError.tooFewPoints(1)) { try w.addBoundaryPath([Vec2(0, 0)], closed: false, group: .default) }
        #expect(throws: WorldError.segmentOnMovingBody) { try make(.segment(Vec2(0, 0), Vec2(10, 0))) }
    }

    @Test("no NaN enters the world: huge but finite inputs stay finite")
    func noNaN() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        let b = try TestWorld.box(w, at: Vec2(0, -30), size: Vec2(20, 20))
        w.applyImpulse(b, Vec2(3.0e30, -3.0e30))
        w.applyTorque(b, 1.0e35)
        for _ in 0..<60 {
            w.step()
            #expect(w.position(b).isFinite && w.linearVelocity(b).isFinite && w.angularVelocity(b).isFinite)
        }
    }

    @Test("no NaN stays in the world after an explosion no solve can calm: joint and contact impulses stay finite, its snapshot restores")
    func noNaNInImpulses() throws {
        // Twelve light boxes in a closed box, in pairs pinned or welded together, the first and
        // the last joined by a distance joint of zero length at a point 400 pt above them: its
        // axis swings with the slightest turn, the solve throws everything at the speed limit,
        // and the joints' accumulated impulses, unbounded, grow until they overflow; the NaN
        // reaches the bodies (whose finalize stops them) and the contacts' impulses. (Found by
        // the engine fuzzer's sleep-heavy worlds: a snapshot of such a world did not restore.)
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        try TestWorld.box(w, at: Vec2(-1100, -500), size: Vec2(200, 1200), type: .static)
        try TestWorld.box(w, at: Vec2(1100, -500), size: Vec2(200, 1200), type: .static)
        try TestWorld.box(w, at: Vec2(0, -1100), size: Vec2(2400, 200), type: .static)
        var boxes: [BodyHandle] = []
        for k in 0..<12 {
            boxes.append(try TestWorld.box(w, at: Vec2(-300 + Float(k % 4) * 200, -10 - Float(k / 4) * 25), size: Vec2(20, 20),
                                           material: Material(density: 1 + Float(k % 3))))
        }
        func join(_ type: JointType, _ a: BodyHandle, _ b: BodyHandle, at p: Vec2) {
            var def = JointDef(type: type, bodyA: a, bodyB: b)
            def.localAnchorA = w.transform(a).invApply(p)
            def.localAnchorB = w.transform(b).invApply(p)
            w.createJoint(def)
        }
        for k in stride(from: 0, to: 12, by: 2) {
            join(k % 4 == 0 ? .revolute : .weld, boxes[k], boxes[k + 1], at: (w.position(boxes[k]) + w.position(boxes[k + 1])) / 2)
        }
        join(.distance, boxes[0], boxes[11], at: Vec2(0, -400))
        for k in 0..<150 {
            w.step()
            var bad: [Float] = []
            for j in 0..<w.joints.count where w.joints[j].alive {
                let r = w.joints[j]
                let impulses = [r.linearImpulse.x, r.linearImpulse.y, r.angularImpulse, r.springImpulse, r.lowerImpulse, r.upperImpulse, r.motorImpulse]
                if !impulses.allSatisfy({ $0.isFinite }) { bad = impulses }
            }
            #expect(bad.isEmpty, "step \(k): a joint's impulses \(bad)")
            do { _ = try World(snapshot: w.snapshot()) } catch { Issue.record("step \(k): the world's snapshot does not restore: \(error)") }
            if !bad.isEmpty { break }
        }
        #expect(boxes.allSatisfy { w.position($0).isFinite && w.linearVelocity($0).isFinite })
    }
}

/// Programmer errors stop the program with a precondition message. Each case runs in a child
/// process (an exit test); they run one at a time because concurrent child processes make
/// the parent's wait fail with EINTR on Linux.
@Suite("Programmer errors", .serialized)
struct ProgrammerErrorTests {
    @Test("a stale body handle is a precondition failure, not a silent access")
    func staleHandle() async {
        await #expect(processExitsWith: .failure) {
            let w = World()
            let b = try! w.createBody(BodyDef(), shapes: [ShapeDef(.circle(radius: 1))])
            w.destroyBody(b)
            _ = w.position(b)
        }
    }

    @Test("a non-finite or negative time step is a precondition failure")
    func badTimeStep() async {
        await #expect(processExitsWith: .failure) { World().step(dt: .nan) }
        await #expect(processExitsWith: .failure) { World().step(dt: -1) }
        await #expect(processExitsWith: .failure) { World().step(dt: .infinity) }
    }

    @Test("non-finite forces and impulses are precondition failures")
    func badForces() async {
        await #expect(processExitsWith: .failure) {
            let w = World()
            let b = try! w.createBody(BodyDef(), shapes: [ShapeDef(.circle(radius: 1))])
            w.applyForce(b, Vec2(.nan, 0))
        }
        await #expect(processExitsWith: .failure) {
            let w = World()
            let b = try! w.createBody(BodyDef(), shapes: [ShapeDef(.circle(radius: 1))])
            w.applyImpulse(b, Vec2(0, .infinity))
        }
    }

    @Test("an invalid joint definition is a precondition failure")
    func badJoint() async {
        await #expect(processExitsWith: .failure) {
            let w = World()
            let b = try! w.createBody(BodyDef(), shapes: [ShapeDef(.circle(radius: 1))])
            var def = JointDef(type: .distance, bodyA: nil, bodyB: b)
            def.minLength = 10; def.maxLength = 5
            w.createJoint(def)
        }
    }

}

#if canImport(Glibc)
import Glibc
#endif
