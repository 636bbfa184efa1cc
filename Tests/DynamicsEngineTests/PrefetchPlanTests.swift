import Testing
@testable import DynamicsEngine

/// `PrefetchPlan`: the list of cache lines a piece of work will touch, and what a world puts
/// in it (`World.addHotLines(to:)`).
@Suite("Prefetch plans")
struct PrefetchPlanTests {
    static let line = UInt(PrefetchPlan.lineBytes)

    @Test("a byte range becomes its 64-byte lines, rounded down, capped per range and by the capacity, with no neighbour repeated")
    func lines() {
        var plan = PrefetchPlan(capacity: 6)
        let p = UnsafeRawPointer(bitPattern: 0x10_0010)!
        // 0x100010 ..< 0x1000D0 covers the lines at 0x100000, 0x100040, 0x100080, 0x1000C0.
        plan.add(p, bytes: 0xC0, maxLines: 8)
        #expect(plan.addresses == [0x10_0000, 0x10_0040, 0x10_0080, 0x10_00C0])
        // The same last line again is not repeated; at most `maxLines` of a range.
        plan.add(UnsafeRawPointer(bitPattern: 0x10_00C8)!, bytes: 300, maxLines: 2)
        #expect(plan.addresses == [0x10_0000, 0x10_0040, 0x10_0080, 0x10_00C0, 0x10_0100])
        // The capacity holds: one more line fits, the rest is left out.
        plan.add(UnsafeRawPointer(bitPattern: 0x20_0000)!, bytes: 4 * Int(Self.line), maxLines: 4)
        #expect(plan.count == 6 && plan.addresses.last == 0x20_0000)
        plan.add(UnsafeRawPointer(bitPattern: 0x30_0000)!, bytes: 1)
        #expect(plan.count == 6)
        // Nothing for an empty range or no lines.
        plan.removeAll()
        plan.add(p, bytes: 0)
        plan.add(p, bytes: 100, maxLines: 0)
        #expect(plan.count == 0)
        plan.prefetch()       // an empty plan asks for nothing
        plan.prefetchList()
        // The prefixes: the lines added before `markIdlePrefix()` and `markMotionPrefix()`.
        plan.add(p, bytes: 0x80, maxLines: 8)
        plan.markIdlePrefix()
        plan.add(UnsafeRawPointer(bitPattern: 0x40_0000)!, bytes: 1)
        plan.markMotionPrefix()
        plan.add(UnsafeRawPointer(bitPattern: 0x50_0000)!, bytes: 65)
        // 0x100010 ..< 0x100090: three lines; then one; then two.
        #expect(plan.lineCount(.idle) == 3 && plan.lineCount(.motion) == 4 && plan.lineCount(.all) == 6)
        #expect(plan.idleCount == 3 && plan.motionCount == 4 && plan.count == 6)
        for part in [PrefetchPlan.Part.idle, .motion, .all] { plan.prefetch(part); plan.prefetchList(part) }
        plan.removeAll()
        #expect(plan.lineCount(.idle) == 0 && plan.lineCount(.motion) == 0)
    }

    @Test("lines are kept as distances from the first: lines below it and far above it come back exact; one 16 GiB or more away is left out")
    func compactList() {
        var plan = PrefetchPlan(capacity: 8)
        let first: UInt = 0x7F00_0000_1000
        plan.add(UnsafeRawPointer(bitPattern: first + 8)!, bytes: 1)
        // Below the first line, and 15 GiB above it (within 2³¹ words = 16 GiB).
        plan.add(UnsafeRawPointer(bitPattern: first - 0x40_0000)!, bytes: 1)
        plan.add(UnsafeRawPointer(bitPattern: first + 15 << 30)!, bytes: 1)
        #expect(plan.addresses == [first, first - 0x40_0000, first + 15 << 30])
        // 16 GiB below: no 32-bit distance reaches it, so it is left out (a plan is a hint).
        plan.add(UnsafeRawPointer(bitPattern: first - 16 << 30 - 64)!, bytes: 1)
        #expect(plan.count == 3)
        // A repeat of the last line kept is still left out after a line was left out.
        plan.add(UnsafeRawPointer(bitPattern: first + 15 << 30 + 4)!, bytes: 1)
        #expect(plan.count == 3)
        plan.add(UnsafeRawPointer(bitPattern: first + 64)!, bytes: 1)
        #expect(plan.addresses.last == first + 64 && plan.count == 4)
        // Emptied, the next line added is the new origin.
        plan.removeAll()
        plan.add(UnsafeRawPointer(bitPattern: 0x1000)!, bytes: 1)
        plan.add(UnsafeRawPointer(bitPattern: 0x1000 + 5 * Self.line)!, bytes: 1)
        plan.add(UnsafeRawPointer(bitPattern: first)!, bytes: 1)
        #expect(plan.addresses == [0x1000, 0x1000 + 5 * Self.line])
        plan.prefetch(); plan.prefetchList()
    }

    @Test("an element's prefetch reaches every line it spans, and no other, whatever its size and alignment")
    func elementLines() {
        for size in [0, 1, 8, 32, 60, 64, 65, 88, 120, 128, 129, 200, 448] {
            for offset in stride(from: UInt(0), to: 128, by: 4) {
                let address = 0x7F00_0000_1000 + offset
                var asked = Set<UInt>()
                forEachPrefetchAddress(address, size) { asked.insert($0 & ~63) }
                let spanned = Set(stride(from: address & ~63, through: (address + UInt(max(size, 1)) - 1) & ~63, by: 64))
                #expect(asked == spanned, "size \(size) at offset \(offset): asked for lines \(asked.sorted()), spans \(spanned.sorted())")
            }
        }
        // Asking for every element of a view and of a mutable view changes none of them.
        let column = Column<ContactData>()
        for k in 0..<37 { var d = ContactData(); d.cachedOffset = Vec2(Float(k), -Float(k)); column.append(d) }
        let view = column.view, mutable = column.mutableView
        for k in view.indices { view.prefetch(k); mutable.prefetch(k) }
        #expect(column.indices.allSatisfy { column[$0].cachedOffset == Vec2(Float($0), -Float($0)) })
    }

    @Test("an array adds its header and elements; an empty one nothing; an object its first lines")
    func arraysAndObjects() {
        var plan = PrefetchPlan()
        plan.add(array: [Int]())
        #expect(plan.count == 0)
        let a = Array(0..<64)   // 512 bytes of elements after a 32-byte header
        plan.add(array: a, maxLines: 3)
        // From its count (16 bytes before the elements), not its object header.
        let start = a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) - 16 }
        #expect(plan.count == 3 && plan.addresses[0] == start & ~(Self.line - 1))
        plan.removeAll()
        let o = Column<Int>()
        plan.add(object: o, lines: 2)
        let at = UInt(bitPattern: Unmanaged.passUnretained(o).toOpaque()) & ~(Self.line - 1)
        #expect(plan.addresses == [at, at + Self.line])
        // Prefetching stale addresses is harmless: the plan never reads through them.
        plan.add(UnsafeRawPointer(bitPattern: 64)!, bytes: 64)
        plan.prefetch()
    }

    /// A class that something holds weakly, for `sideTableLine`.
    final class Held { var value = 0 }

    @Test("an object held weakly adds its side table's line (the table names the object, as this runtime lays it out); one never held weakly adds nothing")
    func sideTableLine() {
        let held = Held()
        var plan = PrefetchPlan()
        // Never held weakly: its counts are inline, there is no table.
        #expect(PrefetchPlan.sideTable(of: held) == nil)
        plan.add(sideTableOf: held)
        #expect(plan.count == 0)
        weak let weakly = held
        let table = PrefetchPlan.sideTable(of: held)
        #expect(table != nil)
        // The table's first word is the object it counts for: the address decoded is the table.
        let object = UnsafeRawPointer(Unmanaged.passUnretained(held).toOpaque())
        #expect(table?.load(as: UnsafeRawPointer.self) == object)
        plan.add(sideTableOf: held)
        let first = UInt(bitPattern: table!) & ~(Self.line - 1)
        let last = (UInt(bitPattern: table!) + UInt(PrefetchPlan.sideTableBytes) - 1) & ~(Self.line - 1)
        #expect(plan.addresses == (first == last ? [first] : [first, last]))
        // A weak load, a retain and a release go through the table; it stays where it is.
        weakly?.value += 1
        #expect(PrefetchPlan.sideTable(of: held) == table && held.value == 1)
        withExtendedLifetime(weakly) {}
    }

    @Test("parts: idle, rest and all are prefixes; motion leaves out the lines between the shared and rest marks; unmarked, it is a prefix")
    func parts() {
        var plan = PrefetchPlan(capacity: 64)
        func add(_ n: Int) { for _ in 0..<n { plan.add(UnsafeRawPointer(bitPattern: 0x1000 + 64 * plan.count)!, bytes: 1) } }
        add(3); plan.markIdlePrefix()
        add(4); plan.markMotionPrefix()
        add(2)
        // Without the shared and rest marks (a plan in three parts), motion is a prefix.
        #expect(plan.lineCount(.idle) == 3 && plan.lineCount(.motion) == 7 && plan.lineCount(.all) == 9)
        var (a, b) = plan.ranges(.motion)
        #expect(a.isEmpty && b == 0..<7)
        plan.removeAll()
        add(3); plan.markIdlePrefix()
        add(5); plan.markSharedPrefix()
        add(2); plan.markRestPrefix()
        add(4); plan.markMotionPrefix()
        add(6)
        #expect(plan.lineCount(.idle) == 3 && plan.lineCount(.rest) == 10 && plan.lineCount(.all) == 20)
        #expect(plan.lineCount(.motion) == 12)
        (a, b) = plan.ranges(.motion)
        #expect(a == 0..<8 && b == 10..<14)
        (a, b) = plan.ranges(.rest)
        #expect(a == 0..<10 && b.isEmpty)
        for part in [PrefetchPlan.Part.idle, .rest, .motion, .all] { plan.prefetch(part); plan.prefetchList(part) }
    }

    @Test("a world's plan holds its object, its step context, its body buffers and the pool's vertices; a restored world, its own")
    func worldLines() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 500)
        let b = try TestWorld.box(w, at: Vec2(0, 445))
        for _ in 0..<10 { w.step() }
        #expect(w.contactCount > 0)
        var plan = PrefetchPlan(capacity: 512)
        w.addHotLines(to: &plan)
        let lines = Set(plan.addresses)
        func lineOf(_ p: UnsafeRawPointer) -> UInt { UInt(bitPattern: p) & ~(Self.line - 1) }
        #expect(lines.contains(lineOf(UnsafeRawPointer(Unmanaged.passUnretained(w).toOpaque()))))
        #expect(lines.contains(lineOf(UnsafeRawPointer(Unmanaged.passUnretained(w.stepContext).toOpaque()))))
        #expect(lines.contains(lineOf(UnsafeRawPointer(w.sims.view.base))))
        #expect(lines.contains(lineOf(UnsafeRawPointer(w.states.view.base))))
        #expect(lines.contains(lineOf(UnsafeRawPointer(w.contacts.data.view.base))))
        #expect(lines.contains(lineOf(UnsafeRawPointer(w.pool.vertices.view.base))))
        // The idle lines (what `hasAwakeBodies` reads) come first, the busy ones after: the
        // two listings together are the whole plan, in order.
        var idle = PrefetchPlan(capacity: 512)
        w.addIdleLines(to: &idle)
        idle.markIdlePrefix()
        #expect(idle.idleCount == idle.count && idle.count >= 3)
        let idleLines = Set(idle.addresses)
        #expect(idleLines.contains(lineOf(UnsafeRawPointer(Unmanaged.passUnretained(w).toOpaque()))))
        #expect(idleLines.contains(lineOf(UnsafeRawPointer(Unmanaged.passUnretained(w.metas).toOpaque()))))
        #expect(idleLines.contains(lineOf(UnsafeRawPointer(w.metas.view.base))))
        #expect(!idleLines.contains(lineOf(UnsafeRawPointer(w.states.view.base))))
        // The body-slot count `hasAwakeBodies` reads lies in the world's first lines.
        let slots = withUnsafeMutablePointer(to: &w.bodySlots) { lineOf(UnsafeRawPointer($0)) }
        #expect(idleLines.contains(slots))
        // Then what every stepping pass reads (the bodies' states and placements), what only a
        // step at rest adds (the contacts' records; not the rest copy, which a step at rest no
        // call preceded does not read), what a full step without
        // contacts adds (the step context, the shapes), what only a step with contacts does
        // (the solver's batches).
        w.addSharedLines(to: &idle)
        idle.markSharedPrefix()
        let shared = Set(idle.addresses[idle.idleCount..<idle.sharedCount])
        #expect(shared.contains(lineOf(UnsafeRawPointer(w.states.view.base))))
        #expect(shared.contains(lineOf(UnsafeRawPointer(w.sims.view.base))))
        w.addRestLines(to: &idle)
        idle.markRestPrefix()
        let rest = Set(idle.addresses[idle.sharedCount..<idle.restCount])
        #expect(rest.contains(lineOf(UnsafeRawPointer(w.contacts.records.view.base))))
        #expect(!Set(idle.addresses).contains(lineOf(UnsafeRawPointer(w.rest.states.view.base))))
        w.addMotionLines(to: &idle)
        idle.markMotionPrefix()
        let motion = Set(idle.addresses[idle.restCount..<idle.motionCount])
        #expect(motion.contains(lineOf(UnsafeRawPointer(Unmanaged.passUnretained(w.stepContext).toOpaque()))))
        #expect(motion.contains(lineOf(UnsafeRawPointer(w.shapes.view.base))))
        w.addContactLines(to: &idle)
        let contact = Set(idle.addresses[idle.motionCount...])
        #expect(contact.contains(lineOf(UnsafeRawPointer(w.batches.wide.view.base))))
        // A contact's manifold only with contacts: a step at rest or in flight does not read
        // it. Without joints, a body in flight asks for no joint buffer.
        let data = lineOf(UnsafeRawPointer(w.contacts.data.view.base))
        #expect(contact.contains(data) && !rest.contains(data) && !motion.contains(data) && !shared.contains(data))
        // The world object's lines that hold only the pair finder's state are asked for with
        // a full step's lines, not with those a step at rest reads; the solver's with a
        // contact's. (The middle of each field is on such a line: both are several lines long.)
        let object = UInt(bitPattern: Unmanaged.passUnretained(w).toOpaque())
        let middleOfPairFinder = withUnsafeMutablePointer(to: &w.broadPhase) {
            lineOf(UnsafeRawPointer($0) + MemoryLayout<BroadPhase>.size / 2)
        }
        let middleOfBatches = withUnsafeMutablePointer(to: &w.batches) {
            lineOf(UnsafeRawPointer($0) + MemoryLayout<ColoredBatches>.size / 2)
        }
        #expect(motion.contains(middleOfPairFinder) && !shared.contains(middleOfPairFinder) && !idleLines.contains(middleOfPairFinder))
        #expect(contact.contains(middleOfBatches) && !shared.contains(middleOfBatches) && !motion.contains(middleOfBatches))
        // Every line of the world object is asked for in some part.
        let all = Set(idle.addresses)
        #expect(w.worldLines > 8)
        for k in 0..<w.worldLines { #expect(all.contains((object + UInt(64 * k)) & ~(Self.line - 1))) }
        // From the object's fifth line on, a line wholly inside the pair finder's state is a
        // full step's and not a shared one, one wholly inside the solver's scratch and
        // batches a contact's, any other line a shared one.
        func bytes<T>(_ p: UnsafeMutablePointer<T>) -> Range<UInt> {
            UInt(bitPattern: p)..<(UInt(bitPattern: p) + UInt(MemoryLayout<T>.size))
        }
        let pairFinder = withUnsafeMutablePointer(to: &w.broadPhase, bytes)
        let solverStart = withUnsafeMutablePointer(to: &w.solver, bytes).lowerBound
        let solverEnd = withUnsafeMutablePointer(to: &w.batches, bytes).upperBound
        var line = (object + 4 * 64) & ~(Self.line - 1)
        while line < object + UInt(64 * w.worldLines) {
            let inPairFinder = pairFinder.lowerBound <= line && line + Self.line <= pairFinder.upperBound
            let inSolver = solverStart <= line && line + Self.line <= solverEnd
            // (One way only for the other parts: the object's first and last lines may also
            // hold a neighbouring object that another part lists.)
            let at = Comment(rawValue: "world object line at +\(Int(line) - Int(object))")
            if inPairFinder { #expect(motion.contains(line) && !shared.contains(line), at) }
            if inSolver { #expect(contact.contains(line) && !shared.contains(line), at) }
            if !inPairFinder && !inSolver { #expect(shared.contains(line), at) }
            line += Self.line
        }
        #expect(idle.addresses == plan.addresses)
        #expect(idle.idleCount < idle.sharedCount && idle.sharedCount < idle.restCount && idle.restCount < idle.motionCount
                && idle.motionCount < idle.count)
        // The parts: at rest the first three, without contacts all but the rest lines.
        #expect(idle.lineCount(.rest) == idle.restCount)
        #expect(idle.lineCount(.motion) == idle.sharedCount + idle.motionCount - idle.restCount)
        let (first, second) = idle.ranges(.motion)
        #expect(first == 0..<idle.sharedCount && second == idle.restCount..<idle.motionCount)
        idle.removeAll()
        #expect(idle.count == 0 && idle.idleCount == 0 && idle.sharedCount == 0 && idle.restCount == 0 && idle.motionCount == 0)

        // A second listing gives the same plan (the parts are found once).
        var again = PrefetchPlan(capacity: 512)
        w.addHotLines(to: &again)
        #expect(again.addresses == plan.addresses)

        // A world restored from a snapshot lists its own buffers, not the original's.
        let r = try World(snapshot: w.snapshot())
        var restored = PrefetchPlan(capacity: 512)
        r.addHotLines(to: &restored)
        let rl = Set(restored.addresses)
        #expect(rl.contains(lineOf(UnsafeRawPointer(r.pool.vertices.view.base))))
        #expect(rl.contains(lineOf(UnsafeRawPointer(r.sims.view.base))) && !rl.contains(lineOf(UnsafeRawPointer(w.sims.view.base))))
        #expect(w.isValid(b))
    }
}
