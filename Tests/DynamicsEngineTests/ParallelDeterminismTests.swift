import Synchronization
import Testing
@testable import DynamicsEngine

/// The world state after N steps must be bit-identical whatever the worker count, including
/// more workers than cores. Worlds are small but large enough that every parallel path runs:
/// chunked pair finding and narrow phase, the shared solve of a big island (≥ 512 contacts
/// per worker), and many small islands claimed by workers. (The benchmark scenes' own
/// determinism is DynamicsScenesTests'.)
@Suite("Parallel stepping is deterministic", .serialized)
struct ParallelDeterminismTests {
    static func state(_ w: World) -> [UInt32] {
        w.bodies.flatMap { b -> [UInt32] in
            let p = w.position(b), v = w.linearVelocity(b)
            return [p.x.bitPattern, p.y.bitPattern, w.angle(b).bitPattern,
                    v.x.bitPattern, v.y.bitPattern, w.angularVelocity(b).bitPattern]
        }
    }

    static func run(_ make: () throws -> World, workers: Int, steps: Int) rethrows -> [UInt32] {
        try state(stepped(make, workers: workers, steps: steps))
    }

    static func stepped(_ make: () throws -> World, workers: Int, steps: Int) rethrows -> World {
        let w = try make()
        w.workerCount = workers
        w.options.minWorkForParallel = 0  // exercise every parallel path even on small worlds
        for _ in 0..<steps { w.step(dt: 1.0 / 60.0) }
        return w
    }

    /// A container (ground and two walls) holding `count` bodies in rows of 50, 110 pt apart,
    /// odd rows shifted: 100 pt boxes, or with `mixed` circles (radius 50 pt) at even indices
    /// (the layout of the `pile` and `mix` scenes, y down), all of `material`. It settles into
    /// one big island.
    static func containerWorld(count: Int, mixed: Bool, material: Material = Material()) throws -> World {
        let w = TestWorld.make()
        let wall = 110 * Float((count + 49) / 50) + 200
        try TestWorld.ground(w, top: 0, width: 6200)
        for side: Float in [-1, 1] {
            try TestWorld.box(w, at: Vec2(side * 3050, -wall / 2), size: Vec2(100, wall), type: .static)
        }
        for i in 0..<count {
            let r = i / 50, c = i % 50
            let p = Vec2((Float(c) - 24.5) * 110 + (r % 2 == 1 ? 25 : -25), -100 - 110 * Float(r))
            if mixed && i % 2 == 0 {
                try TestWorld.circle(w, at: p, radius: 50, material: material)
            } else {
                try TestWorld.box(w, at: p, material: material)
            }
        }
        return w
    }

    /// A pyramid of 100 pt boxes with `base` boxes on its base row, touching at the start, on a
    /// wide ground (the `pyramid` scene's layout, y down).
    static func pyramidWorld(base: Int) throws -> World {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0, width: 20_000)
        for i in 0..<base {
            for j in i..<base {
                let x = (0.5 * Float(i) + Float(j - i) - 0.5 * Float(base - 1)) * 100
                try TestWorld.box(w, at: Vec2(x, -50 - 100 * Float(i)))
            }
        }
        return w
    }

    static func bigIslandWorld(_ name: String) throws -> World {
        switch name {
        case "pile": try containerWorld(count: 1200, mixed: false)
        case "mix": try containerWorld(count: 1200, mixed: true)
        case "rough mix": try containerWorld(count: 1200, mixed: true, material: Material(rollingResistance: 0.1))
        default: try pyramidWorld(base: 36)
        }
    }

    @Test("one big island (a pile, a mix, a pyramid, a mix with rolling resistance): 1, 2, 3 and 8 workers agree bit for bit",
          arguments: ["pile", "pyramid", "mix", "rough mix"])
    func bigIslands(name: String) throws {
        let make = { try Self.bigIslandWorld(name) }
        let settled = try Self.stepped(make, workers: 1, steps: 90)
        // The premise: enough contacts that two workers share the solve of the island.
        #expect(settled.touchingContactCount >= 2 * 512, "\(name): \(settled.touchingContactCount) touching contacts")
        let reference = Self.state(settled)
        for workers in [2, 3, 8] {
            let other = try Self.run(make, workers: workers, steps: 90)
            #expect(other == reference, "\(name): \(workers) workers diverged from 1 worker")
        }
    }

    /// Many small independent islands (each a few boxes in its own cup) plus a chain of pins:
    /// the small-island path and the joint path.
    static func islandsWorld() throws -> World {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        for g in 0..<120 {
            let ox = Float(g % 12) * 300, oy = Float(g / 12) * 300
            try w.createBody(BodyDef(type: .static, position: Vec2(ox, oy + 110)),
                             shapes: [ShapeDef(.box(halfWidth: 120, halfHeight: 10))])
            for k in 0..<5 {
                try w.createBody(BodyDef(type: .dynamic, position: Vec2(ox + Float(k % 3) * 45 - 45, oy - Float(k) * 42)),
                                 shapes: [ShapeDef(k % 2 == 0 ? .box(halfWidth: 20, halfHeight: 20) : .circle(radius: 20))])
            }
        }
        var prev: BodyHandle? = nil
        for k in 0..<30 {
            let b = try w.createBody(BodyDef(type: .dynamic, position: Vec2(4000 + Float(k) * 20, -500)),
                                     shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: 4))])
            var def = JointDef(type: .revolute, bodyA: prev, bodyB: b)
            def.localAnchorA = prev == nil ? Vec2(3990, -500) : Vec2(10, 0)
            def.localAnchorB = Vec2(-10, 0)
            w.createJoint(def)
            prev = b
        }
        return w
    }

    @Test("many small islands and a pinned chain: 1, 2, 3 and 8 workers agree bit for bit")
    func islandsAndJoints() throws {
        let reference = try Self.run(Self.islandsWorld, workers: 1, steps: 120)
        for workers in [2, 3, 8] {
            #expect(try Self.run(Self.islandsWorld, workers: workers, steps: 120) == reference,
                    "\(workers) workers diverged from 1 worker")
        }
    }

    /// Large worlds ask for each contact's data and bodies ahead in the narrow phase and the
    /// batch preparation (`StepOptions.prefetchingContacts`); asking is only a hint. Here every
    /// world asks from its first contact (and debug builds check every index it asks for)
    /// or never, while a mixed pile falls and settles (contacts begin and end, their data
    /// slots are reused) and many small islands churn: both end bit for bit alike.
    @Test("asking for contact data ahead changes no result: asking from the first contact and never agree bit for bit",
          arguments: [1, 2])
    func prefetchingChangesNothing(workers: Int) throws {
        let worlds: [(String, () throws -> World)] = [("mix", { try Self.containerWorld(count: 600, mixed: true) }), ("islands", Self.islandsWorld)]
        for (name, make) in worlds {
            func run(prefetchingFrom threshold: Int) throws -> [UInt32] {
                try Self.state(Self.stepped({ let w = try make(); w.options.prefetchingContacts = threshold; return w },
                                            workers: workers, steps: 90))
            }
            #expect(try run(prefetchingFrom: 0) == run(prefetchingFrom: .max), "\(name), \(workers) workers: prefetching changed the result")
        }
    }

    /// The contact kernels run eight lanes with AVX2 where the processor has it and four-lane
    /// SSE halves where not; a world must end bit for bit where it does either way. (On a
    /// processor without AVX2 both runs take the baseline and this only checks repeatability.)
    @Test("AVX2 and baseline contact kernels agree bit for bit", arguments: ["pile", "pyramid", "mix"])
    func kernelWidths(name: String) throws {
        let make = { try Self.bigIslandWorld(name) }
        #expect(WideContactSolver.layoutMatches)
        WideContactSolver.forceBaseline(true)
        defer { WideContactSolver.forceBaseline(false) }
        #expect(!WideContactSolver.usesAVX2)
        let baseline = try Self.run(make, workers: 1, steps: 90)
        WideContactSolver.forceBaseline(false)
        let native = try Self.run(make, workers: 2, steps: 90)
        #expect(native == baseline, "\(name): the \(WideContactSolver.usesAVX2 ? "AVX2" : "baseline") kernels diverged from the baseline")
    }

    /// A colour of one batch with one or two contacts is solved lane by lane in scalar code
    /// (small worlds: a menu, a card); its operations are the eight-lane passes', so a world
    /// must end bit for bit where it does with the one-lane path turned off. Each world here
    /// is small enough that its colours hold one or two contacts.
    @Test("the one-lane path and the eight-lane passes agree bit for bit on small worlds")
    func oneLanePath() throws {
        func world(_ build: @escaping (World) throws -> Void) -> () throws -> World {
            { let w = TestWorld.make(); try TestWorld.ground(w, top: 0); try build(w); return w }
        }
        let worlds: [(String, () throws -> World)] = [
            ("a box resting flat", world { try TestWorld.box($0, at: Vec2(0, -50)) }),
            ("a tilted box falling on another", world {
                try TestWorld.box($0, at: Vec2(0, -50))
                try TestWorld.box($0, at: Vec2(30, -300), size: Vec2(80, 40), angle: 0.4)
            }),
            ("a rolling circle", world { try TestWorld.circle($0, at: Vec2(0, -30), radius: 30, velocity: Vec2(400, 0)) }),
            ("a bouncing spinning box", world {
                let b = try TestWorld.box($0, at: Vec2(0, -400), size: Vec2(60, 30),
                                          material: Material(density: 1, friction: 0.3, restitution: 0.8), velocity: Vec2(50, 300))
                $0.setAngularVelocity(b, 3)
            }),
            ("a box pushed by a kinematic box", world {
                try TestWorld.box($0, at: Vec2(0, -50))
                try TestWorld.box($0, at: Vec2(-200, -50), type: .kinematic, velocity: Vec2(120, 0))
            }),
            // The bodies' own stages inside the one-call island: damping, a body's own gravity,
            // a force and a torque (the first step), and both speed limits (a low linear limit
            // and a spin above a quarter turn per sub-step).
            ("a damped, pushed, over-fast spinning box", {
                var settings = WorldSettings()
                settings.isSleepEnabled = false
                settings.maxLinearSpeed = 300
                let w = World(gravity: Vec2(0, 1000), settings: settings)
                try TestWorld.ground(w, top: 0)
                var def = BodyDef(type: .dynamic, position: Vec2(0, -40), angle: 0.1)
                def.linearVelocity = Vec2(2000, -100)
                def.angularVelocity = 400
                def.linearDamping = 0.7
                def.angularDamping = 0.4
                def.gravity = Vec2(30, 1500)
                let b = try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 40, halfHeight: 40),
                                                                material: Material(density: 2, friction: 0.5, restitution: 0.2))])
                w.applyForce(b, Vec2(-5e6, 2e6), at: Vec2(20, -60))
                w.applyTorque(b, 3e8)
                return w
            }),
        ]
        defer { WideContactSolver.forceLanes(false) }
        for (name, make) in worlds {
            WideContactSolver.forceLanes(false)
            let lanes = try Self.run(make, workers: 1, steps: 150)
            WideContactSolver.forceLanes(true)
            let wide = try Self.run(make, workers: 1, steps: 150)
            #expect(lanes == wide, "\(name): the one-lane path diverged from the eight-lane passes")
        }
    }

    /// A snapped item's island (one target joint, one body) is solved with the body's state
    /// held in a local (`SolverViews.solveLoneTarget`); it must end bit for bit where the
    /// general sub-step path does.
    @Test("the snapped-item path and the general sub-step path agree bit for bit")
    func loneTargetPath() throws {
        func snapped(_ configure: @escaping (inout JointDef, World, BodyHandle) -> Void) -> () throws -> World {
            {
                let w = TestWorld.make()
                try TestWorld.ground(w, top: 0)
                var def = BodyDef(type: .dynamic, position: Vec2(-300, -400), angle: 0.8)
                def.linearVelocity = Vec2(250, -600)
                def.angularVelocity = 5
                def.linearDamping = 0.3
                def.angularDamping = 0.6
                let b = try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 60, halfHeight: 25))])
                var j = JointDef(type: .target, bodyA: nil, bodyB: b)
                j.target = Vec2(100, -300); j.hertz = 3; j.dampingRatio = 0.4
                configure(&j, w, b)
                w.createJoint(j)
                return w
            }
        }
        let worlds: [(String, () throws -> World)] = [
            ("a box snapped with an angular spring", snapped { j, _, _ in j.angularHertz = 5; j.angularDampingRatio = 0.5 }),
            ("a box pulled by a weak target (the force limit)", snapped { j, _, _ in j.maxForce = 2e6; j.localAnchorB = Vec2(30, 10) }),
            ("a box snapped into the ground (contacts join its island)", snapped { j, w, b in
                j.target = Vec2(0, 10); j.angularHertz = 2; j.angularDampingRatio = 1
                w.applyTorque(b, 1e8)
            }),
        ]
        defer { SolverViews.loneTargetPathOff.store(false, ordering: .relaxed) }
        for (name, make) in worlds {
            SolverViews.loneTargetPathOff.store(false, ordering: .relaxed)
            let fast = try Self.run(make, workers: 1, steps: 150)
            SolverViews.loneTargetPathOff.store(true, ordering: .relaxed)
            let general = try Self.run(make, workers: 1, steps: 150)
            #expect(fast == general, "\(name): the snapped-item path diverged from the general path")
        }
    }

    /// A volley of 400 small bodies (boxes and circles, 20 pt) shot at 9 000 pt/s — 150 pt a
    /// step, far more than half their core — at a thin static box (x = 1 000), with a boundary
    /// segment (x = 900) in front of the upper half and a static circle in the path: every
    /// body is fast at once, so the continuous step sweeps them in parallel chunks.
    static func volleyWorld() throws -> World {
        let w = TestWorld.make(gravity: .zero)
        try TestWorld.box(w, at: Vec2(1002, 0), size: Vec2(4, 8000), type: .static)
        try w.addBoundary(Vec2(900, -2200), Vec2(900, 0), group: .default)
        try w.createBody(BodyDef(type: .static, position: Vec2(800, 1000)), shapes: [ShapeDef(.circle(radius: 60))])
        for k in 0..<400 {
            let p = Vec2(100 + 40 * Float(k % 10), -2000 + 100 * Float(k / 10))
            let v = Vec2(9000, k % 3 == 0 ? 500 : 0)
            if k % 2 == 0 { try TestWorld.circle(w, at: p, radius: 10, velocity: v) }
            else { try TestWorld.box(w, at: p, size: Vec2(20, 20), velocity: v) }
        }
        return w
    }

    @Test("a volley of fast bodies swept in parallel: 1, 2, 3 and 8 workers agree bit for bit and no centre crosses a wall")
    func fastVolley() throws {
        let single = try Self.volleyWorld()
        single.workerCount = 1
        single.options.minWorkForParallel = 0
        var firstFast = 0
        for step in 0..<30 {
            single.step(dt: 1.0 / 60.0)
            if step == 0 { firstFast = single.continuous.fastCounter.count }
            for b in single.bodies where single.type(b) == .dynamic {
                let p = single.position(b)
                #expect(p.x < 1000, "step \(step): a centre crossed the static box: \(p)")
                if p.y < -200 { #expect(p.x < 900, "step \(step): a centre crossed the boundary: \(p)") }
            }
        }
        // The premise: every body was fast in the first step, and many were stopped.
        #expect(firstFast == 400, "\(firstFast) fast bodies in the first step")
        #expect(single.continuousHits >= 100, "\(single.continuousHits) continuous hits")
        let reference = Self.state(single)
        for workers in [2, 3, 8] {
            let other = try Self.stepped(Self.volleyWorld, workers: workers, steps: 30)
            #expect(Self.state(other) == reference, "\(workers) workers diverged from 1 worker")
            #expect(other.continuousHits == single.continuousHits, "\(workers) workers: \(other.continuousHits) hits, 1 worker: \(single.continuousHits)")
        }
    }

    @Test("the default worker count is the active processor count")
    func defaultWorkers() {
        #expect(World().workerCount == World.defaultWorkerCount)
        #expect(World.defaultWorkerCount >= 1)
    }
}

/// The broad phase's grid, built serially and in parallel bands, must list the same shapes in
/// the same order in every cell.
@Suite("Uniform grid build")
struct UniformGridBuildTests {
    @Test("serial and parallel builds agree cell by cell, for 2, 3 and 8 workers",
          arguments: [2, 3, 8])
    func parallelMatchesSerial(workers: Int) {
        // Deterministic boxes: small ones, some spanning several rows (and bands), a few large.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
        var boxes: [AABB] = []
        for k in 0..<3000 {
            let c = Vec2(next() * 200 - 50, next() * 120 + 10)
            let h = k % 97 == 0 ? Vec2(12, 30) : Vec2(0.2 + next(), 0.2 + next() * 2)
            boxes.append(AABB(lower: c - h, upper: c + h))
        }
        // Every other box is in the grid, in increasing slot order, as the broad phase feeds it.
        let ids: [Int32] = stride(from: 0, to: boxes.count, by: 2).map { Int32($0) }
        var serial = UniformGrid(), parallel = UniformGrid()
        let pipeline = StagePipeline()
        ids.withUnsafeBufferPointer { idp in
            boxes.withUnsafeBufferPointer { bx in
                let ids = View(idp.baseAddress!, idp.count), boxes = View(bx.baseAddress!, bx.count)
                serial.build(ids: ids, boxes: boxes, cellSize: 2)
                parallel.build(ids: ids, boxes: boxes, cellSize: 2, workers: workers, pipeline: pipeline, minParallel: 1)
                // Build twice: the second build reuses (and must fully overwrite) the buffers.
                parallel.build(ids: ids, boxes: boxes, cellSize: 2, workers: workers, pipeline: pipeline, minParallel: 1)
            }
        }
        let cells = Int(serial.nx) * Int(serial.ny)
        #expect(cells > 100 && serial.ny >= Int32(workers))
        #expect(parallel.nx == serial.nx && parallel.ny == serial.ny)
        #expect(Array(parallel.cellStart[0...cells]) == Array(serial.cellStart[0...cells]))
        let total = Int(serial.cellStart[cells])
        #expect(total > ids.count)  // some boxes span several cells
        #expect(Array(parallel.entries[0..<total]) == Array(serial.entries[0..<total]))
    }
}

/// The stage pipeline runs every block of every stage exactly once, each stage after the one
/// before has finished, whatever the number of threads: stages short enough to be claimed by
/// part (`StagePipeline.ownedBlocks`) and longer ones handed out in order.
@Suite("Stage pipeline")
struct StagePipelineTests {
    /// Counts each (stage, block) it runs, and checks that the stage before is complete.
    private struct Recorder: StageExecutor, @unchecked Sendable {
        let runs: UnsafeMutableBufferPointer<Int>
        let firstBlock: [Int]
        let blocks: [Int]
        let ordered: UnsafeMutableBufferPointer<Bool>
        func execute(_ stage: Stage, _ block: Int) {
            let s = Int(stage.island)
            if s > 0 {
                for b in 0..<blocks[s - 1] where runs[firstBlock[s - 1] + b] != 1 { ordered[firstBlock[s] + block] = false }
            }
            runs[firstBlock[s] + block] += 1
        }
    }

    @Test("every block once, stage by stage, for 1, 2, 3 and 8 threads", arguments: [1, 2, 3, 8])
    func everyBlockOnceInStageOrder(workers: Int) {
        let counts = [1, 3, 47, 48, 49, 200, 2, 48, 5, 130]
        let pipeline = StagePipeline()
        var first: [Int] = [], total = 0
        for (s, n) in counts.enumerated() {
            first.append(total)
            total += n
            pipeline.stages.append(Stage(kind: 0, pass: 0, island: Int32(s), begin: 0, end: Int32(n * 3), blockSize: 3))
        }
        #expect(pipeline.stages.view.map(\.blocks) == counts)
        let runs = UnsafeMutableBufferPointer<Int>.allocate(capacity: total)
        let ordered = UnsafeMutableBufferPointer<Bool>.allocate(capacity: total)
        defer { runs.deallocate(); ordered.deallocate() }
        for _ in 0..<50 {
            runs.initialize(repeating: 0)
            ordered.initialize(repeating: true)
            pipeline.run(workers: workers, Recorder(runs: runs, firstBlock: first, blocks: counts, ordered: ordered))
            #expect(runs.allSatisfy { $0 == 1 })
            #expect(ordered.allSatisfy { $0 })
        }
    }

    @Test("a big island's stage splits into equal shares, one or two blocks a worker", arguments: [2, 3, 4, 8])
    func stageBlocksAreEvenShares(workers: Int) {
        for least in [16, 32, 256] as [Int32] {
            for count in Int32(1)...Int32(1_200) {
                let size = SolverViews.blockSize(count: count, least: least, workers: workers)
                let stage = Stage(kind: 0, pass: 0, island: 0, begin: 0, end: count, blockSize: size)
                let blocks = stage.blocks
                let sizes = (0..<blocks).map { stage.items($0).count }
                #expect(sizes.reduce(0, +) == Int(count))
                if count < least / 2 {
                    #expect(blocks == 1, "\(count) items of at least \(least): one block")
                    continue
                }
                // One block a worker, or two when each holds `least` items; every block but
                // the last of one size, the last short by fewer items than there are blocks.
                let wanted = workers * (Int(count) >= 2 * workers * Int(least) ? 2 : 1)
                if Int(count) >= wanted * wanted {
                    #expect(blocks == wanted, "\(count) items of at least \(least) on \(workers): blocks \(sizes)")
                }
                #expect(blocks <= wanted)
                #expect(sizes.dropLast().allSatisfy { $0 == Int(size) })
                #expect(sizes.last! > Int(size) - wanted, "\(count) items on \(workers): blocks \(sizes)")
            }
        }
    }
}
