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

        @Option(help: "Run for this many minutes (new sequences stop starting after it).")
        var minutes: Double?

        @Option(help: "How many sequences (default 2000, or no limit with --minutes).")
        var sequences: Int?

        @Option(help: "The mean number of calls per sequence.")
        var calls: Int = AppLifeFuzzer.Options.defaultCalls

        @Option(help: "The run's seed (decimal or 0x-hex).")
        var seed: String?

        @Option(help: "Replay one sequence by its own seed (as printed with a violation).")
        var replay: String?

        @Flag(help: "Print every call (with --replay: of that sequence).")
        var verbose = false

        @Flag(help: "Run each sequence in a forked child, so a crash is reported and the run goes on (default with --minutes).")
        var keepGoing = false

        func run() throws {
            guard calls > 0 else { throw BenchUsageError("--calls must be positive (got \(calls))") }
            if let sequences, sequences <= 0 { throw BenchUsageError("--sequences must be positive (got \(sequences))") }
            if let minutes, !(minutes > 0 && minutes.isFinite) { throw BenchUsageError("--minutes must be positive (got \(minutes))") }
            CrashReplay.installHandlers()

            if let replay {
                let s = try Self.parseSeed(replay, option: "--replay")
                say("fuzz-api: replaying sequence \(replay) with --calls \(calls)")
                let log: ((String) -> Void)? = verbose ? { say($0) } : nil
                let result = AppLifeFuzzer.runSequenceCountingCalls(seed: s, calls: calls, log: log)
                for v in result.violations { say("violation: \(v)") }
                say("sequences: 1, calls: \(result.calls), violations: \(result.violations.count)")
                if !result.violations.isEmpty { throw ExitCode(1) }
                return
            }

            let runSeed = try seed.map { try Self.parseSeed($0, option: "--seed") } ?? AppLifeFuzzer.Options.defaultSeed
            let limit = sequences ?? (minutes == nil ? 2_000 : nil)
            say("fuzz-api: seed 0x\(String(runSeed, radix: 16)), \(limit.map { "\($0) sequences" } ?? "no sequence limit")\(minutes.map { ", \($0) min" } ?? ""), ~\(calls) calls each")
            var options = AppLifeFuzzer.Options(seed: runSeed, sequences: limit, callsPerSequence: calls, minutes: minutes,
                                                verbose: verbose, progressInterval: 5, log: { say($0) })
            options.isolate = keepGoing || minutes != nil
            let report = AppLifeFuzzer.run(options)
            if !report.violations.isEmpty {
                say("\nviolations (first of each kind):")
                for v in report.distinctViolations { say("  \(v.kind): \(v.message)\n    replay: \(v.replayCommand)") }
                let counts = Dictionary(grouping: report.violations, by: \.kind).mapValues(\.count)
                say("\nby kind: " + counts.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
            }
            say(String(format: "sequences: %d, calls: %d, violations: %d (%d failing sequences, %.1f s)",
                         report.sequences, report.calls, report.violations.count, report.failingSequences, report.seconds))
            if !report.violations.isEmpty { throw ExitCode(1) }
        }

        /// A seed in decimal or with a 0x prefix in hex.
        static func parseSeed(_ text: String, option: String) throws -> UInt64 {
            let t = text.trimmingCharacters(in: .whitespaces).lowercased()
            let value = t.hasPrefix("0x") ? UInt64(t.dropFirst(2).replacingOccurrences(of: "_", with: ""), radix: 16) : UInt64(t)
            guard let value else { throw BenchUsageError("\(option) must be a 64-bit number, decimal or 0x-hex (got '\(text)')") }
            return value
        }
    }
}
