import Testing
import DynamicsEngine
import DynamicsScenes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scenes of Box2D's benchmark app (v3.1.1's, and v3.2's `spinner`, `washer`, `compounds`
/// and `junkyard`) and our `chains`, built small: the layout Box2D's source gives (in points,
/// 100 pt = 1 m, y up), a few steps, and a sanity check that fails when the scene comes apart.
@Suite("Box2D's benchmark scenes")
struct Box2DScenesTests {
    static func build(_ name: String, _ size: Int) throws -> SceneInstance {
        try SceneCatalog.scene(named: name).build(size: size, seed: 0)
    }

    @Test("large_pyramid is the pyramid under Box2D's name and step count")
    func largePyramid() throws {
        let large = try Self.build("large_pyramid", 4), plain = try Self.build("pyramid", 4)
        #expect(large.name == "large_pyramid" && large.stepsDefault == 500)
        #expect(large.dynamicBodies.map { large.world.position($0) } == plain.dynamicBodies.map { plain.world.position($0) })
        #expect(large.world.settings.isSleepEnabled == false)
        #expect(try SceneCatalog.scene(named: "large_pyramid").defaultSize == 100)
    }

    @Test("many_pyramids 2: 4 pyramids of 55 boxes on 2 ground rows; they stand")
    func manyPyramids() throws {
        let s = try Self.build("many_pyramids", 2)
        #expect(s.dynamicBodies.count == 4 * 55)
        #expect(s.staticBodyCount == 1 && s.world.bodyCount == 221)
        #expect(s.world.settings.isSleepEnabled == false)
        // Ground width 2 × 0.5 × 2 × 11 = 22 m: pyramid (0, 0) starts at x = −11 + 0.5 m.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-1050, 50))
        // The top of pyramid (row 1, column 1): x = −11 + 11 + 0.5 + 4.5 m, y = 11 + 9.5 m.
        expectClose(s.world.position(s.dynamicBodies[219]), Vec2(500, 2050))
        s.run(steps: 30)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
        #expect(report.touchingContacts >= 4 * 55)
        // A top box knocked off fails `standing`.
        s.world.setTransform(s.dynamicBodies[54], position: Vec2(-500, 20), angle: 0)
        #expect(s.sanity().checks["standing"] == false)
        #expect(s.sanity().metrics["fallen_pyramids"] == 1)
    }

    @Test("joint_grid 10 (Box2D's debug size): 100 circles, 7 static, 180 pins, no contacts; it stays joined")
    func jointGrid() throws {
        let s = try Self.build("joint_grid", 10)
        #expect(s.dynamicBodies.count == 93 && s.staticBodyCount == 7)
        #expect(s.world.jointCount == 2 * 10 * 9)
        #expect(s.world.settings.isSleepEnabled == false)
        // Circle (0, 0), the top row's first, is not one of the static ones (k = 2 … 8).
        let corner = s.dynamicBodies[0]
        expectClose(s.world.position(corner), .zero)
        s.run(steps: 30)
        #expect(s.world.touchingContactCount == 0)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
        #expect(report.checks["attached"] == true)
        // A square lattice of pins is nearly rigid: the sides held by 7 pinned circles sag a little.
        let sag = s.world.position(corner).y
        #expect(sag < -0.25 && sag > -50, "\(sag)")
        // Pulling a circle out of the sheet fails `attached`.
        s.world.setTransform(s.dynamicBodies[50], position: Vec2(5000, 0), angle: 0)
        #expect(s.sanity().checks["attached"] == false)
    }

    @Test("joint_sheets 10: four sheets of 100 circles, 7 static each, 180 joints each; the checks catch a broken link")
    func jointSheets() throws {
        let s = try Self.build("joint_sheets", 10)
        #expect(s.dynamicBodies.count == 4 * 93 && s.staticBodyCount == 4 * 7)
        #expect(s.world.jointCount == 4 * 2 * 10 * 9)
        s.run(steps: 30)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
        // Pulling a circle of the last sheet (prismatic joints) away fails `attached`, of the
        // second (distance rods) `links`.
        s.world.setTransform(s.dynamicBodies[4 * 93 - 1], position: Vec2(50_000, 0), angle: 0)
        #expect(s.sanity().checks["attached"] == false)
        s.world.setTransform(s.dynamicBodies[93 + 50], position: Vec2(-50_000, 0), angle: 0)
        #expect(s.sanity().checks["links"] == false)
    }

    @Test("joint_sheets 30: hung sheets of weld, distance and prismatic joints lose energy as they swing; none gains any")
    func jointSheetsKeepTheirEnergy() throws {
        // A swinging sheet of distance joints whose warm start pushed along the axis of the
        // step's start, not the sub-step's, gained energy until it flew apart (kinetic energy
        // 17 sheet-heights above its start by 200 steps here).
        let n = 30
        let s = try Self.build("joint_sheets", n)
        let g = -s.world.gravity.y
        func energy() -> Double {
            var e = s.world.kineticEnergy
            for b in s.dynamicBodies { e += Double(s.world.mass(b) * g * s.world.position(b).y) }
            return e
        }
        let start = energy()
        // The energy of every body raised by 1 % of a sheet's height.
        let tolerance = 0.01 * Double(s.dynamicBodies.count) * Double(s.world.mass(s.dynamicBodies[0]) * g) * 100 * Double(n)
        var highest = start
        for _ in 0..<200 {
            s.step()
            highest = max(highest, energy())
        }
        #expect(highest <= start + tolerance, "energy rose by \((highest - start) / tolerance)% of a sheet-height per body")
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
    }

    @Test("rain 2: a column of 25 ragdolls every 8 steps, the oldest replaced once both are full")
    func rain() throws {
        let s = try Self.build("rain", 2)
        #expect(s.dynamicBodies.isEmpty && s.staticBodyCount == 1 && s.world.bodyCount == 1)
        s.step()  // before step 0: column 0 of each of the 5 rows
        #expect(s.dynamicBodies.count == 25 * 11 && s.world.jointCount == 25 * 10)
        // Its first ragdoll's hip: x = −6.25 + 6.25 × 0.5 m, 0.95 m above y = 40 m.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-312.5, 4095), tolerance: 2)
        let first = s.dynamicBodies[0]
        s.run(steps: 8)  // step 8 adds column 1
        #expect(s.dynamicBodies.count == 50 * 11)
        s.run(steps: 8)  // step 16 replaces column 0
        #expect(s.dynamicBodies.count == 50 * 11 && s.world.bodyCount == 1 + 50 * 11 && s.world.jointCount == 50 * 10)
        #expect(!s.world.isValid(first) && !s.dynamicBodies.contains(first))
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.metrics["ragdolls"] == 50)
        // A body under the lowest floor, between its ends, fails `floors_hold`.
        s.world.setTransform(s.dynamicBodies[3], position: Vec2(0, -300), angle: 0)
        #expect(s.sanity().checks["floors_hold"] == false)
    }

    @Test("smash 6: the projectile and a sleeping 6 × 4 block; momentum is kept and the block slows it")
    func smash() throws {
        let s = try Self.build("smash", 6)
        #expect(s.dynamicBodies.count == 1 + 6 * 4)
        #expect(s.world.gravity == .zero)
        let hammer = s.dynamicBodies[0]
        #expect(abs(s.world.mass(hammer) - 8 * 64) < 1e-2)
        #expect(s.world.linearVelocity(hammer) == Vec2(4000, 0))
        #expect(s.dynamicBodies.dropFirst().allSatisfy { !s.world.isAwake($0) })
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(3000, -80))
        s.run(steps: 90)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.checks["smashed"] == true && report.checks["momentum"] == true)
        #expect(s.dynamicBodies.dropFirst().contains { s.world.isAwake($0) })
        // A body given momentum from nowhere fails `momentum`.
        s.world.setLinearVelocity(s.dynamicBodies[1], Vec2(0, 1e6))
        #expect(s.sanity().checks["momentum"] == false)
    }

    @Test("tumbler 5: the drum turns at 25°/s and keeps its 25 boxes")
    func tumbler() throws {
        let s = try Self.build("tumbler", 5)
        #expect(s.dynamicBodies.count == 1 + 25 && s.world.jointCount == 1)
        let drum = s.dynamicBodies[0]
        // Walls of density 50: 4 × 20 m² = 80 m² → 4 000 kg.
        #expect(abs(s.world.mass(drum) - 4000) < 1)
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(-100, 900))
        s.run(steps: 60)
        #expect(abs(s.world.angle(drum) - 25 * Float.pi / 180) < 0.05)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
        #expect(report.metrics["outside_drum"] == 0)
        s.world.setTransform(s.dynamicBodies[3], position: Vec2(0, 2500), angle: 0)
        #expect(s.sanity().checks["contained"] == false)
    }

    @Test("spinner 200 (v3.2): a rounded bar on an unlimited motor, capsules, circles and squares 0.5 m apart, 92 to a row; they stay inside")
    func spinner() throws {
        let s = try Self.build("spinner", 200)
        #expect(s.dynamicBodies.count == 201 && s.world.jointCount == 1 && s.stepsDefault == 500)
        #expect(s.world.boundaries.count == 360 && s.world.settings.isSleepEnabled)
        let bar = s.dynamicBodies[0]
        #expect(s.world.shapes(of: bar) == [.roundedPolygon([Vec2(-40, -2000), Vec2(40, -2000), Vec2(40, 2000), Vec2(-40, 2000)], radius: 20)])
        let kinds = s.dynamicBodies[1...3].map { s.world.shapes(of: $0)[0] }
        #expect(kinds[0] == .capsule(Vec2(-25, 0), Vec2(25, 0), radius: 25))
        #expect(kinds[1] == .circle(radius: 35))
        if case .polygon(let square) = kinds[2] { #expect(square.count == 4) } else { Issue.record("not a square") }
        // Density 0.25: a circle of radius 0.35 m weighs 0.25 π 0.35² kg.
        #expect(abs(s.world.mass(s.dynamicBodies[2]) - 0.25 * Float.pi * 0.35 * 0.35) < 1e-4)
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(-2300, 200))
        expectClose(s.world.position(s.dynamicBodies[92]), Vec2(2250, 200))  // the last of row 1
        expectClose(s.world.position(s.dynamicBodies[93]), Vec2(-2300, 250))  // row 2 starts 0.5 m higher
        s.run(steps: 30)
        // No torque limit: the bar turns at the motor's 5 rad/s from the first step.
        let angle = s.world.angle(bar), speed = s.world.angularVelocity(bar)
        #expect(abs(speed - 5) < 0.05, "\(speed)")
        #expect(abs(angle - 2.5) < 0.1, "\(angle)")
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.metrics["outside_container"] == 0)
        // A body outside the container fails `contained`.
        s.world.setTransform(s.dynamicBodies[5], position: Vec2(0, -1000), angle: 0)
        #expect(s.sanity().checks["contained"] == false)
        #expect(!s.sanity().passed)
    }

    @Test("washer 10: a kinematic drum of 36 ring pieces and 4 vanes turning at 25°/s; its 100 boxes stay inside")
    func washer() throws {
        let s = try Self.build("washer", 10)
        #expect(s.dynamicBodies.count == 100 && s.staticBodyCount == 0 && s.world.bodyCount == 101)
        #expect(s.world.jointCount == 0 && s.stepsDefault == 500 && s.world.settings.isSleepEnabled)
        let drum = try #require(s.world.bodies.first { s.world.type($0) == .kinematic })
        expectClose(s.world.position(drum), Vec2(0, 1000))
        let pieces = s.world.shapes(of: drum)
        #expect(pieces.count == 40)
        // Shape 0 is the ring piece over −1° … 11° between 16 and 18 m; shape 1 the vane over
        // 0° … 10° between 14 and 16 m; the next vane follows the ring piece at 90°.
        func corners(_ g: Geometry) -> [(degrees: Float, radius: Float)] {
            guard case .polygon(let points) = g else { return [] }
            return points.map { (atan2f($0.y, $0.x) * 180 / Float.pi, separation($0, .zero)) }
                .sorted { ($0.degrees.rounded(), $0.radius) < ($1.degrees.rounded(), $1.radius) }
        }
        let ring = corners(pieces[0]), vane = corners(pieces[1]), vane2 = corners(pieces[11])
        #expect(ring.count == 4 && vane.count == 4 && vane2.count == 4)
        for (got, want) in zip(ring + vane + vane2, [(-1, 1600), (-1, 1800), (11, 1600), (11, 1800), (0, 1400), (0, 1600),
                                                     (10, 1400), (10, 1600), (90, 1400), (90, 1600), (100, 1400), (100, 1600)] as [(Float, Float)]) {
            #expect(abs(got.degrees - want.0) < 1e-3 && abs(got.radius - want.1) < 1e-2, "\(got) is not \(want)")
        }
        // The grid from (−0.11 G, 10 − 0.11 G) m, 0.21 m apart, row by row.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-110, 890))
        expectClose(s.world.position(s.dynamicBodies[11]), Vec2(-89, 911))
        s.run(steps: 120)
        // Kinematic: turned by exactly 50° in 2 s, drifted by (0.2, −0.4) pt.
        #expect(abs(s.world.angle(drum) - 50 * Float.pi / 180) < 1e-4, "\(s.world.angle(drum))")
        expectClose(s.world.position(drum), Vec2(0.2, 999.6), tolerance: 1e-2)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.metrics["outside_drum"] == 0)
        // The boxes have fallen onto the ring: the lowest is below the drum's centre by most of 16 m.
        let lowest = s.dynamicBodies.map { s.world.position($0).y }.min() ?? 0
        #expect(lowest < 1000 - 1400, "\(lowest)")
        // A box beyond the ring's inner face fails `contained`.
        s.world.setTransform(s.dynamicBodies[7], position: Vec2(0, -700), angle: 0)
        #expect(s.sanity().checks["contained"] == false && s.sanity().metrics["outside_drum"] == 1)
        #expect(!s.sanity().passed)
    }

    @Test("compounds 2: 40 bodies of two triangles fall into the box and stay in it")
    func compounds() throws {
        let s = try Self.build("compounds", 2)
        #expect(s.dynamicBodies.count == 40 && s.staticBodyCount == 1 && s.world.bodyCount == 41)
        #expect(s.stepsDefault == 500 && s.world.settings.isSleepEnabled)
        let ground = try #require(s.world.bodies.first { s.world.type($0) == .static })
        #expect(s.world.shapeCount(of: ground) == 81 + 2 * 100 + 1)
        #expect(s.world.shapes(of: ground).last == .segment(Vec2(-80_000, -8_000), Vec2(80_000, -8_000)))
        let first = s.dynamicBodies[0]
        #expect(s.world.shapeCount(of: first) == 2)
        // Two triangles of 1 m² each, density 1: 2 kg, the centre of mass 1 m above the origin.
        #expect(abs(s.world.mass(first) - 2) < 1e-4)
        expectClose(s.world.worldCenter(first) - s.world.position(first), Vec2(0, 100), tolerance: 1e-2)
        // Column 0 at x = −19 m, rows 2.25 m apart from 5.575 m, shifted +0.25, −0.25, … in turn.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-1875, 557.5))
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(-1925, 782.5))
        expectClose(s.world.position(s.dynamicBodies[2]), Vec2(-1675, 557.5))
        s.run(steps: 90)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.metrics["outside_box"] == 0 && report.touchingContacts >= 20)
        // The lowest row has landed on the floor (top face 0.5 m): centres of mass below 2.5 m.
        #expect(s.world.worldCenter(s.dynamicBodies[0]).y < 250, "\(s.world.worldCenter(s.dynamicBodies[0]))")
        // A body over the wall fails `contained`, though it is not lost (the catch segment is far below).
        s.world.setTransform(s.dynamicBodies[5], position: Vec2(4500, 100), angle: 0)
        #expect(s.sanity().checks["contained"] == false && s.sanity().metrics["outside_box"] == 1)
        #expect(s.sanity().escaped == 0 && !s.sanity().passed)
    }

    @Test("junkyard 2 (Box2D's debug size): 400 pentagons in the yard, the pusher on its sine path")
    func junkyard() throws {
        let s = try Self.build("junkyard", 2)
        #expect(s.dynamicBodies.count == 400 && s.staticBodyCount == 1 && s.world.bodyCount == 402)
        #expect(s.stepsDefault == 800 && s.world.settings.isSleepEnabled && !s.isResumable)
        let ground = try #require(s.world.bodies.first { s.world.type($0) == .static })
        #expect(s.world.shapeCount(of: ground) == 161 + 2 * 50)
        let pusher = try #require(s.world.bodies.first { s.world.type($0) == .kinematic })
        #expect(s.world.position(pusher) == .zero)
        // A pentagon: 5 corners 0.25 m from its origin.
        guard case .polygon(let pentagon) = s.world.shapes(of: s.dynamicBodies[0])[0] else {
            Issue.record("not a polygon"); return
        }
        #expect(pentagon.count == 5 && pentagon.allSatisfy { abs(separation($0, .zero) - 25) < 0.05 })
        // Column 0 at x = −75 m, rows 1 m apart from 15 m, shifted −0.1, +0.1, … in turn.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-7510, 1500))
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(-7490, 1600))
        expectClose(s.world.position(s.dynamicBodies[2]), Vec2(-7435, 1500))
        s.run(steps: 120)
        // After 120 steps the pusher is at 60 sin(0.2 · 119 / 60) m (Box2D's sine is within 0.2 %).
        let x = s.world.position(pusher).x
        #expect(abs(x - 6000 * sinf(0.2 * 119 / 60)) < 12, "\(x)")
        #expect(abs(s.world.position(pusher).y) < 1e-3 && s.world.angle(pusher) == 0)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.checks["pusher_on_path"] == true && report.metrics["outside_yard"] == 0)
        // The pentagons have landed on the floor (top face 0.5 m).
        #expect(s.world.position(s.dynamicBodies[0]).y < 100)
        // A pentagon beyond a wall fails `contained`; a pusher moved off its path, `pusher_on_path`.
        s.world.setTransform(s.dynamicBodies[9], position: Vec2(8200, 100), angle: 0)
        #expect(s.sanity().checks["contained"] == false)
        s.world.setTransform(pusher, position: Vec2(x + 50, 0), angle: 0)
        #expect(s.sanity().checks["pusher_on_path"] == false)
        #expect(!s.sanity().passed)
    }

    @Test("spinner_v31 60: a 360-segment container, the motor bar and 60 bodies that stay inside")
    func spinnerV31() throws {
        let s = try Self.build("spinner_v31", 60)
        #expect(s.dynamicBodies.count == 61 && s.world.jointCount == 1)
        #expect(s.world.boundaries.count == 360)
        // The rounded shapes are polygons: capsule, circle, square in turn.
        let kinds = s.dynamicBodies[1...3].map { s.world.shapes(of: $0)[0] }
        if case .polygon(let capsule) = kinds[0] { #expect(capsule.count >= 6) } else { Issue.record("not a capsule polygon") }
        #expect(kinds[1] == .circle(radius: 35))
        expectClose(s.world.position(s.dynamicBodies[1]), Vec2(-2400, 200))
        expectClose(s.world.position(s.dynamicBodies[50]), Vec2(-2400, 300))  // the 50th body starts row 2
        s.run(steps: 30)
        // The motor (40 000 N·m) spins the bar up towards 5 rad/s: at most 2.5 rad in 0.5 s.
        let bar = s.dynamicBodies[0], angle = s.world.angle(bar), speed = s.world.angularVelocity(bar)
        #expect(angle > 0.3 && angle < 2.55, "\(angle)")
        #expect(speed > 1 && speed < 5.05, "\(speed)")
        let report = s.sanity()
        #expect(report.passed, "\(report.failures)")
        s.world.setTransform(s.dynamicBodies[5], position: Vec2(0, -1000), angle: 0)
        #expect(s.sanity().checks["contained"] == false)
    }

    @Test("chains 3: 150 links and 150 pins that swing and hold together")
    func chains() throws {
        let s = try Self.build("chains", 3)
        #expect(s.dynamicBodies.count == 150 && s.world.jointCount == 150)
        #expect(s.world.settings.isSleepEnabled == false)
        // Chain 0 hangs from (−1, 14) m, slanted 30° towards +x; its first link's centre is 0.125 m down it.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-100 + 12.5 * 0.5, 1400 - 12.5 * 0.8660254), tolerance: 0.01)
        #expect(abs(s.world.angle(s.dynamicBodies[0]) + 60 * Float.pi / 180) < 1e-4)
        let start = s.dynamicBodies.map { s.world.position($0) }
        s.run(steps: 60)
        let report = s.sanity()
        #expect(report.passed, "\(report.failures) \(report.metrics)")
        #expect(report.checks["attached"] == true)
        // They swing: the free ends have moved by metres.
        #expect(separation(s.world.position(s.dynamicBodies[49]), start[49]) > 100)
        s.world.setTransform(s.dynamicBodies[70], position: Vec2(0, 100), angle: 0)
        #expect(s.sanity().checks["attached"] == false)
    }
}

/// Box2D v3.2's scenes as the CLI builds them, at sizes of over 1 000 bodies (below that a world
/// steps on one thread whatever its worker count) and stepped until two workers share the solve
/// of their biggest island (over 2 × 512 touching contacts): the final world, kinematic bodies
/// and all, is bit for bit the same on 1 and 2 workers.
@Suite("Box2D v3.2's scenes on 1 and 2 workers")
struct Box2DScenesWorkerTests {
    @Test("1 and 2 workers agree bit for bit",
          arguments: [("spinner", 1_500, 30), ("washer", 32, 110), ("compounds", 60, 75), ("junkyard", 6, 130)])
    func workersAgree(name: String, size: Int, steps: Int) throws {
        func run(workers: Int) throws -> (digest: UInt64, touching: Int, bodies: Int) {
            let s = try SceneCatalog.scene(named: name).build(size: size, seed: 0)
            s.workerCount = workers
            s.run(steps: steps)
            #expect(s.sanity().passed, "\(name), \(workers) workers: \(s.sanity().failures)")
            return (s.world.stateDigest(), s.world.touchingContactCount, s.world.bodyCount)
        }
        let one = try run(workers: 1), two = try run(workers: 2)
        #expect(one.bodies >= 1_000 && one.touching >= 2 * 512, "\(name): \(one.bodies) bodies, \(one.touching) touching contacts")
        #expect(two.digest == one.digest, "\(name): 2 workers diverged from 1 worker")
    }

    /// Rain's falling ragdolls are many small jointed islands: at 2 workers their joints are
    /// coloured group by group on both workers (over 512 joints), the island build's sorts run
    /// on both (over 4 096 bodies, contacts and joints), and each island's bodies are finalized
    /// by the worker that solved it.
    @Test("rain's many small jointed islands: 1 and 2 workers agree bit for bit")
    func rainWorkersAgree() throws {
        func run(workers: Int) throws -> (digest: UInt64, awake: Int, joints: Int, bodies: Int) {
            let s = try SceneCatalog.scene(named: "rain").build(size: 10, seed: 0)
            s.workerCount = workers
            s.run(steps: 100)
            #expect(s.sanity().passed, "rain, \(workers) workers: \(s.sanity().failures)")
            return (s.world.stateDigest(), s.world.awakeBodyCount, s.world.jointCount, s.world.bodyCount)
        }
        let one = try run(workers: 1), two = try run(workers: 2)
        #expect(one.joints >= 512 && one.awake + one.joints >= 4_096,
                "rain: \(one.bodies) bodies (\(one.awake) awake), \(one.joints) joints")
        #expect(two.digest == one.digest, "rain: 2 workers diverged from 1 worker")
    }
}
