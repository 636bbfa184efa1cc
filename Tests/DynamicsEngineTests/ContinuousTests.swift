import Testing
@testable import DynamicsEngine

/// The continuous step: whatever makes a body fast, its centre of mass never crosses static
/// geometry it collides with, and a container's one-sided wall keeps centres inside even when
/// a joint squeezes a body through it slowly. Each scene is also run with the step off, to
/// show that it is the continuous step that holds the body.
@Suite("Continuous collision")
struct ContinuousTests {
    /// A 20 pt box pulled by a stiff target joint toward a point 5 000 pt beyond a wall at
    /// x = 1 000: the joint accelerates it far past the wall's thickness per step.
    static func yanked(wall: (World) throws -> Void, continuous: Bool, size: Float = 20) throws -> (World, BodyHandle) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        settings.isContinuousEnabled = continuous
        let w = World(gravity: .zero, settings: settings)
        try wall(w)
        let b = try TestWorld.box(w, at: Vec2(500, 500), size: Vec2(size, size))
        var def = JointDef(type: .target, bodyA: nil, bodyB: b)
        def.target = Vec2(6000, 500)
        def.hertz = 30
        def.dampingRatio = 0.1
        w.createJoint(def)
        return (w, b)
    }

    static func wall(_ kind: Int) -> (World) throws -> Void {
        switch kind {
        case 0: return thinWall
        case 1: return boundaryWall
        default: return container
        }
    }

    static func thinWall(_ w: World) throws {
        try TestWorld.box(w, at: Vec2(1002, 500), size: Vec2(4, 2000), type: .static)
    }
    static func boundaryWall(_ w: World) throws {
        try w.addBoundary(Vec2(1000, -500), Vec2(1000, 1500), group: .default)
    }
    static func container(_ w: World) throws {
        _ = try w.addBoundaryPath([Vec2(0, 0), Vec2(1000, 0), Vec2(1000, 1000), Vec2(0, 1000)], closed: true,
                              group: .default, keepsBodiesInside: true)
    }

    @Test("a body a joint pulls at thousands of pt/s stops at a thin static box, a boundary segment and a container wall",
          arguments: [0, 1, 2])
    func jointPulledBodyStops(wallKind: Int) throws {
        let wall = Self.wall(wallKind)
        let (w, b) = try Self.yanked(wall: wall, continuous: true)
        var fastest: Float = 0
        for _ in 0..<240 {
            w.step(dt: 1.0 / 60.0)
            fastest = max(fastest, abs(w.linearVelocity(b).x))
            #expect(w.position(b).x < 1000, "crossed the wall: \(w.position(b))")
        }
        // The joint makes it fast: more than the box's size per step.
        #expect(fastest / 60 > 20, "top speed \(fastest) pt/s")
        // It ends pressed against the wall: centre one half-size before x = 1000 (± 2 pt).
        #expect(abs(w.position(b).x - 990) < 2, "rests at \(w.position(b))")
        #expect(w.continuousHits > 0)
    }

    @Test("without the continuous step the same body passes through (the scenes test what they claim to)",
          arguments: [0, 1, 2])
    func withoutContinuousItEscapes(wallKind: Int) throws {
        let wall = Self.wall(wallKind)
        let (w, b) = try Self.yanked(wall: wall, continuous: false)
        var crossed = false
        for _ in 0..<240 {
            w.step(dt: 1.0 / 60.0)
            if w.position(b).x > 1000 { crossed = true }
        }
        #expect(crossed)
    }

    @Test("a container keeps a body a stiff joint squeezes slowly into its wall; bodies outside may come in")
    func oneSidedWallHoldsSlowSqueeze() throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: .zero, settings: settings)
        try Self.container(w)
        // A rigid rod to an anchor outside, longer than the distance to the wall: the rod pushes
        // the body outward steadily, far below the fast-body threshold per step.
        let b = try TestWorld.box(w, at: Vec2(900, 500), size: Vec2(60, 60))
        var def = JointDef(type: .distance, bodyA: nil, bodyB: b)
        def.localAnchorA = Vec2(700, 500)
        def.length = 600
        w.createJoint(def)
        // A body outside moving in is not stopped by the one-sided wall.
        let outsider = try TestWorld.box(w, at: Vec2(-200, 300), size: Vec2(20, 20), velocity: Vec2(600, 0))
        for _ in 0..<300 {
            w.step(dt: 1.0 / 60.0)
            #expect(w.position(b).x <= 1000, "squeezed through: \(w.position(b))")
        }
        #expect(w.position(outsider).x > 0, "came in: \(w.position(outsider))")
    }

    @Test("the result does not depend on the number of workers when the continuous step acts")
    func deterministic() throws {
        func run(_ workers: Int) throws -> [Float] {
            let (w, _) = try Self.yanked(wall: Self.container, continuous: true)
            w.workerCount = workers
            for k in 0..<40 { try TestWorld.circle(w, at: Vec2(100 + Float(k % 8) * 40, 200 + Float(k / 8) * 40), radius: 15, velocity: Vec2(3000, Float(k) * 100)) }
            for _ in 0..<120 { w.step(dt: 1.0 / 60.0) }
            return w.bodies.flatMap { [w.position($0).x, w.position($0).y, w.linearVelocity($0).x] }
        }
        let one = try run(1)
        for n in [2, 3] { #expect(try run(n) == one) }
    }

    @Test("after every step no body is faster than maxLinearSpeed or World.maxAngularSpeed, nor moved farther than maxLinearSpeed · dt")
    func speedLimitsHoldAfterTheSolve() throws {
        // A heavy block at the speed limit rams small light boxes resting on the floor: the
        // contacts push them far past the limits within the sub-steps.
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        settings.maxLinearSpeed = 5_000
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        try TestWorld.ground(w, top: 600)
        var small: [BodyHandle] = []
        for k in 0..<8 {
            small.append(try TestWorld.box(w, at: Vec2(400 + Float(k) * 6, 599), size: Vec2(2, 2), angle: 0.3 * Float(k),
                                           material: Material(density: 0.1)))
        }
        try TestWorld.box(w, at: Vec2(200, 560), size: Vec2(100, 80), material: Material(density: 10), velocity: Vec2(5_000, 0))
        let dt: Float = 1.0 / 60.0
        var last = small.map { w.worldCenter($0) }
        for _ in 0..<60 {
            w.step(dt: dt)
            for (k, b) in small.enumerated() {
                let c = w.worldCenter(b)
                #expect(length(w.linearVelocity(b)) <= settings.maxLinearSpeed * 1.001)
                #expect(abs(w.angularVelocity(b)) <= World.maxAngularSpeed)
                #expect(length(c - last[k]) <= settings.maxLinearSpeed * dt * 1.001, "moved \(length(c - last[k])) pt in a step")
                last[k] = c
            }
        }
    }
}
