import Testing
@testable import DynamicsEngine

/// Contact colouring: the order in which a big island's contacts take their colours
/// (`IslandColoring.scatter`) and what the colours must still guarantee.
@Suite("Contact colouring")
struct ContactColoringTests {
    /// A pyramid of 1 m (100 pt) boxes, `base` on its base row, built row by row from the
    /// base, left to right, touching exactly, on a static ground box whose top is y = 0.
    func pyramid(base: Int) throws -> (World, [BodyHandle]) {
        let world = World(gravity: Vec2(0, -1000))
        var groundDef = BodyDef(); groundDef.type = .static; groundDef.position = Vec2(0, -100)
        _ = try world.createBody(groundDef, shapes: [ShapeDef(.box(halfWidth: 10_000, halfHeight: 100))])
        var boxes: [BodyHandle] = []
        for i in 0..<base {
            for j in i..<base {
                var def = BodyDef()
                def.position = Vec2(100 * (0.5 - 0.5 * Float(base) + 0.5 * Float(i) + Float(j - i)), 100 * Float(i) + 50)
                boxes.append(try world.createBody(def, shapes: [ShapeDef(.box(halfWidth: 50, halfHeight: 50))]))
            }
        }
        return (world, boxes)
    }

    @Test("a big island takes its colours in scattered runs of 64, yet no dynamic body is twice in a colour and each colour keeps contact order")
    func scatteredRuns() throws {
        let (world, _) = try pyramid(base: 40)
        world.step(dt: 1.0 / 60)
        let ib = world.islands, cb = world.batches
        let contacts = world.contacts.records
        let k = ColoredBatches.colorCount
        var scatteredIslands = 0
        for isl in 0..<ib.groupCount {
            let c0 = Int(ib.groupContactStart[isl]), c1 = Int(ib.groupContactStart[isl + 1])
            if c1 - c0 > IslandColoring.scatterMinimum {
                scatteredIslands += 1
                // Each run of `scatterBlock` positions is visited once each, within the run,
                // and not in plain order (a 4-bit hash keeps 64 contacts in order by chance
                // with probability far below 1e-9).
                let run = IslandColoring.scatterBlock
                var moved = 0
                for r0 in stride(from: c0, to: c1, by: run) {
                    let r1 = min(c1, r0 + run)
                    let visits = (r0..<r1).map { Int(cb.visit[$0]) }
                    #expect(visits.sorted() == Array(r0..<r1), "run at \(r0) is not a permutation of itself")
                    if visits != Array(r0..<r1) { moved += 1 }
                }
                #expect(moved >= (c1 - c0) / run - 1, "only \(moved) runs of \(c1 - c0) contacts were scattered")
            }
            // Whatever the order, the colours share no dynamic body and keep contact order.
            var at = c0
            for q in 0...k {
                let count = Int(cb.islandCounts[isl * (k + 1) + q])
                let positions = (at..<(at + count)).map { Int(cb.order[$0]) }
                #expect(positions == positions.sorted(), "colour \(q) of island \(isl) is not in contact order")
                if q < k {
                    var seen = Set<Int32>()
                    for p in positions {
                        let c = contacts[Int(ib.contactList[p])]
                        for b in [c.bodyA, c.bodyB] where world.metas[Int(b)].type == .dynamic {
                            #expect(seen.insert(b).inserted, "body \(b) twice in colour \(q)")
                        }
                    }
                }
                at += count
            }
            #expect(at == c1)
        }
        #expect(scatteredIslands == 1, "the pyramid of 820 boxes is one island of more than \(IslandColoring.scatterMinimum) contacts")
    }

    /// A symmetric pyramid on flat ground has nothing to push it sideways: by symmetry its
    /// top box stays on the centre line. A solver that always meets each box's left-hand
    /// contact first pushes the whole pyramid one way through the warm-started friction.
    @Test("a pyramid of 5 050 boxes keeps its top box on the centre line while it settles")
    func pyramidStaysCentred() throws {
        let (world, boxes) = try pyramid(base: 100)
        world.workerCount = 1
        var worst: Float = 0
        for _ in 0..<120 {
            world.step(dt: 1.0 / 60)
            worst = max(worst, abs(world.position(boxes[boxes.count - 1]).x))
        }
        // With the scattered colour order the top box strays about 2.5 pt in these two
        // seconds; colouring in contact order, it strayed 32 pt.
        #expect(worst < Self.topDriftLimit, "the top box strayed \(worst) pt from the centre line")
    }

    static let topDriftLimit: Float = 5
}
