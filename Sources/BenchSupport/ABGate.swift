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
    /// Not slower by the threshold or more (the interval's low end is above 1 − threshold).
    case ok
    /// Passes, and faster than the baseline by more than the threshold: the whole interval
    /// is above 1 and the ratio above 1 + threshold.
    case faster
    /// Passes: slower for certain (the whole interval is below 1), but by less than the threshold.
    case slowerWithinThreshold = "slower-within-threshold"
    /// Slower by more than half the threshold for certain (the interval's high end is below
    /// 1 − threshold / 2): fails (exit 1).
    case regressed
    /// The budget (`--max-rounds` or `--budget`) ran out before either could be said (exit 3).
    case inconclusive
    /// Not decided, and not measured further: another configuration regressed, which decides
    /// the comparison (unless `ABPlan.decideAll`).
    case stopped

    public var label: String {
        switch self {
        case .ok: return "ok"
        case .faster: return "faster"
        case .slowerWithinThreshold: return "slower, within threshold"
        case .regressed: return "REGRESSED"
        case .inconclusive: return "INCONCLUSIVE"
        case .stopped: return "stopped (the gate failed)"
        }
    }

    /// True for the verdicts that let the gate pass.
    public var passes: Bool { self == .ok || self == .faster || self == .slowerWithinThreshold }
}

/// One run's figures: steps per wall-clock second and, when the executable reports it, per
/// CPU second of the process.
public struct ABSpeeds: Sendable, Equatable {
    public var wall: Double
    public var cpu: Double?

    public init(wall: Double, cpu: Double?) { self.wall = wall; self.cpu = cpu }
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
    /// The median over the rounds of candidate / baseline steps/s of the round (below 1: the
    /// candidate is slower).
    public var ratio: Double
    /// The confidence sequence of that median at the last round (`ABRule`); nil while too few
    /// rounds bound it.
    public var ratioLow: Double?
    public var ratioHigh: Double?
    /// The rounds this configuration took (each one run of each executable).
    public var rounds: Int
    public var verdict: ABVerdict
    /// The figure compared: `cpu` unless a run did not report CPU steps/s (an executable
    /// older than the field), then `wall` for this configuration.
    public var metric: ABMetric = .cpu

    public init(scene: String, items: Int?, threads: Int, baselineRuns: [Double], candidateRuns: [Double],
                ratio: Double, ratioLow: Double?, ratioHigh: Double?, verdict: ABVerdict, metric: ABMetric) {
        self.scene = scene; self.items = items; self.threads = threads
        self.baselineRuns = baselineRuns; self.candidateRuns = candidateRuns
        self.baselineMedian = median(baselineRuns); self.candidateMedian = median(candidateRuns)
        self.ratio = ratio; self.ratioLow = ratioLow; self.ratioHigh = ratioHigh
        self.rounds = min(baselineRuns.count, candidateRuns.count)
        self.verdict = verdict; self.metric = metric
    }

    enum CodingKeys: String, CodingKey {
        case scene, items, threads, ratio, rounds, verdict, metric
        case baselineRuns = "baseline_runs", candidateRuns = "candidate_runs"
        case baselineMedian = "baseline_median", candidateMedian = "candidate_median"
        case ratioLow = "ratio_low", ratioHigh = "ratio_high"
    }

    /// "pile 1000 ×1".
    public var configurationName: String { "\(scene) \(items.map(String.init) ?? "(default)") ×\(threads)" }
}

/// The sequential rule of `dynamics-bench ab` for one comparison (see `ABGate`).
///
/// Per configuration, after each round n, with d_i = ln(candidate_i / baseline_i) of round i:
/// the median of the d's is bounded by a `MedianConfidenceSequence` — from below at level
/// `passLevel`, from above at level `regressLevel` — and
/// - **pass** once the lower bound is above ln(1 − f) (not slower by the threshold f);
/// - **regressed** once the upper bound is below ln(1 − f/2) (slower by more than half of it);
/// - otherwise measure another round.
/// The bounds hold at every round at once, so looking after every round does not raise the
/// error rates: a candidate no slower than f/2 in every configuration fails with probability
/// at most `falseAlarm` (its `regressLevel`s add up to it), and a configuration slower by f
/// or more passes with probability at most `falseAlarm`. Between f/2 and f either verdict may come.
public struct ABRule: Sendable, Equatable {
    public let threshold: RegressionThreshold
    /// The largest probability of failing a candidate that is not slower by f/2 anywhere, however
    /// many rounds are taken.
    public let falseAlarm: Double
    /// Configurations compared (the false-alarm level is split among them).
    public let configurations: Int
    /// Precomputed `MedianConfidenceSequence.requiredCount` for each round count, both levels.
    private let passCounts: [Int?], failCounts: [Int?]

    /// - Parameter maxRounds: the most rounds the rule will be asked about (more are computed on demand).
    public init(threshold: RegressionThreshold, falseAlarm: Double = ABGate.defaultFalseAlarm, configurations: Int,
                maxRounds: Int = 40) {
        precondition(falseAlarm > 0 && falseAlarm < 1, "ABRule: the false-alarm level must be in (0, 1)")
        precondition(configurations >= 1, "ABRule: at least one configuration")
        precondition(threshold.fraction > 0 && threshold.fraction < 1, "ABRule: the threshold must be in (0, 1)")
        self.threshold = threshold; self.falseAlarm = falseAlarm; self.configurations = configurations
        let p = falseAlarm, r = falseAlarm / Double(configurations)
        passCounts = (0...max(0, maxRounds)).map { MedianConfidenceSequence.requiredCount(trials: $0, level: p) }
        failCounts = (0...max(0, maxRounds)).map { MedianConfidenceSequence.requiredCount(trials: $0, level: r) }
    }

    /// The level of each configuration's lower bound (a wrong pass).
    public var passLevel: Double { falseAlarm }
    /// The level of each configuration's upper bound (a wrong failure): `falseAlarm` split
    /// evenly over the configurations.
    public var regressLevel: Double { falseAlarm / Double(configurations) }
    /// A configuration passes once the ratio's lower bound is above this (1 − f).
    public var passAbove: Double { 1 - threshold.fraction }
    /// A configuration regressed once the ratio's upper bound is below this (1 − f/2).
    public var failBelow: Double { 1 - threshold.fraction / 2 }

    /// Rounds above ln(1 − f) needed after `n` rounds for a pass (nil: none suffice yet).
    public func passCount(rounds n: Int) -> Int? {
        n < passCounts.count ? passCounts[n] : MedianConfidenceSequence.requiredCount(trials: n, level: passLevel)
    }

    /// Rounds below ln(1 − f/2) needed after `n` rounds for a regression.
    public func failCount(rounds n: Int) -> Int? {
        n < failCounts.count ? failCounts[n] : MedianConfidenceSequence.requiredCount(trials: n, level: regressLevel)
    }

    /// The fewest rounds after which a pass, and a regression, can be said at all.
    public var fewestRounds: (pass: Int, regression: Int) {
        var n = 1
        while passCount(rounds: n) == nil { n += 1 }
        var m = 1
        while failCount(rounds: m) == nil { m += 1 }
        return (n, m)
    }

    /// The ratio's bounds after the rounds of `logRatios` (ln candidate/baseline per round);
    /// nil where too few rounds bound it.
    public func bounds(logRatios d: [Double]) -> (low: Double?, high: Double?) {
        let up = d.sorted(by: >), down = d.sorted()
        let low = passCount(rounds: d.count).map { exp(up[$0 - 1]) }
        let high = failCount(rounds: d.count).map { exp(down[$0 - 1]) }
        return (low, high)
    }

    /// The verdict after the rounds so far, or nil to measure another round.
    /// - Precondition: both series have the same length, finite positive values.
    public func decide(baseline b: [Double], candidate c: [Double]) -> ABVerdict? {
        let d = Self.logRatios(baseline: b, candidate: c)
        return decide(logRatios: d)
    }

    /// `decide` on ln(candidate/baseline) of each round.
    public func decide(logRatios d: [Double]) -> ABVerdict? {
        let n = d.count
        let lo = log(passAbove), hi = log(failBelow)
        if let k = passCount(rounds: n), d.count(where: { $0 > lo }) >= k {
            let (low, high) = bounds(logRatios: d)
            if let low, low > 1, exp(BenchSupport.median(d)) > 1 + threshold.fraction { return .faster }
            if let high, high < 1 { return .slowerWithinThreshold }
            return .ok
        }
        if let k = failCount(rounds: n), d.count(where: { $0 < hi }) >= k { return .regressed }
        return nil
    }

    static func logRatios(baseline b: [Double], candidate c: [Double]) -> [Double] {
        precondition(b.count == c.count, "ABRule: one baseline and one candidate run per round")
        precondition((b + c).allSatisfy { $0.isFinite && $0 > 0 }, "ABRule: steps/s must be finite and positive")
        return zip(b, c).map { log($0.1) - log($0.0) }
    }
}

/// Why a sequential comparison stopped measuring.
public enum ABStop: String, Sendable, Codable, Equatable {
    /// Every configuration was decided.
    case decided
    /// `--max-rounds` rounds were taken with a configuration still undecided.
    case maxRounds = "max-rounds"
    /// The next round would not have fitted in `--budget` seconds.
    case budget
    /// A configuration regressed, which decides the comparison; the others still undecided
    /// were stopped (`ABPlan.decideAll` measures them on).
    case regressed
}

/// How `ABGate.run` measures: rounds every configuration takes first, the most rounds, an
/// optional wall-clock budget, and the rule.
public struct ABPlan: Sendable {
    /// Rounds every configuration takes before the rule may stop it.
    public var rounds: Int
    /// The most rounds of any configuration.
    public var maxRounds: Int
    /// Seconds the whole comparison may take: a round starts only when it is expected (from
    /// the last round of the configurations still measured) to end within the budget.
    public var budget: Double?
    public var rule: ABRule
    /// What to compare (cpu falls back to wall per configuration when a run lacks CPU figures).
    public var metric: ABMetric
    /// Measure every configuration to its own verdict (`--decide-all`); false: stop when one
    /// regressed, since that decides the comparison.
    public var decideAll: Bool

    public init(rounds: Int, maxRounds: Int, budget: Double? = nil, rule: ABRule, metric: ABMetric = .cpu,
                decideAll: Bool = false) {
        precondition(rounds >= 1 && maxRounds >= rounds, "ABPlan: need 1 ≤ rounds ≤ maxRounds")
        self.rounds = rounds; self.maxRounds = maxRounds; self.budget = budget; self.rule = rule; self.metric = metric
        self.decideAll = decideAll
    }
}

/// What `ABGate.run` measured and decided.
public struct ABOutcome: Sendable {
    public var rows: [ABRow]
    public var stop: ABStop
    public var seconds: Double
}

/// The JSON report of `dynamics-bench ab --format json` / `--out FILE`.
public struct ABReport: Sendable, Codable, Equatable {
    public static let formatName = "dynamics-bench-ab"
    public var format = ABReport.formatName
    public var version = 2
    public var date: String
    public var baseline: String
    public var candidate: String
    /// `--rounds`: rounds every configuration took before the rule could stop it.
    public var rounds: Int
    /// `--max-rounds`.
    public var maxRounds: Int
    /// `--budget` in seconds (nil: none).
    public var budgetSeconds: Double?
    /// Wall-clock seconds the comparison took.
    public var seconds: Double
    public var steps: Int
    /// `--max-regression` as a fraction.
    public var maxRegression: Double
    /// `--false-alarm` as a fraction.
    public var falseAlarm: Double
    /// Why measuring stopped.
    public var stop: ABStop
    public var machine: MachineInfo?
    public var results: [ABRow]
    /// 0 pass, 1 regression, 3 inconclusive.
    public var exitStatus: Int32

    public init(date: String = ResultFile.now(), baseline: String, candidate: String, rounds: Int, maxRounds: Int,
                budgetSeconds: Double? = nil, seconds: Double = 0, steps: Int, maxRegression: Double,
                falseAlarm: Double = ABGate.defaultFalseAlarm, stop: ABStop = .decided, machine: MachineInfo?,
                results: [ABRow]) {
        self.date = date; self.baseline = baseline; self.candidate = candidate; self.rounds = rounds
        self.maxRounds = maxRounds; self.budgetSeconds = budgetSeconds; self.seconds = seconds
        self.steps = steps; self.maxRegression = maxRegression; self.falseAlarm = falseAlarm; self.stop = stop
        self.machine = machine; self.results = results
        self.exitStatus = ABGate.exitStatus(results)
    }

    enum CodingKeys: String, CodingKey {
        case format, version, date, baseline, candidate, rounds, seconds, steps, stop, machine, results
        case maxRounds = "max_rounds", budgetSeconds = "budget_seconds", maxRegression = "max_regression"
        case falseAlarm = "false_alarm", exitStatus = "exit_status"
    }

    public func encoded() throws -> Data {
        var data = try BenchJSON.encoder(pretty: true).encode(self)
        data.append(0x0A)
        return data
    }
}

/// The statistics and rules of `dynamics-bench ab` (the CLI runs the processes through `run`).
///
/// Rounds alternate the order (AB BA AB …). Every configuration takes `ABPlan.rounds` rounds;
/// then each one still undecided by `ABRule` takes another round, and another, until the rule
/// decides it, `ABPlan.maxRounds` is reached or the budget would be exceeded — or until one
/// configuration regressed, which decides the comparison (unless `ABPlan.decideAll`). Per
/// configuration the report gives both medians, the ratio (the median over the rounds of
/// candidate/baseline steps/s of the round) and its bounds, the rounds taken and the verdict.
/// Exit status: 1 if any configuration regressed, else 3 if any is undecided (inconclusive:
/// the budget ran out), else 0.
public enum ABGate {
    /// `--false-alarm`: 1 %.
    public static let defaultFalseAlarm = 0.01
    /// `--rounds` may not be below this.
    public static let minimumRounds = 5

    /// The measurement order of round `round` (0-based): baseline first in even rounds,
    /// candidate first in odd ones (AB BA AB …), so a drift within a round or an advantage of
    /// running first or second falls on both sides alike.
    public static func order(round: Int) -> [ABSide] {
        round % 2 == 0 ? [.baseline, .candidate] : [.candidate, .baseline]
    }

    /// The series a configuration is judged on: CPU steps/s when `metric` is cpu and every run
    /// reported it, else wall-clock steps/s.
    public static func series(baseline b: [ABSpeeds], candidate c: [ABSpeeds], metric: ABMetric)
        -> (baseline: [Double], candidate: [Double], metric: ABMetric) {
        if metric == .cpu, (b + c).allSatisfy({ $0.cpu != nil }) {
            return (b.map { $0.cpu! }, c.map { $0.cpu! }, .cpu)
        }
        return (b.map(\.wall), c.map(\.wall), .wall)
    }

    /// The row of one configuration after its rounds: the rule's verdict, or inconclusive when
    /// it has none. - Precondition: one run of each side per round, finite and positive.
    public static func judge(_ config: ABConfig, baseline b: [Double], candidate c: [Double], rule: ABRule,
                             metric: ABMetric = .cpu) -> ABRow {
        precondition(!b.isEmpty, "ABGate.judge: no runs")
        let d = ABRule.logRatios(baseline: b, candidate: c)
        let (low, high) = rule.bounds(logRatios: d)
        return ABRow(scene: config.scene, items: config.items, threads: config.threads, baselineRuns: b, candidateRuns: c,
                     ratio: exp(median(d)), ratioLow: low, ratioHigh: high,
                     verdict: rule.decide(logRatios: d) ?? .inconclusive, metric: metric)
    }

    /// Measures `configs` by `plan`: `measure(config, side)` runs one executable once. `now`
    /// reads a clock in seconds (for the budget). `progress(round, undecided)` is called before
    /// each round.
    public static func run(_ configs: [ABConfig], plan: ABPlan, now: () -> Double,
                           progress: (Int, Int) -> Void = { _, _ in },
                           measure: (ABConfig, ABSide) throws -> ABSpeeds) rethrows -> ABOutcome {
        let start = now()
        var runs = [[ABSide: [ABSpeeds]]](repeating: [.baseline: [], .candidate: []], count: configs.count)
        var lastRound = [Double](repeating: 0, count: configs.count)
        var active = Array(configs.indices)
        var stop = ABStop.decided
        var round = 0
        while !active.isEmpty {
            if round >= plan.maxRounds { stop = .maxRounds; break }
            if let budget = plan.budget, round > 0,
               now() - start + active.reduce(0, { $0 + lastRound[$1] }) > budget {
                stop = .budget
                break
            }
            progress(round, active.count)
            for i in active {
                let t0 = now()
                for side in order(round: round) { runs[i][side]!.append(try measure(configs[i], side)) }
                lastRound[i] = now() - t0
            }
            round += 1
            if round >= plan.rounds {
                var regressed = false
                active.removeAll { i in
                    let s = series(baseline: runs[i][.baseline]!, candidate: runs[i][.candidate]!, metric: plan.metric)
                    let verdict = plan.rule.decide(baseline: s.baseline, candidate: s.candidate)
                    if verdict == .regressed { regressed = true }
                    return verdict != nil
                }
                if regressed && !plan.decideAll && !active.isEmpty { stop = .regressed; break }
            }
        }
        let rows = configs.indices.map { i -> ABRow in
            // (Every configuration took at least the first round: the budget is checked from the second.)
            let s = series(baseline: runs[i][.baseline]!, candidate: runs[i][.candidate]!, metric: plan.metric)
            var row = judge(configs[i], baseline: s.baseline, candidate: s.candidate, rule: plan.rule, metric: s.metric)
            if stop == .regressed && row.verdict == .inconclusive { row.verdict = .stopped }
            return row
        }
        return ABOutcome(rows: rows, stop: stop, seconds: now() - start)
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

    // MARK: rendering

    /// "+1.2%" / "−10.3%".
    static func change(_ r: Double) -> String {
        let p = (r - 1) * 100
        return (p >= 0 ? "+" : "−") + String(format: "%.1f%%", abs(p))
    }

    static func interval(_ r: ABRow) -> String {
        "\(r.ratioLow.map { TextTable.fixed($0, 3) } ?? "0")–\(r.ratioHigh.map { TextTable.fixed($0, 3) } ?? "∞")"
    }

    /// The one-line verdict: why the gate passed, failed or could not decide.
    public static func verdictLine(_ report: ABReport) -> String {
        let threshold = RegressionThreshold(fraction: report.maxRegression)
        let rounds = report.results.map(\.rounds)
        let span = rounds.min() == rounds.max() ? "\(rounds.max() ?? 0)" : "\(rounds.min() ?? 0)–\(rounds.max() ?? 0)"
        switch report.exitStatus {
        case 1:
            let bad = report.results.filter { $0.verdict == .regressed }.map { r in
                "\(r.configurationName) is \(String(format: "%.1f", (1 - r.ratio) * 100))% slower " +
                "(ratio \(TextTable.fixed(r.ratio, 3)), interval \(interval(r)), \(r.rounds) rounds)"
            }
            let stopped = report.results.filter { $0.verdict == .stopped }.count
            return "FAIL: " + bad.joined(separator: "; ") +
                " — slower than the baseline by more than half the \(threshold) threshold, for certain" +
                (stopped > 0 ? " (\(stopped) undecided configuration(s) not measured further)" : "")
        case 3:
            let why = report.stop == .budget
                ? "the \(String(format: "%g", report.budgetSeconds ?? 0)) s budget ran out"
                : "\(report.maxRounds) rounds (--max-rounds) did not decide"
            let open = report.results.filter { $0.verdict == .inconclusive }
                .map { "\($0.configurationName) (ratio \(TextTable.fixed($0.ratio, 3)), interval \(interval($0)), \($0.rounds) rounds)" }
            return "INCONCLUSIVE: \(why): " + open.joined(separator: ", ") +
                "; rerun on a quieter machine or with a larger --max-rounds or --budget"
        default:
            return "PASS: no configuration \(threshold) slower or more (\(report.results.count) compared, \(span) rounds)"
        }
    }

    static func cells(_ r: ABRow) -> [String] {
        [TextTable.fixed(r.baselineMedian, 1), TextTable.fixed(r.candidateMedian, 1),
         "\(TextTable.fixed(r.ratio, 3)) (\(change(r.ratio)))", interval(r), "\(r.rounds)", r.verdict.label]
    }

    static func note(_ report: ABReport) -> String {
        let rule = ABRule(threshold: RegressionThreshold(fraction: report.maxRegression), falseAlarm: report.falseAlarm,
                          configurations: max(1, report.results.count), maxRounds: 0)
        return "ratio: median of the rounds' candidate/baseline steps/s (steps per CPU second with metric cpu); " +
            "interval: its confidence sequence, valid at every round; pass once the interval is above " +
            "\(TextTable.fixed(rule.passAbove, 3)), regressed once it is below \(TextTable.fixed(rule.failBelow, 3)) " +
            "(false alarms ≤ \(RegressionThreshold.percent(report.falseAlarm)) per comparison); rounds alternate AB BA …"
    }

    /// The report as a text table, a note and the verdict line.
    public static func render(_ report: ABReport) -> String {
        let header = ["scene", "items", "workers", "metric", "baseline steps/s", "candidate steps/s", "ratio", "interval",
                      "rounds", "verdict"]
        let rows = report.results.map { r -> [String] in
            [r.scene, r.items.map(String.init) ?? "default", "\(r.threads)", r.metric.rawValue] + cells(r)
        }
        var out = TextTable.grid(header: header, rows: rows, rightAligned: [1, 2, 4, 5, 6, 7, 8])
        out += "\n\n" + note(report) + "\n" + verdictLine(report)
        return out
    }

    /// The report as a Markdown table (for a CI job summary), a note, and the verdict line last.
    public static func markdown(_ report: ABReport) -> String {
        var out = "| configuration | baseline steps/s | candidate steps/s | ratio | interval | rounds | verdict |\n"
        out += "|---|---:|---:|---:|---|---:|---|\n"
        for r in report.results {
            let name = r.configurationName + (r.metric == .wall ? " (wall)" : "")
            out += "| " + ([name] + cells(r)).joined(separator: " | ") + " |\n"
        }
        out += "\n" + note(report) + "\n\n" + verdictLine(report) + "\n"
        return out
    }
}
