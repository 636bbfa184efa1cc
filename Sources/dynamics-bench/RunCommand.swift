import ArgumentParser
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench run <scene> [--items N] [--steps S] [--threads T] [--format table|json]
    /// [--seed X] [--warmup W]`
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Builds one scene, steps it and reports throughput and a sanity check.",
            discussion: "Scenes: \(SceneCatalog.names.joined(separator: ", ")). See `dynamics-bench list`."
        )

        @Argument(help: "Scene name (see `dynamics-bench list`).")
        var scene: String

        @Option(name: .long, parsing: .unconditional,
                help: "The scene's size parameter (default: the scene's headline size).")
        var items: Int?

        @Option(name: .long, parsing: .unconditional, help: "Timed steps of 1/60 s (default: the scene's, 600).")
        var steps: Int?

        @Option(name: .long, parsing: .unconditional, help: "Worker threads (World.workerCount).")
        var threads: Int = 1

        @Option(name: .long, help: "Output format: table or json.")
        var format: OutputFormat = .table

        @Option(name: .long, parsing: .unconditional, help: "Seed for scenes that use randomness.")
        var seed: UInt64 = 0

        @Option(name: .long, parsing: .unconditional, help: "Untimed steps before the timed loop.")
        var warmup: Int = 0

        func validate() throws {
            guard let s = SceneCatalog.named(scene) else {
                throw ValidationError(String(describing: SceneError.unknownScene(scene)))
            }
            if let items {
                try requirePositive(items, "--items")
                guard items <= s.maximumSize else {
                    throw ValidationError("--items for '\(s.name)' must be at most \(s.maximumSize) (got \(items))")
                }
            }
            if let steps { try requirePositive(steps, "--steps") }
            try requirePositive(threads, "--threads")
            guard warmup >= 0 else { throw ValidationError("--warmup must not be negative (got \(warmup))") }
        }

        func run() throws {
            let s = try SceneCatalog.scene(named: scene)
            let options = RunOptions(size: items ?? s.defaultSize, steps: steps ?? s.stepsDefault,
                                     threads: threads, seed: seed, warmup: warmup)
            let result = try BenchRunner.run(s, options)
            switch format {
            case .json: print(try result.json())
            case .table: print(ResultTable.render([result]))
            }
            if !result.passed { throw ExitCode(1) }
        }
    }
}
