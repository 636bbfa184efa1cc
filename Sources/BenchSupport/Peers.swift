import Foundation

/// One timed run of one engine on one scene, as `dynamics-bench peers` compares them.
///
/// The peer drivers (`Peers/box2d_driver.cpp`, `Peers/chipmunk_driver.c`, `Peers/box2d3_driver.c`) print exactly this as
/// one JSON line (snake_case keys); DynamicsKit's own runs are converted to it. Lengths are in
/// metres (1 m = 100 pt), heights are of body centres above the ground surface (y = 0), speeds in
/// m/s, energy in J with 1 kg = density 1 × 1 m².
public struct PeerRun: Codable, Sendable, Equatable {
    /// `dynamicskit`, `box2d`, `chipmunk`, `box2d3` or a source-built Box2D (`box2d3.2`).
    public var engine: String
    /// The engine's version as the library reports it (e.g. `2.4.0`, `7.0.3`, `3.1.1`).
    public var version: String?
    public var scene: String
    /// The scene's size parameter (bodies for pile and mix, the base for pyramid).
    public var items: Int
    /// Dynamic bodies built.
    public var bodies: Int
    public var staticBodies: Int?
    /// Timed steps of 1/60 s.
    public var steps: Int
    /// Worker threads the engine stepped with (`nil`: one; Box2D 2.4 and Chipmunk have no others).
    public var threads: Int?
    /// Sleeping was on (`nil` or false: off, the comparison's default).
    public var sleep: Bool?
    /// Peak resident memory of the driver process (bytes), where the driver reports it.
    public var peakRSSBytes: Int?
    /// Untimed steps before them.
    public var warmup: Int?
    /// Timed steps / wall time of the timed loop.
    public var stepsPerSec: Double
    public var msPerStep: Double?
    /// Seconds of the timed loop.
    public var seconds: Double?
    /// Seconds to build the scene (not timed in `stepsPerSec`).
    public var buildSeconds: Double?
    /// Dynamic bodies whose centre left the scene (see scenes.md); more than 0 is a failed run.
    public var escaped: Int
    /// Largest centre height at the end (m); `nil` when it was not finite.
    public var maxHeight: Double?
    /// Largest centre height when built (m).
    public var initialMaxHeight: Double?
    public var avgHeight: Double?
    /// Largest and mean linear speed of the dynamic bodies at the end (m/s).
    public var maxSpeed: Double?
    public var meanSpeed: Double?
    /// ½mv² + ½Iω² of the dynamic bodies at the end (J).
    public var kineticEnergy: Double?
    /// Dynamic bodies awake at the end (all of them with sleeping off).
    public var awake: Int?
    /// With sleeping on: simulated seconds of warm-up until no body was awake (nil: not within
    /// the warm-up).
    public var secondsToRest: Double?
    /// With sleeping on, when no body was awake: how deep two touching shapes overlapped at
    /// most (m).
    public var penetrationAtRest: Double?
    public var touchingContacts: Int?
    /// Pyramid only: the maximum height stayed within 1 % of its start.
    public var standing: Bool?
    /// The engine's solver settings, in words.
    public var settings: String?
    /// The scene's seed (`peers --seed`; nil or 0: the scene as written, else each body or
    /// pyramid row shifted sideways by its own few centimetres, the same in every engine).
    public var seed: UInt64?
    /// Other failed checks of the engine's own sanity report (DynamicsKit's, e.g.
    /// `kinetic_energy`); the drivers never set it.
    public var failedChecks: [String]?

    public init(engine: String, scene: String, items: Int, bodies: Int, steps: Int, stepsPerSec: Double,
                escaped: Int) {
        self.engine = engine; self.scene = scene; self.items = items; self.bodies = bodies
        self.steps = steps; self.stepsPerSec = stepsPerSec; self.escaped = escaped
    }

    enum CodingKeys: String, CodingKey {
        case engine, version, scene, items, bodies, steps, warmup, seconds, escaped, awake, standing, settings
        case threads, sleep, peakRSSBytes = "peak_rss_bytes"
        case staticBodies = "static_bodies", stepsPerSec = "steps_per_sec", msPerStep = "ms_per_step"
        case buildSeconds = "build_seconds", maxHeight = "max_height", initialMaxHeight = "initial_max_height"
        case avgHeight = "avg_height", maxSpeed = "max_speed", meanSpeed = "mean_speed"
        case kineticEnergy = "kinetic_energy", touchingContacts = "touching_contacts"
        case secondsToRest = "seconds_to_rest", penetrationAtRest = "penetration_at_rest"
        case failedChecks = "failed_checks", seed
    }

    /// Reads the result line of a driver's standard output: the last line that starts with `{`
    /// (anything a library prints before it is ignored). `source` names the driver in errors.
    public static func parse(output: String, source: String) throws -> PeerRun {
        guard let line = output.split(whereSeparator: \.isNewline).last(where: {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("{")
        }) else {
            let shown = output.trimmingCharacters(in: .whitespacesAndNewlines).prefix(120)
            throw BenchUsageError("\(source) printed no JSON result line (output: '\(shown)')")
        }
        do {
            let run = try BenchJSON.decoder().decode(PeerRun.self, from: Data(line.utf8))
            guard run.stepsPerSec.isFinite, run.stepsPerSec > 0, run.steps > 0 else {
                throw BenchUsageError("\(source) reported \(run.stepsPerSec) steps/s over \(run.steps) steps")
            }
            return run
        } catch let error as BenchUsageError {
            throw error
        } catch {
            throw BenchUsageError("\(source) printed a malformed result line: \(line.prefix(160))")
        }
    }

    /// Why this run fails the sanity check (empty when it passes): escaped bodies, a
    /// non-finite height, a pyramid that did not stand, or a `failedChecks` entry.
    public var failures: [String] {
        var out: [String] = []
        if escaped > 0 { out.append("escaped \(escaped)") }
        if maxHeight == nil || !(maxHeight!.isFinite) { out.append("non-finite") }
        if standing == false { out.append("not standing") }
        for c in failedChecks ?? [] where !out.contains(c) { out.append(c) }
        return out
    }

    /// True when the run passes its sanity check.
    public var passed: Bool { failures.isEmpty }

    /// One line of JSON with sorted keys.
    public func json() throws -> String {
        String(decoding: try BenchJSON.encoder(pretty: false).encode(self), as: UTF8.self)
    }
}

/// Which scene sizes `dynamics-bench peers` runs.
public enum PeerPlan {
    /// The sizes each peer scene runs at when `--items` is not given.
    public static let defaultSizes: [String: Int] = ["pile": 4_000, "pyramid": 100, "mix": 4_000]
    /// The scenes the peer drivers know.
    public static let sceneNames = ["pile", "pyramid", "mix"]

    /// Parses `--threads`: comma-separated worker counts from 1 to 64, order kept, duplicates
    /// dropped (`1,2`).
    public static func threadCounts(_ text: String) throws -> [Int] {
        var out: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = part.trimmingCharacters(in: .whitespaces)
            guard let n = Int(entry), (1...64).contains(n) else {
                throw BenchUsageError("--threads: '\(entry)' is not a worker count from 1 to 64")
            }
            if !out.contains(n) { out.append(n) }
        }
        return out
    }

    /// The (scene, items) configurations, in the order of `scenes`, each scene's sizes in the
    /// order given.
    ///
    /// - Parameters:
    ///   - scenes: comma-separated scene names (`pile,pyramid,mix`).
    ///   - items: `nil` for the defaults, or a comma-separated list whose entries are `N` (for
    ///     every scene that has no entry of its own) or `scene:N` (for that scene only),
    ///     e.g. `pile:1000,pile:4000,pyramid:100,4000`.
    /// - Throws: `BenchUsageError` for an unknown scene, a scene listed in `items` but not in
    ///   `scenes`, or a count that is not a positive integer.
    public static func configurations(scenes: String, items: String?) throws -> [(scene: String, items: Int)] {
        var names: [String] = []
        for part in scenes.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard sceneNames.contains(name) else {
                throw BenchUsageError("--scenes: unknown peer scene '\(name)' (known: \(sceneNames.joined(separator: ", ")))")
            }
            if !names.contains(name) { names.append(name) }
        }
        var common: [Int] = []
        var own: [String: [Int]] = [:]
        if let items {
            for part in items.split(separator: ",", omittingEmptySubsequences: false) {
                let entry = part.trimmingCharacters(in: .whitespaces)
                let pieces = entry.split(separator: ":", omittingEmptySubsequences: false)
                let numberText = pieces.count == 2 ? String(pieces[1]) : entry
                guard pieces.count <= 2, let n = Int(numberText.trimmingCharacters(in: .whitespaces)), n > 0 else {
                    throw BenchUsageError("--items: '\(entry)' is not N or scene:N with N a positive integer")
                }
                if pieces.count == 2 {
                    let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
                    guard names.contains(name) else {
                        throw BenchUsageError("--items: '\(entry)' names a scene that is not in --scenes (\(names.joined(separator: ",")))")
                    }
                    if !(own[name] ?? []).contains(n) { own[name, default: []].append(n) }
                } else if !common.contains(n) {
                    common.append(n)
                }
            }
        }
        var out: [(scene: String, items: Int)] = []
        for name in names {
            let sizes = own[name] ?? (common.isEmpty ? [defaultSizes[name]!] : common)
            for n in sizes {
                if name == "pyramid" && n > 2_000 {
                    throw BenchUsageError("--items: the pyramid's base must be at most 2000 (got \(n))")
                }
                out.append((name, n))
            }
        }
        return out
    }
}

/// The runs of a peer comparison grouped into one row per (scene, items, engine), with the
/// ratio of DynamicsKit's median steps/s to each peer's.
public struct PeerComparison: Sendable {
    /// The engine name of DynamicsKit's own runs.
    public static let ours = "dynamicskit"

    /// One engine on one configuration.
    public struct Row: Sendable {
        public var scene: String
        public var items: Int
        public var engine: String
        /// Worker threads (1 for the single-threaded peers).
        public var threads: Int = 1
        /// Every repeat, in run order.
        public var runs: [PeerRun]
        public var median: Double { BenchSupport.median(runs.map(\.stepsPerSec)) }
        public var minimum: Double { runs.map(\.stepsPerSec).min() ?? 0 }
        public var maximum: Double { runs.map(\.stepsPerSec).max() ?? 0 }
        /// ms per step at the median.
        public var msPerStep: Double { median > 0 ? 1000 / median : 0 }
        /// DynamicsKit's median at the same thread count divided by this engine's (nil for
        /// DynamicsKit's own row or when DynamicsKit did not run at that count).
        public var oursOverThis: Double?
        /// The sanity failures of any repeat.
        public var failures: [String] {
            var out: [String] = []
            for r in runs { for f in r.failures where !out.contains(f) { out.append(f) } }
            return out
        }
        /// The last repeat (for the sanity figures).
        public var last: PeerRun { runs[runs.count - 1] }
    }

    public private(set) var rows: [Row] = []

    /// Groups `runs` by (scene, items, threads, engine) keeping the order in which (scene, items)
    /// configurations first appear and, within one, ascending thread counts and the order of
    /// `engines`. A run without `threads` counts as one thread.
    public init(runs: [PeerRun], engines: [String]) {
        var keys: [String] = []
        var grouped: [String: [PeerRun]] = [:]
        func key(_ r: PeerRun) -> String { "\(r.scene)\u{1}\(r.items)" }
        for r in runs {
            if grouped[key(r)] == nil { keys.append(key(r)); grouped[key(r)] = [] }
            grouped[key(r)]!.append(r)
        }
        for k in keys {
            let group = grouped[k]!
            let order = engines + group.map(\.engine).filter { !engines.contains($0) }
            let threadCounts = Set(group.map { $0.threads ?? 1 }).sorted()
            for t in threadCounts {
                var byEngine: [Row] = []
                for e in order {
                    let rs = group.filter { $0.engine == e && ($0.threads ?? 1) == t }
                    guard let first = rs.first else { continue }
                    var row = Row(scene: first.scene, items: first.items, engine: e, runs: rs)
                    row.threads = t
                    byEngine.append(row)
                }
                let ours = byEngine.first { $0.engine == Self.ours }?.median
                for i in byEngine.indices where byEngine[i].engine != Self.ours {
                    if let ours, byEngine[i].median > 0 { byEngine[i].oursOverThis = ours / byEngine[i].median }
                }
                rows += byEngine
            }
        }
    }

    /// The row of `engine` on (scene, items) at `threads` workers.
    public func row(scene: String, items: Int, engine: String, threads: Int = 1) -> Row? {
        rows.first { $0.scene == scene && $0.items == items && $0.engine == engine && $0.threads == threads }
    }

    static let header = ["scene", "items", "bodies", "engine", "threads", "steps/s", "min–max", "ms/step",
                         "ours/this", "max height m (start→end)", "awake (rest s, overlap cm)", "check"]
    /// The right-aligned columns of `header`.
    static let rightAligned: Set<Int> = [1, 2, 4, 5, 6, 7, 8, 9, 10]

    func cells(_ r: Row) -> [String] {
        let last = r.last
        let height: String = {
            guard let start = last.initialMaxHeight else { return "—" }
            return "\(TextTable.fixed(start, 2))→\(last.maxHeight.map { TextTable.fixed($0, 2) } ?? "nan")"
        }()
        let check = r.failures.isEmpty ? "ok" : "FAILED: " + r.failures.joined(separator: ", ")
        return [r.scene, "\(r.items)", "\(last.bodies)", r.engine, "\(r.threads)", TextTable.fixed(r.median, 1),
                "\(TextTable.fixed(r.minimum, 1))–\(TextTable.fixed(r.maximum, 1))",
                TextTable.fixed(r.msPerStep, 2), r.oursOverThis.map { TextTable.fixed($0, 2) + "×" } ?? "—",
                height, awake(last), check]
    }

    /// Bodies awake at the end, and with sleeping on the seconds of warm-up until none was and
    /// the deepest overlap of touching shapes then (cm).
    func awake(_ run: PeerRun) -> String {
        guard let n = run.awake else { return "—" }
        guard run.sleep == true else { return "\(n)" }
        let overlap = run.penetrationAtRest.map { ", " + TextTable.fixed($0 * 100, 2) } ?? ""
        return "\(n) (" + (run.secondsToRest.map { TextTable.fixed($0, 2) } ?? "never") + overlap + ")"
    }

    /// A plain-text table: steps/s median and min–max over the repeats, ms/step at the median,
    /// DynamicsKit's steps/s over each peer's, the maximum height at the start and the end, and
    /// the sanity check.
    public func table() -> String {
        TextTable.grid(header: Self.header, rows: rows.map(cells), rightAligned: Self.rightAligned)
    }

    /// The same table in Markdown.
    public func markdown() -> String {
        let right = Self.rightAligned
        var lines = ["| " + Self.header.joined(separator: " | ") + " |",
                     "|" + Self.header.indices.map { right.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|"]
        for r in rows { lines.append("| " + cells(r).joined(separator: " | ") + " |") }
        return lines.joined(separator: "\n")
    }

    /// One JSON object per row (sorted keys): the figures of the table and every repeat.
    public func jsonLines() throws -> [String] {
        try rows.map { r in
            let object = RowJSON(r)
            return String(decoding: try BenchJSON.encoder(pretty: false).encode(object), as: UTF8.self)
        }
    }

    /// The JSON form of a row.
    public struct RowJSON: Codable, Sendable {
        public var scene: String
        public var items: Int
        public var engine: String
        public var threads: Int
        public var version: String?
        public var bodies: Int
        public var stepsPerSecMedian: Double
        public var stepsPerSecMin: Double
        public var stepsPerSecMax: Double
        public var msPerStep: Double
        public var oursOverThis: Double?
        public var passed: Bool
        public var failures: [String]
        public var runs: [PeerRun]

        public init(_ r: Row) {
            scene = r.scene; items = r.items; engine = r.engine; threads = r.threads; version = r.last.version
            bodies = r.last.bodies; stepsPerSecMedian = r.median; stepsPerSecMin = r.minimum
            stepsPerSecMax = r.maximum; msPerStep = r.msPerStep; oursOverThis = r.oursOverThis
            failures = r.failures; passed = failures.isEmpty; runs = r.runs
        }

        enum CodingKeys: String, CodingKey {
            case scene, items, engine, threads, version, bodies, passed, failures, runs
            case stepsPerSecMedian = "steps_per_sec_median", stepsPerSecMin = "steps_per_sec_min"
            case stepsPerSecMax = "steps_per_sec_max", msPerStep = "ms_per_step", oursOverThis = "ours_over_this"
        }
    }
}

/// The engines `dynamics-bench peers` knows, by their `--engines` names, and what each can do.
public enum PeerEngines {
    /// The engines with a driver in `Peers/` (plus `ours`). A source-built Box2D v3
    /// (`--box2d-source`) is named after its version, e.g. `box2d3.2`.
    public static let all = ["ours", "box2d", "chipmunk", "box2d3"]

    /// Parses `--engines`; `ours` becomes `PeerComparison.ours`. Order is kept. `extra` names
    /// engines known for this run only (the source-built Box2D).
    public static func parse(_ text: String, extra: [String] = []) throws -> [String] {
        var out: [String] = []
        let known = all + extra
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard known.contains(name) || name == PeerComparison.ours else {
                let hint = isBox2DSource(name) && extra.isEmpty ? " (a source-built Box2D needs --box2d-source DIR)" : ""
                throw BenchUsageError("--engines: unknown engine '\(name)' (known: \(known.joined(separator: ", ")))\(hint)")
            }
            let engine = name == "ours" ? PeerComparison.ours : name
            if !out.contains(engine) { out.append(engine) }
        }
        return out
    }

    /// A source-built Box2D v3's engine name (`box2d3.2`, `box2d3.1`, …).
    public static func isBox2DSource(_ engine: String) -> Bool {
        engine.hasPrefix("box2d3.")
    }

    /// Engines that step with several workers (run at every `--threads` count); Box2D 2.4 and
    /// Chipmunk run on one thread.
    public static func isMultiThreaded(_ engine: String) -> Bool {
        engine == PeerComparison.ours || engine == "box2d3" || isBox2DSource(engine)
    }

    /// Engines that can run with sleeping on (`peers --sleep`).
    public static func hasSleepOption(_ engine: String) -> Bool { isMultiThreaded(engine) }

    /// The `engine` field the engine's driver prints (every Box2D v3 build prints `box2d3`).
    public static func reportedName(_ engine: String) -> String {
        isBox2DSource(engine) ? "box2d3" : engine
    }

    /// Where the engine's library comes from, for the description lines (nil: said elsewhere).
    public static func origin(_ engine: String, source: String?) -> String? {
        if engine == "box2d3" { return "pyb2d3 \(Box2D3Wheel.version) wheel, SSE2" }
        if isBox2DSource(engine), let source { return "built from \(source)" }
        return nil
    }
}

/// Box2D 3.1.1 as the pyb2d3 0.11.1 wheel ships it: `include/box2d/*.h` and `lib64/libbox2d.a`
/// (SSE2), unpacked by `scripts/install-deps --peers` into `.build/peers/box2d3/`.
public enum Box2D3Wheel {
    public static let version = "0.11.1"
    /// The folder under the peers build folder.
    public static let folder = "box2d3"
    public static let header = "include/box2d/box2d.h"
    public static let library = "lib64/libbox2d.a"

    /// The compiler arguments (after the compiler) that build `Peers/box2d3_driver.c` against
    /// the unpacked wheel in `root`.
    public static func compileArguments(driver: String, root: String, output: String) -> [String] {
        ["-O2", "-DNDEBUG", "-std=c11", "-pthread", "-I", root + "/include", "-o", output, driver,
         root + "/" + library, "-lm"]
    }
}

/// How a Box2D v3 source tree (`peers --box2d-source DIR`) is compiled.
public enum Box2D3SourceBuild {
    /// The version in `src/core.c`'s `b2GetVersion` (`.major = 3, .minor = 2, .revision = 0`).
    public static func version(coreC text: String) -> (major: Int, minor: Int, revision: Int)? {
        guard let body = text.range(of: "b2GetVersion") else { return nil }
        let tail = String(text[body.upperBound...].prefix(400))
        if let major = fieldIn(tail, "major"), let minor = fieldIn(tail, "minor") {
            return (major, minor, fieldIn(tail, "revision") ?? 0)
        }
        // 3.0 writes `(b2Version){ 3, 0, 0 }`.
        guard let open = tail.firstIndex(of: "{"), let brace = tail[tail.index(after: open)...].firstIndex(of: "{"),
              let close = tail[brace...].firstIndex(of: "}") else { return nil }
        let numbers = tail[tail.index(after: brace)..<close].split(separator: ",")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard numbers.count == 3 else { return nil }
        return (numbers[0], numbers[1], numbers[2])
    }

    private static func fieldIn(_ text: String, _ name: String) -> Int? {
        guard let range = text.range(of: "." + name) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "=" }
        return Int(rest.prefix { $0.isNumber })
    }

    /// The engine name of a source tree at `version`: `box2d3.2`.
    public static func engineName(major: Int, minor: Int) -> String { "box2d\(major).\(minor)" }

    /// Whether `/proc/cpuinfo`'s text lists the avx2 flag.
    public static func hasAVX2(cpuinfo: String) -> Bool {
        cpuinfo.split(whereSeparator: \.isNewline).contains { line in
            line.hasPrefix("flags") && line.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains("avx2")
        }
    }

    /// The flags for Box2D's own `src/*.c`: `-O2 -ffp-contract=off -DNDEBUG`, AVX2 when the
    /// processor has it, and the tree's include folders.
    public static func libraryFlags(source: String, avx2: Bool) -> [String] {
        ["-std=c17", "-O2", "-ffp-contract=off", "-DNDEBUG"] + (avx2 ? ["-mavx2", "-DBOX2D_AVX2"] : [])
            + ["-I", source + "/include", "-I", source + "/src"]
    }

    /// The driver's arguments: compiled with the library's flags, `-DB2_V32` for 3.2 and later
    /// (Box2D schedules its own workers), linked with the objects.
    public static func driverArguments(driver: String, source: String, avx2: Bool, v32: Bool, objects: [String],
                                       output: String) -> [String] {
        ["-std=c11", "-O2", "-ffp-contract=off", "-DNDEBUG", "-pthread"] + (avx2 ? ["-mavx2", "-DBOX2D_AVX2"] : [])
            + (v32 ? ["-DB2_V32"] : []) + ["-I", source + "/include", "-o", output, driver] + objects + ["-lm"]
    }

    /// FNV-1a, 64 bits: names the build folder after the sources and flags.
    public static func fnv1a(_ bytes: some Sequence<UInt8>, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = seed
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}

extension PeerRun {
    /// The command-line arguments of a peer driver: `<scene> <items> <steps> <warmup>`, and for
    /// Box2D v3 `<threads>`, `sleep` when sleeping is on, `rolling=C` for a rolling resistance
    /// and `seed=S` for a seed other than 0.
    public static func driverArguments(engine: String, scene: String, items: Int, steps: Int, warmup: Int,
                                       threads: Int, sleep: Bool, rollingResistance: Float = 0,
                                       seed: UInt64 = 0) -> [String] {
        var out = [scene, "\(items)", "\(steps)", "\(warmup)"]
        if PeerEngines.reportedName(engine) == "box2d3" {
            out.append("\(threads)")
            if sleep { out.append("sleep") }
            if rollingResistance > 0 { out.append("rolling=\(rollingResistance)") }
            if seed != 0 { out.append("seed=\(seed)") }
        }
        return out
    }
}
