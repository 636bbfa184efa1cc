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

    // MARK: Bodies already touching a wall, pushed slowly, spun (escapes the fuzzer found)

    /// A static box wall 200 pt thick (or `thickness`) whose inside face is at x = 1 000.
    static func staticWall(_ w: World, thickness: Float = 200) throws {
        try TestWorld.box(w, at: Vec2(1000 + thickness / 2, 500), size: Vec2(thickness, 3000), type: .static)
    }

    /// A circle of radius 10 resting against the wall (centre at x = 990) and a kinematic box
    /// 200 pt wide driving into it at `speed`; the kinematic body ignores the wall. Returns
    /// the largest x the circle's centre reached and where it ended.
    static func squeezed(speed: Float, steps: Int, continuous: Bool = true) throws -> (maxX: Float, endX: Float) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        settings.isContinuousEnabled = continuous
        let w = World(gravity: .zero, settings: settings)
        try staticWall(w)
        let ball = try TestWorld.circle(w, at: Vec2(990, 500), radius: 10)
        try TestWorld.box(w, at: Vec2(870, 500), size: Vec2(200, 200), type: .kinematic, velocity: Vec2(speed, 0))
        var maxX: Float = -.infinity
        for _ in 0..<steps {
            w.step(dt: 1.0 / 60.0)
            maxX = max(maxX, w.worldCenter(ball).x)
        }
        return (maxX, w.worldCenter(ball).x)
    }

    @Test("a circle resting on a wall that a kinematic body rams at 3 000 pt/s is squeezed: its centre stays outside",
          arguments: [Float(3_000), 120])
    func kinematicSqueezesAgainstWall(speed: Float) throws {
        // The kinematic box passes through the wall's face (kinematic bodies ignore static
        // ones): 3 000 pt/s is 50 pt per step, five times the circle's radius; 120 pt/s is a
        // slow squeeze, 2 pt per step. The circle may sink into the wall by half its radius
        // (its inner core, `World.innerCoreFraction`) plus the slop, never more.
        let steps = Int(60 * 600 / speed) + 60
        let (maxX, endX) = try Self.squeezed(speed: speed, steps: steps)
        #expect(maxX <= 1000 - 5 + WorldSettings().linearSlop + 0.01, "centre reached x = \(maxX)")
        #expect(endX < 1000, "ended at x = \(endX)")
    }

    @Test("without the continuous step the squeezed circle ends inside or beyond the wall")
    func kinematicSqueezeWithoutContinuous() throws {
        let fast = try Self.squeezed(speed: 3_000, steps: 260, continuous: false)
        let slow = try Self.squeezed(speed: 120, steps: 360, continuous: false)
        #expect(fast.maxX > 1000 || slow.maxX > 1000, "fast \(fast), slow \(slow)")
    }

    /// A 60 pt box that a rigid rod to an anchor at x = 700 (length 600) pushes steadily toward
    /// x = 1 300, through a static wall whose face is at x = 1 000: far below the fast-body
    /// threshold per step. Returns the box's largest centre x.
    static func rodPushed(thickness: Float, continuous: Bool) throws -> Float {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        settings.isContinuousEnabled = continuous
        let w = World(gravity: .zero, settings: settings)
        try staticWall(w, thickness: thickness)
        let b = try TestWorld.box(w, at: Vec2(900, 500), size: Vec2(60, 60))
        var def = JointDef(type: .distance, bodyA: nil, bodyB: b)
        def.localAnchorA = Vec2(700, 500)
        def.length = 600
        w.createJoint(def)
        var maxX: Float = -.infinity
        for _ in 0..<300 {
            w.step(dt: 1.0 / 60.0)
            maxX = max(maxX, w.worldCenter(b).x)
        }
        return maxX
    }

    @Test("a box a rigid rod pushes slowly into a static box wall stops with its centre outside (thin and thick walls)",
          arguments: [Float(4), 200])
    func rodPushStopsAtStaticWall(thickness: Float) throws {
        // The box's core is its inscribed circle (radius 30); its inner core (15 pt) may touch
        // the wall: the centre stays at x ≤ 985 + slop.
        let maxX = try Self.rodPushed(thickness: thickness, continuous: true)
        #expect(maxX <= 985 + WorldSettings().linearSlop + 0.01, "centre reached x = \(maxX)")
    }

    /// 600 circles of radius 10 resting against a static wall (its face at x = 1 000, as in
    /// `squeezed`), and at every 75th a kinematic box driving into its circle at 120 pt/s (a
    /// slow squeeze: 2 pt a step); no gravity. Splitting every pass (`minWorkForParallel = 0`),
    /// two workers look over the contacts with the wall (two narrow-phase chunks of them) in
    /// parallel before holding the circles. Returns every body's placement and velocity after
    /// 150 steps, the squeezed circles' largest centre x and the continuous step's stops.
    static func crowdSqueezed(workers: Int) throws -> (state: [Float], maxX: Float, hits: Int) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: .zero, settings: settings)
        w.workerCount = workers
        w.options.minWorkForParallel = 0
        // (As `staticWall`, as tall as the crowd.)
        try TestWorld.box(w, at: Vec2(1100, 12_000), size: Vec2(200, 26_000), type: .static)
        var squeezed: [BodyHandle] = []
        for k in 0..<600 {
            let y = Float(k) * 40
            let ball = try TestWorld.circle(w, at: Vec2(990, y), radius: 10)
            if k % 75 == 37 {
                try TestWorld.box(w, at: Vec2(939, y), size: Vec2(40, 40), type: .kinematic, velocity: Vec2(120, 0))
                squeezed.append(ball)
            }
        }
        var maxX: Float = -.infinity
        for _ in 0..<150 {
            w.step(dt: 1.0 / 60.0)
            for b in squeezed { maxX = max(maxX, w.worldCenter(b).x) }
        }
        let state = w.bodies.flatMap { [w.position($0).x, w.position($0).y, w.angle($0), w.linearVelocity($0).x, w.linearVelocity($0).y] }
        return (state, maxX, w.continuousHits)
    }

    @Test("circles squeezed into a static wall among hundreds of contacts with it are held alike on one and two workers")
    func crowdSqueezedIsHeldAlikeOnTwoWorkers() throws {
        let one = try Self.crowdSqueezed(workers: 1), two = try Self.crowdSqueezed(workers: 2)
        // As in `kinematicSqueezesAgainstWall`: a centre may sink by the inner core (5 pt) and the slop.
        #expect(one.maxX <= 1000 - 5 + WorldSettings().linearSlop + 0.01, "centre reached x = \(one.maxX)")
        #expect(one.hits > 0)
        #expect(two.hits == one.hits)
        let firstDifference = one.state.indices.first { one.state[$0] != two.state[$0] }
        #expect(two.state.count == one.state.count && firstDifference == nil,
                "two workers differ first at value \(firstDifference ?? -1) of \(one.state.count)")
    }

    @Test("without the continuous step the rod pushes the box's centre into the wall")
    func rodPushWithoutContinuous() throws {
        #expect(try Self.rodPushed(thickness: 200, continuous: false) > 1000)
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

    // MARK: Bullets

    /// A circle of radius 5 shot at 20 000 pt/s (333 pt per step) at a dynamic box 4 pt thick
    /// and 200 tall, 600 pt ahead, without gravity. Returns both x positions after 30 steps
    /// and the box's velocity. (A plain body is stopped here too: the broad phase grows boxes
    /// and speculative margins by the step's start velocity. A speed gained within the step
    /// is what needs `isBullet`: see `jointDrivenBullet`.)
    static func shot(bullet: Bool) throws -> (ball: Float, box: Float, boxV: Float) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: .zero, settings: settings)
        let plate = try TestWorld.box(w, at: Vec2(700, 500), size: Vec2(4, 200))
        var def = BodyDef(type: .dynamic, position: Vec2(100, 500))
        def.linearVelocity = Vec2(20_000, 0)
        def.isBullet = bullet
        let ball = try w.createBody(def, shapes: [ShapeDef(.circle(radius: 5))])
        #expect(w.isBullet(ball) == bullet)
        for _ in 0..<30 { w.step(dt: 1.0 / 60.0) }
        return (w.worldCenter(ball).x, w.worldCenter(plate).x, w.linearVelocity(plate).x)
    }

    @Test("a bullet shot at 20 000 pt/s does not pass through a thin dynamic box: it hits and pushes it")
    func bulletHitsThinDynamicBox() throws {
        let r = try Self.shot(bullet: true)
        #expect(r.ball < r.box, "ball at \(r.ball), box at \(r.box)")
        // The box took momentum: it moves along the shot (mass ratio ball : box = 78.5 : 800).
        #expect(r.boxV > 100, "box v \(r.boxV)")
    }

    /// A circle of radius 5 that a target joint (4 Hz, damping ratio 0.1, toward x = 1 100)
    /// pulls from rest at x = 100 through a dynamic box 4 pt thick at x = 700: it passes the
    /// box at about 18 000 pt/s, 300 pt per step, gaining speed within each step (so the
    /// speculative margin from the step's start speed falls short). Whether the circle's
    /// centre ever got beyond the box's, and its top speed.
    static func pulled(bullet: Bool) throws -> (crossed: Bool, topSpeed: Float) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: .zero, settings: settings)
        let plate = try TestWorld.box(w, at: Vec2(700, 500), size: Vec2(4, 200))
        var def = BodyDef(type: .dynamic, position: Vec2(100, 500))
        def.isBullet = bullet
        let ball = try w.createBody(def, shapes: [ShapeDef(.circle(radius: 5))])
        var j = JointDef(type: .target, bodyA: nil, bodyB: ball)
        j.target = Vec2(1100, 500)
        j.hertz = 4
        j.dampingRatio = 0.1
        w.createJoint(j)
        var crossed = false, top: Float = 0
        for _ in 0..<30 {
            w.step(dt: 1.0 / 60.0)
            top = max(top, length(w.linearVelocity(ball)))
            let rel = w.worldCenter(ball) - w.worldCenter(plate)
            if rel.x > 0 && abs(rel.y) < 100 { crossed = true }
        }
        return (crossed, top)
    }

    @Test("a bullet a joint speeds up to ~18 000 pt/s within a step hits a thin dynamic box; a plain body tunnels through it")
    func jointDrivenBullet() throws {
        let bullet = try Self.pulled(bullet: true)
        #expect(!bullet.crossed)
        #expect(bullet.topSpeed > 15_000, "top speed \(bullet.topSpeed)")
        let plain = try Self.pulled(bullet: false)
        #expect(plain.crossed, "the scene should show tunnelling without isBullet")
    }

    @Test("setBullet switches the flag")
    func setBullet() throws {
        let w = TestWorld.make()
        let b = try TestWorld.circle(w, at: .zero, radius: 5)
        #expect(!w.isBullet(b))
        w.setBullet(b, true)
        #expect(w.isBullet(b))
        w.setBullet(b, false)
        #expect(!w.isBullet(b))
    }
}
