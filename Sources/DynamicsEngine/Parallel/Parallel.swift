import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A parallel pass's work on one range of items: a worker's share (`forRanges`) or a claimed
/// chunk (`forChunks`). Passes are small structs of views rather than closures: a
/// struct is handed to the helper threads by address, where a closure shared with another
/// thread would need its context on the heap — one allocation per pass.
protocol RangeTask {
    /// Does the work of `range`, the `part`-th range of the pass (the share's worker index
    /// or the chunk index; a task's result may depend on `part` only through its range).
    func run(_ range: Range<Int>, part: Int)
}

/// Work splitting for the step. Every parallel stage writes disjoint memory (its own contact
/// range, body range or colour batch range), so the results do not depend on how the work is
/// split; with one worker nothing is dispatched at all.
enum Parallel {
    /// Runs `task` over `0..<count` split into `workers` contiguous ranges (fewer when there
    /// is less than `minPerWorker` work each). The calling thread takes part.
    @inline(__always)
    static func forRanges<T: RangeTask>(workers: Int, count: Int, minPerWorker: Int, _ task: T) {
        let w = min(workers, count / max(1, minPerWorker))
        if w <= 1 {
            if count > 0 { task.run(0..<count, part: 0) }
            return
        }
        run(workers: w, SplitRanges(task: task, count: count, parts: w))
    }

    /// Runs `task.perform(i)` for every `i` in `0..<workers`, on `workers` threads (the caller
    /// among them), and returns when all are done: on the engine's `WorkerPool`, or with
    /// `concurrentPerform` when the pool is busy (another world stepping at the same moment,
    /// or a pass inside a pass). Tasks hand each index disjoint memory (stated at each call
    /// site), which the compiler cannot see.
    @inline(__always)
    static func run<T: PoolTask>(workers: Int, _ task: T) {
        claim(count: workers, workers: workers, task)
    }

    /// Runs `task.perform(i)` for every `i` in `0..<count` on up to `workers` threads (the
    /// caller among them), and returns when all are done; with one worker or one index, a plain
    /// loop. Each thread runs its own contiguous share of the indices first and then takes the
    /// indices the others have not reached (`WorkerPool`): the same index tends to run on the
    /// same thread pass after pass (its data stays in that core's cache), and a slowed thread
    /// runs fewer.
    @inline(__always)
    static func claim<T: PoolTask>(count: Int, workers: Int, _ task: T) {
        if workers <= 1 || count <= 1 {
            for i in 0..<count { task.perform(i) }
            return
        }
        if WorkerPool.shared.run(count: count, workers: workers, task) { return }
        nonisolated(unsafe) let work = task
        DispatchQueue.concurrentPerform(iterations: count) { i in work.perform(i) }
    }

    /// Runs `task` over `0..<count` cut into chunks of `chunkSize`, shared out as `claim` shares
    /// its indices. What a chunk computes must depend only on its range,
    /// never on which worker runs it; tasks that collect output keep one buffer per chunk and
    /// their callers combine them in chunk order.
    @inline(__always)
    static func forChunks<T: RangeTask>(workers: Int, count: Int, chunkSize: Int, _ task: T) {
        let chunks = (count + chunkSize - 1) / chunkSize
        claim(count: chunks, workers: workers, Chunks(task: task, count: count, chunkSize: chunkSize))
    }

    /// The contiguous share of `0..<count` that worker `i` of `w` owns.
    @inline(__always)
    static func share(_ count: Int, _ i: Int, _ w: Int) -> Range<Int> {
        (i * count / w)..<((i + 1) * count / w)
    }
}

/// `forRanges`: index `i` runs the `i`-th contiguous share.
struct SplitRanges<T: RangeTask>: PoolTask {
    let task: T
    let count: Int
    let parts: Int
    func perform(_ index: Int) { task.run(Parallel.share(count, index, parts), part: index) }
}

/// `forChunks`: index `c` runs chunk `c`.
struct Chunks<T: RangeTask>: PoolTask {
    let task: T
    let count: Int
    let chunkSize: Int
    func perform(_ c: Int) { task.run((c * chunkSize)..<min(count, (c + 1) * chunkSize), part: c) }
}

/// One output buffer per chunk of a pass (chunk c, run by one worker, touches only buffer c);
/// the caller combines them in chunk order.
struct ChunkBuffers<T>: @unchecked Sendable {
    let buffers: MutableView<[T]>
    init(_ buffers: MutableView<[T]>) { self.buffers = buffers }

    /// Runs `body` on chunk `c`'s buffer moved into a local and moves it back: appending
    /// through the shared array of buffers would write its (shared) cache line on every
    /// append, and the workers would wait on each other for it. A move out and back, not a
    /// swap with an empty array: a swap would leave the empty array in the local, released at
    /// the end, a runtime call per chunk.
    @inline(__always)
    func withBuffer(_ c: Int, _ body: (inout [T]) -> Void) {
        let slot = buffers.pointer(at: c)
        var local = slot.move()
        body(&local)
        slot.initialize(to: consume local)
    }
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

/// One index's share of a parallel loop (`ParallelWork.forEach(_:workers:_:)` with a work
/// value): a struct rather than a closure, so handing it to the worker threads allocates
/// nothing.
public protocol IndexedWork {
    /// Does the work of item `index`. Called concurrently for different indices: touch only
    /// what belongs to `index`.
    func perform(_ index: Int)
}

/// Parallel loops on the engine's worker threads, for work beside the engine's own (for
/// example many independent animators stepped together).
public enum ParallelWork {
    /// Runs `work.perform(i)` for every `i` in `0..<count`, split into `workers` contiguous
    /// ranges that run at once on the engine's worker pool (the calling thread takes part), and
    /// returns when all are done. With one worker, or fewer than two items, it is a plain loop.
    ///
    /// Nothing is allocated while the pool is free; when it is busy (a world stepping on another
    /// thread, or a loop inside a loop) the ranges run on `DispatchQueue.concurrentPerform`
    /// instead.
    /// - Precondition: `workers` ≥ 1 and `count` ≥ 0.
    public static func forEach<W: IndexedWork>(_ count: Int, workers: Int, _ work: W) {
        precondition(workers >= 1 && count >= 0, "ParallelWork.forEach: workers must be at least 1 and count not negative")
        let w = min(workers, count)
        if w <= 1 {
            for i in 0..<count { work.perform(i) }
            return
        }
        Parallel.run(workers: w, IndexShares(work: work, count: count, parts: w))
    }

    /// Runs `work.perform(i)` for every `i` in `0..<count` on up to `workers` threads of the
    /// engine's worker pool (the calling thread takes part), and returns when all are done.
    /// Each thread starts on its own contiguous range of the items and, done with it, takes the
    /// items other threads have not reached. For items of uneven cost, or on a machine where
    /// other programs take a processor now and then: a slowed thread runs fewer items instead
    /// of holding the others up at the end (`forEach` gives each thread its fixed contiguous
    /// range and nothing more). Which thread runs an item may change from call to call; with
    /// one worker, or fewer than two items, it is a plain loop in index order.
    ///
    /// Nothing is allocated while the pool is free; when it is busy the items run on
    /// `DispatchQueue.concurrentPerform` instead.
    /// - Precondition: `workers` ≥ 1 and `count` ≥ 0.
    public static func forEachClaimed<W: IndexedWork>(_ count: Int, workers: Int, _ work: W) {
        precondition(workers >= 1 && count >= 0, "ParallelWork.forEachClaimed: workers must be at least 1 and count not negative")
        Parallel.claim(count: count, workers: workers, ClaimedItems(work: work))
    }

    /// `forEach` with a closure: the same loop, but handing a closure to other threads costs
    /// one allocation per call when it runs in parallel (an `IndexedWork` value costs none).
    /// - Precondition: `workers` ≥ 1 and `count` ≥ 0.
    public static func forEach(_ count: Int, workers: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { work in forEach(count, workers: workers, ClosureWork(body: work)) }
    }
}

/// `ParallelWork.forEachClaimed`: index `i` is item `i`.
private struct ClaimedItems<W: IndexedWork>: PoolTask, @unchecked Sendable {
    let work: W
    func perform(_ i: Int) { work.perform(i) }
}

/// A closure as `IndexedWork`.
private struct ClosureWork: IndexedWork, @unchecked Sendable {
    let body: (Int) -> Void
    func perform(_ index: Int) { body(index) }
}

/// `ParallelWork.forEach`: index `i` runs the `i`-th contiguous share of the items.
private struct IndexShares<W: IndexedWork>: PoolTask, @unchecked Sendable {
    let work: W
    let count: Int
    let parts: Int
    func perform(_ i: Int) {
        for k in Parallel.share(count, i, parts) { work.perform(k) }
    }
}
