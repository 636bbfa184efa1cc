import ArgumentParser
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench [suite] [--steps S] [--threads T] [--format table|json]`: the default
    /// scenes at small sizes, one after the other.
    struct Suite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs the default suite (the default when no subcommand is given).")

        @Option(name: .long, parsing: .unconditional, help: "Timed steps per scene.")
        var steps: Int = 300

        @Option(name: .long, parsing: .unconditional, help: "Worker threads (World.workerCount).")
        var threads: Int = 1

        @Option(name: .long, help: "Output format: table, or json (one JSON object per line).")
        var format: OutputFormat = .table

        func validate() throws {
            try requirePositive(steps, "--steps")
            try requirePositive(threads, "--threads")
        }

        func run() throws {
            var results: [BenchResult] = []
            for entry in SceneCatalog.defaultSuite {
                let scene = try SceneCatalog.scene(named: entry.scene)
                let options = RunOptions(size: entry.size, steps: steps, threads: threads, seed: 0, warmup: 0)
                let result = try BenchRunner.run(scene, options)
                results.append(result)
                if format == .json { print(try result.json()) }
            }
            if format == .table { print(ResultTable.render(results)) }
            if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
        }
    }
}
