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

    @Test("an array adds its header and elements; an empty one nothing; an object its first lines")
    func arraysAndObjects() {
        var plan = PrefetchPlan()
        plan.add(array: [Int]())
        #expect(plan.count == 0)
        let a = Array(0..<64)   // 512 bytes of elements after a 32-byte header
        plan.add(array: a, maxLines: 3)
        let start = a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) - 32 }
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
        // Then what a step without contacts reads (the bodies' states among it), then what
        // only a step with contacts does (the contacts' records, the solver's batches).
        w.addMotionLines(to: &idle)
        idle.markMotionPrefix()
        let motion = Set(idle.addresses[idle.idleCount..<idle.motionCount])
        #expect(motion.contains(lineOf(UnsafeRawPointer(w.states.view.base))))
        #expect(motion.contains(lineOf(UnsafeRawPointer(w.sims.view.base))))
        w.addContactLines(to: &idle)
        let contact = Set(idle.addresses[idle.motionCount...])
        #expect(contact.contains(lineOf(UnsafeRawPointer(w.contacts.records.view.base))))
        #expect(contact.contains(lineOf(UnsafeRawPointer(w.batches.wide.view.base))))
        #expect(idle.addresses == plan.addresses && idle.idleCount < idle.motionCount && idle.motionCount < idle.count)
        idle.removeAll()
        #expect(idle.count == 0 && idle.idleCount == 0)

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
