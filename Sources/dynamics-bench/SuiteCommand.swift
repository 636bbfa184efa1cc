import ArgumentParser
import BenchSupport
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench [suite] …`: the default scenes at small sizes, for 1 and 2 workers.
    struct Suite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs the default suite (the default when no subcommand is given).",
            discussion: "The sweep: \(SceneCatalog.defaultSuite.map { "\($0.scene) \($0.size)" }.joined(separator: ", ")) × threads (default 1,2); --shard K/N runs part K of it.")

        @OptionGroup var measure: MeasureOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try measure.check()
            let threads = try measure.threadList(default: [1, 2])
            let shard = try measure.parsedShard()
            var configs = Sweep.configurations(SceneCatalog.defaultSuite.map { ($0.scene, [$0.size]) }, threads: threads)
            if let shard { configs = shard.select(configs) }
            let ok = try SweepRunner.run(configs, steps: { _ in measure.steps ?? 300 }, measure: measure,
                                         output: output, shard: shard, command: commandLineText)
            if !ok { throw ExitCode(1) }
        }
    }
}
