import ArgumentParser
import BenchSupport
import DynamicsFuzzing
import Foundation

extension DynamicsBench {
    /// `dynamics-bench fuzz [--worlds N] [--seed S] [--minutes M] [--steps T] [--replay WORLDSEED]
    /// [--verbose] [--keep-going]`: random worlds through the `DynamicsEngine` API.
    struct Fuzz: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fuzz",
            abstract: "Steps random engine worlds in a closed static container, checking invariants after every step.",
            discussion: """
                Each world is a container of four static boxes 200 pt thick holding random \
                boxes, circles, ellipses and convex polygons (1–600 pt, densities 0.1–10, \
                friction 0–1.5, restitution 0–1, a few kinematic bodies) and joints of every \
                type; between steps bodies are created, destroyed, teleported, kicked and \
                launched at 2 000–20 000 pt/s, and sleep is switched on and off. Each world runs \
                on 1 worker and on N (2–8) in lockstep. After every step: all state finite, no \
                dynamic centre of mass beyond a wall (inside a wall is a warning), every handle \
                valid, the two runs bit-identical. A few "crowd" worlds hold over 1 000 bodies, \
                so the N-worker run really splits its work. Worlds derive their own seeds from \
                --seed, so a failing one replays alone: --replay WORLDSEED --verbose prints \
                every call. A crash prints the replay line before the process dies. Exit status \
                1 on any violation.
                """
        )

        @Option(help: "Run for this many minutes (new worlds stop starting after it).")
        var minutes: Double?

        @Option(help: "How many worlds (default 2000, or no limit with --minutes).")
        var worlds: Int?

        @Option(help: "Steps of 1/60 s per world.")
        var steps: Int = EngineFuzzer.Options.defaultSteps

        @Option(help: "The run's seed (decimal or 0x-hex).")
        var seed: String?

        @Option(help: "Replay one world by its own seed (as printed with a violation).")
        var replay: String?

        @Option(help: "Stop a world after this many seconds of wall time (a warning listing its seed; 0: no limit).")
        var worldSeconds: Double = 20

        @Flag(help: "Print every call (with --replay: of that world).")
        var verbose = false

        @Flag(help: "Run each world in a forked child, so a crash is reported and the run goes on (default with --minutes).")
        var keepGoing = false

        func run() throws {
            guard steps > 0 else { throw BenchUsageError("--steps must be positive (got \(steps))") }
            if let worlds, worlds <= 0 { throw BenchUsageError("--worlds must be positive (got \(worlds))") }
            if let minutes, !(minutes > 0 && minutes.isFinite) { throw BenchUsageError("--minutes must be positive (got \(minutes))") }
            CrashReplay.installHandlers()

            if let replay {
                let s = try FuzzAPI.parseSeed(replay, option: "--replay")
                say("fuzz: replaying world \(replay) with --steps \(steps)")
                let log: ((String) -> Void)? = verbose ? { say($0) } : nil
                let result = EngineFuzzer.runWorld(seed: s, steps: steps, log: log)
                for v in result.violations { say("violation: \(v)") }
                for (k, n) in result.warnings.sorted(by: { $0.key < $1.key }) { say("warning: \(k) ×\(n)") }
                say("continuous hits: \(result.continuousHits), most bodies: \(result.maxBodies), joints made: \(result.jointsMade)")
                say("worlds: 1, steps: \(result.steps), violations: \(result.violations.count)")
                if !result.violations.isEmpty { throw ExitCode(1) }
                return
            }

            let runSeed = try seed.map { try FuzzAPI.parseSeed($0, option: "--seed") } ?? EngineFuzzer.Options.defaultSeed
            let limit = worlds ?? (minutes == nil ? 2_000 : nil)
            say("fuzz: seed 0x\(String(runSeed, radix: 16)), \(limit.map { "\($0) worlds" } ?? "no world limit")\(minutes.map { ", \($0) min" } ?? ""), \(steps) steps each")
            var options = EngineFuzzer.Options(seed: runSeed, worlds: limit, steps: steps, minutes: minutes,
                                               verbose: verbose, progressInterval: 5, log: { say($0) })
            options.isolate = keepGoing || minutes != nil
            options.worldTimeLimit = worldSeconds > 0 ? worldSeconds : nil
            let report = EngineFuzzer.run(options)
            if !report.warnings.isEmpty {
                say("\nwarnings (not violations):")
                for (k, n) in report.warnings.sorted(by: { $0.key < $1.key }) {
                    let seeds = (report.warningSeeds[k] ?? []).map { "0x" + String($0, radix: 16) }.joined(separator: " ")
                    say("  \(k): \(n) in \(report.warningWorlds[k] ?? 0) worlds (e.g. \(seeds))")
                }
            }
            if !report.violations.isEmpty {
                say("\nviolations (first of each kind):")
                for v in report.distinctViolations { say("  \(v.kind): \(v.message) [step \(v.step)]\n    replay: \(v.replayCommand)") }
                let counts = Dictionary(grouping: report.violations, by: \.kind).mapValues(\.count)
                say("\nby kind: " + counts.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
                for (kind, vs) in Dictionary(grouping: report.violations, by: \.kind).sorted(by: { $0.key < $1.key }) {
                    var seeds: [UInt64] = []
                    for v in vs where !seeds.contains(v.worldSeed) && seeds.count < 8 { seeds.append(v.worldSeed) }
                    let worlds = Set(vs.map(\.worldSeed)).count
                    say("  \(kind): \(vs.count) in \(worlds) worlds, e.g. " + seeds.map { "0x" + String($0, radix: 16) }.joined(separator: " "))
                }
            }
            say(String(format: "(%d failing worlds, %d crowd worlds, %d joints made, %d continuous hits, %.1f s)",
                       report.failingWorlds, report.crowdWorlds, report.jointsMade, report.continuousHits, report.seconds))
            say("worlds: \(report.worlds), steps: \(report.steps), violations: \(report.violations.count)")
            if !report.violations.isEmpty { throw ExitCode(1) }
        }
    }
}
