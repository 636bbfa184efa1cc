import ArgumentParser
import BenchSupport
import DynamicsScenes
import Foundation

extension DynamicsBench {
    /// `dynamics-bench soak [--items N] [--steps N] [--churn RATE] [--sample-every N] [--warmup N]
    /// [--seed S] [--workers N] [--out FILE] [--plot FILE.svg]`: a long run of one world with churn,
    /// judged for flat memory, flat speed, finite state and nothing escaping.
    struct Soak: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "soak",
            abstract: "Steps one world with churn for a long time; checks that memory and steps/s stay flat and nothing turns NaN or escapes.",
            discussion: """
                The world (DynamicsScenes.SoakWorld): --items bodies (circles and boxes of 1 m, as \
                in mix) in pile's 60 m container closed by a lid, sleeping off; every simulated \
                second --churn of the bodies are destroyed and replaced by random boxes, circles, \
                ellipses and polygons dropped from under the lid. After every step every body \
                must be finite and inside the container (its centre not beyond a wall). Every \
                --sample-every steps a sample: jemalloc's stats.allocated (heap) and \
                stats.resident, steps per wall-clock second and per CPU second of the process, \
                bodies, contacts, bodies replaced.

                The verdict, over the samples after --warmup (docs/benchmarking.md, "Soak run"): heap and \
                resident memory each must not grow by more than --memory-tolerance of their \
                median (at least --memory-floor-kib): neither along a least-squares line \
                through the samples, nor from the largest of the first quarter of the samples to \
                the largest of the last quarter; and the median steps per CPU second of the last \
                quarter must be at least (1 − --speed-tolerance) × that of the first quarter.

                Exit status: 0 pass; 1 memory grew, speed dropped, a state turned non-finite or \
                a body escaped; 2 usage error; 3 jemalloc is not the allocator.
                """
        )

        @Option(parsing: .unconditional, help: "Dynamic bodies in the world (1…100000).")
        var items: Int = 1_000

        @Option(parsing: .unconditional, help: "Steps of 1/60 s.")
        var steps: Int = 1_000_000

        @Option(help: "Bodies replaced per simulated second, as a percentage (1%) or a fraction (0.01).")
        var churn: String = "1%"

        @Option(parsing: .unconditional, help: "Take a sample every N steps (default: steps / 200, at least 1).")
        var sampleEvery: Int?

        @Option(parsing: .unconditional, help: "Steps whose samples the verdict ignores (default: 10 % of --steps).")
        var warmup: Int?

        @Option(help: "The churn's seed (decimal or 0x-hex).")
        var seed: String = "0x50a4"

        @Option(parsing: .unconditional, help: "Worker threads (World.workerCount).")
        var workers: Int = 1

        @Option(help: "Write the samples and the verdict to FILE: JSON, or CSV (samples only) if FILE ends in .csv.")
        var out: String?

        @Option(help: "Write an SVG chart of memory and steps/s over the run to FILE.")
        var plot: String?

        @Option(help: "Memory growth allowed after warm-up, percent of the median.")
        var memoryTolerance: Double = 5

        @Option(help: "Memory growth always allowed after warm-up (KiB).")
        var memoryFloorKib: Int = 512

        @Option(help: "Slowdown allowed from the first quarter to the last, percent.")
        var speedTolerance: Double = 25

        @Flag(help: "Judge speed by wall-clock steps/s instead of steps per CPU second.")
        var wallClock = false

        @Option(help: "Run nothing: judge (and with --plot / --out, chart or convert) the samples of a JSON file an earlier --out wrote, by the tolerances given here; --warmup defaults to the file's.")
        var from: String?

        /// "1%" → 0.01, "0.01" → 0.01.
        static func parseChurn(_ text: String) throws -> Double {
            let t = text.trimmingCharacters(in: .whitespaces)
            let percent = t.hasSuffix("%")
            guard let v = Double(percent ? String(t.dropLast()) : t), v.isFinite, v >= 0 else {
                throw BenchUsageError("--churn must be a rate per simulated second like 1% or 0.01 (got '\(text)')")
            }
            let rate = percent ? v / 100 : v
            guard rate <= 100 else { throw BenchUsageError("--churn must be at most 10000% per second (got '\(text)')") }
            return rate
        }

        func run() throws {
            if let from { return try rejudge(from) }
            try requirePositive(items, "--items")
            guard items <= 100_000 else { throw BenchUsageError("--items must be at most 100000 (got \(items))") }
            try requirePositive(steps, "--steps")
            try requirePositive(workers, "--workers")
            let churnRate = try Self.parseChurn(churn)
            let seedValue = try FuzzRunOptions.parseSeed(seed, option: "--seed")
            let every = sampleEvery ?? max(1, steps / 200)
            try requirePositive(every, "--sample-every")
            let warm = warmup ?? steps / 10
            guard warm >= 0, warm < steps else { throw BenchUsageError("--warmup must be at least 0 and less than --steps (got \(warm))") }
            let judged = steps / every - warm / every
            guard judged >= SoakRule.minimumSamples else {
                throw BenchUsageError("only \(judged) samples would come after warm-up; at least \(SoakRule.minimumSamples) are needed (lower --sample-every or --warmup)")
            }
            try checkTolerancesAndPaths()
            let allocator = try Jemalloc.verify()
            let rule = rule(warmup: warm)
            // Read before the run: the tree may change while it goes on.
            let commit = gitCommit()

            let soak: SoakWorld
            do { soak = try SoakWorld(items: items, churnPerSecond: churnRate, seed: seedValue, workers: workers) }
            catch let e as SoakWorld.Error { throw BenchUsageError(e.description) }

            say("soak: \(items) items, \(steps) steps, churn \(String(format: "%g", churnRate * 100)) %/s, seed \(seed), \(workers) worker\(workers == 1 ? "" : "s"), a sample every \(every) steps, warm-up \(warm) steps; \(allocator)")
            let progressEvery = max(1, (steps / every) / 20)
            var count = 0
            let outcome = SoakLoop.run(
                steps: steps, sampleEvery: every, dt: Double(soak.dt),
                step: { soak.step() }, check: { soak.problem() },
                memory: { let s = Jemalloc.snapshot(); return SoakMemory(allocated: s.allocated, resident: s.resident) },
                counts: { SoakCounts(bodies: soak.bodies.count, contacts: soak.world.contactCount, replaced: soak.replaced) },
                onSample: { s in
                    count += 1
                    if count % progressEvery == 0 || s.step == steps {
                        say(String(format: "step %d/%d: heap %.2f MiB, resident %.2f MiB, %.0f steps/s (%.0f per CPU s), %d contacts, %d replaced, %.0f s",
                                   s.step, steps, Double(s.allocatedBytes) / 1_048_576, Double(s.residentBytes) / 1_048_576,
                                   s.stepsPerSecond, s.stepsPerCPUSecond, s.contacts, s.replaced, s.wallSeconds))
                    }
                })

            let problem = outcome.problem.map { "step \($0.step): \($0.message)" }
            if problem != nil { say("replay: dynamics-bench soak --items \(items) --steps \(outcome.steps) --churn \(churn) --seed \(seed) --workers \(workers)") }
            let file = SoakFile(date: ResultFile.now(), command: commandLineText, gitCommit: commit, items: items,
                                steps: steps, stepsRun: outcome.steps, churnPerSecond: churnRate, seed: seed,
                                workers: workers, memorySource: allocator + " (stats.allocated, stats.resident)",
                                rule: rule, verdict: SoakVerdict.judge(outcome.samples, rule: rule), problem: problem,
                                samples: outcome.samples)
            try finish(file, wallSeconds: outcome.wallSeconds)
        }

        /// Validates the options shared by a run and `--from`, and the folders of --out / --plot.
        func checkTolerancesAndPaths() throws {
            guard memoryTolerance >= 0, memoryTolerance.isFinite else { throw BenchUsageError("--memory-tolerance must be a percentage ≥ 0 (got \(memoryTolerance))") }
            guard memoryFloorKib >= 0 else { throw BenchUsageError("--memory-floor-kib must not be negative (got \(memoryFloorKib))") }
            guard speedTolerance >= 0, speedTolerance <= 100 else { throw BenchUsageError("--speed-tolerance must be a percentage from 0 to 100 (got \(speedTolerance))") }
            for (path, option) in [(out, "--out"), (plot, "--plot")] {
                guard let path else { continue }
                let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                    throw BenchUsageError("\(option): folder '\(dir)' does not exist")
                }
            }
        }

        /// The rule from the options.
        func rule(warmup warm: Int) -> SoakRule {
            var rule = SoakRule(warmupSteps: warm)
            rule.memoryTolerance = memoryTolerance / 100
            rule.memoryFloorBytes = UInt64(memoryFloorKib) * 1024
            rule.speedTolerance = speedTolerance / 100
            rule.judgeWallClock = wallClock
            return rule
        }

        /// `--from FILE`: judges a saved run again.
        func rejudge(_ path: String) throws {
            try checkTolerancesAndPaths()
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) }
            catch { throw BenchUsageError("cannot read soak file '\(path)': \(error.localizedDescription)") }
            var file: SoakFile
            do { file = try JSONDecoder().decode(SoakFile.self, from: data) }
            catch { throw BenchUsageError("'\(path)' is not a soak file written by dynamics-bench soak --out FILE.json") }
            guard file.format == "dynamics-bench-soak", file.version == 1 else {
                throw BenchUsageError("'\(path)' is not a soak file (format \(file.format), version \(file.version))")
            }
            let warm = warmup ?? file.rule.warmupSteps
            guard warm >= 0 else { throw BenchUsageError("--warmup must not be negative (got \(warm))") }
            file.rule = rule(warmup: warm)
            file.verdict = SoakVerdict.judge(file.samples, rule: file.rule)
            file.passed = file.verdict.passed && file.problem == nil
            say("soak: judging \(file.samples.count) samples of '\(path)' (\(file.command), \(file.date)), warm-up \(warm) steps")
            try finish(file, wallSeconds: file.samples.last?.wallSeconds ?? 0)
        }

        /// Prints the verdict, writes --out and --plot, and exits 1 unless the run passed.
        func finish(_ file: SoakFile, wallSeconds: Double) throws {
            let verdict = file.verdict, problem = file.problem
            say("")
            for c in verdict.checks {
                say("  \(c.passed ? "ok  " : "FAIL") \(c.name): \(c.measured) (limit \(c.limit))")
            }
            say("  \(problem == nil ? "ok  " : "FAIL") finite and inside the container after every step\(problem.map { ": " + $0 } ?? "")")
            let passed = verdict.passed && problem == nil
            let replaced = file.samples.last?.replaced ?? 0
            say(String(format: "soak: %@ — %d steps in %.0f s, %d bodies replaced", passed ? "pass" : "FAIL",
                       file.stepsRun, wallSeconds, replaced))
            if let out {
                let data = out.lowercased().hasSuffix(".csv") ? Data(SoakFile.csv(file.samples).utf8) : try file.jsonData() + Data("\n".utf8)
                do { try data.write(to: URL(fileURLWithPath: out)) }
                catch { throw BenchUsageError("cannot write '\(out)': \(error.localizedDescription)") }
                say("samples written to \(out)")
            }
            if let plot {
                let w = file.workers
                let title = "soak: \(file.items) items, churn \(String(format: "%g", file.churnPerSecond * 100)) %/s, \(file.stepsRun) steps, \(w) worker\(w == 1 ? "" : "s") — \(passed ? "pass" : "FAIL")"
                let subtitle = file.samples.last.map { String(format: "heap %.2f MiB, resident %.2f MiB at the end; %d bodies replaced; %.0f s wall clock", Double($0.allocatedBytes) / 1_048_576, Double($0.residentBytes) / 1_048_576, $0.replaced, wallSeconds) } ?? ""
                do { try Data(SoakPlot.svg(file.samples, warmupSteps: file.rule.warmupSteps, title: title, subtitle: subtitle).utf8).write(to: URL(fileURLWithPath: plot)) }
                catch { throw BenchUsageError("cannot write '\(plot)': \(error.localizedDescription)") }
                say("plot written to \(plot)")
            }
            if !passed { throw ExitCode(1) }
        }
    }
}
