import Foundation
import Testing
@testable import DynamicsEngine

/// `World.bodies(overlapping:)` and `World.rayCast` read the broad phase's grids; they must
/// answer exactly as a scan of every shape (`scanBodies`, `scanRay`): the same bodies in the
/// same order, the same hit (shape, point, normal, fraction) — mid-simulation, with bodies
/// asleep, teleported, created and destroyed. Random worlds from fixed seeds; a failure prints
/// the command that replays its world alone.
@Suite("World queries through the grids answer as a scan")
struct QueryIndexTests {
    static let worlds: [UInt64] = {
        if let s = ProcessInfo.processInfo.environment["QUERY_TEST_SEED"], let seed = UInt64(s) { return [seed] }
        return Array(1...20)
    }()

    struct Tally { var grid = 0; var scanned = 0; var hits = 0; var lonerHits = 0 }

    @Test("random worlds: grid queries equal the scans")
    func gridQueriesEqualScans() throws {
        var total = Tally()
        for seed in Self.worlds {
            let failures = try Self.check(seed: seed, tally: &total)
            if !failures.isEmpty {
                Issue.record("""
                    world \(seed): \(failures.count) queries differ, first: \(failures[0])
                    replay: QUERY_TEST_SEED=\(seed) swift test --filter QueryIndexTests
                    """)
            }
        }
        // The grids were really read, and the queries found things.
        #expect(total.grid > total.scanned, "grid \(total.grid), scanned \(total.scanned)")
        #expect(total.hits > total.grid / 10)
        #expect(total.lonerHits > 0, "the grid queries found bodies that can have no moving partner")
    }

    /// Builds world `seed`, steps it, and compares queries with scans after steps and after
    /// each kind of change; returns the differences.
    static func check(seed: UInt64, tally: inout Tally) throws -> [String] {
        var rng = TestRandom(seed: seed)
        let w = TestWorld.make(gravity: Vec2(rng.float(-200, 200), rng.float(300, 1500)), sleep: rng.next() % 2 == 0)
        w.workerCount = Int(rng.next() % 2) + 1
        let extent: Float = 2000
        try TestWorld.ground(w, top: extent)
        for _ in 0..<Int(rng.next() % 4) {
            try TestWorld.box(w, at: Vec2(rng.float(-extent, extent), rng.float(0, extent)),
                              size: Vec2(rng.float(10, 300), rng.float(10, 300)), angle: rng.float(0, 3), type: .static)
        }
        if rng.next() % 2 == 0 {
            let a = Vec2(rng.float(-extent, extent), rng.float(0, extent))
            _ = try w.createBody(BodyDef(type: .static, position: a),
                                 shapes: [ShapeDef(.segment(.zero, Vec2(rng.float(-400, 400), rng.float(-400, 400))))])
        }
        let group = w.createCollisionGroup()
        if rng.next() % 2 == 0 {
            try w.addBoundaryPath([Vec2(-extent, -extent), Vec2(extent, -extent), Vec2(extent, extent), Vec2(-extent, extent)],
                                  closed: true, group: group)
        }
        // In half the worlds, some bodies can have no moving partner (a group colliding with
        // nothing, or a filter whose mask is empty): the broad phase keeps
        // them out of its moving grid, and the queries grid them apart.
        let loners = seed % 2 == 0 ? w.createCollisionGroup(mode: []) : nil
        var bodies: [BodyHandle] = [], lonerBodies: Set<BodyHandle> = []
        func addBody() throws {
            let p = Vec2(rng.float(-extent * 0.9, extent * 0.9), rng.float(-extent * 0.9, extent * 0.8))
            let large = rng.next() % 12 == 0
            let s = large ? rng.float(300, 900) : rng.float(5, 60)
            var def = BodyDef(type: rng.next() % 10 == 0 ? .kinematic : .dynamic, position: p, angle: rng.float(0, 6))
            def.linearVelocity = Vec2(rng.float(-400, 400), rng.float(-400, 400)) * (rng.next() % 8 == 0 ? 20 : 1)
            def.angularVelocity = rng.float(-3, 3)
            var shapes: [ShapeDef] = []
            switch rng.next() % 4 {
            case 0: shapes = [ShapeDef(.box(halfWidth: s / 2, halfHeight: s / 3))]
            case 1: shapes = [ShapeDef(.circle(radius: s / 2))]
            case 2: shapes = [ShapeDef(.polygon([Vec2(-s / 2, 0), Vec2(s / 2, -s / 4), Vec2(0, s / 2)]))]
            default:
                shapes = [ShapeDef(.box(halfWidth: s / 2, halfHeight: s / 4)),
                          ShapeDef(.circle(radius: s / 4, center: Vec2(s / 2, 0))),
                          ShapeDef(.polygon([Vec2(-s, -s / 2), Vec2(-s / 2, -s), Vec2(-s / 2, -s / 2)]))]
            }
            var alone = false
            if let loners {
                switch rng.next() % 3 {
                case 0: def.groups = [loners]; alone = true
                case 1: for k in shapes.indices { shapes[k].filter = ShapeFilter(categoryBits: 2, maskBits: 0) }; alone = true
                default: break
                }
            }
            bodies.append(try w.createBody(def, shapes: shapes))
            if alone { lonerBodies.insert(bodies.last!) }
        }
        for _ in 0..<(5 + Int(rng.next() % 120)) { try addBody() }

        var failures: [String] = []
        /// `grid`: whether the queries read the grids (else a structural change waits for the
        /// next step, and they scan).
        func compare(_ when: String, grid: Bool = true) {
            let scansBefore = w.queryIndex.scans
            defer {
                if (w.queryIndex.scans == scansBefore) != grid {
                    failures.append("\(when): the queries \(grid ? "scanned" : "read the grids")")
                }
            }
            for q in 0..<16 {
                // Boxes from a point to the whole world, some outside it, half of them at a body
                // (where a shape that left its fat box is).
                let target = bodies.isEmpty ? Vec2.zero : w.worldCenter(bodies[Int(rng.next() % UInt64(bodies.count))])
                let c = q % 2 == 0 ? target + Vec2(rng.float(-20, 20), rng.float(-20, 20))
                    : Vec2(rng.float(-extent * 1.2, extent * 1.2), rng.float(-extent * 1.2, extent * 1.2))
                let h = q % 5 == 0 ? Vec2(rng.float(0, extent), rng.float(0, extent)) : Vec2(rng.float(0, 80), rng.float(0, 80))
                let box = AABB(lower: c - h, upper: c + h)
                let found = w.bodies(overlapping: box)
                if grid { tally.grid += 1 } else { tally.scanned += 1 }
                let expected = w.scanBodies(overlapping: box)
                if found != expected {
                    failures.append("\(when): bodies(overlapping: \(box)) = \(found.count) bodies, a scan finds \(expected.count)")
                }
                if !found.isEmpty { tally.hits += 1 }
                if grid && found.contains(where: { lonerBodies.contains($0) }) { tally.lonerHits += 1 }
                // Rays: short and long, half of them at a body, some along an axis, one of zero
                // length.
                let o = Vec2(rng.float(-extent * 1.2, extent * 1.2), rng.float(-extent * 1.2, extent * 1.2))
                let length = q % 3 == 0 ? rng.float(0, 4 * extent) : rng.float(0, 300)
                let angle = rng.float(0, 2 * .pi)
                var d = Vec2(cos(angle), sin(angle)) * length
                if q % 2 == 1 { d = (target - o) * rng.float(0.9, 1.5) }
                switch q % 7 { case 1: d.x = 0; case 2: d.y = 0; case 3 where q == 3: d = .zero; default: break }
                let hit = w.rayCast(from: o, translation: d)
                if grid { tally.grid += 1 } else { tally.scanned += 1 }
                let expectedHit = w.scanRay(from: o, translation: d)
                if hit != expectedHit {
                    failures.append("\(when): rayCast(from: \(o), translation: \(d)) = \(String(describing: hit)), a scan gives \(String(describing: expectedHit))")
                }
                if hit != nil { tally.hits += 1 }
            }
        }
        compare("before the first step", grid: false)
        let steps = 40
        for k in 0..<steps {
            w.step(dt: 1.0 / 60.0)
            if k % 4 == 0 { compare("after step \(k + 1)") }
            switch rng.next() % 6 {
            case 0 where !bodies.isEmpty:  // a teleport, near or far
                let b = bodies[Int(rng.next() % UInt64(bodies.count))]
                let far = rng.next() % 2 == 0
                let p = far ? Vec2(rng.float(-extent, extent), rng.float(-extent, extent)) : w.position(b) + Vec2(rng.float(-50, 50), rng.float(-50, 50))
                w.setTransform(b, position: p, angle: rng.float(0, 6))
                compare("after step \(k + 1) and a teleport")
            case 1:
                try addBody()
                compare("after step \(k + 1) and a new body", grid: false)
            case 2 where bodies.count > 1:
                let i = Int(rng.next() % UInt64(bodies.count))
                w.destroyBody(bodies.remove(at: i))
                compare("after step \(k + 1) and a destroyed body", grid: false)
            case 3 where k % 9 == 0:
                // A static body moved (the static grid is rebuilt by the next step).
                let b = try TestWorld.box(w, at: Vec2(rng.float(-extent, extent), rng.float(0, extent)), size: Vec2(40, 40), type: .static)
                w.step(dt: 1.0 / 60.0)
                w.setTransform(b, position: Vec2(rng.float(-extent, extent), rng.float(0, extent)), angle: 1)
                compare("after step \(k + 1) and a static body moved", grid: false)
            default: break
            }
        }
        return failures
    }

    /// Queries read the world and keep their own marks: a world queried between its steps
    /// steps exactly as one that is not.
    @Test("queries do not change the simulation")
    func queriesLeaveTheStepAlone() throws {
        func make() throws -> World {
            var rng = TestRandom(seed: 77)
            let w = TestWorld.make(sleep: true)
            try TestWorld.ground(w, top: 800)
            for _ in 0..<150 {
                try TestWorld.box(w, at: Vec2(rng.float(-600, 600), rng.float(-1200, 700)), size: Vec2(rng.float(10, 50), rng.float(10, 50)),
                                  angle: rng.float(0, 3))
            }
            return w
        }
        let quiet = try make(), asked = try make()
        var rng = TestRandom(seed: 5)
        for _ in 0..<120 {
            quiet.step()
            asked.step()
            for _ in 0..<20 {
                let p = Vec2(rng.float(-700, 700), rng.float(-1200, 800))
                _ = asked.bodies(overlapping: AABB(lower: p, upper: p + Vec2(60, 60)))
                _ = asked.rayCast(from: p, translation: Vec2(rng.float(-500, 500), rng.float(-500, 500)))
            }
        }
        #expect(quiet.stateDigest() == asked.stateDigest())
    }
}
