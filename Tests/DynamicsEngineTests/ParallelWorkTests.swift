import Testing
import Synchronization
@testable import DynamicsEngine

/// `ParallelWork.forEach` and `forEachClaimed`: every index exactly once, whatever the worker
/// count, also when a loop runs inside another (the pool is busy: the inner one falls back to
/// Dispatch).
@Suite("ParallelWork.forEach")
struct ParallelWorkTests {
    /// Runs `loop` over counts 0, 1, 7 and 1 000 with a hit counter per index, and expects
    /// every index hit exactly once.
    static func expectEveryIndexOnce(workers: Int, _ loop: (Int, UnsafeMutableBufferPointer<Int>) -> Void) {
        for count in [0, 1, 7, 1000] {
            let hits = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(count, 1))
            hits.initialize(repeating: 0)
            defer { hits.deallocate() }
            loop(count, hits)
            #expect(hits.prefix(count).allSatisfy { $0 == 1 }, "\(workers) workers, \(count) items")
        }
    }

    @Test("a world steps on its workers only when its bodies, contacts and joints reach StepOptions.minWorkForParallel")
    func smallWorldsStayOnOneWorker() throws {
        let w = World(gravity: Vec2(0, 1000))
        w.workerCount = 2
        try TestWorld.ground(w, top: 0, width: 100_000)
        // 2 000 boxes side by side on the ground: about 4 000 with their contacts, one worker.
        for k in 0..<2000 { try TestWorld.box(w, at: Vec2(Float(k - 1000) * 45, -20), size: Vec2(40, 40)) }
        w.step()
        #expect(w.bodyCount + w.contacts.count + w.jointCount < w.options.minWorkForParallel)
        w.startStepContext(dt: 1.0 / 60)
        #expect(w.stepContext.workers == 1)
        // 3 000 more, each jointed to the next: past the threshold, both workers.
        var last: BodyHandle? = nil
        for k in 0..<3000 {
            let b = try TestWorld.box(w, at: Vec2(Float(k - 1500) * 30, -120), size: Vec2(20, 20))
            if let a = last { w.createJoint(JointDef(type: .distance, bodyA: a, bodyB: b)) }
            last = b
        }
        w.step()
        #expect(w.bodyCount + w.contacts.count + w.jointCount >= w.options.minWorkForParallel)
        w.startStepContext(dt: 1.0 / 60)
        #expect(w.stepContext.workers == 2)
    }

    @Test("every index once, for 1, 2, 3 and 8 workers and counts 0, 1, 7 and 1 000", arguments: [1, 2, 3, 8])
    func everyIndexOnce(workers: Int) {
        Self.expectEveryIndexOnce(workers: workers) { count, hits in
            ParallelWork.forEach(count, workers: workers) { i in hits[i] += 1 }
        }
    }

    /// The allocation-free form: a work value instead of a closure.
    struct Mark: IndexedWork, @unchecked Sendable {
        let hits: UnsafeMutableBufferPointer<Int>
        func perform(_ index: Int) { hits[index] += 1 }
    }

    @Test("an IndexedWork value: every index once, for 1, 2, 3 and 8 workers", arguments: [1, 2, 3, 8])
    func workValue(workers: Int) {
        Self.expectEveryIndexOnce(workers: workers) { count, hits in
            ParallelWork.forEach(count, workers: workers, Mark(hits: hits))
        }
    }

    @Test("claimed items: every index once, for 1, 2, 3 and 8 workers", arguments: [1, 2, 3, 8])
    func claimed(workers: Int) {
        Self.expectEveryIndexOnce(workers: workers) { count, hits in
            ParallelWork.forEachClaimed(count, workers: workers, Mark(hits: hits))
        }
    }

    /// Records the order of the items it runs.
    final class Order: IndexedWork, @unchecked Sendable {
        var seen: [Int] = []
        func perform(_ index: Int) { seen.append(index) }
    }

    @Test("claimed items with one worker run in index order on the calling thread")
    func claimedOneWorker() {
        let order = Order()
        ParallelWork.forEachClaimed(9, workers: 1, order)
        #expect(order.seen == Array(0..<9))
    }

    /// Work that does nothing (so only the loop's own checks can stop it).
    struct Idle: IndexedWork { func perform(_ index: Int) {} }

    @Test("no worker, or a negative count, is a precondition failure for both loops")
    func badArguments() async {
        await #expect(processExitsWith: .failure) { ParallelWork.forEach(3, workers: 0) { _ in } }
        await #expect(processExitsWith: .failure) { ParallelWork.forEach(-1, workers: 2) { _ in } }
        await #expect(processExitsWith: .failure) { ParallelWork.forEachClaimed(3, workers: 0, Idle()) }
        await #expect(processExitsWith: .failure) { ParallelWork.forEachClaimed(-1, workers: 2, Idle()) }
    }

    @Test("a loop inside a loop visits every pair once")
    func nested() {
        let total = Atomic<Int>(0)
        let hits = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64 * 32)
        hits.initialize(repeating: 0)
        defer { hits.deallocate() }
        ParallelWork.forEach(64, workers: 2) { i in
            ParallelWork.forEach(32, workers: 2) { j in
                hits[i * 32 + j] += 1
                total.add(1, ordering: .relaxed)
            }
        }
        #expect(total.load(ordering: .relaxed) == 64 * 32)
        #expect(hits.allSatisfy { $0 == 1 })
    }
}
