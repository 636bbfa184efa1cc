import ArgumentParser
import BenchSupport
import DynamicsFuzzing
import Foundation

extension DynamicsBench {
    /// `dynamics-bench fuzz-api [--minutes M] [--sequences N] [--calls C] [--seed S]
    /// [--replay SEQSEED] [--verbose]`: the randomized "app life" test of the DynamicsKit API.
    struct FuzzAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fuzz-api",
            abstract: "Drives the DynamicsKit API with random app-like call sequences, checking invariants after every call.",
            discussion: """
                Each sequence sets up an animator with a few views and makes random but legal \
                calls (behaviors added, changed, removed; items joining and leaving; time \
                advanced in every way; changes from delegate calls and actions), checking after \
                every call that items are finite and kept inside their boundaries, that contact \
                calls balance, and more. Sequences derive their own seeds from --seed, so a \
                failing one replays alone: --replay SEQSEED --verbose prints every call. A crash \
                prints the replay line before the process dies. Exit status 1 on any violation.
                """
        )

        @Option(help: "How many sequences (default 2000, or no limit with --minutes).")
        var sequences: Int?

        @Option(help: "The mean number of calls per sequence.")
        var calls: Int = AppLifeFuzzer.Options.defaultCalls

        @OptionGroup var fuzz: FuzzRunOptions

        func run() throws {
            let limit = try fuzz.start(count: sequences, "--sequences", perCase: calls, "--calls")

            if let s = try fuzz.replaySeed("fuzz-api", unit: "sequence", with: "--calls \(calls)") {
                let result = AppLifeFuzzer.runSequenceCountingCalls(seed: s, calls: calls, log: fuzz.callLog)
                try FuzzRunOptions.endReplay(violations: result.violations, summary: "sequences: 1, calls: \(result.calls)")
                return
            }

            let runSeed = try fuzz.runSeed("fuzz-api", default: AppLifeFuzzer.Options.defaultSeed, limit: limit, unit: "sequence", each: "~\(calls) calls each")
            var options = AppLifeFuzzer.Options(seed: runSeed, sequences: limit, callsPerSequence: calls, minutes: fuzz.minutes,
                                                verbose: fuzz.verbose, progressInterval: 5, log: { say($0) })
            options.isolate = fuzz.isolate
            let report = AppLifeFuzzer.run(options)
            if !report.violations.isEmpty {
                FuzzRunOptions.sayViolations(firsts: report.distinctViolations.map { "\($0.kind): \($0.message)\n    replay: \($0.replayCommand)" },
                                             kinds: report.violations.map { "\($0.kind)" })
            }
            say(String(format: "sequences: %d, calls: %d, violations: %d (%d failing sequences, %.1f s)",
                         report.sequences, report.calls, report.violations.count, report.failingSequences, report.seconds))
            try FuzzRunOptions.exitStatus(violations: report.violations.count)
        }
    }
}
