import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import DynamicsEngine

/// Counts how many times each index of a pass ran (and how many passes ran inside a pass).
private final class Tally: @unchecked Sendable {
    final class Counter: Sendable { let value = Atomic<Int>(0) }
    let counts: [Counter]
    init(_ n: Int) { counts = (0..<n).map { _ in Counter() } }
    func hit(_ i: Int) { counts[i].value.wrappingAdd(1, ordering: .relaxed) }
    var values: [Int] { counts.map { $0.value.load(ordering: .relaxed) } }
}

private struct CountTask: PoolTask {
    let tally: Tally
    func perform(_ index: Int) { tally.hit(index) }
}

/// A pass whose every index starts a pass of its own (the pool is taken: the inner passes
/// must fall back to `concurrentPerform` and still run every index once).
private struct NestedTask: PoolTask {
    let outer: Tally
    let inner: Tally
    let innerWorkers: Int
    func perform(_ index: Int) {
        outer.hit(index)
        Parallel.run(workers: innerWorkers, CountTask(tally: inner))
    }
}

/// Records which thread ran each index, in the order each thread ran them.
private final class ThreadLog: @unchecked Sendable {
    let log = Mutex<[(thread: pthread_t, index: Int)]>([])
    func record(_ i: Int) { log.withLock { $0.append((pthread_self(), i)) } }
}

private struct LoggedTask: PoolTask {
    let log: ThreadLog
    func perform(_ index: Int) {
        // A little work, so that both threads take part.
        var x = 0
        for k in 0..<200 { x &+= k &* index }
        if x == 42 { print(x) }
        log.record(index)
    }
}

private struct RangeTally: RangeTask {
    let tally: Tally
    func run(_ range: Range<Int>, part: Int) { for i in range { tally.hit(i) } }
}

/// The engine's helper threads: every index of every pass runs exactly once, whoever runs it,
/// however the pool is shared — including when helpers have gone to sleep between passes,
/// when two threads start passes at once, and when a pass starts a pass.
@Suite("Worker pool", .serialized)
struct WorkerPoolTests {
    @Test("every index of every pass runs exactly once, for 2, 3, 8 and 70 workers",
          arguments: [2, 3, 8, 70])
    func everyIndexOnce(workers: Int) {
        let tally = Tally(workers)
        let passes = 300
        for _ in 0..<passes { Parallel.run(workers: workers, CountTask(tally: tally)) }
        #expect(tally.values == Array(repeating: passes, count: workers))
    }

    @Test("each thread runs its own share front to back, then takes the others' indices from their ends; every index once")
    func sharesFirst() {
        let count = 2000, workers = 2
        var checked = 0
        for _ in 0..<200 where checked < 20 {
            let log = ThreadLog()
            // On the pool itself: when another test's world holds it, the pass would fall back
            // to Dispatch, whose order is its own (that pass is not checked; others follow).
            guard WorkerPool.shared.run(count: count, workers: workers, LoggedTask(log: log)) else { usleep(1_000); continue }
            checked += 1
            let entries = log.log.withLock { $0 }
            #expect(entries.map(\.index).sorted() == Array(0..<count), "an index ran twice or not at all")
            // Per thread: a run of one share from its start, then indices of other shares, each
            // taken from the end of what was left (decreasing).
            var byThread: [[Int]] = []
            var threads: [pthread_t] = []
            for e in entries {
                if let t = threads.firstIndex(where: { pthread_equal($0, e.thread) != 0 }) { byThread[t].append(e.index) }
                else { threads.append(e.thread); byThread.append([e.index]) }
            }
            for list in byThread {
                let share = (0..<workers).map { Parallel.share(count, $0, workers) }.first { $0.contains(list[0]) }!
                #expect(list[0] == share.lowerBound, "a thread began at \(list[0]), not at the start of its share \(share)")
                let own = list.prefix { share.contains($0) }
                #expect(own.elementsEqual(share.lowerBound..<(share.lowerBound + own.count)), "a thread ran its share out of order")
                let taken = Array(list.dropFirst(own.count))
                #expect(zip(taken, taken.dropFirst()).allSatisfy { $0 > $1 }, "indices taken from another share were not taken from its end")
            }
        }
        #expect(checked > 0, "the pool was taken for every one of 200 passes")
    }

    @Test("passes after the helpers went to sleep still run every index once")
    func afterSleep() {
        let tally = Tally(2)
        for round in 1...4 {
            Parallel.run(workers: 2, CountTask(tally: tally))
            // Longer than a helper waits for the next pass (`WorkerPool.waitNanoseconds`): it
            // parks on its semaphore and must be woken.
            usleep(3_000)
            #expect(tally.values == [round, round])
        }
    }

    @Test("ranges and chunks cover every item once")
    func rangesAndChunks() {
        let n = 10_007
        let tally = Tally(n)
        Parallel.forRanges(workers: 3, count: n, minPerWorker: 1, RangeTally(tally: tally))
        Parallel.forChunks(workers: 3, count: n, chunkSize: 64, RangeTally(tally: tally))
        #expect(tally.values.allSatisfy { $0 == 2 })
    }

    @Test("claimed passes run every index once: fewer, as many and more indices than workers, none",
          arguments: [0, 1, 2, 5, 1_000])
    func claimedIndicesOnce(count: Int) {
        for workers in [1, 2, 3, 8] {
            let tally = Tally(count)
            for _ in 0..<50 { Parallel.claim(count: count, workers: workers, CountTask(tally: tally)) }
            #expect(tally.values == Array(repeating: 50, count: count), "\(workers) workers")
        }
    }

    @Test("a claimed pass inside a claimed pass falls back to Dispatch and runs every index once")
    func nestedClaimed() {
        let outer = Tally(40), inner = Tally(7)
        struct Outer: PoolTask {
            let outer: Tally, inner: Tally
            func perform(_ index: Int) {
                outer.hit(index)
                Parallel.claim(count: 7, workers: 2, CountTask(tally: inner))
            }
        }
        Parallel.claim(count: 40, workers: 2, Outer(outer: outer, inner: inner))
        #expect(outer.values == Array(repeating: 1, count: 40))
        #expect(inner.values == Array(repeating: 40, count: 7))
    }

    @Test("a pass started inside a pass falls back to Dispatch and runs every index once")
    func nested() {
        let outer = Tally(3), inner = Tally(4)
        for _ in 0..<20 { Parallel.run(workers: 3, NestedTask(outer: outer, inner: inner, innerWorkers: 4)) }
        #expect(outer.values == [20, 20, 20])
        #expect(inner.values == [60, 60, 60, 60])
    }

    @Test("passes started from several threads at once all complete, each index once")
    func concurrentOwners() {
        let threads = 4, passes = 200, workers = 3
        let tallies = (0..<threads).map { _ in Tally(workers) }
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for _ in 0..<passes { Parallel.run(workers: workers, CountTask(tally: tallies[t])) }
        }
        for t in tallies { #expect(t.values == Array(repeating: passes, count: workers)) }
    }
}
