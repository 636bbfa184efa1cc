import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Work splitting for the step. Every parallel stage writes disjoint memory (its own contact
/// range, body range or colour batch range), so the results do not depend on how the work is
/// split; with one worker nothing is dispatched at all.
enum Parallel {
    /// Runs `body(range, worker)` over `0..<count` split into `workers` contiguous ranges (fewer
    /// when there is less than `minPerWorker` work each). The calling thread takes part.
    @inline(__always)
    static func forRanges(workers: Int, count: Int, minPerWorker: Int, _ body: (Range<Int>, Int) -> Void) {
        let w = min(workers, count / max(1, minPerWorker))
        if w <= 1 {
            if count > 0 { body(0..<count, 0) }
            return
        }
        run(workers: w) { i in body((i * count / w)..<((i + 1) * count / w), i) }
    }

    /// Runs `body(worker)` on `workers` threads (the caller among them) and returns when all
    /// are done. The closure is not `@Sendable`: every caller in the engine hands each worker
    /// disjoint memory (stated at each call site), which the compiler cannot see.
    @inline(__always)
    static func run(workers: Int, _ body: (Int) -> Void) {
        if workers <= 1 { body(0); return }
        withoutActuallyEscaping(body) { escapable in
            nonisolated(unsafe) let work = escapable
            DispatchQueue.concurrentPerform(iterations: workers) { i in work(i) }
        }
    }

    /// Runs `body(range, chunk)` over `0..<count` cut into chunks of `chunkSize`, which the
    /// workers claim one by one (dynamic load balance). What a chunk computes must depend only
    /// on its range, never on which worker runs it; callers that collect output keep one
    /// buffer per chunk and combine them in chunk order.
    @inline(__always)
    static func forChunks(workers: Int, count: Int, chunkSize: Int, counter: WorkCounter,
                          _ body: (Range<Int>, Int) -> Void) {
        let chunks = (count + chunkSize - 1) / chunkSize
        if workers <= 1 || chunks <= 1 {
            for c in 0..<chunks { body((c * chunkSize)..<min(count, (c + 1) * chunkSize), c) }
            return
        }
        counter.reset()
        run(workers: min(workers, chunks)) { _ in
            while true {
                let c = counter.next()
                if c >= chunks { break }
                body((c * chunkSize)..<min(count, (c + 1) * chunkSize), c)
            }
        }
    }

    /// The contiguous share of `0..<count` that worker `i` of `w` owns.
    @inline(__always)
    static func share(_ count: Int, _ i: Int, _ w: Int) -> Range<Int> {
        (i * count / w)..<((i + 1) * count / w)
    }
}

/// A shared counter workers use to claim items (whole islands) one at a time.
final class WorkCounter: @unchecked Sendable {
    private let value = Atomic<Int>(0)
    func reset() { value.store(0, ordering: .relaxed) }
    /// The next unclaimed index.
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// The processor count without Foundation (the engine does not import it).
enum ProcessInfoShim {
    static var activeProcessorCount: Int {
        #if canImport(Glibc)
        return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        return 1
        #endif
    }
}
