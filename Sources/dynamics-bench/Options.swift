import ArgumentParser
import BenchSupport
import DynamicsScenes
import Foundation

/// How results are printed on standard output.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
    /// Box2D's benchmark CSV: `threads,ms` rows (see `ResultRendering.box2dCSV`).
    case box2dCSV = "box2d-csv"
}

/// Options shared by `run` and `suite`: how to measure.
struct MeasureOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional,
            help: "Timed steps of 1/60 s per repeat (default: run: the scene's, 600; suite: 300).")
    var steps: Int?

    @Option(name: .long, parsing: .unconditional,
            help: "Worker threads (World.workerCount); a comma-separated list sweeps (e.g. 1,2). (default: run: 1; suite: 1,2)")
    var threads: String?

    @Option(name: .customLong("repeat"), parsing: .unconditional,
            help: "Timed repeats per configuration (a fresh build each); steps/s is their median.")
    var repeats: Int = 3

    @Option(name: .long, parsing: .unconditional,
            help: "Untimed steps before each timed loop; allocations are counted after them. (default: 100; 0 with --format box2d-csv, as Box2D's benchmark app)")
    var warmup: Int?

    /// The warm-up steps: `--warmup`, else none for Box2D's CSV (its app has no warm-up; it
    /// leaves the first timed step out instead) and 100 otherwise.
    func warmupSteps(for format: OutputFormat) -> Int {
        warmup ?? (format == .box2dCSV ? 0 : 100)
    }

    @Option(name: .long, parsing: .unconditional, help: "Seed for scenes that use randomness; pile, mix and pyramid shift their bodies (pyramid: rows) sideways by up to 4 cm each (0: as written).")
    var seed: UInt64 = 0

    @Option(name: .long, help: "Run only part K of N of the sweep (1-based): every N-th configuration from K.")
    var shard: String?

    @Flag(name: .long, help: "Measure the configurations in turns: --repeat rounds of one repeat of each, so that a noisy machine's slow phases hit them alike (use it to compare thread counts in one run).")
    var interleave = false

    @Flag(name: .long, help: "Turn the continuous step off (WorldSettings.isContinuousEnabled = false), to measure what it costs.")
    var noContinuous = false

    @Flag(name: .long, help: "Turn sleeping on (WorldSettings.isSleepEnabled = true, the engine's default thresholds) for scenes that run with it off; reports awake bodies at the end and the simulated seconds until every body slept (seconds_to_rest). Animator scenes (menus, alerts, dashboard), which sleep as DynamicsKit does either way, make their first cycle's changes (every component shown once) and then none, so that they come to rest (seconds_to_rest: until every animator paused).")
    var sleep = false

    @Option(name: .long, parsing: .unconditional,
            help: "Add N boxes asleep in a block beside the scene, on their own ground (engine scenes only), to measure what sleeping bodies cost a step; they stay out of the scene's sanity check.")
    var sleeping: Int = 0

    @Option(name: .customLong("rolling-resistance"), parsing: .unconditional,
            help: "Give every dynamic shape of pile, pyramid or mix rolling resistance C (Material.rollingResistance; default 0: none); JSON field rolling_resistance.")
    var rollingResistance: Float = 0

    @Flag(name: .long, help: "Time the engine's step phases (World.isProfiling) during the timed steps; reports phase_microseconds (µs per step per phase) and prints them under the table.")
    var profile = false

    /// Checks the counts; every problem is a usage error (exit 2).
    func check() throws {
        if let steps { try requirePositive(steps, "--steps") }
        if sleeping < 0 { throw BenchUsageError("--sleeping must not be negative (got \(sleeping))") }
        try checkRollingResistance(rollingResistance)
        try requirePositive(repeats, "--repeat")
        if let warmup, warmup < 0 { throw BenchUsageError("--warmup must not be negative (got \(warmup))") }
        _ = try parsedShard()
    }

    func threadList(default value: [Int]) throws -> [Int] {
        guard let threads else { return value }
        return try BenchArguments.positiveList(threads, option: "--threads")
    }

    func parsedShard() throws -> Shard? {
        try shard.map { try Shard(parsing: $0) }
    }
}

/// Options shared by the commands that print results.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format on stdout: table, json (one object per line) or csv.")
    var format: OutputFormat = .table

    @Option(name: .long, help: "Also write the results to FILE as a result file (JSON; CSV if FILE ends in .csv), for compare and merge.")
    var out: String?

    @Flag(name: .long, help: "No progress bar, and nothing on stdout when --out is given.")
    var quiet = false
}

/// Throws a usage error unless `--rolling-resistance`'s value is finite and ≥ 0.
func checkRollingResistance(_ value: Float) throws {
    guard value.isFinite, value >= 0 else {
        throw BenchUsageError("--rolling-resistance must be a finite number ≥ 0 (got \(value))")
    }
}

/// Throws a usage error unless `value > 0`.
func requirePositive(_ value: Int, _ name: String) throws {
    guard value > 0 else { throw BenchUsageError("\(name) must be a positive integer (got \(value))") }
}

/// Runs a sweep and prints / writes the results. Returns false when a run failed its check.
enum SweepRunner {
    static func run(_ configs: [BenchConfig], steps: (any BenchmarkScene) -> Int, measure: MeasureOptions,
                    output: OutputOptions, shard: Shard?, command: String, checkpoints: CheckpointPlan? = nil) throws -> Bool {
        let allocator = try Jemalloc.verify()
        if output.out != nil { try checkWritable(output.out!) }
        let draw = ProgressBar.shouldDraw(quiet: output.quiet)
        let printResults = !(output.quiet && output.out != nil)
        var results: [BenchRecord] = []
        if configs.isEmpty, let shard {
            warn("shard \(shard) of a sweep of fewer than \(shard.count) configurations is empty")
        }
        let rounds = measure.interleave ? measure.repeats : 1
        var parts = [[BenchRecord]](repeating: [], count: configs.count)
        for round in 0..<rounds {
            for (i, c) in configs.enumerated() {
                let scene = try SceneCatalog.scene(named: c.scene)
                let o = RunOptions(size: c.items, steps: steps(scene), threads: c.threads, seed: measure.seed,
                                   warmup: measure.warmupSteps(for: output.format), repeats: measure.interleave ? 1 : measure.repeats,
                                   continuous: !measure.noContinuous, sleep: measure.sleep,
                                   sleepingBodies: measure.sleeping, rollingResistance: measure.rollingResistance,
                                   profile: measure.profile,
                                   checkpoints: checkpoints)
                var label = configs.count > 1 ? "\(c) [\(i + 1)/\(configs.count)]" : c.description
                if rounds > 1 { label += " round \(round + 1)/\(rounds)" }
                let bar = ProgressBar(label: label, total: o.repeats * (o.warmup + o.steps), enabled: draw)
                let record: BenchRecord
                do {
                    defer { bar.finish() }
                    record = try BenchRunner.run(scene, o, allocator: allocator, progress: bar)
                }
                parts[i].append(record)
                if round == rounds - 1 {
                    let combined = rounds > 1 ? BenchRecord.combining(parts[i]) : record
                    results.append(combined)
                }
            }
        }
        if printResults && output.format == .json {
            for r in results { print(try r.json()) }
            fflush(nil)
        }
        if printResults {
            switch output.format {
            case .table:
                print(ResultRendering.table(results))
                for r in results { if let line = ResultRendering.profileLine(r) { print(line) } }
            case .csv: print(ResultRendering.csv(results))
            case .box2dCSV: print(ResultRendering.box2dCSV(results))
            case .json: break
            }
        }
        if let path = output.out {
            let file = ResultFile(machine: .current(), swiftVersion: swiftCompilerVersion, gitCommit: gitCommit(),
                                  command: command, shard: shard?.description, results: results)
            try write(file, to: path)
        }
        return results.allSatisfy { $0.passed != false }
    }
}

/// Writes a result file: CSV when the name ends in .csv, else the JSON document.
func write(_ file: ResultFile, to path: String) throws {
    let data = path.lowercased().hasSuffix(".csv")
        ? Data((ResultRendering.csv(file.results) + "\n").utf8) : try file.encoded()
    do {
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        throw BenchUsageError("cannot write '\(path)': \((error as NSError).localizedDescription)")
    }
}

/// Fails early (before minutes of measuring) when `--out` names a place that cannot be written.
func checkWritable(_ path: String) throws {
    let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue,
          FileManager.default.isWritableFile(atPath: dir) else {
        throw BenchUsageError("cannot write '\(path)': directory '\(dir)' does not exist or is not writable")
    }
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("dynamics-bench: warning: \(message)\n".utf8))
}

/// The compiler that built this binary.
let swiftCompilerVersion: String = {
    #if compiler(>=6.4)
    return "6.4+"
    #elseif compiler(>=6.3)
    return "6.3"
    #elseif compiler(>=6.2)
    return "6.2"
    #elseif compiler(>=6.1)
    return "6.1"
    #else
    return "6.0"
    #endif
}()

/// `git rev-parse HEAD` of the current directory (with "-dirty" when the tree has changes),
/// or nil when git or a repository is not there.
func gitCommit() -> String? {
    func git(_ args: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return nil }
    let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
    return dirty ? head + "-dirty" : head
}

/// The command line, for the result file's metadata.
var commandLineText: String {
    (["dynamics-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
}

/// The scene a one-scene command builds (`render`, `snapshot`, `query`): its name, size and seed.
struct SceneChoice: ParsableArguments {
    @Argument(help: "Scene name (see `dynamics-bench list`).")
    var scene: String

    @Option(name: .long, parsing: .unconditional, help: "The scene's size parameter (default: see the command's description).")
    var items: Int?

    @Option(name: .long, parsing: .unconditional, help: "Seed for scenes that use randomness; pile, mix and pyramid shift their bodies (pyramid: rows) sideways by up to 4 cm each (0: as written).")
    var seed: UInt64 = 0

    /// The scene and its size (`--items`, else `defaultSize` of it), checked: the scene
    /// exists and the size is positive and at most the scene's largest.
    func resolve(defaultSize: (any BenchmarkScene) -> Int) throws -> (scene: any BenchmarkScene, size: Int) {
        let s = try SceneCatalog.scene(named: scene)
        if let items { try requirePositive(items, "--items") }
        let size = items ?? defaultSize(s)
        if size > s.maximumSize {
            throw BenchUsageError("--items for '\(s.name)' must be at most \(s.maximumSize) (got \(size))")
        }
        return (s, size)
    }
}

/// The regression limit of `compare` and `ab`.
struct RegressionLimit: ParsableArguments {
    @Option(name: .long, help: "Largest accepted slowdown of the median steps/s, e.g. 5% (the default).")
    var maxRegression: String = "5%"

    /// `--max-regression` parsed (a usage error when it is not a percentage).
    func threshold() throws -> RegressionThreshold { try RegressionThreshold(parsing: maxRegression) }
}
