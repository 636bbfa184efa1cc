import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One stage of a pipeline: `blocks` independent blocks of work, all of which finish before
/// the next stage starts. A stage of one block is serial.
struct Stage {
    /// What the stage does (interpreted by the pipeline's owner).
    var kind: UInt8
    /// A sub-kind (e.g. the constraint pass) and the island it belongs to.
    var pass: UInt8
    var island: Int32
    /// Items `begin ..< end`, cut into blocks of `blockSize` items.
    var begin, end, blockSize: Int32

    var blocks: Int { max(1, (Int(end - begin) + Int(blockSize) - 1) / Int(blockSize)) }

    /// The items of block `b`.
    @inline(__always) func items(_ b: Int) -> Range<Int> {
        let lo = Int(begin) + b * Int(blockSize)
        return lo..<min(Int(end), lo + Int(blockSize))
    }
}

/// What a pipeline runs: one block of one stage at a time.
protocol StageExecutor {
    func execute(_ stage: Stage, _ block: Int)
}

/// Runs a list of stages on up to `workers` threads in a single parallel pass.
///
/// Progress lives in one 64-bit atomic: (stage: 16 bits, blocks claimed: 24, blocks done: 24).
/// A thread claims a block of the current stage with a compare-and-swap, runs it, and counts
/// it done; the thread that completes a stage's last block advances the stage. A thread that
/// finds no block to claim waits only for blocks other threads have already claimed — threads
/// that are running — so a pass starting fewer threads than asked (neither the pool nor
/// `concurrentPerform` promises they all run at once) can never deadlock it. No lock is taken.
/// Blocks of one stage must be independent; the stage order is fixed, so the result does not
/// depend on the number of threads.
///
/// Which thread runs which block: a stage of at most `ownedBlocks` blocks (the solver's
/// colours and body stages) is claimed block by block in a second atomic, (stage: 16 bits, a
/// bit per claimed block: 48). Thread `t` of `w` starts at block `t · blocks / w` and takes the
/// free blocks from there on before any other, so that stage after stage each thread works on
/// the same part of an island — a colour's batches and the body stages run in body order — and
/// its bodies stay in its core's cache instead of moving between cores at every stage
/// (docs/architecture.md, "parallel step"). A thread done with its part
/// takes the blocks others have not reached. Longer stages hand out blocks in order from the
/// claimed count.
final class StagePipeline: @unchecked Sendable {
    private let state = Atomic<UInt64>(0)
    /// (stage << 48) | the blocks claimed of that stage, for stages of at most `ownedBlocks`.
    private let claims = Atomic<UInt64>(0)
    let stages = Column<Stage>()

    /// The most blocks a stage may have to be claimed by part (`claims`' bits).
    static let ownedBlocks = 48

    private static let fieldBits: UInt64 = 24
    private static let fieldMask: UInt64 = (1 << 24) - 1

    @inline(__always) private static func pack(stage: Int, claimed: Int, done: Int) -> UInt64 {
        (UInt64(stage) << 48) | (UInt64(claimed) << fieldBits) | UInt64(done)
    }

    /// Runs every stage; `executor.execute(stage, block)` does one block's work.
    func run<E: StageExecutor>(workers: Int, _ executor: E) {
        let count = stages.count
        guard count > 0 else { return }
        precondition(count < 1 << 16, "StagePipeline: too many stages")
        if workers <= 1 {
            for s in stages { for b in 0..<s.blocks { executor.execute(s, b) } }
            return
        }
        state.store(0, ordering: .releasing)
        claims.store(0, ordering: .releasing)
        Parallel.run(workers: workers, PipelinePass(pipeline: self, list: stages.view, executor: executor, workers: workers))
    }

    /// Every thread of the pass works through the stages; pass index `index` is the thread's
    /// part of each stage.
    private struct PipelinePass<E: StageExecutor>: PoolTask {
        let pipeline: StagePipeline
        let list: View<Stage>
        let executor: E
        let workers: Int
        func perform(_ index: Int) { pipeline.work(list, executor, part: index, of: workers) }
    }

    private func work<E: StageExecutor>(_ list: View<Stage>, _ executor: E, part: Int, of parts: Int) {
        let count = list.count
        var spins = 0
        while true {
            let v = state.load(ordering: .acquiring)
            let s = Int(v >> 48)
            if s >= count { return }
            let stage = list[s]
            let blocks = stage.blocks
            var block = -1
            if blocks <= Self.ownedBlocks {
                let c = claims.load(ordering: .acquiring)
                // (The stage has just advanced, and its claims are not yet reset: look again.)
                guard Int(c >> 48) == s else { continue }
                let free = ((1 << UInt64(blocks)) - 1) & ~c
                if free != 0 {
                    let start = part * blocks / parts
                    let ahead = free & ~((1 << UInt64(start)) - 1)
                    let b = (ahead != 0 ? ahead : free).trailingZeroBitCount
                    guard claims.compareExchange(expected: c, desired: c | (1 << UInt64(b)), ordering: .acquiringAndReleasing).exchanged else { continue }
                    block = b
                }
            } else {
                let claimed = Int((v >> Self.fieldBits) & Self.fieldMask)
                if claimed < blocks {
                    let next = v + (1 << Self.fieldBits)
                    guard state.compareExchange(expected: v, desired: next, ordering: .acquiringAndReleasing).exchanged else { continue }
                    block = claimed
                }
            }
            if block < 0 {
                // Everything claimed: wait for the running threads to finish this stage.
                spins += 1
                if spins > 32 { sched_yield() }
                continue
            }
            spins = 0
            executor.execute(stage, block)
            // Count the block done; the last one advances the stage (its claims first).
            let after = state.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            if Int(after & Self.fieldMask) == blocks {
                claims.store(UInt64(s + 1) << 48, ordering: .releasing)
                state.store(Self.pack(stage: s + 1, claimed: 0, done: 0), ordering: .releasing)
            }
        }
    }
}
