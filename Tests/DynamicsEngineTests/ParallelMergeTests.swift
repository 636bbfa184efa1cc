import Testing
@testable import DynamicsEngine

/// The step's passes that several workers share through a common structure — the island
/// build's union pass (one union–find forest joined lock-free) and the incremental broad
/// phase's merge of fresh and standing pairs (key ranges cut from a sample) — give what one
/// worker gives, checked against plain reference implementations on random inputs (fixed
/// seeds; each case prints its seed and worker count on failure).
@Suite("Shared passes of the island build and the broad phase")
struct ParallelMergeTests {
    /// Random links over `slots` bodies: most join nearby slots (a pile's neighbours), some
    /// far ones, and about a third have no points (-1, -1).
    static func links(_ n: Int, slots: Int, _ random: inout SplitMix64) -> [SIMD2<Int32>] {
        (0..<n).map { _ in
            if random.next() % 3 == 0 { return SIMD2(-1, -1) }
            let a = Int(random.next() % UInt64(slots))
            let far = random.next() % 16 == 0
            let b = far ? Int(random.next() % UInt64(slots)) : min(slots - 1, a + 1 + Int(random.next() % 40))
            return random.next() % 2 == 0 ? SIMD2(Int32(a), Int32(b)) : SIMD2(Int32(b), Int32(a))
        }
    }

    @Test("the island union: on 1, 2, 3 and 8 workers, the sets of a plain union–find, each rooted at its lowest slot, every parent no higher than its slot, and the contacts with points listed in order",
          arguments: [UInt64(1), 2, 3])
    func islandUnion(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let slots = 6000
        let contactLinks = Self.links(30_000, slots: slots, &random)
        let jointLinks = Self.links(4000, slots: slots, &random).filter { $0.x >= 0 }
        let marks = (0..<slots).map { _ in random.next() % 10 == 0 ? Int32(-1) : 0 }
        // The reference: a plain union–find over the marked bodies, then each set's lowest slot.
        var ref = Array(0..<slots)
        func find(_ x: Int) -> Int { var y = x; while ref[y] != y { y = ref[y] }; return y }
        for link in contactLinks + jointLinks where link.x >= 0 && marks[Int(link.x)] >= 0 && marks[Int(link.y)] >= 0 {
            let ra = find(Int(link.x)), rb = find(Int(link.y))
            if ra != rb { ref[max(ra, rb)] = min(ra, rb) }
        }
        let lowest = (0..<slots).map { find($0) }
        let expectedTouching = contactLinks.indices.filter { contactLinks[$0].x >= 0 }.map { Int32($0) }
        for workers in [1, 2, 3, 8] {
            let cs = Column<SIMD2<Int32>>(), js = Column<SIMD2<Int32>>(), mk = Column<Int32>()
            let parent = Column<Int32>(), touching = Column<Int32>(), counts = Column<Int32>()
            cs.append(contentsOf: contactLinks); js.append(contentsOf: jointLinks); mk.append(contentsOf: marks)
            parent.append(contentsOf: (0..<slots).map { Int32($0) })
            touching.grow(to: contactLinks.count, with: 0)
            let listed = IslandUnion.run(links: cs.view, jointLinks: js.view, marks: mk.view, parent: parent.mutableView,
                                         touching: touching.mutableView, slots: slots, workers: workers, counts: counts)
            let replay = "seed \(seed), \(workers) workers"
            #expect(Array(touching.prefix(listed)) == expectedTouching, "contacts with points listed (\(replay))")
            #expect((0..<slots).allSatisfy { parent[$0] <= Int32($0) }, "a parent above its slot (\(replay))")
            func root(_ x: Int) -> Int { var y = x; while Int(parent[y]) != y { y = Int(parent[y]) }; return y }
            let wrong = (0..<slots).filter { root($0) != lowest[$0] }
            #expect(wrong.isEmpty, "\(wrong.count) slots in another set or under another root than the reference's, first \(wrong.first ?? -1) (\(replay))")
        }
    }

    /// Old contacts with random distinct keys over `shapes` shapes, sorted, about one in
    /// twenty ended; fresh pairs: `fresh` distinct keys with an enlarged shape, none a standing
    /// pair's (some the key of an old contact of an enlarged shape), both shapes from
    /// `freshFrom` up.
    static func mergeCase(seed: UInt64, shapes: Int, old count: Int, fresh: Int, freshFrom: Int)
        -> (old: [Contact], fresh: [UInt64], enlarged: [UInt8]) {
        var random = SplitMix64(seed: seed)
        func key(_ a: Int, _ b: Int) -> UInt64 { UInt64(min(a, b)) << 32 | UInt64(max(a, b)) }
        let enlarged = (0..<shapes).map { _ in UInt8(random.next() % 5 == 0 ? 1 : 0) }
        var keys = Set<UInt64>()
        while keys.count < count {
            let a = Int(random.next() % UInt64(shapes)), b = Int(random.next() % UInt64(shapes))
            if a != b { keys.insert(key(a, b)) }
        }
        let old: [Contact] = keys.sorted().map { k in
            var c = Contact()
            c.key = k
            c.shapeA = random.next() % 20 == 0 ? -1 : Int32(truncatingIfNeeded: k >> 32)
            return c
        }
        func standing(_ k: UInt64) -> Bool {
            enlarged[Int(k >> 32)] == 0 && enlarged[Int(k & 0xFFFF_FFFF)] == 0
        }
        let moved = (freshFrom..<shapes).filter { enlarged[$0] != 0 }
        var freshKeys = Set<UInt64>()
        // Some of the old contacts of enlarged shapes are found again.
        for c in old where c.shapeA >= 0 && !standing(c.key) && Int(c.key >> 32) >= freshFrom && random.next() % 2 == 0 {
            freshKeys.insert(c.key)
        }
        while freshKeys.count < fresh {
            let a = moved[Int(random.next() % UInt64(moved.count))]
            let b = freshFrom + Int(random.next() % UInt64(shapes - freshFrom))
            if a != b && !keys.contains(key(a, b)) { freshKeys.insert(key(a, b)) }
        }
        var list = Array(freshKeys)
        list.shuffle(using: &random)
        return (old, list, enlarged)
    }

    @Test("the fresh-pair merge: on 1, 2, 3 and 8 workers, every standing pair and every fresh pair, sorted, each once — fresh pairs spread over the keys or gathered in their last tenth",
          arguments: [(UInt64(11), 0), (12, 1800), (13, 0)])
    func freshPairMerge(seed: UInt64, freshFrom: Int) {
        let shapes = 2000
        let c = Self.mergeCase(seed: seed, shapes: shapes, old: 20_000, fresh: 5000, freshFrom: freshFrom)
        let expected = (c.old.filter {
            $0.shapeA >= 0 && c.enlarged[Int($0.key >> 32)] == 0 && c.enlarged[Int($0.key & 0xFFFF_FFFF)] == 0
        }.map(\.key) + c.fresh).sorted()
        for workers in [1, 2, 3, 8] {
            let old = Column<Contact>(), fresh = Column<UInt64>(), enlarged = Column<UInt8>(), pairs = Column<UInt64>()
            old.append(contentsOf: c.old); fresh.append(contentsOf: c.fresh); enlarged.append(contentsOf: c.enlarged)
            pairs.append(contentsOf: [7, 7, 7])  // emptied by the merge
            FreshPairMerge.merge(old: old.view, fresh: fresh.view, enlarged: enlarged.view, scratch: FreshPairScratch(),
                                 into: pairs, workers: workers)
            let got = Array(pairs)
            let firstDifference = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
            #expect(got == expected, "\(got.count) pairs against \(expected.count), first difference at \(firstDifference) (seed \(seed), \(workers) workers)")
        }
    }

    /// The contact merge splits the pairs and last step's contacts into key ranges, one a
    /// worker (`minWorkForParallel` 0: from the first pair), and then gives the new contacts of
    /// the ranges, in order, their data slots: free ones first, from the end of the free list.
    /// A mixed pile with rolling resistance falls, lands and settles (contacts begin and end,
    /// slots are freed and taken again); every 10 steps each contact's key, slot and rolling
    /// resistance, and the free list, must be what one worker gives, and no two contacts share
    /// a slot.
    @Test("the contact merge's data slots: on 2, 3 and 8 workers, the slots, free list and rolling resistance of one worker")
    func freshContactSlots() throws {
        func run(workers: Int) throws -> [[String]] {
            let w = try ParallelDeterminismTests.containerWorld(count: 400, mixed: true, material: Material(rollingResistance: 0.1))
            w.workerCount = workers
            w.options.minWorkForParallel = 0
            var seen: [[String]] = []
            for step in 1...120 {
                w.step(dt: 1.0 / 60.0)
                guard step % 10 == 0 else { continue }
                var taken = Set<Int32>()
                var rows: [String] = []
                for k in 0..<w.contacts.count where w.contacts[k].shapeA >= 0 {
                    let c = w.contacts[k]
                    if c.slot >= 0 {
                        #expect(taken.insert(c.slot).inserted, "\(workers) workers, step \(step): slot \(c.slot) held twice")
                        rows.append("\(c.key) \(c.slot) \(w.contacts.data[Int(c.slot)].rollingResistance.bitPattern)")
                    } else {
                        rows.append("\(c.key) -")
                    }
                }
                rows.append("free \(w.contacts.freeSlots)")
                seen.append(rows)
            }
            return seen
        }
        let reference = try run(workers: 1)
        // (The pile has landed, and contacts ended and left slots free on the way.)
        #expect(reference.count == 12 && reference.last!.count > 300)
        #expect(reference.contains { $0.last! != "free []" }, "no contact slot was ever free")
        for workers in [2, 3, 8] {
            let other = try run(workers: workers)
            for (k, (a, b)) in zip(reference, other).enumerated() where a != b {
                Issue.record("\(workers) workers: contacts at step \((k + 1) * 10) differ from one worker's")
                break
            }
        }
    }
}
