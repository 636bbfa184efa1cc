import DynamicsEngine
import Foundation

extension FuzzRandom {
    /// A random element, nil for an empty array.
    mutating func element<T>(_ a: [T]) -> T? { a.isEmpty ? nil : a[int(a.count)] }
}

/// One sleep-heavy world of `EngineFuzzer` (`dynamics-bench fuzz --sleep`): bodies that settle
/// quickly — columns, pyramids, heaps, damped hanging chains, piles on boundary shelves, stacks
/// created asleep, welded clusters, a kinematic platform at rest — in a closed container with
/// sleep on, left alone until their islands (and often the whole world) fall asleep, then
/// disturbed by a burst of calls: kicks, velocities, forces and calls that change nothing,
/// teleports, joints made, changed and broken to sleeping bodies (between two sleeping bodies,
/// a sleeping and an awake one, a sleeping one and the ground), bodies destroyed inside a
/// sleeping island and created touching one (some created asleep), shelves removed and added,
/// gravity, settings and per-body sleep thresholds changed, snapshots taken and restored —
/// then left alone again.
///
/// The same calls go to three runs: two take the shortcut steps a release build takes (a
/// world asleep steps by doing nothing, a small world at an exact rest point by a step at
/// rest; debug builds too, through `World.takesShortcutStepsInDebug`), on 1 worker and on N;
/// the third, the twin, takes every step in full (debug builds: the engine's default, which
/// also asserts that a full step of a world asleep changes nothing; release builds: a call
/// that changes nothing, made before every step, keeps it from ever being asleep). A snapshot
/// restored replaces one of the three runs.
///
/// After every step, besides `EngineFuzzWorld`'s checks (state finite, no speed above the
/// limit, no dynamic centre beyond a wall, handles valid, counts right): the three runs'
/// `stateDigest()` equal (everything a step reads, bit for bit), and their readable state
/// (`awakeBodyCount`, `islandCount`, contact counts, step count); in each run
/// `awakeBodyCount` equal to the bodies whose `isAwake` is true; a body asleep before and after
/// the step did not move (placement and velocity bit for bit); a body asleep stands still
/// (unless it was created asleep with a velocity and never woke). A restored snapshot has the
/// digest of the world it was taken from, and continues as the other runs do.
final class SleepFuzzWorld {
    static let wallThickness: Float = 200
    static let dt: Float = 1.0 / 60.0
    /// What the three runs are, in `worlds` order.
    static let roles = ["1 worker", "N workers", "full steps"]
    static let full = 2

    struct Body {
        var h: BodyHandle
        var type: BodyType
        /// The largest distance of a shape point from the body origin.
        var radius: Float
        var mass: Float
        var name: String
        /// Created asleep with a velocity, and not seen awake since: it sleeps moving.
        var sleepsMoving = false
        var escaped = false
        var tooFast = false
    }

    struct Joint {
        var h: JointHandle
        var type: JointType
        /// The bodies it joins (nil: the ground).
        var bodyA: BodyHandle?
        var bodyB: BodyHandle
    }

    /// A body's placement and motion before a step, to see that a sleeping one did not move.
    struct Pose {
        var awake: Bool
        var p: Vec2, c: Float, s: Float, v: Vec2, w: Float
        init(_ world: World, _ h: BodyHandle) {
            let xf = world.transform(h)
            awake = world.isAwake(h)
            p = xf.p; c = xf.q.c; s = xf.q.s; v = world.linearVelocity(h); w = world.angularVelocity(h)
        }
        /// Bit for bit (so -0 and 0 differ, and NaN equals itself).
        func same(_ o: Pose) -> Bool {
            p.x.bitPattern == o.p.x.bitPattern && p.y.bitPattern == o.p.y.bitPattern && c.bitPattern == o.c.bitPattern
                && s.bitPattern == o.s.bitPattern && v.x.bitPattern == o.v.x.bitPattern && v.y.bitPattern == o.v.y.bitPattern
                && w.bitPattern == o.w.bitPattern
        }
    }

    let seed: UInt64
    let steps: Int
    let log: ((String) -> Void)?
    let prepare: (@Sendable (World) -> Void)?
    var rng: FuzzRandom
    /// The three runs (`roles`): shortcuts on 1 worker, shortcuts on N, every step in full.
    var worlds: [World] = []
    /// The step at which each run was last replaced by a restored snapshot.
    var restoredAt: [Int?] = [nil, nil, nil]
    let workersN: Int
    var inner = AABB(lower: .zero, upper: .zero)
    var walls: [BodyHandle] = []
    var bodies: [Body] = []
    var joints: [Joint] = []
    var shelves: [BoundaryHandle] = []
    /// A collision group besides the default one (bodies join and leave it; its mode changes).
    var extraGroup = CollisionGroupID.default
    /// The kinematic platform's index in `bodies` is found by name; its velocity is undone
    /// after each nudge (`platformReturn`) so it stays where it was built.
    var platformName: String?
    var platformReturn: Vec2?
    /// The step at which the platform's current nudge stops (none starts before).
    var platformStops = -1
    /// The world's gravity as built (changes return to it).
    var baseGravity = Vec2.zero
    /// A small world (`buildSmallScene`): it takes steps at rest; its bursts make joints seldom.
    var small = false
    /// The smallest and largest body size (pt) of this world.
    var sizeBand: ClosedRange<Float> = 20...80
    var result = EngineFuzzer.WorldResult()
    var step = -1
    var diverged = false
    var violationCount = 0
    var nextName = 0
    var timeLimit: Double?
    /// Calls to make at a later step (undoing a change after a while), in step order (and in
    /// the order scheduled within a step).
    var later: [(step: Int, what: String, call: () -> Void)] = []
    /// The step length of the next step (usually 1/60 s).
    var nextDt: Float = SleepFuzzWorld.dt
    /// Steps left before the next burst of calls, and how many consecutive steps the world
    /// must have been entirely asleep to start it sooner.
    var quietLeft = 0
    var asleepWanted = 0
    var asleepRun = 0
    /// Verbose runs: the awake bodies' number last logged.
    var lastAwakeCount = -1

    var one: World { worlds[0] }

    init(seed: UInt64, steps: Int, prepare: (@Sendable (World) -> Void)?, log: ((String) -> Void)?) {
        self.seed = seed
        self.steps = steps
        self.log = log
        self.prepare = prepare
        rng = FuzzRandom(seed: seed)
        var settings = WorldSettings()
        settings.isSleepEnabled = true
        if rng.chance(0.3) { settings.timeToSleep = rng.float(0.2, 1) }
        if rng.chance(0.15) { settings.sleepLinearThreshold = rng.float(2, 40) }
        if rng.chance(0.1) { settings.sleepAngularThreshold = rng.float(0.05, 1) }
        let gravity: Vec2
        switch rng.weighted([7, 2, 1]) {
        case 0: gravity = Vec2(0, -1000)
        case 1: gravity = Vec2(0, -rng.float(300, 2500))
        default:
            let a = rng.float(-0.35, 0.35)
            gravity = Vec2(sinf(a), -cosf(a)) * rng.float(600, 1500)
        }
        baseGravity = gravity
        workersN = rng.int(in: 2...8)
        for k in 0..<3 {
            let w = World(gravity: gravity, settings: settings)
            configure(w, role: k)
            worlds.append(w)
        }
        let lo = rng.logUniform(12, 60)
        sizeBand = lo...(lo * rng.float(1.5, 3))
        result.isSleep = true
        log?("sleep world \(hex(seed)): gravity \(gravity), time to sleep \(settings.timeToSleep) s, world thresholds \(settings.sleepLinearThreshold) pt/s \(settings.sleepAngularThreshold) rad/s, workers 1 and \(workersN) (shortcut steps) and 1 (full steps), sizes \(sizeBand.lowerBound)–\(sizeBand.upperBound)")
    }

    /// Sets a run up for its role (`roles`): its workers, and whether a debug build takes the
    /// shortcut steps.
    func configure(_ w: World, role: Int) {
        w.workerCount = role == 1 ? workersN : 1
        prepare?(w)
        w.takesShortcutStepsInDebug = role != Self.full
    }

    // MARK: Running

    /// Notes that the world stopped at its time limit (a warning, not a violation).
    private func stoppedAtTimeLimit() {
        result.warnings["world stopped at its time limit", default: 0] += 1
        say("stopped: over \(timeLimit ?? 0) s")
    }

    func run() {
        buildContainer()
        buildScene()
        check(before: nil)
        quietLeft = rng.int(in: 90...240)
        asleepWanted = rng.int(in: 2...40)
        let deadline = FuzzDeadline(seconds: timeLimit)
        for s in 0..<steps {
            step = s
            if deadline.passed(atStep: s) { stoppedAtTimeLimit(); break }
            while let first = later.first, first.step <= s {
                later.removeFirst()
                say(first.what)
                first.call()
            }
            quietLeft -= 1
            if quietLeft <= 0 || asleepRun >= asleepWanted {
                burst()
                quietLeft = rng.chance(0.15) ? rng.int(in: 1...10) : rng.int(in: 40...200)
                asleepWanted = rng.int(in: 2...40)
                asleepRun = 0
            }
            // (A burst may have ended the world.)
            if violationCount >= 20 { break }
            let before = bodies.map { b in [worlds[0], worlds[Self.full]].map { Pose($0, b.h) } }
            #if !DEBUG
            // The twin is kept from the steps of a world asleep by a call that changes nothing
            // (debug builds take its every step in full anyway, and check them).
            if let w = walls.first { worlds[Self.full].setUserData(w, worlds[Self.full].userData(w)) }
            #endif
            let asleepBefore = one.asleepStepCount
            let dt = nextDt
            nextDt = Self.dt
            for w in worlds { w.step(dt: dt) }
            result.steps += 1
            if one.asleepStepCount > asleepBefore { result.asleepSteps += 1 }
            check(before: before)
            // Every second of world time: the world's state restores from its snapshot (no
            // NaN or broken list hides in what the bodies do not show).
            if s % 60 == 59 { checkRestorable() }
            if violationCount >= 20 { break }
        }
        result.continuousHits = one.continuousHits
        // (A world some body keeps awake — one that may not sleep, a joint's motor, a slow
        // creep — is still checked, but is not what these worlds are for: counted, seeds listed.)
        if result.allAsleepSteps == 0 { result.warnings["sleep world never entirely asleep", default: 0] += 1 }
    }

    func say(_ s: @autoclosure () -> String) { if let log { log("[\(step)] " + s()) } }

    /// Adds a call to `later`, after those due at the same step or before.
    func schedule(_ item: (step: Int, what: String, call: () -> Void)) {
        later.insert(item, at: later.firstIndex { $0.step > item.step } ?? later.endIndex)
    }

    func violation(_ kind: String, _ message: String) {
        violationCount += 1
        result.violations.append(.init(worldSeed: seed, steps: steps, step: step, kind: kind + " [sleep world]", message: message, isSleepWorld: true))
        say("VIOLATION \(kind): \(message)")
    }

    /// Makes the same call on every run.
    func all(_ f: (World) throws -> Void) rethrows { for w in worlds { try f(w) } }

    /// Makes the same call on every run and checks that each gave the same handle.
    func same<H: Equatable>(_ what: String, _ f: (World) throws -> H) rethrows -> H {
        let hs = try worlds.map(f)
        if hs.contains(where: { $0 != hs[0] }) {
            if !diverged { violation("determinism", "\(what) gave different handles in the three runs: \(hs)") }
            diverged = true
        }
        return hs[0]
    }

    // MARK: The scene

    func buildContainer() {
        let w = rng.float(1400, 2400), h = rng.float(900, 1500)
        inner = AABB(lower: .zero, upper: Vec2(w, h))
        let t = Self.wallThickness, ht = t / 2
        let boxes: [(Vec2, Float, Float)] = [
            (Vec2(-ht, h / 2), ht, h / 2 + t), (Vec2(w + ht, h / 2), ht, h / 2 + t),
            (Vec2(w / 2, -ht), w / 2 + t, ht), (Vec2(w / 2, h + ht), w / 2 + t, ht),
        ]
        let friction = rng.float(0.4, 1.2)
        for (p, hx, hy) in boxes {
            let shape = ShapeDef(.box(halfWidth: hx, halfHeight: hy), material: Material(density: 1, friction: friction))
            walls.append(try! same("wall") { try $0.createBody(BodyDef(type: .static, position: p), shapes: [shape]) })
        }
        extraGroup = same("createCollisionGroup") { $0.createCollisionGroup(mode: .everything) }
        say("container \(w) × \(h)")
    }

    /// A random material, a third of them with rolling resistance (which lets piles of round
    /// shapes settle).
    func material() -> Material {
        var m = Material(density: rng.logUniform(0.5, 4), friction: rng.float(0.5, 1.2), restitution: rng.chance(0.8) ? 0 : rng.float(0, 0.3))
        if rng.chance(0.3) { m.rollingResistance = rng.float(0, 0.2) }
        return m
    }

    /// A shape about `size` pt across with a flat bottom where it has one: its geometry, its
    /// half height (for stacking) and its bounding radius.
    func geometry(size: Float) -> (Geometry, Float, Float) {
        let hx = size / 2
        switch rng.weighted([6, 1, 1, 1, 1, 1]) {
        case 4:
            // A capsule lying on its side.
            let r = hx * rng.float(0.2, 0.5)
            return (.capsule(Vec2(r - hx, 0), Vec2(hx - r, 0), radius: r), r, hx)
        case 5:
            // A box with round corners.
            let hy = hx * rng.float(0.5, 1.5), r = min(hx, hy) * rng.float(0.1, 0.5)
            return (.roundedPolygon([Vec2(r - hx, r - hy), Vec2(hx - r, r - hy), Vec2(hx - r, hy - r), Vec2(r - hx, hy - r)], radius: r),
                    hy, hypotf(hx, hy))
        case 0:
            let hy = hx * rng.float(0.5, 1.5)
            return (.box(halfWidth: hx, halfHeight: hy), hy, hypotf(hx, hy))
        case 1:
            return (.circle(radius: hx), hx, hx)
        case 2:
            // A regular polygon standing on an edge.
            let n = rng.int(in: 5...8)
            let pts = (0..<n).map { k -> Vec2 in
                let a = -Float.pi / 2 + Float.pi / Float(n) + 2 * Float.pi * Float(k) / Float(n)
                return Vec2(hx * cosf(a), hx * sinf(a))
            }
            if (try? Geometry.validatePolygon(pts)) != nil { return (.polygon(pts), hx * cosf(.pi / Float(n)), hx) }
            return (.box(halfWidth: hx, halfHeight: hx), hx, hx * 1.4143)
        default:
            let hy = hx * rng.float(0.4, 1)
            return (.ellipse(halfWidth: hx, halfHeight: hy, center: .zero, segments: rng.int(in: 8...16)), hy, hx)
        }
    }

    /// Options a body of the scene may get (sleep threshold, sleep allowed, damping, gravity).
    func sleepOptions(_ def: inout BodyDef) {
        // (A threshold of 0 lets a body sleep only standing exactly still, which a body
        // resting on others seldom does: it keeps its island awake, so it is rare.)
        switch rng.weighted([750, 80, 3, 120, 47]) {
        case 1: def.sleepThreshold = rng.float(0.5, 5)
        case 2: def.sleepThreshold = 0
        case 3: def.sleepThreshold = rng.float(5, 60)
        case 4: def.sleepThreshold = .infinity
        default: break
        }
        if rng.chance(0.003) { def.allowSleep = false }
        if rng.chance(0.1) { def.linearDamping = rng.float(0, 1) }
        if rng.chance(0.1) { def.angularDamping = rng.float(0, 2) }
        if rng.chance(0.03) { def.fixedRotation = true }
        if rng.chance(0.02) { def.gravity = baseGravity * rng.float(0.5, 1.5) }
    }

    @discardableResult
    func addBody(_ def: BodyDef, _ shapes: [ShapeDef], radius: Float, note: String) -> BodyHandle? {
        var def = def
        // Round bodies roll on for ever on a flat floor once pushed (contacts have no rolling
        // resistance): angular damping stops them, so that they fall asleep.
        let rolls = shapes.contains {
            switch $0.geometry {
            case .circle: return true
            case .polygon(let points), .roundedPolygon(let points, _): return points.count >= 7  // ellipses, round polygons
            default: return false
            }
        }
        if def.type == .dynamic && rolls && def.angularDamping == 0 {
            def.angularDamping = rng.float(1, 3)
            if def.linearDamping == 0 { def.linearDamping = rng.float(0.2, 1) }
        }
        // A body that would stand in a wall (the edge of a wide pyramid or heap) is left out:
        // pushed out of the wall's far side, it would be an escape the fuzzer made.
        let box = Self.worldBox(def, shapes)
        guard box.lower.x >= inner.lower.x - 1, box.upper.x <= inner.upper.x + 1,
              box.lower.y >= inner.lower.y - 1, box.upper.y <= inner.upper.y + 1 else {
            say("left out \(note): at \(def.position), it would stand in a wall")
            return nil
        }
        let h: BodyHandle
        do {
            h = try same("createBody") { try $0.createBody(def, shapes: shapes) }
        } catch {
            violation("createBody threw", "\(error) for \(shapes.map { "\($0.geometry)" }) at \(def.position)")
            return nil
        }
        nextName += 1
        let name = "b\(nextName)"
        var body = Body(h: h, type: def.type, radius: radius, mass: one.mass(h), name: name)
        body.sleepsMoving = def.startsAsleep && (def.linearVelocity != .zero || def.angularVelocity != 0)
        bodies.append(body)
        say("create \(name) \(h) \(def.type) \(shapes.map { "\($0.geometry)" }.joined(separator: " + ")) at \(def.position) angle \(def.angle)\(def.startsAsleep ? " asleep" : "")\(def.allowSleep ? "" : " never sleeps") threshold \(def.sleepThreshold) \(note)")
        return h
    }

    /// The box around a body's shapes where `def` puts it.
    static func worldBox(_ def: BodyDef, _ shapes: [ShapeDef]) -> AABB {
        let xf = Transform(p: def.position, q: Rot(angle: def.angle))
        var lo = Vec2(repeating: .infinity), hi = Vec2(repeating: -.infinity)
        func add(_ local: Vec2, _ r: Float = 0) {
            let p = xf.apply(local)
            lo = pointwiseMin(lo, p - Vec2(r, r)); hi = pointwiseMax(hi, p + Vec2(r, r))
        }
        for shape in shapes {
            switch shape.geometry {
            case let .box(hx, hy, c, a):
                let q = Rot(angle: a)
                for corner in [Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)] { add(c + q.rotate(corner)) }
            case let .circle(r, c): add(c, r)
            case let .polygon(points): for p in points { add(p) }
            case let .segment(a, b): add(a); add(b)
            case let .capsule(a, b, r): add(a, r); add(b, r)
            case let .roundedPolygon(points, r): for p in points { add(p, r) }
            }
        }
        return AABB(lower: lo, upper: hi)
    }

    /// A body of size `size` standing with its centre at `p`, dynamic.
    func dynamicDef(at p: Vec2, asleep: Bool = false) -> BodyDef {
        var def = BodyDef(type: .dynamic, position: p)
        sleepOptions(&def)
        def.startsAsleep = asleep
        return def
    }

    func buildScene() {
        small = rng.chance(0.25)
        if small {
            buildSmallScene()
            return
        }
        let piles = rng.int(in: 1...4)
        let slot = (inner.upper.x - inner.lower.x) / Float(piles)
        for k in 0..<piles {
            let x = inner.lower.x + slot * (Float(k) + rng.float(0.3, 0.7))
            switch rng.weighted([4, 3, 3, 2, 2, 2, 2]) {
            case 0: column(x: x, floor: inner.lower.y, asleep: false, pile: k)
            case 1: pyramid(x: x, pile: k)
            case 2: heap(x: x, width: slot * 0.6, pile: k)
            case 3: chain(x: x, pile: k)
            case 4:
                // A column on a shelf (a boundary segment), removed later by a burst.
                let y = rng.float(150, min(600, inner.upper.y * 0.45))
                let half = min(slot * 0.45, rng.float(60, 200))
                if let s = try? same("addBoundary", { try $0.addBoundary(Vec2(x - half, y), Vec2(x + half, y), group: .default) }) {
                    shelves.append(s)
                    say("shelf \(s) at y \(y), x \(x - half)…\(x + half)")
                }
                column(x: x, floor: y, asleep: rng.chance(0.3), pile: k)
            case 5: column(x: x, floor: inner.lower.y, asleep: true, pile: k)
            default: welded(x: x, pile: k)
            }
        }
        // Loose bodies on the floor, and a few asleep in mid-air.
        for _ in 0..<rng.int(in: 0...4) { looseBody() }
        if rng.chance(0.2) { platform() }
        // Joints between piles (their islands become one) and to the ground.
        for _ in 0..<rng.int(in: 0...2) where bodies.count >= 2 { jointBetween(sleepingOnly: false) }
    }

    /// A small world: at most four bodies besides the walls and no joint, so that it takes
    /// steps at rest (`World.restBodyLimit`) on its way to sleep — a short column, a few loose
    /// bodies, or a platform carrying one.
    func buildSmallScene() {
        let x = inner.lower.x + (inner.upper.x - inner.lower.x) * rng.float(0.2, 0.8)
        switch rng.int(3) {
        case 0: column(x: x, floor: inner.lower.y, asleep: rng.chance(0.3), pile: 0, count: rng.int(in: 1...3), joints: false)
        case 1: for _ in 0..<rng.int(in: 1...3) { looseBody() }
        default:
            platform()
            if rng.chance(0.5) { looseBody() }
        }
        say("small world: \(bodies.count) bodies, no joint")
    }

    /// A body resting on the floor, or (some) asleep in mid-air, some of those with a velocity.
    func looseBody() {
        let size = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
        let (g, hy, r) = geometry(size: size)
        let floating = rng.chance(0.15)
        let p = Vec2(rng.float(inner.lower.x + r, inner.upper.x - r),
                     floating ? rng.float(inner.upper.y * 0.3, inner.upper.y * 0.8) : inner.lower.y + hy + rng.float(0, 2))
        var def = dynamicDef(at: p, asleep: floating)
        if floating && rng.chance(0.3) { def.linearVelocity = rng.direction() * rng.float(10, 200) }
        addBody(def, [ShapeDef(g, material: material())], radius: r, note: floating ? "(floating)" : "(loose)")
    }

    /// A kinematic platform standing still in mid-air, with a body dropped onto it.
    func platform() {
        let hx = rng.float(60, 150), hy = rng.float(8, 15)
        let p = Vec2(rng.float(inner.lower.x + hx + 300, inner.upper.x - hx - 300), rng.float(300, min(600, inner.upper.y - 300)))
        guard addBody(BodyDef(type: .kinematic, position: p), [ShapeDef(.box(halfWidth: hx, halfHeight: hy), material: material())],
                      radius: hypotf(hx, hy), note: "(platform)") != nil else { return }
        platformName = bodies.last!.name
        let size = rng.logUniform(sizeBand.lowerBound, min(sizeBand.upperBound, hx))
        let (g, bhy, r) = geometry(size: size)
        addBody(dynamicDef(at: p + Vec2(rng.float(-hx / 2, hx / 2), hy + bhy + rng.float(0, 20))), [ShapeDef(g, material: material())],
                radius: r, note: "(on the platform)")
    }

    /// A column of bodies standing on `floor` (small gaps, small offsets), some joined to the
    /// one below.
    func column(x: Float, floor: Float, asleep: Bool, pile: Int, count: Int? = nil, joints: Bool = true) {
        let n = count ?? rng.int(in: 2...8)
        let size = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
        var y = floor
        var below: (BodyHandle, Float)? = nil
        for _ in 0..<n {
            let (g, hy, r) = geometry(size: size * rng.float(0.8, 1.2))
            let gap = rng.float(0, 3)
            let c = Vec2(x + rng.float(-0.1, 0.1) * size, y + gap + hy)
            guard c.y + r < inner.upper.y - 50 else { break }
            guard let h = addBody(dynamicDef(at: c, asleep: asleep), [ShapeDef(g, material: material())], radius: r, note: "(column \(pile))") else { return }
            if let (b, top) = below, joints && rng.chance(0.25) {
                jointBetween(b, h, at: Vec2(x, (top + c.y - hy) / 2))
            }
            below = (h, c.y + hy)
            y = c.y + hy
        }
    }

    /// A pyramid of boxes on the floor.
    func pyramid(x: Float, pile: Int) {
        let base = rng.int(in: 2...6)
        let s = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
        let gap = rng.float(0, 2)
        let m = material()
        for row in 0..<base {
            let count = base - row
            for k in 0..<count {
                let cx = x + (Float(k) - Float(count - 1) / 2) * (s + gap)
                let cy = inner.lower.y + s / 2 + Float(row) * (s + gap) + gap
                guard cy + s < inner.upper.y - 50 else { return }
                addBody(dynamicDef(at: Vec2(cx, cy)), [ShapeDef(.box(halfWidth: s / 2, halfHeight: s / 2), material: m)],
                        radius: s * 0.7072, note: "(pyramid \(pile))")
            }
        }
    }

    /// Random shapes dropped from a little height over `width`: they tumble, then settle.
    func heap(x: Float, width: Float, pile: Int) {
        var y = inner.lower.y + 5
        for _ in 0..<rng.int(in: 3...10) {
            let size = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
            let (g, _, r) = geometry(size: size)
            let c = Vec2(x + rng.float(-width / 2, width / 2), y + r)
            guard c.y + r < inner.upper.y - 50 else { return }
            var def = dynamicDef(at: c)
            def.angle = rng.float(-.pi, .pi)
            addBody(def, [ShapeDef(g, material: material())], radius: r, note: "(heap \(pile))")
            y = c.y + r + rng.float(0, 10)
        }
    }

    /// A damped chain of links hanging from a ground pin, let go a little off the vertical.
    func chain(x: Float, pile: Int) {
        let n = rng.int(in: 2...5)
        let l = rng.float(30, 80), thick = rng.float(6, 14)
        let top = Vec2(x, inner.upper.y * rng.float(0.7, 0.85))
        let tilt = rng.float(-0.4, 0.4)
        let down = Vec2(sinf(tilt), -cosf(tilt))
        var previous: BodyHandle? = nil
        for k in 0..<n {
            let c = top + down * (l * (Float(k) + 0.5))
            var def = BodyDef(type: .dynamic, position: c, angle: tilt + .pi / 2)
            def.linearDamping = rng.float(0.5, 3)
            def.angularDamping = rng.float(1, 5)
            if rng.chance(0.2) { def.sleepThreshold = rng.float(5, 30) }
            guard let h = addBody(def, [ShapeDef(.box(halfWidth: l / 2, halfHeight: thick / 2), material: material())],
                                  radius: hypotf(l / 2, thick / 2), note: "(chain \(pile))") else { return }
            jointBetween(previous, h, at: top + down * (l * Float(k)), type: .revolute)
            previous = h
        }
    }

    /// Boxes side by side on the floor, welded together.
    func welded(x: Float, pile: Int) {
        let s = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
        let n = rng.int(in: 2...4)
        var previous: BodyHandle? = nil
        for k in 0..<n {
            let c = Vec2(x + Float(k) * s, inner.lower.y + s / 2 + rng.float(0, 2))
            guard let h = addBody(dynamicDef(at: c), [ShapeDef(.box(halfWidth: s / 2, halfHeight: s / 2), material: material())],
                                  radius: s * 0.7072, note: "(welded \(pile))") else { return }
            if let p = previous { jointBetween(p, h, at: c - Vec2(s / 2, 0), type: .weld) }
            previous = h
        }
    }

    // MARK: Joints

    /// A joint between `a` (nil: the ground) and `b` pinned at the world point `p` where they
    /// are now (so it pulls nothing out of place), of `type` or a random type.
    /// `ends`: a distance joint's anchors (world points) instead.
    func jointBetween(_ a: BodyHandle?, _ b: BodyHandle, at p: Vec2, type: JointType? = nil, ends: (Vec2, Vec2)? = nil) {
        // (A body pinned to the ground off its centre is a pendulum swinging for ever unless
        // its pin has friction; so is a body hanging from another one. Ground joints are
        // welds, limited slides or pins with friction; pins between bodies get friction half
        // the time.)
        let type = type ?? (a == nil ? [JointType.revolute, .weld, .prismatic][rng.int(3)]
                                     : [JointType.revolute, .weld, .distance, .prismatic][rng.weighted([3, 3, 3, 1])])
        var def = JointDef(type: type, bodyA: a, bodyB: b)
        // (A rigid rod of about zero length, both anchors at one point, swings its axis with
        // the slightest turn: on long lever arms it throws its bodies at the speed limit.
        // Mostly the rod reaches from the point to B's centre.)
        let pB = rng.chance(0.05) ? p : one.worldCenter(b)
        let (endA, endB) = type == .distance ? ends ?? (p, pB) : (p, p)
        def.localAnchorA = a.map { one.transform($0).invApply(endA) } ?? endA
        def.localAnchorB = one.transform(b).invApply(endB)
        switch type {
        case .distance:
            if rng.chance(0.4) {
                def.enableSpring = true
                def.hertz = rng.float(1, 10)
                def.dampingRatio = rng.float(0.5, 2)
            }
        case .revolute:
            if a == nil || rng.chance(0.5) { def.enableMotor = true; def.motorSpeed = 0; def.maxMotorTorque = one.mass(b) * rng.logUniform(1_000, 100_000) }
            if rng.chance(0.3) { def.enableLimit = true; def.lower = rng.float(-1, 0); def.upper = rng.float(0, 1) }
        case .prismatic:
            def.localAxisA = rng.direction()
            if a == nil || rng.chance(0.6) { def.enableLimit = true; def.lower = rng.float(-40, 0); def.upper = rng.float(0, 40) }
            if rng.chance(0.3) { def.enableMotor = true; def.motorSpeed = 0; def.maxMotorTorque = one.mass(b) * rng.logUniform(10, 10_000) }
        default: break
        }
        let h = same("createJoint") { $0.createJoint(def) }
        joints.append(Joint(h: h, type: type, bodyA: a, bodyB: b))
        result.jointsMade += 1
        say("joint \(h) \(type) \(a.map { name(of: $0) } ?? "ground") – \(name(of: b)) at \(p)")
    }

    /// A joint between two bodies (sleeping ones if `sleepingOnly` and there are two), or a
    /// body and the ground, at a point between them.
    func jointBetween(sleepingOnly: Bool) {
        let candidates = sleepingOnly ? sleeping() : dynamicBodies()
        guard let b = rng.element(candidates) else { return }
        if rng.chance(0.25) || candidates.count < 2 {
            jointBetween(nil, b.h, at: one.worldCenter(b.h) + rng.direction() * b.radius * rng.float(0, 0.8))
            return
        }
        // Mostly the nearest partner, sometimes any.
        let others = candidates.filter { $0.h != b.h }
        let cb = one.worldCenter(b.h)
        let a = rng.chance(0.85) ? others.min { len(one.worldCenter($0.h) - cb) < len(one.worldCenter($1.h) - cb) }! : rng.element(others)!
        join(a, b)
    }

    /// A joint between two bodies: pinned, welded, slid or a rod where they meet when they are
    /// near each other, else a rod or a spring between points of the two. (A joint anchored
    /// midway between far bodies hangs them on long lever arms, which throws them at the
    /// speed limit.)
    func join(_ a: Body, _ b: Body) {
        let ca = one.worldCenter(a.h), cb = one.worldCenter(b.h)
        if len(ca - cb) < 1.5 * (a.radius + b.radius) {
            jointBetween(a.h, b.h, at: (ca + cb) / 2)
        } else {
            let endA = ca + rng.direction() * a.radius * rng.float(0, 0.7)
            let endB = cb + rng.direction() * b.radius * rng.float(0, 0.7)
            jointBetween(a.h, b.h, at: (endA + endB) / 2, type: .distance, ends: (endA, endB))
        }
    }

    func name(of h: BodyHandle) -> String { bodies.first { $0.h == h }?.name ?? "\(h)" }

    // MARK: Bursts of calls

    func dynamicBodies() -> [Body] { bodies.filter { one.type($0.h) == .dynamic } }
    func sleeping() -> [Body] { bodies.filter { one.type($0.h) == .dynamic && !one.isAwake($0.h) } }
    /// A sleeping dynamic body if there is one, else any dynamic body.
    func sleeper() -> Body? { rng.element(sleeping()) ?? rng.element(dynamicBodies()) }

    func burst() {
        let asleep = !bodies.contains { one.type($0.h) != .static && one.isAwake($0.h) }
        let n = [1, 1, 1, 2, 2, 3, 4][rng.int(7)]
        say("burst of \(n) (\(asleep ? "world asleep" : "\(one.awakeBodyCount) awake"))")
        for _ in 0..<n {
            result.events += 1
            switch rng.weighted([14, 8, small ? 2 : 10, 6, 8, 4, 6, 8, 5, 2, 3, small ? 6 : 3, 4, 2]) {
            case 0: kick()
            case 1: teleport()
            case 2: jointEvent()
            case 3: destroyInIsland()
            case 4: createTouching()
            case 5: changeGravity()
            case 6: changeSettings()
            case 7: changeBody()
            case 8: snapshotAndRestore()
            case 9: all { $0.wakeAll() }; say("wakeAll")
            case 10: shelfEvent()
            case 11: nudgePlatform()
            case 12: noOpCall()
            default:
                nextDt = rng.chance(0.5) ? 1.0 / 120.0 : 1.0 / 30.0
                say("next step \(nextDt) s")
            }
            if violationCount >= 20 { return }
        }
    }

    /// Kicks, velocities, forces, a wake — and calls that change nothing (a zero impulse,
    /// force or torque does not wake the body, but the world is no longer "asleep": its next
    /// step is a full one).
    func kick() {
        guard let b = sleeper() else { return }
        let h = b.h, m = one.mass(h)
        let at: Vec2? = rng.chance(0.5) ? one.worldCenter(h) + rng.direction() * b.radius * rng.float(0, 1) : nil
        switch rng.weighted([5, 2, 2, 2, 1, 1, 2, 2]) {
        case 0:
            let j = rng.direction() * m * rng.logUniform(5, 600)
            all { $0.applyImpulse(h, j, at: at) }
            say("kick \(b.name) \(j)\(at.map { " at \($0)" } ?? "")")
        case 1:
            let v = rng.direction() * rng.logUniform(1, 400)
            all { $0.setLinearVelocity(h, v) }
            say("velocity \(b.name) \(v)")
        case 2:
            let w = rng.float(-4, 4)
            all { $0.setAngularVelocity(h, w) }
            say("spin \(b.name) \(w)")
        case 3:
            let f = rng.direction() * m * rng.logUniform(100, 60_000)
            all { $0.applyForce(h, f, at: at) }
            say("force \(b.name) \(f)\(at.map { " at \($0)" } ?? "")")
        case 4:
            let t = one.inertia(h) * rng.float(-100, 100)
            all { $0.applyTorque(h, t) }
            say("torque \(b.name) \(t)")
        case 5:
            let j = one.inertia(h) * rng.float(-3, 3)
            all { $0.applyAngularImpulse(h, j) }
            say("angular impulse \(b.name) \(j)")
        case 6:
            all { $0.wake(h) }
            say("wake \(b.name)")
        default:
            switch rng.int(3) {
            case 0: all { $0.applyImpulse(h, .zero, at: at) }; say("zero impulse \(b.name)")
            case 1: all { $0.applyForce(h, .zero) }; say("zero force \(b.name)")
            default: all { $0.applyTorque(h, 0) }; say("zero torque \(b.name)")
            }
        }
    }

    /// Teleports: to where the body already is, a few points away, a free spot, or onto another body.
    func teleport() {
        guard let b = sleeper() else { return }
        let xf = one.transform(b.h)
        let angle = xf.q.angle
        var p = xf.p, a = angle
        var how = "in place"
        switch rng.int(4) {
        case 0: break
        case 1: p += rng.direction() * rng.float(0.1, 5); a += rng.float(-0.05, 0.05); how = "nudged"
        case 2: p = spot(radius: b.radius); a = rng.float(-.pi, .pi); how = "to a free spot"
        default:
            guard let o = rng.element(sleeping().filter { $0.h != b.h }) else { break }
            let box = one.aabb(o.h)
            p = Vec2(rng.float(box.lower.x, box.upper.x), box.upper.y + b.radius + rng.float(-2, 3))
            how = "onto \(o.name)"
        }
        p = inside(p, radius: b.radius)
        all { $0.setTransform(b.h, position: p, angle: a) }
        say("teleport \(b.name) \(how) → \(p) \(a)")
    }

    /// A point where a body of radius `r` fits in the container.
    func spot(radius r: Float) -> Vec2 {
        let lo = inner.lower + Vec2(r, r), hi = inner.upper - Vec2(r, r)
        let c = inner.center
        return Vec2(lo.x < hi.x ? rng.float(lo.x, hi.x) : c.x, lo.y < hi.y ? rng.float(lo.y, hi.y) : c.y)
    }

    /// `p` moved inside the container far enough for a body of radius `r`.
    func inside(_ p: Vec2, radius r: Float) -> Vec2 {
        let lo = inner.lower + Vec2(r, r), hi = inner.upper - Vec2(r, r)
        return Vec2(lo.x < hi.x ? min(max(p.x, lo.x), hi.x) : inner.center.x, lo.y < hi.y ? min(max(p.y, lo.y), hi.y) : inner.center.y)
    }

    /// Joints made between sleeping bodies, a sleeping and an awake body, a sleeping body and
    /// the ground; joints of sleeping bodies changed or destroyed.
    func jointEvent() {
        switch rng.weighted([4, 3, 3, 2]) {
        case 0: jointBetween(sleepingOnly: true)
        case 1:
            // A sleeping body and an awake one: a new body beside it if none is awake.
            guard let s = sleeper() else { return }
            var awake = rng.element(dynamicBodies().filter { one.isAwake($0.h) && $0.h != s.h })
            if awake == nil {
                createTouching(near: s, asleep: false)
                awake = bodies.last.flatMap { $0.h != s.h && one.type($0.h) == .dynamic ? $0 : nil }
            }
            guard let w = awake else { return }
            if rng.chance(0.5) { join(s, w) } else { join(w, s) }
        case 2:
            guard !joints.isEmpty else { return }
            let k = pickJoint()
            let j = joints.remove(at: k)
            all { $0.destroyJoint(j.h) }
            say("destroy joint \(j.h) \(j.type)")
        default:
            guard !joints.isEmpty else { return }
            let j = joints[pickJoint()]
            let (hertz, damping, lower, upper) = (rng.float(1, 10), rng.float(0.5, 2), rng.float(-1, 0), rng.float(0, 1))
            let motor = rng.chance(0.5), torque = rng.logUniform(1, 100_000)
            all { w in
                w.updateJoint(j.h) { d in
                    switch d.type {
                    case .distance: d.enableSpring.toggle(); d.hertz = hertz; d.dampingRatio = damping
                    case .revolute: d.enableLimit.toggle(); d.lower = lower; d.upper = upper
                    case .prismatic: d.enableLimit.toggle(); d.lower = lower * 40; d.upper = upper * 40
                    default: break
                    }
                    if d.type == .revolute || d.type == .prismatic { d.enableMotor = motor; d.motorSpeed = 0; d.maxMotorTorque = torque }
                }
            }
            say("update joint \(j.h) \(j.type)")
        }
    }

    /// A joint with a sleeping body if there is one.
    func pickJoint() -> Int {
        let asleep = joints.indices.filter { k in [joints[k].bodyA, joints[k].bodyB].compactMap { $0 }.contains { !one.isAwake($0) && one.type($0) == .dynamic } }
        return asleep.isEmpty ? rng.int(joints.count) : asleep[rng.int(asleep.count)]
    }

    /// Destroys a body of a sleeping island (bodies resting on it, joints to it).
    func destroyInIsland() {
        guard let b = sleeper(), let k = bodies.firstIndex(where: { $0.h == b.h }) else { return }
        bodies.remove(at: k)
        let attached = joints.filter { $0.bodyA == b.h || $0.bodyB == b.h }
        joints.removeAll { $0.bodyA == b.h || $0.bodyB == b.h }
        all { $0.destroyBody(b.h) }
        say("destroy \(b.name) \(b.h) (and \(attached.count) joints)")
        for w in worlds {
            if w.isValid(b.h) { violation("destroyed body valid", "\(b.name) \(b.h) still valid after destroyBody") }
            for j in attached where w.isValid(j.h) { violation("joint outlived its body", "\(j.h) still valid after destroyBody(\(b.h))") }
        }
        if b.name == platformName { platformName = nil }
    }

    /// A body created touching a sleeping body: on it, beside it or overlapping it a little;
    /// some created asleep.
    func createTouching(near: Body? = nil, asleep: Bool? = nil) {
        guard let s = near ?? sleeper() else { return }
        let box = one.aabb(s.h)
        let size = rng.logUniform(sizeBand.lowerBound, sizeBand.upperBound)
        let (g, hy, r) = geometry(size: size)
        var p: Vec2
        switch rng.int(3) {
        case 0: p = Vec2(rng.float(box.lower.x, box.upper.x), box.upper.y + hy + rng.float(-2, 2))
        case 1: p = Vec2(rng.chance(0.5) ? box.lower.x - r - rng.float(-2, 2) : box.upper.x + r + rng.float(-2, 2), rng.float(box.lower.y, box.upper.y))
        default: p = box.center + rng.direction() * (len(box.extents) + r) * rng.float(0.8, 1)
        }
        p = inside(p, radius: r)
        let def = dynamicDef(at: p, asleep: asleep ?? rng.chance(0.25))
        addBody(def, [ShapeDef(g, material: material())], radius: r, note: "(touching \(s.name))")
    }

    func changeGravity() {
        let g: Vec2
        switch rng.int(3) {
        case 0: g = baseGravity
        case 1: g = baseGravity * rng.float(0.5, 1.5)
        default:
            let a = rng.float(-0.3, 0.3)
            g = Vec2(baseGravity.x * cosf(a) - baseGravity.y * sinf(a), baseGravity.x * sinf(a) + baseGravity.y * cosf(a))
            schedule((step + rng.int(in: 20...120), "gravity back to \(baseGravity)", { [unowned self] in all { $0.gravity = baseGravity } }))
        }
        all { $0.gravity = g }
        say("gravity \(g)")
    }

    /// Settings changed (none of them wakes a body; each ends a world's asleep steps).
    func changeSettings() {
        var s = one.settings
        let what: String
        switch rng.int(9) {
        case 0: s.contactHertz = rng.float(20, 60); what = "contactHertz \(s.contactHertz)"
        case 1: s.contactDampingRatio = rng.float(1, 10); what = "contactDampingRatio \(s.contactDampingRatio)"
        case 2: s.timeToSleep = rng.float(0.2, 1); what = "timeToSleep \(s.timeToSleep)"
        case 3: s.sleepLinearThreshold = rng.chance(0.5) ? .infinity : rng.float(2, 40); what = "sleepLinearThreshold \(s.sleepLinearThreshold)"
        case 4: s.sleepAngularThreshold = rng.chance(0.5) ? .infinity : rng.float(0.05, 1); what = "sleepAngularThreshold \(s.sleepAngularThreshold)"
        case 5: s.subSteps = rng.int(in: 2...8); what = "subSteps \(s.subSteps)"
        case 6:
            s.isSleepEnabled = false
            what = "sleep off"
            schedule((step + rng.int(in: 10...90), "sleep on", { [unowned self] in all { $0.settings.isSleepEnabled = true } }))
        case 7: s.contactRecycleDistance = [0, 5, 10][rng.int(3)]; what = "contactRecycleDistance \(s.contactRecycleDistance)"
        default: what = "settings unchanged (set again)"
        }
        all { $0.settings = s }
        say("settings: \(what)")
    }

    /// One property of a (sleeping) body changed.
    func changeBody() {
        guard let b = sleeper() else { return }
        let h = b.h
        switch rng.int(11) {
        case 0:
            // (0 seldom: it keeps the body's island awake for good.)
            let t: Float = [0, rng.float(0.5, 5), rng.float(5, 60), .infinity][rng.weighted([1, 6, 8, 5])]
            all { $0.setSleepThreshold(h, t) }
            say("\(b.name) sleep threshold \(t)")
        case 1:
            all { $0.setSleepAllowed(h, false) }
            schedule((step + rng.int(in: 10...120), "\(b.name) may sleep again", { [unowned self] in
                if one.isValid(h) { all { $0.setSleepAllowed(h, true) } }
            }))
            say("\(b.name) may not sleep")
        case 2:
            let allowed = rng.chance(0.8)
            all { $0.setSleepAllowed(h, allowed) }
            say("\(b.name) sleep allowed \(allowed) (as it was or not)")
        case 3:
            let g: Vec2? = rng.chance(0.5) ? nil : baseGravity * rng.float(0.5, 1.5)
            all { $0.setGravity(h, g) }
            say("\(b.name) gravity \(g.map { "\($0)" } ?? "the world's")")
        case 4:
            let (l, a) = (rng.float(0, 1), rng.float(0, 2))
            all { $0.setDamping(h, linear: l, angular: a) }
            say("\(b.name) damping \(l) \(a)")
        case 5:
            let m = material()
            all { $0.setMaterial(h, m) }
            say("\(b.name) material \(m)")
        case 6:
            let fixed = rng.chance(0.5)
            all { $0.setFixedRotation(h, fixed) }
            say("\(b.name) fixed rotation \(fixed)")
        case 7:
            let bullet = rng.chance(0.5)
            all { $0.setBullet(h, bullet) }
            say("\(b.name) bullet \(bullet)")
        case 8:
            // Anchored (static) for a while: its island's bodies touching it wake.
            guard let k = bodies.firstIndex(where: { $0.h == h }) else { return }
            all { $0.setType(h, .static) }
            bodies[k].type = .static
            schedule((step + rng.int(in: 10...120), "\(b.name) dynamic again", { [unowned self] in
                guard let k = bodies.firstIndex(where: { $0.h == h }) else { return }
                all { $0.setType(h, .dynamic) }
                bodies[k].type = .dynamic
                bodies[k].mass = one.mass(h)
            }))
            say("\(b.name) static")
        case 9:
            if rng.chance(0.5) { all { $0.addBody(h, to: extraGroup) }; say("\(b.name) joins the extra group") }
            else { all { $0.removeBody(h, from: extraGroup) }; say("\(b.name) leaves the extra group") }
        default:
            let mode: CollisionMode = [.everything, .items, .boundaries, []][rng.int(4)]
            all { $0.setMode(mode, of: extraGroup) }
            say("extra group mode \(mode.rawValue)")
        }
    }

    /// A snapshot of one run (usually asleep) restored in place of one of the runs: it must
    /// have the digest of the world it came from, and continue as the others do.
    func snapshotAndRestore() {
        let from = rng.int(3), into = rng.int(3)
        let bytes = worlds[from].snapshot()
        let restored: World
        do {
            restored = try World(snapshot: bytes)
        } catch {
            violation("snapshot: restore threw", "\(error) restoring a snapshot of the \(Self.roles[from]) run (\(bytes.count) bytes)")
            return
        }
        configure(restored, role: into)
        let (d0, d1) = (worlds[from].stateDigest(), restored.stateDigest())
        if d0 != d1 {
            violation("snapshot: restored ≠ original", "the \(Self.roles[from]) run's snapshot restored with digest \(hex(d1)), the world's is \(hex(d0))")
        }
        if restored.awakeBodyCount != worlds[from].awakeBodyCount || restored.bodyCount != worlds[from].bodyCount {
            violation("snapshot: restored ≠ original", "restored: \(restored.awakeBodyCount) awake of \(restored.bodyCount), original: \(worlds[from].awakeBodyCount) of \(worlds[from].bodyCount)")
        }
        worlds[into] = restored
        restoredAt[into] = step
        result.restores += 1
        say("snapshot of the \(Self.roles[from]) run (\(bytes.count) bytes, \(worlds[from].awakeBodyCount) awake) restored as the \(Self.roles[into]) run")
    }

    /// The 1-worker run's snapshot restores, with the run's digest.
    func checkRestorable() {
        guard !diverged else { return }
        let bytes = one.snapshot()
        do {
            let restored = try World(snapshot: bytes)
            let (d0, d1) = (one.stateDigest(), restored.stateDigest())
            if d0 != d1 { violation("snapshot: restored ≠ original", "the 1 worker run's snapshot restored with digest \(hex(d1)), the world's is \(hex(d0))") }
        } catch {
            violation("snapshot: restore threw", "\(error) restoring a snapshot of the 1 worker run (\(bytes.count) bytes)")
        }
    }

    /// A shelf removed (the pile on it falls) or a boundary added across the container (maybe
    /// through sleeping bodies).
    func shelfEvent() {
        if !shelves.isEmpty && rng.chance(0.6) {
            let s = shelves.remove(at: rng.int(shelves.count))
            all { $0.removeBoundary(s) }
            say("remove shelf \(s)")
            return
        }
        // (Everything random drawn before the calls: a closure given to `all` or `same` runs
        // once per run.)
        let a = spot(radius: 20), b = inside(a + rng.direction() * rng.float(50, 400), radius: 20)
        let group = rng.chance(0.8) ? CollisionGroupID.default : extraGroup
        guard let s = try? same("addBoundary", { try $0.addBoundary(a, b, group: group) }) else { return }
        shelves.append(s)
        say("add boundary \(s) \(a) – \(b) in group \(group)")
    }

    /// Moves the kinematic platform for a few steps, then stops it (the next nudge takes it back).
    func nudgePlatform() {
        guard let name = platformName, step >= platformStops, let p = bodies.first(where: { $0.name == name }), one.type(p.h) == .kinematic else { return }
        let v = platformReturn ?? rng.direction() * rng.float(20, 120)
        platformReturn = platformReturn == nil ? -v : nil
        let h = p.h
        all { $0.setLinearVelocity(h, v) }
        platformStops = step + 30
        schedule((step + 30, "stop \(name)", { [unowned self] in if one.isValid(h) { all { $0.setLinearVelocity(h, .zero) } } }))
        say("platform \(name) velocity \(v) for 30 steps")
    }

    /// Calls that change nothing but are calls all the same: the world's next step is a full one.
    func noOpCall() {
        guard let b = rng.element(bodies) else { return }
        let h = b.h
        switch rng.int(4) {
        case 0: let d = one.userData(h); all { $0.setUserData(h, d) }
        case 1: let q = one.charge(h); all { $0.setCharge(h, q) }
        case 2: let t = one.sleepThreshold(h); all { $0.setSleepThreshold(h, t) }
        default: let x = one.isBullet(h); all { $0.setBullet(h, x) }
        }
        say("a call that changes nothing on \(b.name)")
    }

    // MARK: Checks

    func check(before: [[Pose]]?) {
        let statics = walls.count
        for (k, w) in worlds.enumerated() {
            if w.bodyCount != bodies.count + statics { violation("body count", "the \(Self.roles[k]) run holds \(w.bodyCount) bodies, the fuzzer \(bodies.count + statics)") }
            if w.jointCount != joints.count { violation("joint count", "the \(Self.roles[k]) run holds \(w.jointCount) joints, the fuzzer \(joints.count)") }
            for j in joints where !w.isValid(j.h) { violation("stale handle", "joint \(j.h) (\(j.type)) is no longer valid in the \(Self.roles[k]) run") }
            for s in shelves where !w.isValid(s) { violation("stale handle", "boundary \(s) is no longer valid in the \(Self.roles[k]) run") }
        }
        if violationCount >= 20 { return }
        result.maxBodies = max(result.maxBodies, bodies.count)
        let t = Self.wallThickness
        let out = AABB(lower: inner.lower - Vec2(t, t), upper: inner.upper + Vec2(t, t))
        var allAsleep = true
        for k in bodies.indices {
            let b = bodies[k]
            guard worlds.allSatisfy({ $0.isValid(b.h) }) else {
                violation("stale handle", "\(b.name) \(b.h) is no longer valid")
                continue
            }
            let xf = one.transform(b.h), c = one.worldCenter(b.h), v = one.linearVelocity(b.h), w = one.angularVelocity(b.h)
            if !(xf.p.isFinite && xf.q.c.isFinite && xf.q.s.isFinite && c.isFinite && v.isFinite && w.isFinite) {
                violation("non-finite", "\(b.name) \(b.h): position \(xf.p), rotation \(xf.q), v \(v), w \(w)")
                continue
            }
            // (A body at the speed limit in a world of resting piles: an explosion, from a joint
            // no solve satisfies — a warning, its seed listed.)
            if len(v) > one.settings.maxLinearSpeed * 0.99 { result.warnings["at the speed limit (body-steps)", default: 0] += 1 }
            if !b.tooFast && len(v) > one.settings.maxLinearSpeed * 1.001 {
                bodies[k].tooFast = true
                violation("speed above maxLinearSpeed", "\(b.name) \(b.h) |v| \(len(v))")
            }
            let type = one.type(b.h)
            if type == .dynamic && !b.escaped && !(c.x >= out.lower.x && c.x <= out.upper.x && c.y >= out.lower.y && c.y <= out.upper.y) {
                bodies[k].escaped = true
                violation("escape", "\(b.name) \(b.h) (radius \(b.radius)) centre \(c) beyond a wall, v \(v)")
            }
            let awake = one.isAwake(b.h)
            if type != .static && awake { allAsleep = false }
            if awake { bodies[k].sleepsMoving = false }
            // Asleep: standing still (a body falls asleep with its island, velocities zeroed).
            if type == .dynamic && !awake && !b.sleepsMoving && (v != .zero || w != 0) {
                violation("asleep while moving", "\(b.name) \(b.h) sleeps with v \(v) w \(w)")
            }
            // Asleep before and after the step: not moved, in the shortcut and the full run.
            if let before, k < before.count {
                for (r, run) in [0, Self.full].enumerated() where type != .static {
                    let was = before[k][r], now = Pose(worlds[run], b.h)
                    if !was.awake && !now.awake && !was.same(now) {
                        violation("sleeping body moved", "\(b.name) \(b.h) in the \(Self.roles[run]) run: p \(was.p) → \(now.p), v \(was.v) → \(now.v), w \(was.w) → \(now.w)")
                    }
                }
            }
        }
        // awakeBodyCount: the bodies whose isAwake is true, in every run.
        for (r, w) in worlds.enumerated() {
            let n = bodies.filter { w.type($0.h) != .static && w.isAwake($0.h) }.count
            if w.awakeBodyCount != n || w.hasAwakeBodies != (n > 0) {
                violation("awakeBodyCount", "the \(Self.roles[r]) run: awakeBodyCount \(w.awakeBodyCount), hasAwakeBodies \(w.hasAwakeBodies), but \(n) bodies are awake")
            }
        }
        if allAsleep { asleepRun += 1; result.allAsleepSteps += before == nil ? 0 : 1 } else { asleepRun = 0 }
        if log != nil {
            // Verbose runs: the awake bodies whenever their number changes (named when few).
            let awake = bodies.filter { one.type($0.h) != .static && one.isAwake($0.h) }
            if awake.count != lastAwakeCount {
                lastAwakeCount = awake.count
                say("awake: \(awake.count)" + (awake.count <= 4 ? " " + awake.map { "\($0.name) (|v| \(len(one.linearVelocity($0.h))), w \(one.angularVelocity($0.h)))" }.joined(separator: ", ") : ""))
            }
        }
        compareRuns()
    }

    /// The three runs bit for bit: their digests, and what a caller reads.
    func compareRuns() {
        guard !diverged else { return }
        let digests = worlds.map { $0.stateDigest() }
        for (a, b) in [(0, Self.full), (0, 1)] {
            let readA = readable(worlds[a]), readB = readable(worlds[b])
            guard digests[a] != digests[b] || readA != readB else { continue }
            diverged = true
            // (A run restored from a snapshot in the last two seconds is the first suspect;
            // earlier restores are only noted.)
            let restored = [a, b].filter { restoredAt[$0] != nil }
            let kind = restored.contains { step - restoredAt[$0]! <= 120 } ? "snapshot: restored run diverged"
                : b == Self.full ? "asleep steps ≠ full steps" : "determinism"
            let note = restored.map { "the \(Self.roles[$0]) run restored at step \(restoredAt[$0]!)" }.joined(separator: ", ")
            violation(kind, "the \(Self.roles[a]) and \(Self.roles[b]) runs differ: \(difference(worlds[a], worlds[b], readA, readB))\(note.isEmpty ? "" : " (\(note))")")
            return
        }
    }

    /// What a caller reads of a world besides the bodies: awake bodies, islands, contacts,
    /// steps, hits, this step's contact events and the kinetic energy (its bits).
    func readable(_ w: World) -> [Int] {
        [w.awakeBodyCount, w.islandCount, w.contactCount, w.touchingContactCount, w.recycledContactCount, w.stepCount,
         w.continuousHits, w.contactBeginEvents.count, w.contactEndEvents.count, Int(truncatingIfNeeded: w.kineticEnergy.bitPattern)]
    }

    /// The first difference a caller can see, else "internal state".
    func difference(_ a: World, _ b: World, _ ra: [Int], _ rb: [Int]) -> String {
        for body in bodies {
            let pa = Pose(a, body.h), pb = Pose(b, body.h)
            if !pa.same(pb) || pa.awake != pb.awake {
                return "\(body.name) \(body.h): p \(pa.p) v \(pa.v) w \(pa.w) awake \(pa.awake) vs p \(pb.p) v \(pb.v) w \(pb.w) awake \(pb.awake)"
            }
        }
        let names = ["awakeBodyCount", "islandCount", "contactCount", "touchingContactCount", "recycledContactCount", "stepCount",
                     "continuousHits", "contact begin events", "contact end events", "kineticEnergy bits"]
        for k in ra.indices where ra[k] != rb[k] { return "\(names[k]) \(ra[k]) vs \(rb[k])" }
        return "the state digests differ (bodies, counts and events the same): " + Self.firstDifference(a.snapshot(), b.snapshot())
    }

    /// Where two snapshots first differ: the section (its tag) and the offset in it. A
    /// snapshot is a 32-byte header, then sections of a 4-byte tag, a u64 length and the bytes.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard let k = (32..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : min(a.count, b.count)) else {
            return "the snapshots are the same bytes"
        }
        var at = 32
        while at + 12 <= a.count {
            let tag = String(decoding: a[at..<at + 4], as: UTF8.self)
            var n = 0
            for i in 0..<8 { n |= Int(a[at + 4 + i]) << (8 * i) }
            if k < at + 12 + n {
                let near = { (x: [UInt8]) -> String in
                    let hi = min(x.count, k + 12)
                    return x[min(max(at + 12, k - 4), hi)..<hi].map { String(format: "%02x", $0) }.joined()
                }
                return "first at byte \(k - at - 12) of section \(tag) (\(n) bytes, sizes \(a.count) and \(b.count)): …\(near(a))… vs …\(near(b))…"
            }
            at += 12 + n
        }
        return "first at byte \(k) (header; sizes \(a.count) and \(b.count))"
    }
}
