import ArgumentParser
import BenchSupport
import DynamicsScenes
import Foundation

extension DynamicsBench {
    /// `dynamics-bench tick [--items N] [--ticks T] [--rounds R] [--format table|json]`: what a
    /// `DynamicAnimator` tick costs above its world's step (`TickOverheadProbe`).
    struct Tick: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measures a DynamicAnimator's tick against its world's step alone, for an item held by three behaviors.",
            discussion: """
                Each round builds --items pairs of identical animators (one 100 × 100 pt item with \
                gravity, collision with the bounds and a collision delegate, and an item behavior), \
                ticks the first of each pair with step(by: 1/120) and steps the second one's world \
                alone, --ticks times, in alternating order from round to round. The worlds must end \
                bit for bit alike (exit 1 otherwise). Reported per item and tick: the median over \
                the rounds of the tick, the step and their difference (the tick's own cost).
                """)

        @Option(help: "Animator pairs per round.") var items = 1000
        @Option(help: "Ticks timed per round (1/120 s each).") var ticks = 240
        @Option(help: "Rounds (fresh pairs each).") var rounds = 5
        @Option(help: "Output format: table or json.") var format: OutputFormat = .table

        func run() throws {
            guard items > 0, ticks > 0, rounds > 0 else { throw BenchUsageError("--items, --ticks and --rounds must be positive") }
            guard format == .table || format == .json else { throw BenchUsageError("--format must be table or json") }
            let probe = TickOverheadProbe(items: items, ticks: ticks)
            var tick: [Double] = [], step: [Double] = [], over: [Double] = []
            var identical = true, calls = 0
            for r in 0..<rounds {
                let round = probe.round(animatorFirst: r % 2 == 0)
                let p = round.perTick(items: items, ticks: ticks)
                tick.append(p.tick); step.append(p.step); over.append(p.overhead)
                identical = identical && round.identical
                calls = round.delegateCalls
            }
            func median(_ v: [Double]) -> Double {
                let s = v.sorted()
                return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
            }
            func f(_ x: Double) -> String { String(format: "%.3f", x) }
            if format == .json {
                let object: [String: Any] = [
                    "items": items, "ticks": ticks, "rounds": rounds,
                    "tick_us": median(tick), "step_us": median(step), "overhead_us": median(over),
                    "overhead_us_runs": over, "identical": identical, "delegate_calls_per_round": calls,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print(TextTable.grid(header: ["per item and tick", "median µs", "rounds (µs)"], rows: [
                    ["animator tick", f(median(tick)), tick.map(f).joined(separator: " ")],
                    ["world step alone", f(median(step)), step.map(f).joined(separator: " ")],
                    ["tick − step", f(median(over)), over.map(f).joined(separator: " ")],
                ], rightAligned: [1]))
                print("\(items) pairs, \(ticks) ticks, \(rounds) rounds; worlds bit for bit alike: \(identical ? "yes" : "NO"); delegate calls per round: \(calls)")
            }
            if !identical { throw ExitCode(1) }
        }
    }
}
