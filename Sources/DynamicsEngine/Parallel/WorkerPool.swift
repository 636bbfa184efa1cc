import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One pass of the pool: `perform(i)` for every index `i` of the pass. `invoke` lets the pool
/// call a task it knows only by address and type (an existential metatype: two words, no
/// allocation, no reference count). (One of the engine's few raw pointers: see the list at
/// the top of Storage/Column.swift.)
protocol PoolTask {
    func perform(_ index: Int)
    static func invoke(_ task: UnsafeRawPointer, _ index: Int)
}

extension PoolTask {
    static func invoke(_ task: UnsafeRawPointer, _ index: Int) {
        task.assumingMemoryBound(to: Self.self).pointee.perform(index)
    }
}

/// Long-lived helper threads for the step's parallel passes.
///
/// `DispatchQueue.concurrentPerform` allocates its continuations on every call on Linux (a
/// step makes about ten passes) and wakes its threads from sleep each time.
/// The pool starts each helper once, as a block that never returns on its own serial Dispatch
/// queue, and hands it work through atomics: a pass allocates nothing and takes no lock. Each
/// thread of a pass runs its own contiguous share of the indices first (`shares`). After
/// a pass a helper spins briefly for the next one (the passes of a step follow each other
/// within microseconds), then yields the processor between looks for up to 2 ms, then sleeps
/// on a semaphore, so an idle world costs no CPU.
///
/// One pool serves the process. A pass that finds it taken — another world stepping on
/// another thread at the same moment, or a pass started from inside a pass — returns `false`
/// and the caller falls back to `concurrentPerform`; either way every index runs exactly once,
/// and which thread runs it never changes a result (see `Parallel`).
final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool()

    /// Most helpers the pool starts; a pass asking for more runs its extra indices on the
    /// threads it has (indices are claimed, not assigned).
    static let maxHelpers = 63

    /// One helper's parking place.
    private final class Helper: Sendable {
        let asleep = Atomic<Bool>(false)
        let wake = DispatchSemaphore(value: 0)
    }

    /// Set while a pass owns the pool.
    private let busy = Atomic<Bool>(false)
    /// The current pass: generation (bits 17 and up), closed (bit 16: every index is
    /// claimed, no helper may join any more) and how many helpers it wants (bits 0–15).
    private let ticket = Atomic<UInt64>(0)
    private static let closedBit: UInt64 = 1 << 16
    /// Each thread's share of the current pass's indices (the owner's first, then the
    /// helpers'): thread p runs the indices of share p, front to back, then takes what is left
    /// of the others' from their back ends. A pass's index i thus runs on the same thread pass
    /// after pass (a body range, a contact chunk, a worker's part of the pipeline), and the
    /// data it writes stays in that core's cache for the next pass that reads it; a thread that
    /// comes late, or is slowed by another program, has its indices taken by the others.
    private let shares: [Share]
    /// One thread's share: (first unclaimed index: low 32 bits, end: high 32 bits), alone on
    /// its cache lines (the atomic sits between paddings, so two threads' claims never write
    /// the same line).
    private final class Share: @unchecked Sendable {
        private let before = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let range = Atomic<UInt64>(0)
        private let after = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))

        func set(_ r: Range<Int>) { range.store(UInt64(r.upperBound) << 32 | UInt64(r.lowerBound), ordering: .relaxed) }

        /// The share's next index from the front (its own thread), or nil when it is empty.
        @inline(__always) func takeFront() -> Int? {
            var v = range.load(ordering: .relaxed)
            while true {
                let front = v & 0xffff_ffff, end = v >> 32
                if front >= end { return nil }
                let (done, seen) = range.compareExchange(expected: v, desired: v + 1, ordering: .relaxed)
                if done { return Int(front) }
                v = seen
            }
        }

        /// The share's last unclaimed index (another thread), or nil when it is empty.
        @inline(__always) func takeBack() -> Int? {
            var v = range.load(ordering: .relaxed)
            while true {
                let front = v & 0xffff_ffff, end = v >> 32
                if front >= end { return nil }
                let (done, seen) = range.compareExchange(expected: v, desired: (end - 1) << 32 | front, ordering: .relaxed)
                if done { return Int(end - 1) }
                v = seen
            }
        }
    }

    init() {
        shares = (0...Self.maxHelpers).map { _ in Share() }
    }
    /// Helpers that joined a pass and have not left it. A helper joins (adds 1) before it
    /// looks at the pass and leaves (subtracts 1) when it is done with it; the owner waits
    /// for 0 after closing the pass, so it never waits for a helper still asleep or not yet
    /// scheduled — it waits only for helpers running indices they claimed.
    private let active = Atomic<Int>(0)
    /// The current pass: its task (on the owner's stack) and the task's type (its indices are
    /// in `shares`); written before the ticket is published, read by helpers after they see it.
    private var jobTask: UnsafeRawPointer?
    private var jobType: any PoolTask.Type = IdleTask.self
    /// Helpers started so far (changed only by the pass owner, between passes).
    private var helpers: [Helper] = []
    /// Helpers spin only while the pass fits the processors; with more threads than
    /// processors a spinning helper would take the time of one doing the work.
    private let processors = max(1, ProcessInfoShim.activeProcessorCount)
    /// How long a helper waits for the next pass before it sleeps: the first part spinning,
    /// the rest yielding the processor between looks (so a waiting helper gives way to any
    /// other runnable thread). Long enough to cover the serial parts of a step (island
    /// building, event collection), even in big worlds, so that a stepping world wakes its
    /// helpers once, not once per pass: waking a sleeping helper costs the owner a system call
    /// and delays the pass until the helper's thread is scheduled again.
    private static let spinNanoseconds: UInt64 = 100_000
    private static let waitNanoseconds: UInt64 = 2_000_000

    /// Runs `task.perform(i)` for every `i` in `0..<count` on the caller and up to
    /// `workers - 1` helpers, each thread running its own contiguous share first and then
    /// taking what the others have not reached (so a thread slowed by costlier indices, or by
    /// another program, runs fewer), and returns when all have run; `false` (nothing run) if
    /// the pool is taken.
    @inline(__always)
    func run<T: PoolTask>(count: Int, workers: Int, _ task: T) -> Bool {
        withUnsafePointer(to: task) { run(count: count, workers: workers, task: UnsafeRawPointer($0), type: T.self) }
    }

    @inline(never)
    private func run(count: Int, workers: Int, task: UnsafeRawPointer, type: any PoolTask.Type) -> Bool {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return false
        }
        let wanted = min(max(min(workers, count) - 1, 0), Self.maxHelpers)
        if helpers.count < wanted { start(wanted - helpers.count) }
        jobTask = task
        jobType = type
        precondition(count < 1 << 32, "WorkerPool: too many indices in one pass")
        let threads = wanted + 1
        for p in 0..<threads { shares[p].set(Parallel.share(count, p, threads)) }
        let open = ((ticket.load(ordering: .relaxed) >> 17) &+ 1) << 17 | UInt64(wanted)
        ticket.store(open, ordering: .sequentiallyConsistent)
        for h in 0..<wanted where helpers[h].asleep.exchange(false, ordering: .sequentiallyConsistent) {
            helpers[h].wake.signal()
        }
        claimAndRun(thread: 0, of: threads)
        // Every index is claimed: close the pass, then wait for the helpers that joined it.
        // A helper joins before it reads the ticket, so either it reads "closed" and leaves
        // without touching the pass, or this thread sees it in `active` and waits for it.
        ticket.store(open | Self.closedBit, ordering: .sequentiallyConsistent)
        var spins = 0
        while active.load(ordering: .sequentiallyConsistent) != 0 {
            spins += 1
            if spins > 256 { sched_yield() }
        }
        jobTask = nil
        busy.store(false, ordering: .releasing)
        return true
    }

    /// Runs indices of the current pass until none is left: thread `p`'s own share, then the
    /// others' from their ends.
    @inline(never)
    private func claimAndRun(thread p: Int, of threads: Int) {
        guard let task = jobTask else { return }
        let type = jobType
        let own = shares[p]
        while let i = own.takeFront() { type.invoke(task, i) }
        for k in 1..<threads {
            let other = shares[(p + k) % threads]
            while let i = other.takeBack() { type.invoke(task, i) }
        }
    }

    /// Starts `n` more helpers, each on its own serial queue (so each gets its own thread).
    private func start(_ n: Int) {
        let seen = ticket.load(ordering: .relaxed) >> 17
        for _ in 0..<n {
            let helper = Helper()
            let index = helpers.count
            helpers.append(helper)
            DispatchQueue(label: "DynamicsEngine.worker.\(index)").async {
                self.serve(index: index, helper: helper, seen: seen)
            }
        }
    }

    /// A helper's life: wait for a new pass, join it, claim indices if it is among the pass's
    /// helpers and the pass is still open, leave, repeat.
    private func serve(index: Int, helper: Helper, seen start: UInt64) {
        var seen = start
        var spin = false
        while true {
            _ = waitForPass(after: seen, helper: helper, spin: spin)
            active.wrappingAdd(1, ordering: .sequentiallyConsistent)
            let t = ticket.load(ordering: .sequentiallyConsistent)
            seen = t >> 17
            let wanted = Int(t & 0xffff)
            // Spin for the next pass only after being wanted by one whose threads fit the
            // processors: a helper the passes do not need, or one that would take the time
            // of a thread doing the work, sleeps at once.
            spin = index < wanted && wanted + 1 <= processors
            if index < wanted && t & Self.closedBit == 0 { claimAndRun(thread: index + 1, of: wanted + 1) }
            active.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// The ticket of the first pass after generation `seen`; spins, then sleeps.
    private func waitForPass(after seen: UInt64, helper: Helper, spin: Bool) -> UInt64 {
        var start: UInt64 = 0
        var spins = 0
        while true {
            let t = ticket.load(ordering: .acquiring)
            if t >> 17 != seen { return t }
            spins += 1
            if spins & 63 != 0 { continue }
            let now = Self.monotonicNanoseconds()
            if start == 0 { start = now }
            let waited = spin ? now - start : .max
            if waited < Self.spinNanoseconds { continue }
            if waited < Self.waitNanoseconds { sched_yield(); continue }
            // Sleep. Either the owner sees `asleep` after publishing and signals, or this
            // thread sees the new ticket after setting it (both are sequentially consistent).
            helper.asleep.store(true, ordering: .sequentiallyConsistent)
            let again = ticket.load(ordering: .sequentiallyConsistent)
            if again >> 17 != seen {
                if helper.asleep.exchange(false, ordering: .sequentiallyConsistent) { return again }
                helper.wake.wait() // the owner took the flag and signals: consume it
                return again
            }
            helper.wake.wait()
            start = 0
            spins = 0
        }
    }

    @inline(__always)
    private static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// The pool's task between passes (never run).
private struct IdleTask: PoolTask {
    func perform(_ index: Int) {}
}
