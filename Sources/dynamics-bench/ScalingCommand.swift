import ArgumentParser
import BenchSupport
import DynamicsScenes
import Foundation

extension DynamicsBench {
    /// `dynamics-bench scaling SCENE [--items N] [--threads 1,2] [--blocks B] [--block-steps S]`:
    /// worker counts compared step by step on one instance (`AlternatingScaling`).
    struct Scaling: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares worker counts step by step on one scene instance, the counts taking turns block by block.",
            discussion: """
                Builds one instance, takes --warmup steps at the first worker count, then --blocks \
                blocks of --block-steps steps, the worker counts taking turns block by block \
                (each round of one block per count starting one count further), so a machine whose \
                speed changes during the run slows every count alike. The first step of each block \
                is not counted. A step's result does not depend on the worker count, so the \
                instance moves as it would at any one count; its sanity check must pass (exit 1 \
                otherwise). Reported per count: steps timed, mean and median step time, and the \
                speed-up (the first count's mean step time over this count's).
                """)

        @Argument(help: "Scene name (see `dynamics-bench list`).") var scene: String
        @Option(help: "Scene size (default: the scene's default).") var items: Int?
        @Option(help: "Worker counts to compare, comma-separated; the first is the baseline.") var threads = "1,2"
        @Option(help: "Blocks (at least one per count).") var blocks = 60
        @Option(name: .customLong("block-steps"), help: "Steps per block (at least 2; the first is not counted).") var blockSteps = 10
        @Option(help: "Warm-up steps at the first count.") var warmup = 100
        @Option(help: "Scene seed.") var seed: UInt64 = 0
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            guard format == .table || format == .json else { throw BenchUsageError("--format must be table or json") }
            let counts = try BenchArguments.positiveList(threads, option: "--threads")
            guard blocks >= counts.count else { throw BenchUsageError("--blocks must be at least the number of worker counts (\(counts.count))") }
            guard blockSteps >= 2 else { throw BenchUsageError("--block-steps must be at least 2") }
            guard warmup >= 0 else { throw BenchUsageError("--warmup must not be negative") }
            let s = try SceneCatalog.scene(named: scene)
            let size = items ?? s.defaultSize
            let instance = try s.build(size: size, seed: seed)
            instance.workerCount = counts[0]
            for _ in 0..<warmup { instance.step() }
            let clock = ContinuousClock()
            let origin = clock.now
            let results = AlternatingScaling.measure(
                workers: counts, blocks: blocks, blockSteps: blockSteps,
                setWorkers: { instance.workerCount = $0 }, step: { instance.step() },
                now: { (clock.now - origin).seconds })
            let report = instance.sanity()
            if format == .json {
                let object: [String: Any] = [
                    "scene": scene, "items": size, "blocks": blocks, "block_steps": blockSteps, "warmup": warmup,
                    "passed": report.passed, "failures": report.failures,
                    "workers": results.map { r -> [String: Any] in
                        ["workers": r.workers, "steps": r.steps, "mean_us": r.meanMicroseconds,
                         "median_us": r.medianMicroseconds, "speed_up": r.speedUp]
                    },
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                func f(_ x: Double, _ d: Int = 1) -> String { String(format: "%.\(d)f", x) }
                print(TextTable.grid(header: ["workers", "steps", "mean µs/step", "median µs/step", "speed-up"],
                                     rows: results.map { [String($0.workers), String($0.steps), f($0.meanMicroseconds),
                                                          f($0.medianMicroseconds), f($0.speedUp, 3) + "×"] },
                                     rightAligned: [1, 2, 3, 4]))
                print("\(scene) \(size): \(blocks) blocks of \(blockSteps) steps after \(warmup) warm-up, worker counts taking turns; sanity \(report.passed ? "passed" : "FAILED: " + report.failures.joined(separator: "; "))")
            }
            if !report.passed { throw ExitCode(1) }
        }
    }
}
