import DynamicsEngine
import Foundation

extension FuzzRandom {
    /// Uniform in [a, b).
    mutating func float(_ a: Float, _ b: Float) -> Float { a + (b - a) * Float(unit()) }
    /// Log-uniform in [a, b) (a, b > 0).
    mutating func logUniform(_ a: Float, _ b: Float) -> Float { a * powf(b / a, Float(unit())) }
    /// A point uniform in the box.
    mutating func point(_ lo: Vec2, _ hi: Vec2) -> Vec2 { Vec2(float(lo.x, hi.x), float(lo.y, hi.y)) }
    /// A unit vector.
    mutating func direction() -> Vec2 { let a = float(-.pi, .pi); return Vec2(cosf(a), sinf(a)) }
}

/// One world of `EngineFuzzer`: the same calls made on two `World`s, one stepping on 1 worker
/// and one on N, checked after every step.
final class EngineFuzzWorld {
    /// The container walls' thickness (pt).
    static let wallThickness: Float = 200
    /// How far (pt) a centre may stand outside the inner rectangle before it counts as inside
    /// a wall (a warning).
    static let tolerance: Float = 1
    static let dt: Float = 1.0 / 60.0

    struct Body {
        var a, b: BodyHandle
        var type: BodyType
        /// The largest distance of a shape point from the body origin.
        var radius: Float
        var mass: Float
        var name: String
        /// Kinematic bodies follow centre + (ax sin(fx t + px), ay sin(fy t + py)).
        var path: (center: Vec2, amp: Vec2, freq: Vec2, phase: Vec2)? = nil
        /// Already reported as escaped (each body once).
        var escaped = false
        /// Steps its centre spent inside a wall (not beyond it).
        var inWallSteps = 0
        /// Already reported as faster than the world allows (each body once).
        var tooFast = false
        var tooFastSpin = false
    }

    struct Joint {
        var a: JointHandle
        var b: JointHandle
        var type: JointType
        /// The fuzzer's bodies it joins (A-world handles; nil: the ground).
        var bodyA: BodyHandle?
        var bodyB: BodyHandle
    }

    let seed: UInt64
    let steps: Int
    let log: ((String) -> Void)?
    var rng: FuzzRandom
    let one: World
    let many: World
    /// The inner rectangle of the container.
    var inner = AABB(lower: .zero, upper: .zero)
    var walls: [Body] = []
    var bodies: [Body] = []
    var joints: [Joint] = []
    var result = EngineFuzzer.WorldResult()
    var step = -1
    var diverged = false
    var time: Float = 0
    var violationCount = 0
    var nextName = 0
    /// The sizes of this world's dynamic bodies (pt): a band 3.16× wide somewhere in 1…600, so
    /// that with densities 0.1–10 mass ratios stay within 1 000 : 1; nil in a "wild" world
    /// (a quarter of them), where sizes span all of 1…600 and mass ratios reach ~10⁸ : 1 —
    /// its violations' kinds end in "[wild masses]".
    var sizeBand: ClosedRange<Float>?
    /// Wall-clock seconds after which the world stops early (a warning), nil: none.
    var timeLimit: Double?
    /// Names of bodies whose placement and velocity are logged after every step (verbose
    /// runs; environment variable `DYNAMICS_FUZZ_TRACE`, names separated by commas).
    let traced: Set<String> = Set((ProcessInfo.processInfo.environment["DYNAMICS_FUZZ_TRACE"] ?? "").split(separator: ",").map(String.init))

    init(seed: UInt64, steps: Int, crowdFraction: Double, prepare: (@Sendable (World) -> Void)?, log: ((String) -> Void)?) {
        self.seed = seed
        self.steps = steps
        self.log = log
        rng = FuzzRandom(seed: seed)
        var settings = WorldSettings()
        settings.isSleepEnabled = rng.chance(0.5)
        let gravity: Vec2
        switch rng.weighted([6, 1, 1, 1]) {
        case 0: gravity = Vec2(0, -1000)
        case 1: gravity = .zero
        case 2: gravity = Vec2(0, 1000)
        default: gravity = rng.direction() * rng.float(100, 3000)
        }
        one = World(gravity: gravity, settings: settings)
        many = World(gravity: gravity, settings: settings)
        one.workerCount = 1
        many.workerCount = rng.int(in: 2...8)
        prepare?(one)
        prepare?(many)
        result.isCrowd = EngineFuzzer.isCrowd(seed: seed, crowdFraction: crowdFraction)
        // A crowd's N-worker world splits its steps as a big world does.
        if result.isCrowd { many.minimumParallelWork = min(many.minimumParallelWork, 1000) }
        if result.isCrowd || rng.chance(0.75) {
            let lo = rng.logUniform(1, 600 / 3.1623)
            sizeBand = lo...(lo * 3.1623)
        }
        log?("world \(hex(seed)): gravity \(gravity), sleep \(settings.isSleepEnabled ? "on" : "off"), workers 1 and \(many.workerCount)\(result.isCrowd ? ", crowd" : ""), sizes \(sizeBand.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "1–600 (wild masses)")")
    }

    // MARK: Running

    /// Notes that the world stopped at its time limit (a warning, not a violation).
    private func stoppedAtTimeLimit() {
        result.warnings["world stopped at its time limit", default: 0] += 1
        say("stopped: over \(timeLimit ?? 0) s")
    }

    func run() {
        buildContainer()
        if result.isCrowd {
            for _ in 0..<rng.int(in: 1_050...1_150) { addBody(crowd: true) }
        } else {
            for _ in 0..<rng.int(in: 3...40) { addBody() }
        }
        for _ in 0..<rng.int(in: 0...(result.isCrowd ? 20 : 8)) { addJoint() }
        if result.isCrowd && rng.chance(0.5) { addWeb() }
        check()
        let deadline = FuzzDeadline(seconds: timeLimit)
        for s in 0..<steps {
            step = s
            if deadline.passed(atStep: s) { stoppedAtTimeLimit(); break }
            churn()
            steerKinematics()
            one.step(dt: Self.dt)
            many.step(dt: Self.dt)
            time += Self.dt
            result.steps += 1
            check()
            if violationCount >= 20 { break }
        }
        result.continuousHits = one.continuousHits
    }

    func say(_ s: @autoclosure () -> String) { if let log { log("[\(step)] " + s()) } }

    func violation(_ kind: String, _ message: String) {
        let kind = kind + (sizeBand == nil ? " [wild masses]" : "")
        violationCount += 1
        result.violations.append(.init(worldSeed: seed, steps: steps, step: step, kind: kind, message: message))
        say("VIOLATION \(kind): \(message)")
    }

    /// Makes the same call on both worlds.
    func both<T>(_ f: (World) throws -> T) rethrows -> (T, T) { (try f(one), try f(many)) }

    // MARK: The container

    func buildContainer() {
        let w = rng.float(1500, 2500), h = rng.float(1000, 1800)
        inner = AABB(lower: .zero, upper: Vec2(w, h))
        let t = Self.wallThickness, ht = t / 2
        let boxes: [(Vec2, Float, Float)] = [
            (Vec2(-ht, h / 2), ht, h / 2 + t),      // left
            (Vec2(w + ht, h / 2), ht, h / 2 + t),   // right
            (Vec2(w / 2, -ht), w / 2 + t, ht),      // bottom
            (Vec2(w / 2, h + ht), w / 2 + t, ht),   // top
        ]
        for (k, (p, hx, hy)) in boxes.enumerated() {
            let shape = ShapeDef(.box(halfWidth: hx, halfHeight: hy), material: Material(density: 1, friction: rng.float(0, 1.5), restitution: rng.float(0, 1)))
            let (a, b) = try! both { try $0.createBody(BodyDef(type: .static, position: p), shapes: [shape]) }
            if a != b { noteHandleMismatch("wall") }
            walls.append(Body(a: a, b: b, type: .static, radius: hypotf(hx, hy), mass: 0, name: "wall\(k)"))
        }
        say("container \(w) × \(h), walls \(t) thick")
    }

    // MARK: Bodies

    /// A revolute or prismatic joint's spring: on, from 0 Hz (none) to stiff, any damping, and
    /// sometimes a reference angle away from the present one.
    func spring(_ def: inout JointDef) {
        def.enableSpring = true
        def.hertz = rng.chance(0.15) ? 0 : rng.logUniform(0.2, 60)
        def.dampingRatio = rng.float(0, 2)
        if def.type == .revolute && rng.chance(0.3) { def.referenceAngle = rng.float(-.pi, .pi) }
    }

    /// A random material: now and then with rolling resistance, up to far more than any real one.
    func material() -> Material {
        var m = Material(density: rng.logUniform(0.1, 10), friction: rng.float(0, 1.5), restitution: rng.chance(0.3) ? 0 : rng.float(0, 1))
        if rng.chance(0.25) { m.rollingResistance = rng.chance(0.2) ? rng.float(1, 5) : rng.float(0, 0.3) }
        return m
    }

    /// Mostly the default; else categories 2 or 4 whose mask always holds the walls' category
    /// 1 (so nothing leaves the container), with a group index of ±1 now and then.
    func filter() -> ShapeFilter {
        guard rng.chance(0.2) else { return .default }
        let category: UInt64 = rng.chance(0.5) ? 2 : 4
        let mask: UInt64 = 1 | (rng.chance(0.6) ? 2 : 0) | (rng.chance(0.6) ? 4 : 0)
        let group: Int32 = rng.chance(0.7) ? 0 : (rng.chance(0.5) ? 1 : -1)
        return ShapeFilter(categoryBits: category, maskBits: mask, groupIndex: group)
    }

    /// A random shape whose extent is about `size` pt, centred near `offset`; its bounding radius.
    func geometry(size: Float, offset: Vec2 = .zero) -> (Geometry, Float) {
        let aspect = rng.chance(0.6) ? 1 : rng.logUniform(1, 10)
        let hx = max(0.5, size / 2), hy = max(0.5, size / 2 / aspect)
        switch rng.weighted([3, 3, 2, 3, 2, 2]) {
        case 4:
            // A capsule along a random direction, as long as the shape and as thick as it is high.
            let r = min(hx, hy), half = max(0.25, hx - r)
            let u = Rot(angle: rng.float(-.pi, .pi)).rotate(Vec2(half, 0))
            return (.capsule(offset - u, offset + u, radius: r), half + r + len(offset))
        case 5:
            // A random convex core (as below) grown by a share of its size.
            let r = min(hx, hy) * rng.float(0.05, 0.4)
            let n = rng.int(in: 3...8)
            var angles = (0..<n).map { _ in rng.float(0, 2 * .pi) }
            angles.sort()
            let pts = angles.map { offset + Vec2((hx - r) * cosf($0), (hy - r) * sinf($0)) }
            if (try? Geometry.validatePolygon(pts)) != nil { return (.roundedPolygon(pts, radius: r), max(hx, hy) + len(offset)) }
            return (.capsule(offset - Vec2(hx - r, 0), offset + Vec2(hx - r + 0.25, 0), radius: r), hx + 0.25 + len(offset))
        case 0:
            return (.box(halfWidth: hx, halfHeight: hy, center: offset, angle: rng.chance(0.5) ? 0 : rng.float(-.pi, .pi)), hypotf(hx, hy) + len(offset))
        case 1:
            return (.circle(radius: hx, center: offset), hx + len(offset))
        case 2:
            return (.ellipse(halfWidth: hx, halfHeight: hy, center: offset, segments: rng.int(in: 8...32)), max(hx, hy) + len(offset))
        default:
            // Points on an ellipse at sorted random angles: convex and counter-clockwise.
            let n = rng.int(in: 3...12)
            var angles = (0..<n).map { _ in rng.float(0, 2 * .pi) }
            angles.sort()
            let pts = angles.map { offset + Vec2(hx * cosf($0), hy * sinf($0)) }
            if (try? Geometry.validatePolygon(pts)) != nil { return (.polygon(pts), max(hx, hy) + len(offset)) }
            return (.box(halfWidth: hx, halfHeight: hy, center: offset), hypotf(hx, hy) + len(offset))
        }
    }

    /// A point where a body of bounding radius `r` fits inside the container (its centre if
    /// it does not fit anywhere).
    func placement(radius r: Float) -> Vec2 {
        let lo = inner.lower + Vec2(r, r), hi = inner.upper - Vec2(r, r)
        let c = inner.center
        return Vec2(lo.x < hi.x ? rng.float(lo.x, hi.x) : c.x, lo.y < hi.y ? rng.float(lo.y, hi.y) : c.y)
    }

    func addBody(crowd: Bool = false) {
        let kinematic = !crowd && bodies.filter({ $0.type == .kinematic }).count < 3 && rng.chance(0.06)
        let size = crowd ? rng.float(8, 24)
            : kinematic ? rng.float(20, 200)
            : sizeBand.map { rng.logUniform($0.lowerBound, $0.upperBound) } ?? rng.logUniform(1, 600)
        var shapes: [ShapeDef] = []
        var radius: Float = 0
        let (g, r) = geometry(size: size)
        shapes.append(ShapeDef(g, material: material(), filter: filter()))
        radius = r
        if !crowd && rng.chance(0.1) {
            // A compound body: a second shape beside the first.
            let (g2, r2) = geometry(size: size * rng.float(0.3, 1), offset: rng.direction() * size * rng.float(0.3, 0.8))
            shapes.append(ShapeDef(g2, material: material(), filter: filter()))
            radius = max(radius, r2)
        }
        var def = BodyDef(type: kinematic ? .kinematic : .dynamic, position: placement(radius: radius), angle: rng.float(-.pi, .pi))
        var path: (center: Vec2, amp: Vec2, freq: Vec2, phase: Vec2)? = nil
        if kinematic {
            // A path whose bounding box stays 250 pt from the walls.
            let margin = radius + 250
            let half = (inner.upper - inner.lower) / 2 - Vec2(margin, margin)
            let amp = Vec2(max(0, half.x) * rng.float(0, 1), max(0, half.y) * rng.float(0, 1))
            let path0 = (center: inner.center, amp: amp, freq: Vec2(rng.float(0.2, 3), rng.float(0.2, 3)), phase: Vec2(rng.float(0, 6.28), rng.float(0, 6.28)))
            def.position = pathPoint(path0, at: time)
            def.angularVelocity = rng.chance(0.5) ? rng.float(-5, 5) : 0
            path = path0
        } else {
            if rng.chance(0.1) { def.linearVelocity = rng.direction() * rng.float(2_000, 20_000) }
            else if rng.chance(0.5) { def.linearVelocity = rng.direction() * rng.float(0, 500) }
            if rng.chance(0.2) { def.angularVelocity = rng.float(-30, 30) }
            if rng.chance(0.1) { def.linearDamping = rng.float(0, 2) }
            if rng.chance(0.1) { def.angularDamping = rng.float(0, 2) }
            if rng.chance(0.05) { def.fixedRotation = true }
            if rng.chance(0.1) { def.allowSleep = false }
            if rng.chance(0.05) { def.startsAsleep = true }
            if rng.chance(0.05) { def.gravity = rng.direction() * rng.float(0, 2000) }
        }
        let (a, b): (BodyHandle, BodyHandle)
        do {
            (a, b) = try both { try $0.createBody(def, shapes: shapes) }
        } catch {
            violation("createBody threw", "\(error) for \(shapes.map { "\($0.geometry)" }) at \(def.position)")
            return
        }
        if a != b { noteHandleMismatch("createBody") }
        nextName += 1
        let name = "b\(nextName)"
        bodies.append(Body(a: a, b: b, type: def.type, radius: radius, mass: one.mass(a), name: name, path: path))
        say("create \(name) \(a) \(def.type) \(shapes.map { "\($0.geometry)" }.joined(separator: " + ")) ρ=\(shapes[0].material.density) at \(def.position) v=\(def.linearVelocity)")
    }

    func pathPoint(_ p: (center: Vec2, amp: Vec2, freq: Vec2, phase: Vec2), at t: Float) -> Vec2 {
        p.center + Vec2(p.amp.x * sinf(p.freq.x * t + p.phase.x), p.amp.y * sinf(p.freq.y * t + p.phase.y))
    }

    /// Kinematic bodies get the velocity that takes them to their path's next point.
    func steerKinematics() {
        for body in bodies where body.type == .kinematic {
            guard let p = body.path else { continue }
            let target = pathPoint(p, at: time + Self.dt)
            let v = (target - one.position(body.a)) / Self.dt
            one.setLinearVelocity(body.a, v)
            many.setLinearVelocity(body.b, v)
        }
    }

    func destroyBody(_ k: Int) {
        let body = bodies.remove(at: k)
        let attached = joints.filter { $0.bodyA == body.a || $0.bodyB == body.a }
        joints.removeAll { $0.bodyA == body.a || $0.bodyB == body.a }
        one.destroyBody(body.a)
        many.destroyBody(body.b)
        say("destroy \(body.name) \(body.a) (and \(attached.count) joints)")
        for j in attached where one.isValid(j.a) || many.isValid(j.b) {
            violation("joint outlived its body", "\(j.a) (\(j.type)) still valid after destroyBody(\(body.a))")
        }
        if one.isValid(body.a) || many.isValid(body.b) { violation("destroyed body valid", "\(body.a) still valid after destroyBody") }
    }

    // MARK: Joints

    func localAnchor(_ body: Body) -> Vec2 { rng.chance(0.3) ? .zero : rng.direction() * body.radius * rng.float(0, 0.8) }

    /// A joint of a random type between random bodies — or, given `pin`, a revolute joint
    /// between those two bodies at the point halfway between their centres (a web's link).
    func addJoint(pin: (Body, Body)? = nil) {
        guard !bodies.isEmpty else { return }
        let type: JointType = pin != nil ? .revolute : [.distance, .revolute, .weld, .prismatic, .target][rng.int(5)]
        var bodyA: Body? = nil
        let bodyB: Body
        if let (a, b) = pin {
            bodyA = a; bodyB = b
        } else {
            let bi = rng.int(bodies.count)
            bodyB = bodies[bi]
            if type != .target && (bodies.count < 2 || rng.chance(0.3)) {
                bodyA = nil  // the ground
            } else if type != .target {
                var ai = rng.int(bodies.count - 1)
                if ai >= bi { ai += 1 }
                bodyA = bodies[ai]
            }
        }
        var def = JointDef(type: type, bodyA: bodyA?.a, bodyB: bodyB.a)
        if let (a, b) = pin {
            let mid = (one.position(a.a) + one.position(b.a)) / 2
            def.localAnchorA = one.transform(a.a).invApply(mid)
            def.localAnchorB = one.transform(b.a).invApply(mid)
        } else {
            def.localAnchorA = bodyA.map { localAnchor($0) } ?? placement(radius: 20)
            def.localAnchorB = localAnchor(bodyB)
        }
        var kind = "\(type)"
        switch type {
        case .distance:
            switch rng.int(3) {
            case 0:  // rigid
                if rng.chance(0.5) { def.length = rng.float(1, 800) }
            case 1:  // spring
                kind = "spring"
                def.enableSpring = true
                def.hertz = rng.float(0.5, 15)
                def.dampingRatio = rng.float(0, 2)
                if rng.chance(0.5) { def.length = rng.float(1, 800) }
                if rng.chance(0.3) { def.minLength = rng.float(0, 100); def.maxLength = def.minLength + rng.float(0, 800) }
            default:  // rope
                kind = "rope"
                def.enableSpring = true
                def.hertz = 0
                def.maxLength = rng.float(10, 900)
            }
        case .revolute:
            if rng.chance(0.4) { def.enableLimit = true; def.lower = rng.float(-3, 0); def.upper = rng.float(0, 3) }
            if rng.chance(0.4) { def.enableMotor = true; def.motorSpeed = rng.float(-20, 20); def.maxMotorTorque = rng.logUniform(1, 1e9) }
            if rng.chance(0.3) { spring(&def) }
        case .weld:
            if rng.chance(0.3) { def.referenceAngle = rng.float(-.pi, .pi) }
        case .prismatic:
            def.localAxisA = rng.direction()
            if rng.chance(0.5) { def.enableLimit = true; def.lower = rng.float(-400, 0); def.upper = rng.float(0, 400) }
            if rng.chance(0.4) { def.enableMotor = true; def.motorSpeed = rng.float(-800, 800); def.maxMotorTorque = rng.logUniform(1, 1e8) }
            if rng.chance(0.3) { spring(&def) }
        case .target:
            def.target = placement(radius: 20)
            def.hertz = rng.float(0.5, 20)
            def.dampingRatio = rng.float(0, 2)
            def.maxForce = rng.chance(0.3) ? .infinity : bodyB.mass * rng.logUniform(100, 100_000)
            if rng.chance(0.5) { def.angularHertz = rng.float(0, 10); def.angularDampingRatio = rng.float(0, 2); def.targetAngle = rng.float(-.pi, .pi) }
        }
        var defB = def
        defB.bodyA = bodyA?.b
        defB.bodyB = bodyB.b
        let a = one.createJoint(def), b = many.createJoint(defB)
        if a != b { noteHandleMismatch("createJoint") }
        joints.append(Joint(a: a, b: b, type: type, bodyA: bodyA?.a, bodyB: bodyB.a))
        result.jointsMade += 1
        say("joint \(a) \(kind) \(bodyA?.name ?? "ground") – \(bodyB.name) anchors \(def.localAnchorA) \(def.localAnchorB)")
    }

    /// A jointed web among neighbouring crowd bodies: 64–100 revolute joints (limits, motors
    /// and springs drawn as for any revolute joint) through the 40–60 dynamic bodies nearest a
    /// random one — a chain, nearest first, then links back to nearer bodies — so one island
    /// holds enough joints to be coloured and solved in lanes (`WideJoint`).
    func addWeb() {
        let dynamic = bodies.filter { $0.type == .dynamic }
        guard dynamic.count >= 60 else { return }
        let centre = one.position(dynamic[rng.int(dynamic.count)].a)
        let web = Array(dynamic.sorted { len(one.position($0.a) - centre) < len(one.position($1.a) - centre) }
            .prefix(rng.int(in: 40...60)))
        let links = rng.int(in: 64...100)
        say("web of \(links) joints through \(web.count) bodies near \(centre)")
        for k in 0..<links {
            if k + 1 < web.count {
                addJoint(pin: (web[k], web[k + 1]))
            } else {
                let b = rng.int(in: 1...(web.count - 1))
                addJoint(pin: (web[rng.int(b)], web[b]))
            }
        }
    }

    // MARK: Churn between steps

    func churn() {
        let crowd = result.isCrowd
        // Creation and destruction.
        if rng.chance(crowd ? 0.3 : 0.08) { addBody(crowd: crowd) }
        if !bodies.isEmpty, rng.chance(crowd ? 0.3 : 0.05) { destroyBody(rng.int(bodies.count)) }
        if rng.chance(0.03) { addJoint() }
        if !joints.isEmpty, rng.chance(0.02) {
            let j = joints.remove(at: rng.int(joints.count))
            one.destroyJoint(j.a); many.destroyJoint(j.b)
            say("destroy joint \(j.a)")
        }
        // Target joints move their targets.
        if rng.chance(0.05), let k = joints.indices.filter({ joints[$0].type == .target }).first {
            let t = placement(radius: 20)
            one.updateJoint(joints[k].a) { $0.target = t }
            many.updateJoint(joints[k].b) { $0.target = t }
            say("target of \(joints[k].a) → \(t)")
        }
        guard !bodies.isEmpty else { return }
        // Teleports (inside the container, where the body fits).
        if rng.chance(0.05) {
            let k = rng.int(bodies.count)
            let p = placement(radius: bodies[k].radius), angle = rng.float(-.pi, .pi)
            if bodies[k].type == .dynamic {
                one.setTransform(bodies[k].a, position: p, angle: angle)
                many.setTransform(bodies[k].b, position: p, angle: angle)
                say("teleport \(bodies[k].name) → \(p) \(angle)")
            }
        }
        // Kicks.
        for _ in 0..<(rng.chance(0.15) ? rng.int(in: 1...3) : 0) {
            let k = rng.int(bodies.count)
            let j = rng.direction() * bodies[k].mass * rng.float(0, 2_000)
            let at: Vec2? = rng.chance(0.5) ? one.worldCenter(bodies[k].a) + rng.direction() * bodies[k].radius * rng.float(0, 1) : nil
            one.applyImpulse(bodies[k].a, j, at: at)
            many.applyImpulse(bodies[k].b, j, at: at)
            say("kick \(bodies[k].name) \(j)\(at.map { " at \($0)" } ?? "")")
        }
        // Launches at 2 000–20 000 pt/s.
        if rng.chance(0.04) {
            let k = rng.int(bodies.count)
            if bodies[k].type == .dynamic {
                let v = rng.direction() * rng.float(2_000, 20_000)
                if rng.chance(0.5) {
                    one.setLinearVelocity(bodies[k].a, v); many.setLinearVelocity(bodies[k].b, v)
                } else {
                    let j = v * bodies[k].mass
                    one.applyImpulse(bodies[k].a, j); many.applyImpulse(bodies[k].b, j)
                }
                say("launch \(bodies[k].name) \(v)")
            }
        }
        // Sleep switched, per world and per body; the N-worker run's worker count changed.
        if rng.chance(0.01) {
            let on = !one.settings.isSleepEnabled
            one.settings.isSleepEnabled = on; many.settings.isSleepEnabled = on
            say("sleep \(on ? "on" : "off")")
        }
        if rng.chance(0.02) {
            let k = rng.int(bodies.count), allowed = rng.chance(0.5)
            one.setSleepAllowed(bodies[k].a, allowed); many.setSleepAllowed(bodies[k].b, allowed)
            say("\(bodies[k].name) sleep allowed: \(allowed)")
        }
        if rng.chance(0.01) {
            many.workerCount = rng.int(in: 1...8)
            say("workers 1 and \(many.workerCount)")
        }
    }

    // MARK: Checks

    func noteHandleMismatch(_ what: String) {
        if !diverged { violation("determinism", "\(what) gave different handles on 1 and \(many.workerCount) workers") }
        diverged = true
    }

    func check() {
        if one.bodyCount != bodies.count + walls.count || many.bodyCount != bodies.count + walls.count {
            violation("body count", "worlds hold \(one.bodyCount) / \(many.bodyCount) bodies, the fuzzer \(bodies.count + walls.count)")
        }
        if one.jointCount != joints.count || many.jointCount != joints.count {
            violation("joint count", "worlds hold \(one.jointCount) / \(many.jointCount) joints, the fuzzer \(joints.count)")
        }
        for j in joints where !one.isValid(j.a) || !many.isValid(j.b) {
            violation("stale handle", "joint \(j.a) (\(j.type)) is no longer valid")
        }
        for w in walls where !one.isValid(w.a) || !many.isValid(w.b) { violation("stale handle", "wall \(w.a) is no longer valid") }
        result.maxBodies = max(result.maxBodies, bodies.count)
        let t = Self.wallThickness, tol = Self.tolerance
        let warn = AABB(lower: inner.lower - Vec2(tol, tol), upper: inner.upper + Vec2(tol, tol))
        let out = AABB(lower: inner.lower - Vec2(t, t), upper: inner.upper + Vec2(t, t))
        var inWall = 0
        for k in bodies.indices {
            let body = bodies[k]
            guard one.isValid(body.a), many.isValid(body.b) else {
                violation("stale handle", "\(body.name) \(body.a) is no longer valid")
                continue
            }
            let xf = one.transform(body.a), c = one.worldCenter(body.a)
            let v = one.linearVelocity(body.a), w = one.angularVelocity(body.a)
            if traced.contains(body.name) { say("trace \(body.name): centre \(c) angle \(atan2f(xf.q.s, xf.q.c)) v \(v) w \(w) awake \(one.isAwake(body.a))") }
            if !(xf.p.isFinite && xf.q.c.isFinite && xf.q.s.isFinite && c.isFinite && v.isFinite && w.isFinite) {
                violation("non-finite", "\(body.name) \(body.a): position \(xf.p), rotation \(xf.q), centre \(c), v \(v), w \(w)")
                continue
            }
            // `WorldSettings.maxLinearSpeed` and `World.maxAngularSpeed` are the largest speeds
            // a body may reach (0.1 % allowed for rounding).
            // The linear limit is a violation; spin above the angular limit (common for bodies of
            // a few points) a warning, counted once per body.
            if !body.tooFast && len(v) > one.settings.maxLinearSpeed * 1.001 {
                bodies[k].tooFast = true
                violation("speed above maxLinearSpeed", "\(body.name) \(body.a) (radius \(body.radius), mass \(body.mass)) |v| \(len(v)) (max \(one.settings.maxLinearSpeed)), |w| \(abs(w))\(jointSummary(body))")
            }
            if !body.tooFastSpin && abs(w) > World.maxAngularSpeed * 1.001 {
                bodies[k].tooFastSpin = true
                result.warnings["spin above World.maxAngularSpeed (bodies)", default: 0] += 1
                say("warning: \(body.name) spins at \(w) rad/s")
            }
            if body.type == .dynamic {
                if !contains(out, c) {
                    if !body.escaped {
                        bodies[k].escaped = true
                        // The kind says how: in one step (from inside the inner rectangle to beyond
                        // the wall) or pushed through (its centre seen inside the wall before),
                        // with or without a joint, in a crowd world or not.
                        let jointed = joints.contains { $0.bodyA == body.a || $0.bodyB == body.a }
                        let kind = "escape: " + (body.inWallSteps == 0 ? "in one step" : "pushed through")
                            + (jointed ? ", jointed" : ", no joint") + (result.isCrowd ? ", crowd world" : "")
                        violation(kind, "\(body.name) \(body.a) (radius \(body.radius), mass \(body.mass)) centre \(c) beyond a wall, v \(v), |v| \(len(v)), \(body.inWallSteps) steps inside a wall before\(jointSummary(body))")
                    }
                } else if !contains(warn, c) {
                    inWall += 1
                    bodies[k].inWallSteps += 1
                }
            }
            if !diverged {
                let xb = many.transform(body.b), cb = many.worldCenter(body.b)
                let vb = many.linearVelocity(body.b), wb = many.angularVelocity(body.b)
                if !same(xf.p, xb.p) || !same(c, cb) || !same(v, vb) || xf.q.c.bitPattern != xb.q.c.bitPattern
                    || xf.q.s.bitPattern != xb.q.s.bitPattern || w.bitPattern != wb.bitPattern
                    || one.isAwake(body.a) != many.isAwake(body.b) {
                    diverged = true
                    violation("determinism", "\(body.name): 1 worker p \(xf.p) v \(v) w \(w), \(many.workerCount) workers p \(xb.p) v \(vb) w \(wb)")
                }
            }
        }
        if inWall > 0 { result.warnings["in-wall (body-steps)", default: 0] += inWall }
    }

    func jointSummary(_ body: Body) -> String {
        let js = joints.filter { $0.bodyA == body.a || $0.bodyB == body.a }
        return js.isEmpty ? "" : ", joints: " + js.map { "\($0.type)" }.joined(separator: " ")
    }

    func contains(_ box: AABB, _ p: Vec2) -> Bool {
        p.x >= box.lower.x && p.x <= box.upper.x && p.y >= box.lower.y && p.y <= box.upper.y
    }

    func same(_ a: Vec2, _ b: Vec2) -> Bool { a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern }
}

/// The length of a vector (the engine's own `length` is internal).
@inline(__always) func len(_ v: Vec2) -> Float { (v.x * v.x + v.y * v.y).squareRoot() }
