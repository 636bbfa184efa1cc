import ArgumentParser
import BenchSupport
import Foundation

extension DynamicsBench {
    /// `dynamics-bench ab BASELINE CANDIDATE [--scenes pile:1000,pyramid:20,mix:1000] [--threads 1]
    /// [--rounds 10] [--max-rounds 40] [--budget SECONDS] [--steps 300] [--max-regression 5%]
    /// [--false-alarm 1%] [--decide-all] [--metric cpu|wall] [--format table|json|markdown] [--out FILE]`
    struct AB: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ab",
            abstract: "Runs two dynamics-bench executables interleaved until it can say whether the candidate is slower (the CI gate).",
            discussion: """
                Each round runs every configuration (scene × threads) once with each executable, \
                each run a fresh process (`EXE run SCENE --items N --steps S --threads T --repeat 1 \
                --format json`), baseline first in even rounds and candidate first in odd ones. \
                Every configuration takes --rounds rounds; one still undecided then takes one more \
                round at a time until it is decided, --max-rounds is reached or the next round would \
                overrun --budget; once one configuration regressed, the others still undecided stop \
                there (--decide-all measures them on). Per configuration: both medians, ratio = the median over the rounds \
                of candidate/baseline steps/s of the round (steps per CPU second of the process with \
                --metric cpu, the default; per wall-clock second with --metric wall), and its \
                confidence sequence (a sign-test interval valid at every round, so looking after \
                each round does not raise the error rates). PASS once the interval is above \
                1 − --max-regression; REGRESSED once it is below 1 − --max-regression/2. A \
                candidate not slower by half the threshold fails with probability at most \
                --false-alarm; a configuration slower by the threshold passes with probability at \
                most --false-alarm. Exit: 0 pass, 1 a regression, 2 usage error (missing executable, \
                bad option, a run that failed), 3 undecided when the budget ran out.
                """)

        @Argument(help: "The baseline dynamics-bench executable (path, or a name on PATH).")
        var baseline: String

        @Argument(help: "The candidate dynamics-bench executable.")
        var candidate: String

        @Option(name: .long, help: "Configurations as SCENE[:ITEMS],… (no :ITEMS: the executable's default size).")
        var scenes: String = "pile:1000,pyramid:20,mix:1000"

        @Option(name: .long, help: "Worker threads; a comma-separated list measures each.")
        var threads: String = "1"

        @Option(name: .long, help: "Rounds every configuration takes before it may be decided (at least 5).")
        var rounds: Int = 10

        @Option(name: .customLong("max-rounds"), help: "The most rounds of a configuration still undecided.")
        var maxRounds: Int = 40

        @Option(name: .long, help: "Seconds the comparison may take: no round starts that would end later (default: no limit).")
        var budget: Double?

        @Flag(name: .customLong("decide-all"), help: "Measure every configuration to its own verdict; without it a regression stops the configurations still undecided (it decides the comparison).")
        var decideAll = false

        @Option(name: .long, help: "Timed steps per run.")
        var steps: Int = 300

        @OptionGroup var limit: RegressionLimit

        @Option(name: .customLong("false-alarm"), help: "The largest probability of failing a candidate that is not slower by half of --max-regression (default 1%).")
        var falseAlarm: String = "1%"

        @Option(name: .long, help: "Output on stdout: table, json or markdown (a table for a CI job summary, the verdict line last).")
        var format: ABFormat = .table

        @Option(name: .long, help: "Also write the JSON report to FILE.")
        var out: String?

        @Option(name: .long, help: "What to compare: cpu (steps per CPU second of the process, the default: not slowed by waiting for a CPU) or wall (steps per wall-clock second). cpu falls back to wall for executables that do not report it.")
        var metric: ABMetric = .cpu

        enum ABFormat: String, ExpressibleByArgument { case table, json, markdown }

        func run() throws {
            let threshold = try limit.threshold()
            guard threshold.fraction > 0 else { throw BenchUsageError("--max-regression must be above 0%") }
            let alarm = try RegressionThreshold(parsing: falseAlarm, option: "--false-alarm")
            guard alarm.fraction > 0 else { throw BenchUsageError("--false-alarm must be above 0%") }
            guard rounds >= ABGate.minimumRounds else {
                throw BenchUsageError("--rounds must be at least \(ABGate.minimumRounds) (got \(rounds))")
            }
            guard maxRounds >= rounds else {
                throw BenchUsageError("--max-rounds (\(maxRounds)) must be at least --rounds (\(rounds))")
            }
            if let budget, !(budget.isFinite && budget > 0) {
                throw BenchUsageError("--budget must be a positive number of seconds (got \(budget))")
            }
            try requirePositive(steps, "--steps")
            let threadList = try BenchArguments.positiveList(threads, option: "--threads")
            let entries = try ABGate.parseScenes(scenes)
            let configs = entries.flatMap { e in threadList.map { ABConfig(scene: e.scene, items: e.items, threads: $0) } }
            let rule = ABRule(threshold: threshold, falseAlarm: alarm.fraction, configurations: configs.count, maxRounds: maxRounds)
            let fewest = rule.fewestRounds
            guard maxRounds >= max(fewest.pass, fewest.regression) else {
                throw BenchUsageError("--max-rounds \(maxRounds) can never decide: at --false-alarm \(alarm) with \(configs.count) " +
                                      "configuration(s) a pass needs at least \(fewest.pass) rounds and a regression \(fewest.regression)")
            }
            let exes: [ABSide: URL] = [.baseline: try Self.executable(baseline, role: "baseline"),
                                       .candidate: try Self.executable(candidate, role: "candidate")]
            if let out { try checkWritable(out) }

            let tty = isatty(STDERR_FILENO) != 0
            let clock = ContinuousClock(), origin = clock.now
            let plan = ABPlan(rounds: rounds, maxRounds: maxRounds, budget: budget, rule: rule, metric: metric,
                              decideAll: decideAll)
            let outcome = try ABGate.run(configs, plan: plan, now: { (clock.now - origin) / .seconds(1) },
                                         progress: { round, open in
                if tty { FileHandle.standardError.write(Data("\r\u{1B}[Kab: round \(round + 1), \(open) configuration(s) undecided".utf8)) }
            }, measure: { config, side in
                try Self.measure(exes[side]!, side: side, config: config, steps: steps)
            })
            if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            for row in outcome.rows where metric == .cpu && row.metric == .wall {
                warn("\(row.configurationName): a run did not report cpu_steps_per_second; compared wall-clock steps/s")
            }

            let report = ABReport(baseline: baseline, candidate: candidate, rounds: rounds, maxRounds: maxRounds,
                                  budgetSeconds: budget, seconds: outcome.seconds, steps: steps,
                                  maxRegression: threshold.fraction, falseAlarm: alarm.fraction, stop: outcome.stop,
                                  machine: .current(), results: outcome.rows)
            switch format {
            case .table: print(ABGate.render(report))
            case .json: FileHandle.standardOutput.write(try report.encoded())
            case .markdown: print(ABGate.markdown(report), terminator: "")
            }
            if let out {
                do { try report.encoded().write(to: URL(fileURLWithPath: out)) } catch {
                    throw BenchUsageError("cannot write '\(out)': \((error as NSError).localizedDescription)")
                }
            }
            if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
        }

        /// The executable at `path` (or found on PATH when it has no slash); a usage error otherwise.
        static func executable(_ path: String, role: String) throws -> URL {
            let fm = FileManager.default
            if path.contains("/") {
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                      fm.isExecutableFile(atPath: path) else {
                    throw BenchUsageError("\(role) executable '\(path)' does not exist or is not executable")
                }
                return URL(fileURLWithPath: path)
            }
            for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(path)
                if fm.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw BenchUsageError("\(role) executable '\(path)' is not a path and not on PATH")
        }

        /// One fresh process: its steps/s, or a usage error (exit 2) when the run failed.
        static func measure(_ exe: URL, side: ABSide, config: ABConfig, steps: Int) throws -> ABSpeeds {
            let args = config.runArguments(steps: steps)
            let command = ([exe.path] + args).joined(separator: " ")
            let p = Process()
            p.executableURL = exe
            p.arguments = args
            let outPipe = Pipe()
            let errFile = FileManager.default.temporaryDirectory
                .appendingPathComponent("dynamics-bench-ab-\(getpid())-stderr.txt")
            _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errFile) }
            let errHandle = try FileHandle(forWritingTo: errFile)
            p.standardOutput = outPipe
            p.standardError = errHandle
            do { try p.run() } catch {
                throw BenchUsageError("\(side.rawValue) run failed to start: \(command): \((error as NSError).localizedDescription)")
            }
            let data = outPipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            try? errHandle.close()
            guard p.terminationStatus == 0, p.terminationReason == .exit else {
                let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
                let firstLine = err.split(separator: "\n").first.map(String.init) ?? ""
                throw BenchUsageError("\(side.rawValue) run failed (exit \(p.terminationStatus)): \(command)" +
                                      (firstLine.isEmpty ? "" : ": \(firstLine)"))
            }
            let file: ResultFile
            do { file = try ResultFile.parse(data, name: "output of \(command)") } catch let e as BenchUsageError {
                throw BenchUsageError("\(side.rawValue) run printed no result: \(e.message)")
            }
            guard let r = file.results.first(where: { $0.scene == config.scene && $0.threads == config.threads
                                                    && (config.items == nil || $0.items == config.items) }) else {
                throw BenchUsageError("\(side.rawValue) run printed no result for \(config): \(command)")
            }
            if r.passed == false {
                throw BenchUsageError("\(side.rawValue) run failed its sanity check (\((r.failures ?? []).joined(separator: ", "))): \(command)")
            }
            for speed in [r.median, r.cpuStepsPerSecond].compactMap({ $0 }) where !(speed.isFinite && speed > 0) {
                throw BenchUsageError("\(side.rawValue) run reported \(speed) steps/s: \(command)")
            }
            return ABSpeeds(wall: r.median, cpu: r.cpuStepsPerSecond)
        }
    }
}

extension ABMetric: ExpressibleByArgument {}
