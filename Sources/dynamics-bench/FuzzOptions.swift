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

    /// Checks `--minutes` and installs the crash handlers (which print the replay line).
    func start() throws {
        if let minutes, !(minutes > 0 && minutes.isFinite) { throw BenchUsageError("--minutes must be positive (got \(minutes))") }
        CrashReplay.installHandlers()
    }

    /// The seed of the case to replay alone, if any.
    func replaySeed() throws -> UInt64? { try replay.map { try Self.parseSeed($0, option: "--replay") } }

    /// The run's seed (`--seed`, else `fallback`).
    func runSeed(default fallback: UInt64) throws -> UInt64 { try seed.map { try Self.parseSeed($0, option: "--seed") } ?? fallback }

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

    /// The run's first line: `name: seed 0x…, N cases (or no limit), M min, what each case does`.
    func sayStart(_ name: String, seed: UInt64, limit: Int?, unit: String, each: String) {
        say("\(name): seed 0x\(String(seed, radix: 16)), \(limit.map { "\($0) \(unit)s" } ?? "no \(unit) limit")\(minutes.map { ", \($0) min" } ?? ""), \(each)")
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
