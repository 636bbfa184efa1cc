import ArgumentParser
import BenchSupport
import DynamicsFuzzing
import Foundation

/// Options shared by `fuzz` and `fuzz-api`: how long to run, the run's seed, one case (a world
/// or a call sequence) replayed alone, how much to print and whether cases run in forked
/// children. Also the start and the violation summary both commands print.
struct FuzzRunOptions: ParsableArguments {
    @Option(help: "Run for this many minutes (new cases stop starting after it).")
    var minutes: Double?

    @Option(help: "The run's seed (decimal or 0x-hex).")
    var seed: String?

    @Option(help: "Replay one case (a world or a sequence) by its own seed, as printed with a violation.")
    var replay: String?

    @Flag(help: "Print every call (with --replay: of that case).")
    var verbose = false

    @Flag(help: "Run each case in a forked child, so a crash is reported and the run goes on (default with --minutes).")
    var keepGoing = false

    /// Checks the options — the command's own per-case count `perCase` (option
    /// `perCaseName`), the case count `count` (option `countName`) and `--minutes` — and
    /// installs the crash handlers (which print the replay line). Returns how many cases to
    /// run (see `limit(_:_:)`).
    func start(count: Int?, _ countName: String, perCase: Int, _ perCaseName: String) throws -> Int? {
        guard perCase > 0 else { throw BenchUsageError("\(perCaseName) must be positive (got \(perCase))") }
        let cases = try limit(count, countName)
        if let minutes, !(minutes > 0 && minutes.isFinite) { throw BenchUsageError("--minutes must be positive (got \(minutes))") }
        CrashReplay.installHandlers()
        return cases
    }

    /// The seed of the case to replay alone, if any, announced as `name: replaying UNIT SEED
    /// with SETTING` (`setting`: the command's per-case option, which the replay needs).
    func replaySeed(_ name: String, unit: String, with setting: String) throws -> UInt64? {
        guard let replay else { return nil }
        let caseSeed = try Self.parseSeed(replay, option: "--replay")
        say("\(name): replaying \(unit) \(replay) with \(setting)")
        return caseSeed
    }

    /// The run's seed (`--seed`, else `fallback`), announced with the run's first line:
    /// `name: seed 0x…, N cases (or no limit), M min, what each case does`.
    func runSeed(_ name: String, default fallback: UInt64, limit: Int?, unit: String, each: String) throws -> UInt64 {
        let runSeed = try seed.map { try Self.parseSeed($0, option: "--seed") } ?? fallback
        say("\(name): seed 0x\(String(runSeed, radix: 16)), \(limit.map { "\($0) \(unit)s" } ?? "no \(unit) limit")\(minutes.map { ", \($0) min" } ?? ""), \(each)")
        return runSeed
    }

    /// How many cases to run: `count` (option `name`, checked positive), else 2000 without
    /// `--minutes` and no limit with it.
    func limit(_ count: Int?, _ name: String) throws -> Int? {
        if let count, count <= 0 { throw BenchUsageError("\(name) must be positive (got \(count))") }
        return count ?? (minutes == nil ? 2_000 : nil)
    }

    /// Whether each case runs in a forked child.
    var isolate: Bool { keepGoing || minutes != nil }

    /// Every call of a replayed case, printed with `--verbose`.
    var callLog: ((String) -> Void)? { verbose ? { say($0) } : nil }

    /// The end of a replayed case: its violations, the `notes` lines, then `summary` with the
    /// violation count. Exit status 1 on any violation.
    static func endReplay(violations: [some CustomStringConvertible], notes: [String] = [], summary: String) throws {
        for v in violations { say("violation: \(v)") }
        for line in notes { say(line) }
        say("\(summary), violations: \(violations.count)")
        try exitStatus(violations: violations.count)
    }

    /// Exit status 1 when there were violations.
    static func exitStatus(violations count: Int) throws {
        if count > 0 { throw ExitCode(1) }
    }

    /// The violations' summary: the first of each kind (`firsts`, one line each) and the count
    /// per kind (`kinds`: every violation's kind).
    static func sayViolations(firsts: [String], kinds: [String]) {
        say("\nviolations (first of each kind):")
        for line in firsts { say("  " + line) }
        let counts = Dictionary(grouping: kinds, by: { $0 }).mapValues(\.count)
        say("\nby kind: " + counts.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
    }

    /// A seed in decimal or with a 0x prefix in hex.
    static func parseSeed(_ text: String, option: String) throws -> UInt64 {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value = t.hasPrefix("0x") ? UInt64(t.dropFirst(2).replacingOccurrences(of: "_", with: ""), radix: 16) : UInt64(t)
        guard let value else { throw BenchUsageError("\(option) must be a 64-bit number, decimal or 0x-hex (got '\(text)')") }
        return value
    }
}
