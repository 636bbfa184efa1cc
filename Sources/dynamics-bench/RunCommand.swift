import ArgumentParser
import BenchSupport
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench run <scene> [--items N[,N…]] [--steps S] [--threads T[,T…]] [--repeat R]
    /// [--warmup W] [--seed X] [--shard K/N] [--format table|json|csv] [--out FILE] [--quiet]
    /// [--checkpoint-every N --checkpoint-dir DIR] [--resume FILE] [--state-digest]`
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Builds one scene, steps it and reports throughput, memory and a sanity check.",
            discussion: """
                Scenes: \(SceneCatalog.names.joined(separator: ", ")). See `dynamics-bench list`. \
                Lists in --items and --threads sweep every combination (scene × items × threads); \
                --shard K/N runs part K of that sweep.
                """
        )

        @Argument(help: "Scene name (see `dynamics-bench list`).")
        var scene: String

        @Option(name: .long, parsing: .unconditional,
                help: "The scene's size parameter, or a comma-separated list (default: the scene's headline size).")
        var items: String?

        @OptionGroup var measure: MeasureOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var checkpoints: CheckpointOptions

        func run() throws {
            let s = try SceneCatalog.scene(named: scene)
            try measure.check()
            let sizes = try items.map { try BenchArguments.positiveList($0, option: "--items") } ?? [s.defaultSize]
            for n in sizes where n > s.maximumSize {
                throw BenchUsageError("--items for '\(s.name)' must be at most \(s.maximumSize) (got \(n))")
            }
            let plan = try checkpoints.plan(sizes: sizes)
            if let info = plan?.resumeInfo {
                guard info.scene == s.name, info.size == sizes[0], info.seed == measure.seed else {
                    throw BenchUsageError("--resume: the checkpoint is of \(info.scene) --items \(info.size) --seed \(info.seed), "
                                          + "not of \(s.name) --items \(sizes[0]) --seed \(measure.seed)")
                }
            }
            let threads = try measure.threadList(default: [1])
            let shard = try measure.parsedShard()
            var configs = Sweep.configurations([(s.name, sizes)], threads: threads)
            if let shard { configs = shard.select(configs) }
            let ok = try SweepRunner.run(configs, steps: { measure.steps ?? $0.stepsDefault }, measure: measure,
                                         output: output, shard: shard, command: commandLineText,
                                         checkpoints: plan)
            if !ok { throw ExitCode(1) }
        }
    }
}
