import ArgumentParser
import BenchSupport
import DynamicsFuzzing
import Foundation

extension DynamicsBench {
    /// `dynamics-bench fuzz [--worlds N] [--seed S] [--minutes M] [--steps T] [--sleep]
    /// [--sleep-fraction F] [--replay WORLDSEED] [--verbose] [--keep-going]`: random worlds
    /// through the `DynamicsEngine` API.
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
                so the N-worker run really splits its work. A share of the worlds \
                (--sleep-fraction, default 0.15; --sleep: all of them) are sleep-heavy: piles, \
                stacks and chains that fall asleep, then are kicked, teleported, jointed, cut, \
                added to, snapshotted and restored while asleep; each runs with the shortcut \
                steps of worlds asleep and at rest (on 1 and on N workers) beside a twin taking \
                every step in full, and the three must stay bit-identical; awakeBodyCount must \
                count the awake bodies, and sleeping bodies must not move. Worlds derive their \
                own seeds from --seed, so a failing one replays alone: --replay WORLDSEED \
                --verbose prints every call (a sleep-heavy world's replay adds --sleep). A crash \
                prints the replay line before the process dies. Exit status 1 on any violation.
                """
        )

        @Option(help: "How many worlds (default 2000, or no limit with --minutes).")
        var worlds: Int?

        @Option(help: "Steps of 1/60 s per world (default \(EngineFuzzer.Options.defaultSteps), sleep-heavy worlds \(EngineFuzzer.Options.defaultSleepSteps)).")
        var steps: Int?

        @Flag(help: "Only sleep-heavy worlds (with --replay: the world is a sleep-heavy one).")
        var sleep = false

        @Option(help: "The share of sleep-heavy worlds in a run (0 to 1; 0: none).")
        var sleepFraction: Double = 0.15

        @Option(help: "Stop a world after this many seconds of wall time (a warning listing its seed; 0: no limit).")
        var worldSeconds: Double = 20

        @OptionGroup var fuzz: FuzzRunOptions

        func run() throws {
            guard sleepFraction >= 0 && sleepFraction <= 1 else { throw BenchUsageError("--sleep-fraction must be from 0 to 1 (got \(sleepFraction))") }
            let limit = try fuzz.start(count: worlds, "--worlds", perCase: steps ?? EngineFuzzer.Options.defaultSteps, "--steps")

            let replaySteps = steps ?? (sleep ? EngineFuzzer.Options.defaultSleepSteps : EngineFuzzer.Options.defaultSteps)
            if let s = try fuzz.replaySeed("fuzz", unit: sleep ? "sleep-heavy world" : "world", with: "--steps \(replaySteps)") {
                let result = EngineFuzzer.runWorld(seed: s, steps: replaySteps, sleep: sleep, log: fuzz.callLog)
                let warnings = result.warnings.sorted(by: { $0.key < $1.key }).map { "warning: \($0.key) ×\($0.value)" }
                var notes = warnings + ["continuous hits: \(result.continuousHits), most bodies: \(result.maxBodies), joints made: \(result.jointsMade)"]
                if result.isSleep {
                    notes.append("asleep steps: \(result.asleepSteps), steps ending all asleep: \(result.allAsleepSteps), events: \(result.events), snapshots restored: \(result.restores)")
                }
                try FuzzRunOptions.endReplay(violations: result.violations, notes: notes, summary: "worlds: 1, steps: \(result.steps)")
                return
            }

            let fraction = sleep ? 1 : sleepFraction
            let mixedSteps = steps ?? EngineFuzzer.Options.defaultSteps, sleepSteps = steps ?? EngineFuzzer.Options.defaultSleepSteps
            let each = fraction >= 1 ? "sleep-heavy, \(sleepSteps) steps each"
                : fraction > 0 ? "\(mixedSteps) steps each, \(Int((fraction * 100).rounded())) % sleep-heavy of \(sleepSteps) steps" : "\(mixedSteps) steps each"
            let runSeed = try fuzz.runSeed("fuzz", default: EngineFuzzer.Options.defaultSeed, limit: limit, unit: "world", each: each)
            var options = EngineFuzzer.Options(seed: runSeed, worlds: limit, steps: mixedSteps, minutes: fuzz.minutes,
                                               verbose: fuzz.verbose, progressInterval: 5, log: { say($0) })
            options.sleepFraction = fraction
            options.sleepSteps = sleepSteps
            options.isolate = fuzz.isolate
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
                FuzzRunOptions.sayViolations(firsts: report.distinctViolations.map { "\($0.kind): \($0.message) [step \($0.step)]\n    replay: \($0.replayCommand)" },
                                             kinds: report.violations.map { "\($0.kind)" })
                for (kind, vs) in Dictionary(grouping: report.violations, by: \.kind).sorted(by: { $0.key < $1.key }) {
                    var seeds: [UInt64] = []
                    for v in vs where !seeds.contains(v.worldSeed) && seeds.count < 8 { seeds.append(v.worldSeed) }
                    let worlds = Set(vs.map(\.worldSeed)).count
                    say("  \(kind): \(vs.count) in \(worlds) worlds, e.g. " + seeds.map { "0x" + String($0, radix: 16) }.joined(separator: " "))
                }
            }
            say(String(format: "(%d failing worlds, %d crowd worlds, %d joints made, %d continuous hits, %.1f s)",
                       report.failingWorlds, report.crowdWorlds, report.jointsMade, report.continuousHits, report.seconds))
            if report.sleepWorlds > 0 {
                say("(sleep-heavy: \(report.sleepWorlds) worlds, \(report.sleepSteps) steps, \(report.asleepSteps) taken asleep, \(report.allAsleepSteps) ending all asleep, \(report.events) events, \(report.restores) snapshots restored)")
            }
            say("worlds: \(report.worlds), steps: \(report.steps), violations: \(report.violations.count)")
            try FuzzRunOptions.exitStatus(violations: report.violations.count)
        }
    }
}
