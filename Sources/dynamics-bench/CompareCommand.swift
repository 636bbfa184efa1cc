import ArgumentParser
import BenchSupport
import Foundation

extension DynamicsBench {
    /// `dynamics-bench compare BASELINE.json CURRENT.json [--max-regression 5%]`: the gate.
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares two result files; exits 1 when a configuration regressed (the regression gate).",
            discussion: """
                Matches results by (scene, items, threads) and compares median steps/s. \
                A configuration slower than the baseline by more than --max-regression fails the \
                gate (exit 1) unless the difference is within the runs' own spread (the current \
                median inside the baseline's min–max, or the baseline median inside the \
                current's): that is reported as "within noise" and passes. A current run that \
                failed its sanity check also fails. Configurations in only one file are \
                reported, not fatal. Exit: 0 pass, 1 regression, 2 unreadable/malformed file or \
                no configuration in common.
                """)

        @Argument(help: "The baseline result file (written by --out, or `--format json` output).")
        var baseline: String

        @Argument(help: "The current result file.")
        var current: String

        @OptionGroup var limit: RegressionLimit

        func run() throws {
            let threshold = try limit.threshold()
            let base = try ResultFile.load(path: baseline, role: "baseline")
            let cur = try ResultFile.load(path: current, role: "current")
            let report = Comparison.compare(baseline: base.results, current: cur.results, threshold: threshold)
            guard report.matched > 0 else {
                throw BenchUsageError("no configuration (scene, items, threads) appears in both '\(baseline)' and '\(current)'")
            }
            func describe(_ f: ResultFile, _ path: String) -> String {
                var parts = [path]
                if !f.date.isEmpty { parts.append(f.date) }
                if let c = f.gitCommit { parts.append("commit " + String(c.prefix(12))) }
                if let m = f.machine { parts.append("\(m.hostname), \(m.cores) cores") }
                return parts.joined(separator: ", ")
            }
            print("baseline: \(describe(base, baseline))")
            print("current:  \(describe(cur, current))")
            print("threshold: \(threshold) slowdown of the median steps/s\n")
            print(Comparison.render(report))
            if report.failed { throw ExitCode(1) }
        }
    }
}
