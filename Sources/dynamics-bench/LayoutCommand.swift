import ArgumentParser
import BenchSupport
import DynamicsScenes
import DynamicsLayout
import Foundation

extension DynamicsBench {
    /// `dynamics-bench layout [--views N,…] [--edits E] [--rounds R] [--kiwi]`: the Auto
    /// Layout benchmark (`LayoutGrid`), on the bare solver and through views and constraints,
    /// optionally beside kiwisolver in the same run.
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Times the Auto Layout solver on the layout grid (build + solve, then resize edits), optionally beside kiwisolver.",
            discussion: """
                For each view count: "solver" builds the grid on a LayoutSolver (the calls kiwisolver \
                gets) and edits W; "views" builds it with DynamicView anchors and LayoutConstraint, \
                edits the container's width constraint and lays out (frames written to the views). \
                An edit's time includes reading every frame. With --kiwi, scripts/layout-kiwi.py \
                (kiwisolver 1.5.1 from PyPI, timed in Python around its solver calls only) runs in \
                the same rounds, interleaved; "kiwi/ours" is kiwi's time over the solver's. Medians \
                of the rounds. Build in release: swift build -c release --product dynamics-bench.
                """)

        @Option(name: .long, help: "Comma-separated view counts.")
        var views: String = "100,400,1000,10000"
        @Option(name: .long, help: "Resize edits per run.")
        var edits: Int = 1000
        @Option(name: .long, help: "Rounds (medians are reported).")
        var rounds: Int = 3
        @Flag(name: .long, help: "Also run kiwisolver (python3 scripts/layout-kiwi.py).")
        var kiwi = false
        @Option(name: .long, help: "Largest view count given to kiwisolver (it needs ~20 s to build 1000).")
        var kiwiMaxViews: Int = 1000
        @Option(name: .long, help: "The kiwi script.")
        var kiwiScript: String = "scripts/layout-kiwi.py"
        @Flag(name: .long, help: "Skip the views-and-constraints runs (solver only).")
        var solverOnly = false
        @Flag(name: .long, help: "Print the solver's pivots, rows and terms after each build.")
        var stats = false

        func run() throws {
            let counts = try views.split(separator: ",").map { s -> Int in
                guard let n = Int(s.trimmingCharacters(in: .whitespaces)), n >= 1, n <= 1_000_000 else {
                    throw BenchUsageError("layout: --views takes positive counts up to 1000000 (got '\(s)')")
                }
                return n
            }
            guard edits >= 1, rounds >= 1 else { throw BenchUsageError("layout: --edits and --rounds must be at least 1") }
            if kiwi && !FileManager.default.fileExists(atPath: kiwiScript) {
                throw BenchUsageError("layout: \(kiwiScript) not found (run from the package root or pass --kiwi-script)")
            }
            // Allocation counts come from jemalloc: refuse to print zeros that mean "not measured".
            _ = try Jemalloc.verify()
            var rows: [[String]] = []
            for n in counts {
                var sb: [Double] = [], se: [Double] = [], vb: [Double] = [], ve: [Double] = [], kb: [Double] = [], ke: [Double] = []
                var solverSum = 0.0, viewSum = 0.0, kiwiSum: Double?
                var sa: [Double] = [], va: [Double] = []
                for _ in 0..<rounds {
                    // Ours on the bare solver.
                    var t0 = DispatchTime.now().uptimeNanoseconds
                    let sys = LayoutGrid.SolverSystem(views: n)
                    sb.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                    if stats { print("views \(n): build \(sb.last!) ms, pivots \(sys.solver.pivotCount), rows \(sys.solver.rowCount), terms \(sys.solver.termCount), column entries \(sys.solver.columnEntryCount)") }
                    var a0 = Jemalloc.snapshot().requests
                    t0 = DispatchTime.now().uptimeNanoseconds
                    for k in 0..<edits { solverSum = sys.edit(width: LayoutGrid.width(forEdit: k)) }
                    se.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3 / Double(edits))
                    sa.append(Double(Jemalloc.snapshot().requests &- a0) / Double(edits))
                    // Ours through views.
                    if !solverOnly {
                        t0 = DispatchTime.now().uptimeNanoseconds
                        let vs = LayoutGrid.ViewSystem(views: n)
                        vb.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                        a0 = Jemalloc.snapshot().requests
                        t0 = DispatchTime.now().uptimeNanoseconds
                        for k in 0..<edits { viewSum = vs.edit(width: LayoutGrid.width(forEdit: k)) }
                        ve.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3 / Double(edits))
                        va.append(Double(Jemalloc.snapshot().requests &- a0) / Double(edits))
                    }
                    if kiwi && n <= kiwiMaxViews {
                        let r = try runKiwi(n)
                        kb.append(r.build); ke.append(r.edit); kiwiSum = r.checksum
                    }
                }
                func med(_ a: [Double]) -> Double? { a.isEmpty ? nil : a.sorted()[a.count / 2] }
                func f(_ x: Double?, _ d: Int) -> String { x.map { TextTable.fixed($0, d) } ?? "-" }
                let ratioB = med(kb).flatMap { k in med(sb).map { k / $0 } }
                let ratioE = med(ke).flatMap { k in med(se).map { k / $0 } }
                let check: String
                if let k = kiwiSum { check = abs(k - solverSum) <= 1e-6 * max(1, abs(k)) ? "same" : "DIFFER (\(k) vs \(solverSum))" } else { check = "-" }
                let viewCheck = solverOnly ? "-" : (abs(viewSum - solverSum) <= 1e-6 * max(1, abs(solverSum)) ? "same" : "DIFFER (\(viewSum))")
                rows.append([String(n), f(med(sb), 2), f(med(se), 2), f(med(sa), 1), f(med(vb), 2), f(med(ve), 2), f(med(va), 1),
                             f(med(kb), 2), f(med(ke), 2), f(ratioB, 1), f(ratioE, 1), check, viewCheck])
            }
            print(TextTable.grid(header: ["views", "solver build ms", "solver edit µs", "solver allocs/edit", "views build ms", "views edit µs",
                                          "views allocs/edit", "kiwi build ms", "kiwi edit µs", "kiwi/ours build", "kiwi/ours edit", "kiwi frames", "view frames"],
                                 rows: rows, rightAligned: Set(0...10)))
            print("\nedits: \(edits) per run (W = 1000 + k mod 200), each followed by reading every frame; medians of \(rounds) interleaved rounds;")
            print("allocs/edit: allocation events of the process per edit (jemalloc), the first edits of a run included")
        }

        func runKiwi(_ n: Int) throws -> (build: Double, edit: Double, checksum: Double) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", kiwiScript, "--views", String(n), "--edits", String(edits)]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard p.terminationStatus == 0,
                  let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let b = obj["build_ms"] as? Double, let e = obj["edit_us"] as? Double, let c = obj["checksum"] as? Double else {
                throw BenchUsageError("layout: \(kiwiScript) failed (status \(p.terminationStatus)); is kiwisolver installed? (pip install kiwisolver==1.5.1)")
            }
            return (b, e, c)
        }
    }
}
