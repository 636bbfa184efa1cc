import ArgumentParser
import BenchSupport
import Foundation

extension DynamicsBench {
    /// `dynamics-bench ab BASELINE CANDIDATE [--scenes pile:1000,pyramid:20,mix:1000] [--threads 1]
    /// [--rounds 10] [--steps 300] [--max-regression 5%] [--format table|json] [--out FILE]`
    struct AB: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ab",
            abstract: "Runs two dynamics-bench executables interleaved and tests the candidate for a slowdown (the CI gate).",
            discussion: """
                Each round runs every configuration (scene × threads) once with each executable, \
                each run a fresh process (`EXE run SCENE --items N --steps S --threads T --repeat 1 \
                --format json`), baseline first in even rounds and candidate first in odd ones. \
                Per configuration: both medians, ratio = candidate/baseline steps/s (steps per CPU \
                second of the process with --metric cpu, the default; per wall-clock second with \
                --metric wall) as the Hodges–Lehmann estimate over all pairs of runs with its 95% confidence interval, and a two-sided \
                Mann–Whitney p-value. A configuration REGRESSED when the ratio is below \
                1 − --max-regression and p < 0.01; it is INCONCLUSIVE when it did not regress but \
                its 95% interval is wider than 2 × --max-regression and reaches below \
                1 − --max-regression. Exit: 0 pass, 1 a regression, \
                2 usage error (missing executable, bad option, a run that failed), 3 inconclusive.
                """)

        @Argument(help: "The baseline dynamics-bench executable (path, or a name on PATH).")
        var baseline: String

        @Argument(help: "The candidate dynamics-bench executable.")
        var candidate: String

        @Option(name: .long, help: "Configurations as SCENE[:ITEMS],… (no :ITEMS: the executable's default size).")
        var scenes: String = "pile:1000,pyramid:20,mix:1000"

        @Option(name: .long, help: "Worker threads; a comma-separated list measures each.")
        var threads: String = "1"

        @Option(name: .long, help: "Rounds: runs per executable and configuration (at least 5).")
        var rounds: Int = 10

        @Option(name: .long, help: "Timed steps per run.")
        var steps: Int = 300

        @OptionGroup var limit: RegressionLimit

        @Option(name: .long, help: "Output on stdout: table or json.")
        var format: ABFormat = .table

        @Option(name: .long, help: "Also write the JSON report to FILE.")
        var out: String?

        @Option(name: .long, help: "What to compare: cpu (steps per CPU second of the process, the default: not slowed by waiting for a CPU) or wall (steps per wall-clock second). cpu falls back to wall for executables that do not report it.")
        var metric: ABMetric = .cpu

        enum ABFormat: String, ExpressibleByArgument { case table, json }
        /// One run's figures.
        struct Speeds { var wall: Double; var cpu: Double? }

        func run() throws {
            let threshold = try limit.threshold()
            guard rounds >= ABGate.minimumRounds else {
                throw BenchUsageError("--rounds must be at least \(ABGate.minimumRounds) (got \(rounds)): fewer rounds cannot reach p < 0.01")
            }
            try requirePositive(steps, "--steps")
            let threadList = try BenchArguments.positiveList(threads, option: "--threads")
            let entries = try ABGate.parseScenes(scenes)
            let configs = entries.flatMap { e in threadList.map { ABConfig(scene: e.scene, items: e.items, threads: $0) } }
            let exes: [ABSide: URL] = [.baseline: try Self.executable(baseline, role: "baseline"),
                                       .candidate: try Self.executable(candidate, role: "candidate")]
            if let out { try checkWritable(out) }

            let tty = isatty(STDERR_FILENO) != 0
            var runs: [ABConfig: [ABSide: [Speeds]]] = [:]
            for round in 0..<rounds {
                if tty { FileHandle.standardError.write(Data("\rab: round \(round + 1)/\(rounds)".utf8)) }
                for config in configs {
                    for side in ABGate.order(round: round) {
                        let speed = try Self.measure(exes[side]!, side: side, config: config, steps: steps)
                        runs[config, default: [:]][side, default: []].append(speed)
                    }
                }
            }
            if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

            let rows = configs.map { c -> ABRow in
                let b = runs[c]![.baseline]!, k = runs[c]![.candidate]!
                if metric == .cpu, (b + k).allSatisfy({ $0.cpu != nil }) {
                    return ABGate.judge(c, baseline: b.map { $0.cpu! }, candidate: k.map { $0.cpu! },
                                        threshold: threshold, metric: .cpu)
                }
                if metric == .cpu {
                    warn("\(c): a run did not report cpu_steps_per_second; comparing wall-clock steps/s")
                }
                return ABGate.judge(c, baseline: b.map(\.wall), candidate: k.map(\.wall), threshold: threshold, metric: .wall)
            }
            let report = ABReport(baseline: baseline, candidate: candidate, rounds: rounds, steps: steps,
                                  maxRegression: threshold.fraction, machine: .current(), results: rows)
            switch format {
            case .table: print(ABGate.render(report))
            case .json: FileHandle.standardOutput.write(try report.encoded())
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
        static func measure(_ exe: URL, side: ABSide, config: ABConfig, steps: Int) throws -> Speeds {
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
            return Speeds(wall: r.median, cpu: r.cpuStepsPerSecond)
        }
    }
}

extension ABMetric: ExpressibleByArgument {}
