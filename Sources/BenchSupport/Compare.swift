import Foundation

/// `--max-regression`: the largest slowdown the gate accepts, as a fraction (0.05 = 5 %).
public struct RegressionThreshold: Equatable, Sendable, CustomStringConvertible {
    public let fraction: Double

    public init(fraction: Double) { self.fraction = fraction }

    /// "5%", "5 %" or "5" (all mean 5 %); "0.5%" is allowed. Must be in 0 ..< 100 %. `option`
    /// names the option in the error message.
    public init(parsing text: String, option: String = "--max-regression") throws {
        var s = text.trimmingCharacters(in: .whitespaces)
        if s.hasSuffix("%") { s.removeLast(); s = s.trimmingCharacters(in: .whitespaces) }
        guard let percent = Double(s), percent.isFinite else {
            throw BenchUsageError("bad \(option) '\(text)': expected a percentage such as 5%")
        }
        guard percent >= 0, percent < 100 else {
            throw BenchUsageError("bad \(option) '\(text)': must be at least 0% and below 100%")
        }
        fraction = percent / 100
    }

    public var description: String { Self.percent(fraction) }

    static func percent(_ f: Double) -> String {
        let p = f * 100
        return p == p.rounded() ? String(format: "%.0f%%", p) : String(format: "%.1f%%", p)
    }
}

/// The verdict on one configuration.
public enum CompareStatus: String, Sendable, Equatable {
    /// Within the threshold either way.
    case ok
    /// Faster than the baseline by more than the threshold.
    case faster
    /// Slower by more than the threshold, and outside both runs' spread: fails the gate.
    case regressed
    /// Slower by more than the threshold, but the difference lies within the runs' own
    /// spread (see `Comparison.withinSpread`): reported, does not fail.
    case noise
    /// The current run failed its sanity check (escaped bodies, a fallen pyramid…): its
    /// numbers do not count, and the gate fails.
    case failedCheck
    /// In the baseline only: reported, not fatal.
    case missingInCurrent
    /// In the current file only: reported, not fatal.
    case missingInBaseline

    public var label: String {
        switch self {
        case .ok: return "ok"
        case .faster: return "faster"
        case .regressed: return "REGRESSED"
        case .noise: return "within noise"
        case .failedCheck: return "FAILED CHECK"
        case .missingInCurrent: return "missing in current"
        case .missingInBaseline: return "new (not in baseline)"
        }
    }

    /// True when this row fails the gate.
    public var fails: Bool { self == .regressed || self == .failedCheck }
}

/// One row of a comparison.
public struct CompareRow: Sendable, Equatable {
    public var key: BenchKey
    public var baseline: BenchRecord?
    public var current: BenchRecord?
    /// current median / baseline median; nil when one side is missing.
    public var ratio: Double?
    public var status: CompareStatus
}

/// The outcome of `compare`.
public struct CompareReport: Sendable, Equatable {
    public var threshold: RegressionThreshold
    public var rows: [CompareRow]
    /// Keys that occur more than once in the baseline or current file (the first one is used).
    public var duplicates: [BenchKey]

    /// True when any row fails the gate.
    public var failed: Bool { rows.contains { $0.status.fails } }
    /// Rows present on both sides.
    public var matched: Int { rows.filter { $0.ratio != nil }.count }
    public var regressions: [CompareRow] { rows.filter { $0.status.fails } }
}

/// The regression gate: matches results by (scene, items, threads) and judges the medians.
public enum Comparison {
    /// True when the difference is within the runs' own spread: the current median lies in
    /// the baseline's min…max range, or the baseline median in the current's. With a single
    /// repeat on both sides (min = max = median) nothing is ever "within noise".
    public static func withinSpread(baseline b: BenchRecord, current c: BenchRecord) -> Bool {
        (b.minimum...b.maximum).contains(c.median) || (c.minimum...c.maximum).contains(b.median)
    }

    public static func compare(baseline: [BenchRecord], current: [BenchRecord],
                               threshold: RegressionThreshold) -> CompareReport {
        func firstByKey(_ rs: [BenchRecord]) -> (order: [BenchKey], map: [BenchKey: BenchRecord], dups: Set<BenchKey>) {
            var order: [BenchKey] = []
            var map: [BenchKey: BenchRecord] = [:]
            var dups: Set<BenchKey> = []
            for r in rs {
                if map[r.key] == nil { map[r.key] = r; order.append(r.key) } else { dups.insert(r.key) }
            }
            return (order, map, dups)
        }
        let b = firstByKey(baseline), c = firstByKey(current)
        var keys = b.order
        for k in c.order where b.map[k] == nil { keys.append(k) }

        var rows: [CompareRow] = []
        for key in keys {
            switch (b.map[key], c.map[key]) {
            case let (base?, cur?):
                let ratio = base.median > 0 ? cur.median / base.median : .infinity
                rows.append(CompareRow(key: key, baseline: base, current: cur, ratio: ratio,
                                       status: judge(ratio: ratio, baseline: base, current: cur, threshold: threshold)))
            case let (base?, nil):
                rows.append(CompareRow(key: key, baseline: base, current: nil, ratio: nil, status: .missingInCurrent))
            case let (nil, cur?):
                rows.append(CompareRow(key: key, baseline: nil, current: cur, ratio: nil, status: .missingInBaseline))
            case (nil, nil):
                break
            }
        }
        return CompareReport(threshold: threshold, rows: rows, duplicates: b.dups.union(c.dups).sorted())
    }

    static func judge(ratio: Double, baseline: BenchRecord, current: BenchRecord,
                      threshold: RegressionThreshold) -> CompareStatus {
        if current.passed == false { return .failedCheck }
        if ratio < 1 - threshold.fraction {
            return withinSpread(baseline: baseline, current: current) ? .noise : .regressed
        }
        if ratio > 1 + threshold.fraction { return .faster }
        return .ok
    }

    /// The comparison as a text table plus a verdict line.
    public static func render(_ report: CompareReport) -> String {
        let header = ["scene", "items", "workers", "baseline steps/s (min–max)", "current steps/s (min–max)",
                      "ratio", "change", "verdict"]
        func cell(_ r: BenchRecord?) -> String {
            guard let r else { return "—" }
            return "\(TextTable.fixed(r.median, 1)) (\(TextTable.fixed(r.minimum, 1))–\(TextTable.fixed(r.maximum, 1)))"
        }
        let rows = report.rows.map { row -> [String] in
            let ratio = row.ratio.map { TextTable.fixed($0, 3) } ?? "—"
            let change = row.ratio.map { r -> String in
                let p = (r - 1) * 100
                return (p >= 0 ? "+" : "") + String(format: "%.1f%%", p)
            } ?? "—"
            return [row.key.scene, "\(row.key.items)", "\(row.key.threads)", cell(row.baseline), cell(row.current),
                    ratio, change, row.status.label]
        }
        var out = TextTable.grid(header: header, rows: rows, rightAligned: [1, 2, 3, 4, 5, 6])
        let noise = report.rows.filter { $0.status == .noise }.count
        let missing = report.rows.filter { $0.status == .missingInCurrent || $0.status == .missingInBaseline }.count
        out += "\n\n"
        if report.failed {
            out += "FAIL: \(report.regressions.count) of \(report.matched) matched configurations regressed by more than \(report.threshold) (or failed their sanity check)"
        } else {
            out += "PASS: no matched configuration regressed by more than \(report.threshold) (\(report.matched) compared"
            out += noise > 0 ? ", \(noise) slower but within the runs' own spread)" : ")"
        }
        if missing > 0 { out += "\nnote: \(missing) configuration(s) appear in only one file (not fatal)" }
        if !report.duplicates.isEmpty {
            out += "\nnote: duplicate results for \(report.duplicates.map(\.description).joined(separator: ", ")); the first of each was used"
        }
        return out
    }
}
