import Testing
@testable import DynamicsEngine

/// Contact colouring: the order in which a big island's contacts take their colours
/// (`IslandColoring.scatter`) and what the colours must still guarantee.
@Suite("Contact colouring")
struct ContactColoringTests {
    /// A pyramid of 1 m (100 pt) boxes, `base` on its base row (`TestWorld.pyramid`: made
    /// row by row from the base, left to right).
    func pyramid(base: Int) throws -> (World, [BodyHandle]) {
        let world = TestWorld.make(sleep: true)
        try TestWorld.ground(world, top: 0, width: 20_000)
        return (world, try TestWorld.pyramid(world, rows: base))
    }

    /// The greedy colouring of positions `c0 ..< c1` of the islands' contact list, visited in
    /// `visits` order: each takes the lowest colour free at both its dynamic bodies.
    func greedy(_ world: World, _ c0: Int, _ c1: Int, visits: [Int]) -> [Int: Int] {
        let k = ColoredBatches.colorCount
        var used: [Int32: UInt32] = [:], colors: [Int: Int] = [:]
        for i in visits {
            let c = world.contacts.records[Int(world.islands.contactList[i])]
            let bodies = [c.bodyA, c.bodyB].filter { world.metas[Int($0)].type == .dynamic }
            let taken = bodies.reduce(UInt32(0)) { $0 | used[$1, default: 0] }
            let free = ~taken & ((1 << UInt32(k)) - 1)
            let q = free == 0 ? k : free.trailingZeroBitCount
            if q < k { for b in bodies { used[b, default: 0] |= 1 << UInt32(q) } }
            colors[i] = q
        }
        return colors
    }

    @Test("a big island takes its colours in shuffled runs of 64, yet no dynamic body is twice in a colour and each colour keeps contact order")
    func scatteredRuns() throws {
        let (world, _) = try pyramid(base: 40)
        world.step(dt: 1.0 / 60)
        let ib = world.islands, cb = world.batches
        let contacts = world.contacts.records
        let k = ColoredBatches.colorCount
        // The shuffle is a permutation.
        #expect(IslandColoring.scatterOrder.map(Int.init).sorted() == Array(0..<IslandColoring.scatterBlock))
        var scatteredIslands = 0
        for isl in 0..<ib.groupCount {
            let c0 = Int(ib.groupContactStart[isl]), c1 = Int(ib.groupContactStart[isl + 1])
            if c1 - c0 > IslandColoring.scatterMinimum {
                scatteredIslands += 1
                // Exactly the greedy colouring in the shuffled order of each run, which is
                // not the colouring in list order.
                var visits: [Int] = []
                for r0 in stride(from: c0, to: c1, by: IslandColoring.scatterBlock) {
                    visits += IslandColoring.scatterOrder.map { r0 + Int($0) }.filter { $0 < c1 }
                }
                let expected = greedy(world, c0, c1, visits: visits)
                let inListOrder = greedy(world, c0, c1, visits: Array(c0..<c1))
                let actual = Dictionary(uniqueKeysWithValues: (c0..<c1).map { ($0, Int(cb.colorOf[$0])) })
                #expect(actual == expected, "the island's colours are not the greedy colouring in the shuffled order")
                let differ = (c0..<c1).filter { actual[$0] != inListOrder[$0] }.count
                #expect(differ > (c1 - c0) / 4, "only \(differ) of \(c1 - c0) contacts took another colour than in list order")
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
        // With the shuffled colour order the top box strays about 0.7 pt in these two
        // seconds; colouring in contact order, it strays 32 pt.
        #expect(worst < Self.topDriftLimit, "the top box strayed \(worst) pt from the centre line")
    }

    static let topDriftLimit: Float = 5
}
