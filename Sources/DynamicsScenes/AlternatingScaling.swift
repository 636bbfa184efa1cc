/// Worker counts compared step by step on one scene instance (`dynamics-bench scaling`): the
/// steps run in blocks, each block at one worker count, the counts taking turns block by block
/// (in rounds of one block per count, each round starting one count further), so a machine
/// whose speed drifts — a
/// shared host, another guest on the same cores — slows every count alike. Comparing separate
/// runs on such a machine mixes its changing speed into the ratio; here only what the counts
/// themselves cost differs. The first step of each block (right after the count changed: its
/// memory was left in the other processors' caches by the last block) is not counted.
///
/// Valid because a step's result does not depend on the worker count (the engine's stages and
/// the component scenes' shares are split so that it cannot): the instance moves exactly as it
/// would at any one count.
public enum AlternatingScaling {
    /// One worker count's steps.
    public struct Result: Sendable, Equatable {
        /// The worker count.
        public var workers: Int
        /// Steps timed (all blocks at this count, without each block's first step).
        public var steps: Int
        /// Mean time of a step (µs): the throughput figure.
        public var meanMicroseconds: Double
        /// Median time of a step (µs).
        public var medianMicroseconds: Double
        /// The first count's mean step time over this count's: how much faster it steps.
        public var speedUp: Double
    }

    /// Runs `blocks` blocks of `blockSteps` steps, in rounds of one block per worker count,
    /// round r taking the counts in the order of `workers` rotated by r. `setWorkers` is called
    /// before each block, `step` takes one step, `now` reads a clock in seconds.
    /// - Precondition: `workers` not empty, `blocks` ≥ `workers.count`, `blockSteps` ≥ 2.
    public static func measure(workers: [Int], blocks: Int, blockSteps: Int,
                               setWorkers: (Int) -> Void, step: () -> Void, now: () -> Double) -> [Result] {
        precondition(!workers.isEmpty && blocks >= workers.count && blockSteps >= 2,
                     "AlternatingScaling.measure: at least one worker count, a block per count and two steps a block")
        var samples = [[Double]](repeating: [], count: workers.count)
        for b in 0..<blocks {
            let round = b / workers.count, turn = b % workers.count
            let k = (turn + round) % workers.count
            setWorkers(workers[k])
            for s in 0..<blockSteps {
                let t0 = now()
                step()
                let t = now() - t0
                if s > 0 { samples[k].append(t) }
            }
        }
        let means = samples.map { $0.isEmpty ? 0 : $0.reduce(0, +) / Double($0.count) }
        return workers.indices.map { k in
            let sorted = samples[k].sorted()
            let n = sorted.count
            let median = n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
            return Result(workers: workers[k], steps: n, meanMicroseconds: means[k] * 1e6, medianMicroseconds: median * 1e6,
                          speedUp: means[k] > 0 ? means[0] / means[k] : 0)
        }
    }
}
