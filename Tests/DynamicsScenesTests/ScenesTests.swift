import Testing
import DynamicsEngine
import DynamicsScenes

/// Small, faithful versions of the benchmark scenes (each scene's doc comment says what it builds). Each check reads
/// the world directly where it can, so a wrong engine or a wrong scene fails here.
@Suite("Benchmark scenes")
struct ScenesTests {
    // MARK: - pile

    @Test("pile 100: layout follows scenes.md")
    func pileLayout() throws {
        let scene = try #require(SceneCatalog.named("pile"))
        let s = try scene.build(size: 100, seed: 0)
        #expect(s.dynamicBodies.count == 100)
        #expect(s.world.bodyCount == 103)  // ground + two walls
        #expect(s.world.settings.isSleepEnabled == false)
        #expect(s.world.gravity == Vec2(0, -1000))
        // Body 0: row 0, column 0 → ((0 − 24.5) × 1.1 − 0.25, 1) m.
        expectClose(s.world.position(s.dynamicBodies[0]), Vec2(-2720, 100))
        // Body 50: row 1 (odd) → ((0 − 24.5) × 1.1 + 0.25, 2.1) m.
        expectClose(s.world.position(s.dynamicBodies[50]), Vec2(-2670, 210))
        // Body 99: row 1, column 49.
        expectClose(s.world.position(s.dynamicBodies[99]), Vec2(2720, 210))
        for b in s.dynamicBodies {
            #expect(s.world.angle(b) == 0)
            #expect(s.world.linearVelocity(b) == .zero)
            #expect(abs(s.world.mass(b) - 1) < 1e-4)  // 100 × 100 pt, density 1
        }
        #expect(abs(s.initialMaxHeight - 210) < 1e-3)
    }

    @Test("the sanity report carries the speeds and awake bodies peers compares")
    func sanitySpeeds() throws {
        let s = try #require(SceneCatalog.named("pile")).build(size: 100, seed: 0)
        s.run(steps: 20)
        let r = s.sanity()
        var top: Float = 0
        for b in s.dynamicBodies { let v = s.world.linearVelocity(b); top = max(top, (v.x * v.x + v.y * v.y).squareRoot()) }
        let maxSpeed = try #require(r.maxSpeed), meanSpeed = try #require(r.meanSpeed)
        #expect(abs(maxSpeed - Double(top)) <= 1e-3 * Double(top))
        #expect(meanSpeed > 0 && meanSpeed <= maxSpeed)
        #expect(r.awakeBodies == s.world.awakeBodyCount)
        #expect(r.kineticEnergy == s.world.kineticEnergy)
    }

    @Test("pile 100 × 120 steps: nothing escapes, it settles, energy decreases")
    func pileSettles() throws {
        let s = try #require(SceneCatalog.named("pile")).build(size: 100, seed: 0)
        let startAverage = s.sanity().averageHeight
        var energy: [Double] = []
        for _ in 0..<120 {
            s.step()
            energy.append(s.world.kineticEnergy)
        }
        let report = s.sanity()
        #expect(report.escaped == 0)
        #expect(report.passed)

        // Independently of the scene's escape rule: inside the walls (inner faces at ±3000 pt),
        // on or above the ground, and resting on the ground or on the first row.
        var minHeight = Float.infinity, maxHeight = -Float.infinity
        for b in s.dynamicBodies {
            let p = s.world.position(b)
            #expect(p.isFinite)
            #expect(abs(p.x) < 3000)
            minHeight = min(minHeight, p.y); maxHeight = max(maxHeight, p.y)
        }
        #expect(minHeight > 45, "a box sank into the ground")
        #expect(maxHeight < 156, "a box floats above two rows")
        #expect(report.averageHeight < startAverage - 20, "the boxes did not fall")

        // Energy: the fall gives a clear peak, then the settled pile loses it.
        let peak = try #require(energy.max())
        #expect(peak > 1e5)
        let at90 = energy[89], at120 = energy[119]
        #expect(at120 < 1e-4 * peak, "still moving after 2 s: KE \(at120) (peak \(peak))")
        #expect(at120 <= max(at90, 1e-3), "kinetic energy grew while settled: \(at90) → \(at120)")
        #expect(report.kineticEnergy == at120)
        #expect(report.touchingContacts >= 100)  // every box touches something
    }

    // MARK: - pyramid

    @Test("pyramid 10: layout follows scenes.md (boxes touch exactly)")
    func pyramidLayout() throws {
        let s = try #require(SceneCatalog.named("pyramid")).build(size: 10, seed: 0)
        #expect(s.dynamicBodies.count == 55)
        #expect(s.world.bodyCount == 56)
        let positions = s.dynamicBodies.map { s.world.position($0) }
        let base = positions.filter { $0.y == 50 }.map(\.x).sorted()
        #expect(base.count == 10)
        #expect(base.first == -450 && base.last == 450)
        for k in 1..<base.count { #expect(base[k] - base[k - 1] == 100) }
        let top = positions.filter { $0.y == 950 }
        #expect(top.count == 1 && top.first?.x == 0)
        #expect(s.initialMaxHeight == 950)
    }

    @Test("a seed other than 0 shifts each pile or mix body, and each pyramid row, sideways by at most 4 cm",
          arguments: ["pile", "mix", "pyramid"])
    func seededScenesShiftSideways(name: String) throws {
        let scene = try #require(SceneCatalog.named(name))
        let size = name == "pyramid" ? 12 : 300
        let plain = try scene.build(size: size, seed: 0)
        let written = plain.dynamicBodies.map { plain.world.position($0) }
        var shifted: Set<Int> = []
        for seed: UInt64 in [1, 2, 0xdead_beef] {
            let s = try scene.build(size: size, seed: seed)
            let p = s.dynamicBodies.map { s.world.position($0) }
            #expect(p.count == written.count)
            var rowShift: [Float: Float] = [:]
            for k in p.indices {
                // Sideways only, within 4 cm (1 cm = 1 pt).
                #expect(p[k].y == written[k].y)
                let dx = p[k].x - written[k].x
                #expect(abs(dx) <= 4.0001, "\(name) seed \(seed) body \(k) moved \(dx) pt")
                if abs(dx) > 0.01 { shifted.insert(k) }
                if name == "pyramid" {
                    // A pyramid row moves as one, so its boxes still touch.
                    if let r = rowShift[p[k].y] { #expect(abs(r - dx) < 1e-3) } else { rowShift[p[k].y] = dx }
                }
            }
            // Nothing overlaps at the start: 1 m bodies, centres at least 1 m apart along x in a row.
            let rows = Dictionary(grouping: p, by: \.y)
            for (_, row) in rows {
                let xs = row.map(\.x).sorted()
                for k in 1..<max(xs.count, 1) { #expect(xs[k] - xs[k - 1] >= 100 - 1e-3) }
            }
        }
        // Most bodies (pyramid: most rows' boxes) move under some seed.
        #expect(shifted.count > written.count * 3 / 4)
    }

    @Test("a seeded body's shift is the one Box2D v3's peer driver computes, bit for bit")
    func seededShiftMatchesThePeerDriver() throws {
        // Peers/box2d3_driver.c's jitter(0…2) for seed=1 (gcc -O2 -ffp-contract=off), in metres.
        let driver: [Float] = [-0x1.6beb84p-16, 0x1.c0a38ap-6, -0x1.48c594p-6]
        let s = try #require(SceneCatalog.named("pile")).build(size: 3, seed: 1)
        let plain = try #require(SceneCatalog.named("pile")).build(size: 3, seed: 0)
        for k in 0..<3 {
            let moved = (s.world.position(s.dynamicBodies[k]).x - plain.world.position(plain.dynamicBodies[k]).x) / 100
            #expect(abs(moved - driver[k]) < 1e-5, "body \(k): \(moved) m, the driver's \(driver[k]) m")
        }
    }

    @Test("pyramid 10 × 300 steps still stands; the top box stays put")
    func pyramidStands() throws {
        let s = try #require(SceneCatalog.named("pyramid")).build(size: 10, seed: 0)
        let top = try #require(s.dynamicBodies.max { s.world.position($0).y < s.world.position($1).y })
        let topStart = s.world.position(top)
        s.run(steps: 300)
        let report = s.sanity()
        #expect(report.escaped == 0)
        #expect(report.checks["standing"] == true)
        #expect(report.passed)

        let maxHeight = s.dynamicBodies.map { s.world.position($0).y }.max() ?? 0
        #expect(abs(maxHeight - 950) <= 9.5, "max height \(maxHeight), started at 950")
        let drift = separation(s.world.position(top), topStart)
        #expect(drift < 5, "top box moved \(drift) pt (box is 100 pt)")
        #expect(abs(s.world.angle(top)) < 0.05)
        #expect(try #require(report.metrics["top_drift"]) < 5)
        #expect(report.kineticEnergy < 1, "pyramid still moving: KE \(report.kineticEnergy)")
    }

    // MARK: - mix

    @Test("mix 100 builds 50 circles and 50 boxes, alternating")
    func mixComposition() throws {
        let s = try #require(SceneCatalog.named("mix")).build(size: 100, seed: 0)
        #expect(s.dynamicBodies.count == 100)
        #expect(s.world.bodyCount == 103)
        let circleMass = Float.pi * 50 * 50 / 10_000  // r = 50 pt, density 1
        var circles = 0, boxes = 0
        for (i, b) in s.dynamicBodies.enumerated() {
            let m = s.world.mass(b)
            if abs(m - circleMass) < 1e-3 {
                circles += 1
                #expect(i % 2 == 0, "body \(i) is a circle but odd bodies are boxes")
            } else if abs(m - 1) < 1e-3 {
                boxes += 1
                #expect(i % 2 == 1, "body \(i) is a box but even bodies are circles")
            }
        }
        #expect(circles == 50)
        #expect(boxes == 50)
        s.run(steps: 60)
        #expect(s.sanity().escaped == 0)
    }

    // MARK: - Sanity check and catalog

    @Test("the sanity check catches an escaped body and a fallen pyramid")
    func sanityCatchesFailures() throws {
        let pile = try #require(SceneCatalog.named("pile")).build(size: 10, seed: 0)
        #expect(pile.sanity().escaped == 0)
        pile.world.setTransform(pile.dynamicBodies[3], position: Vec2(0, -500), angle: 0)
        pile.world.setTransform(pile.dynamicBodies[4], position: Vec2(3500, 100), angle: 0)
        let report = pile.sanity()
        #expect(report.escaped == 2)
        #expect(!report.passed)

        let pyramid = try #require(SceneCatalog.named("pyramid")).build(size: 4, seed: 0)
        #expect(pyramid.sanity().checks["standing"] == true)
        let top = try #require(pyramid.dynamicBodies.last)
        pyramid.world.setTransform(top, position: Vec2(400, 50), angle: 0)
        #expect(pyramid.sanity().checks["standing"] == false)
        #expect(!pyramid.sanity().passed)
    }

    @Test("the catalog knows its scenes and rejects unknown names")
    func catalog() throws {
        #expect(SceneCatalog.names == ["pile", "pyramid", "mix", "islands", "menus", "alerts", "dashboard", "springs", "animators",
                                       "large_pyramid", "many_pyramids", "joint_grid", "rain", "smash", "spinner",
                                       "tumbler", "washer", "compounds", "junkyard", "spinner_v31", "chains", "joint_sheets"])
        #expect(Set(SceneCatalog.names).count == SceneCatalog.all.count)
        #expect(SceneCatalog.named("PILE")?.name == "pile")
        #expect(SceneCatalog.named("nope") == nil)
        #expect(SceneCatalog.named("") == nil)
        #expect(throws: SceneError.unknownScene("nope")) { try SceneCatalog.scene(named: "nope") }
        // Box2D's scenes take the step counts of its benchmark app (benchmark/main.c).
        let box2dSteps = ["large_pyramid": 500, "many_pyramids": 200, "joint_grid": 500, "rain": 1_000,
                          "smash": 300, "spinner": 500, "tumbler": 750, "washer": 500, "compounds": 500,
                          "junkyard": 800, "spinner_v31": 1_400]
        for scene in SceneCatalog.all {
            #expect(scene.defaultSizes.contains(scene.defaultSize))
            #expect(scene.defaultSizes == scene.defaultSizes.sorted())
            #expect(scene.stepsDefault == box2dSteps[scene.name] ?? 600, "\(scene.name)")
            #expect(!scene.summary.isEmpty && !scene.sizeMeaning.isEmpty)
        }
    }

    @Test("every scene's instance carries the descriptor's name, its size and seed, and the scene's steps")
    func instancesCarryTheirDescriptor() throws {
        for scene in SceneCatalog.all {
            let instance = try scene.build(size: 2, seed: 5)
            #expect(instance.name == scene.name && instance.size == 2 && instance.seed == 5, "\(scene.name)")
            #expect(instance.stepsDefault == scene.stepsDefault, "\(scene.name)")
        }
    }

    /// The engine's own determinism tests build their worlds directly; these are the benchmark
    /// scenes as the CLI builds them.
    @Test("pile, pyramid and mix: 1 and 3 workers agree bit for bit", arguments: [("pile", 1200), ("pyramid", 36), ("mix", 1200)])
    func workerCountDoesNotMatter(name: String, size: Int) throws {
        func state(workers: Int) throws -> [UInt32] {
            let s = try SceneCatalog.scene(named: name).build(size: size, seed: 7)
            s.workerCount = workers
            s.run(steps: 60)
            return s.dynamicBodies.flatMap { b -> [UInt32] in
                let p = s.world.position(b), v = s.world.linearVelocity(b)
                return [p.x.bitPattern, p.y.bitPattern, s.world.angle(b).bitPattern,
                        v.x.bitPattern, v.y.bitPattern, s.world.angularVelocity(b).bitPattern]
            }
        }
        #expect(try state(workers: 3) == state(workers: 1), "\(name): 3 workers diverged from 1 worker")
    }

    @Test("islands 20 × 120 steps: 20 separate islands of 8 boxes, every box stays in its cup and comes to rest")
    func islandsStayContained() throws {
        let instance = try SceneCatalog.scene(named: "islands").build(size: 20, seed: 3)
        #expect(instance.dynamicBodies.count == 160)
        #expect(instance.staticBodyCount == 60)
        instance.run(steps: 120)
        let report = instance.sanity()
        #expect(report.escaped == 0)
        #expect(report.checks["contained"] == true, "\(report.metrics)")
        // Groups never touch: the solver sees exactly one island per group.
        #expect(instance.world.islandCount == 20)
        #expect(report.kineticEnergy < 50, "still moving: \(report.kineticEnergy)")
    }

    @Test("building with a zero, negative or huge size throws",
          arguments: ["pile", "pyramid", "mix", "islands", "large_pyramid", "many_pyramids", "joint_grid", "rain",
                      "smash", "spinner", "tumbler", "washer", "compounds", "junkyard", "spinner_v31", "chains", "joint_sheets"])
    func invalidSizes(name: String) throws {
        let scene = try #require(SceneCatalog.named(name))
        for size in [-1, 0, Int.min, scene.maximumSize + 1] {
            #expect(throws: SceneError.invalidSize(scene: name, size: size, maximum: scene.maximumSize)) {
                try scene.build(size: size, seed: 0)
            }
        }
    }
}

func expectClose(_ a: Vec2, _ b: Vec2, tolerance: Float = 1e-3,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(separation(a, b) <= tolerance, "\(a) is not \(b)", sourceLocation: sourceLocation)
}

func separation(_ a: Vec2, _ b: Vec2) -> Float {
    let d = a - b
    return (d * d).sum().squareRoot()
}
