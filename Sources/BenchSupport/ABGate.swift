import Foundation

/// One configuration `dynamics-bench ab` measures: a scene, its size (nil: the executable's
/// default for the scene) and a worker count.
public struct ABConfig: Hashable, Sendable, CustomStringConvertible {
    public var scene: String
    public var items: Int?
    public var threads: Int

    public init(scene: String, items: Int?, threads: Int) {
        self.scene = scene; self.items = items; self.threads = threads
    }

    /// The arguments of one measurement: `run SCENE [--items N] --steps S --threads T --repeat 1 --format json`.
    public func runArguments(steps: Int) -> [String] {
        var a = ["run", scene]
        if let items { a += ["--items", "\(items)"] }
        a += ["--steps", "\(steps)", "--threads", "\(threads)", "--repeat", "1", "--format", "json"]
        return a
    }

    public var description: String { "\(scene) \(items.map(String.init) ?? "(default)") ×\(threads)" }
}

/// What `ab` compares: steps per second of CPU time (the default) or of wall-clock time.
public enum ABMetric: String, Sendable, Codable, Equatable, CaseIterable {
    /// `cpu_steps_per_second`: timed steps per second of process CPU time. Time the process
    /// spent waiting for a CPU on a shared machine does not count.
    case cpu
    /// `steps_per_second`: timed steps per second of wall-clock time.
    case wall
}

/// Which executable a run uses.
public enum ABSide: String, Sendable, Codable, Equatable {
    case baseline, candidate
}

/// The verdict on one configuration of an A/B comparison.
public enum ABVerdict: String, Sendable, Codable, Equatable {
    /// No slowdown beyond the threshold (and the interval is narrow enough to say so).
    case ok
    /// Faster than the baseline by more than the threshold, significantly.
    case faster
    /// Slower by more than the threshold, but not significantly (p ≥ 0.01): passes.
    case slowerNotSignificant = "slower-not-significant"
    /// Slower by more than the threshold and significantly (p < 0.01): fails (exit 1).
    case regressed
    /// Not a regression, but the 95 % interval of the ratio is wider than twice the threshold
    /// and reaches below 1 − threshold: the rounds disagree too much to tell a threshold-sized
    /// slowdown from none (exit 3).
    case inconclusive

    public var label: String {
        switch self {
        case .ok: return "ok"
        case .faster: return "faster"
        case .slowerNotSignificant: return "slower, not significant"
        case .regressed: return "REGRESSED"
        case .inconclusive: return "INCONCLUSIVE"
        }
    }
}

/// The statistics of one configuration: both sides' steps/s per round and what follows.
public struct ABRow: Sendable, Codable, Equatable {
    public var scene: String
    public var items: Int?
    public var threads: Int
    /// Steps per second of each baseline run, in round order.
    public var baselineRuns: [Double]
    public var candidateRuns: [Double]
    public var baselineMedian: Double
    public var candidateMedian: Double
    /// candidate / baseline steps/s: exp of the Hodges–Lehmann shift of the log speeds
    /// (below 1: the candidate is slower).
    public var ratio: Double
    /// The 95 % confidence interval of `ratio` (Moses' distribution-free interval).
    public var ratioLow: Double
    public var ratioHigh: Double
    /// Two-sided Mann–Whitney p-value of "baseline and candidate speeds have one distribution".
    public var pValue: Double
    /// Mann–Whitney U: pairs (baseline run, candidate run) with the candidate faster.
    public var u: Double
    /// Whether `pValue` is exact (no ties) or the normal approximation.
    public var exact: Bool
    public var verdict: ABVerdict
    /// The figure compared: `cpu` unless a run did not report CPU steps/s (an executable
    /// older than the field), then `wall` for this configuration.
    public var metric: ABMetric = .cpu

    enum CodingKeys: String, CodingKey {
        case scene, items, threads, ratio, u, exact, verdict, metric
        case baselineRuns = "baseline_runs", candidateRuns = "candidate_runs"
        case baselineMedian = "baseline_median", candidateMedian = "candidate_median"
        case ratioLow = "ratio_ci95_low", ratioHigh = "ratio_ci95_high", pValue = "p_value"
    }

    /// Width of the 95 % interval of the ratio (0.06 = 6 percentage points): the spread the
    /// inconclusive rule looks at.
    public var spread: Double { ratioHigh - ratioLow }
}

/// The JSON report of `dynamics-bench ab --format json` / `--out FILE`.
public struct ABReport: Sendable, Codable, Equatable {
    public static let formatName = "dynamics-bench-ab"
    public var format = ABReport.formatName
    public var version = 1
    public var date: String
    public var baseline: String
    public var candidate: String
    public var rounds: Int
    public var steps: Int
    /// `--max-regression` as a fraction.
    public var maxRegression: Double
    /// The p-value below which a slowdown counts (0.01).
    public var significance: Double
    public var machine: MachineInfo?
    public var results: [ABRow]
    /// 0 pass, 1 regression, 3 inconclusive.
    public var exitStatus: Int32

    public init(date: String = ResultFile.now(), baseline: String, candidate: String, rounds: Int, steps: Int,
                maxRegression: Double, significance: Double = ABGate.significance, machine: MachineInfo?,
                results: [ABRow]) {
        self.date = date; self.baseline = baseline; self.candidate = candidate; self.rounds = rounds
        self.steps = steps; self.maxRegression = maxRegression; self.significance = significance
        self.machine = machine; self.results = results
        self.exitStatus = ABGate.exitStatus(results)
    }

    enum CodingKeys: String, CodingKey {
        case format, version, date, baseline, candidate, rounds, steps, significance, machine, results
        case maxRegression = "max_regression", exitStatus = "exit_status"
    }

    public func encoded() throws -> Data {
        var data = try BenchJSON.encoder(pretty: true).encode(self)
        data.append(0x0A)
        return data
    }
}

/// The statistics and rules of `dynamics-bench ab` (pure functions; the CLI runs the processes).
///
/// Per configuration, with `b` the baseline's and `c` the candidate's steps/s over the rounds:
/// - ratio = exp(Hodges–Lehmann shift of ln c against ln b), i.e. the median of the
///   `rounds²` ratios c[j] / b[i]; its 95 % interval is Moses' distribution-free interval
///   from the same differences.
/// - p = the two-sided Mann–Whitney p-value of b against c (exact without ties).
/// - **regressed** when ratio < 1 − threshold and p < 0.01;
///   **inconclusive** when not regressed, ratioHigh − ratioLow > 2 × threshold and
///   ratioLow < 1 − threshold (a wide interval entirely above 1 − threshold passes);
///   **faster** when ratio > 1 + threshold and p < 0.01;
///   **slower, not significant** when ratio < 1 − threshold but p ≥ 0.01; else **ok**.
/// Exit status: 1 if any configuration regressed, else 3 if any is inconclusive, else 0.
public enum ABGate {
    /// A slowdown counts only with a two-sided p-value below this.
    public static let significance = 0.01
    /// The confidence level of the ratio's interval.
    public static let level = 0.95
    /// The fewest rounds with which p < 0.01 can be reached (two-sided exact minimum p for
    /// 5 against 5 is 2/252 ≈ 0.008; for 4 against 4 it is 2/70 ≈ 0.029).
    public static let minimumRounds = 5

    /// The measurement order of round `round` (0-based): baseline first in even rounds,
    /// candidate first in odd ones (AB BA AB …), so a drift within a round or an advantage of
    /// running first or second falls on both sides alike.
    public static func order(round: Int) -> [ABSide] {
        round % 2 == 0 ? [.baseline, .candidate] : [.candidate, .baseline]
    }

    /// Judges one configuration. - Precondition: both samples non-empty, finite and positive.
    public static func judge(_ config: ABConfig, baseline b: [Double], candidate c: [Double],
                             threshold: RegressionThreshold, metric: ABMetric = .cpu) -> ABRow {
        precondition(!b.isEmpty && !c.isEmpty, "ABGate.judge: no runs")
        precondition((b + c).allSatisfy { $0.isFinite && $0 > 0 }, "ABGate.judge: steps/s must be finite and positive")
        let lb = b.map { log($0) }, lc = c.map { log($0) }
        let hl = HodgesLehmann(lb, lc, level: level)
        let mw = MannWhitney(b, c)
        let ratio = exp(hl.estimate), low = exp(hl.lower), high = exp(hl.upper)
        let p = mw.twoSided
        let f = threshold.fraction
        let verdict: ABVerdict
        if ratio < 1 - f && p < significance {
            verdict = .regressed
        } else if !(high - low <= 2 * f) && low < 1 - f {
            verdict = .inconclusive
        } else if ratio > 1 + f && p < significance {
            verdict = .faster
        } else if ratio < 1 - f {
            verdict = .slowerNotSignificant
        } else {
            verdict = .ok
        }
        return ABRow(scene: config.scene, items: config.items, threads: config.threads,
                     baselineRuns: b, candidateRuns: c, baselineMedian: median(b), candidateMedian: median(c),
                     ratio: ratio, ratioLow: low, ratioHigh: high, pValue: p, u: mw.u, exact: mw.exact,
                     verdict: verdict, metric: metric)
    }

    /// 1 if any row regressed, else 3 if any is inconclusive, else 0.
    public static func exitStatus(_ rows: [ABRow]) -> Int32 {
        if rows.contains(where: { $0.verdict == .regressed }) { return 1 }
        if rows.contains(where: { $0.verdict == .inconclusive }) { return 3 }
        return 0
    }

    /// `--scenes pile:1000,pyramid:20,mix` → (scene, items or nil) in order; duplicates removed.
    public static func parseScenes(_ text: String) throws -> [(scene: String, items: Int?)] {
        var out: [(scene: String, items: Int?)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let s = part.trimmingCharacters(in: .whitespaces)
            let fields = s.split(separator: ":", omittingEmptySubsequences: false)
            guard !s.isEmpty, fields.count <= 2, !fields[0].isEmpty else {
                throw BenchUsageError("bad --scenes '\(text)': expected SCENE[:ITEMS],… e.g. pile:1000,pyramid:20")
            }
            var items: Int?
            if fields.count == 2 {
                guard let n = Int(fields[1]), n > 0 else {
                    throw BenchUsageError("bad --scenes '\(text)': the size after ':' must be a positive integer (got '\(fields[1])')")
                }
                items = n
            }
            let entry = (scene: String(fields[0]), items: items)
            if !out.contains(where: { $0.scene == entry.scene && $0.items == entry.items }) { out.append(entry) }
        }
        return out
    }

    /// The report as a text table plus a verdict line.
    public static func render(_ report: ABReport) -> String {
        let threshold = RegressionThreshold(fraction: report.maxRegression)
        let header = ["scene", "items", "workers", "metric", "baseline steps/s", "candidate steps/s", "ratio", "95% CI",
                      "p", "verdict"]
        func pct(_ r: Double) -> String {
            let p = (r - 1) * 100
            return (p >= 0 ? "+" : "") + String(format: "%.1f%%", p)
        }
        let rows = report.results.map { r -> [String] in
            [r.scene, r.items.map(String.init) ?? "default", "\(r.threads)", r.metric.rawValue,
             TextTable.fixed(r.baselineMedian, 1), TextTable.fixed(r.candidateMedian, 1),
             "\(TextTable.fixed(r.ratio, 3)) (\(pct(r.ratio)))",
             "\(TextTable.fixed(r.ratioLow, 3))–\(TextTable.fixed(r.ratioHigh, 3))",
             formatP(r.pValue), r.verdict.label]
        }
        var out = TextTable.grid(header: header, rows: rows, rightAligned: [1, 2, 4, 5, 6, 7, 8])
        out += "\n\nsteps/s: medians per CPU second (metric cpu) or wall second (wall); ratio = candidate/baseline "
        out += "(Hodges–Lehmann, \(report.rounds) rounds of each, alternating order); p = two-sided Mann–Whitney\n"
        let regressed = report.results.filter { $0.verdict == .regressed }
        let unclear = report.results.filter { $0.verdict == .inconclusive }
        switch report.exitStatus {
        case 1:
            out += "FAIL: \(regressed.count) of \(report.results.count) configurations slower by more than \(threshold) with p < \(report.significance)"
        case 3:
            out += "INCONCLUSIVE: the rounds disagree too much to decide: "
            out += unclear.map { "\($0.scene) ×\($0.threads) 95% CI spans \(String(format: "%.1f", $0.spread * 100)) points" }
                .joined(separator: ", ")
            out += " (more than 2 × \(threshold)); rerun on a quieter machine or with more --rounds"
        default:
            out += "PASS: no configuration slower by more than \(threshold) with p < \(report.significance) (\(report.results.count) compared)"
        }
        return out
    }

    static func formatP(_ p: Double) -> String {
        p < 0.001 ? String(format: "%.1e", p) : String(format: "%.3f", p)
    }
}
