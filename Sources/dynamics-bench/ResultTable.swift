import Foundation

/// Plain-text tables for the terminal.
enum ResultTable {
    static func render(_ results: [BenchResult]) -> String {
        let header = ["scene", "items", "bodies", "steps", "threads", "steps/s", "ms/step", "build s",
                      "escaped", "kinetic E", "max h", "avg h", "touching", "checks"]
        let rows = results.map { r -> [String] in
            let checks = r.passed ? "ok" : "FAILED: " + r.failures.joined(separator: ",")
            return [r.scene, "\(r.items)", "\(r.bodies)", "\(r.steps)", "\(r.threads)",
                    fixed(r.stepsPerSecond, 1), fixed(r.msPerStep, 3), fixed(r.buildSeconds, 3),
                    "\(r.escaped)", scientific(r.kineticEnergy), fixed(r.maxHeight, 1), fixed(r.avgHeight, 1),
                    "\(r.touchingContacts)", checks]
        }
        return grid(header: header, rows: rows, rightAligned: Set(1...12))
    }

    /// Columns padded to their widest cell.
    static func grid(header: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        v.isFinite ? String(format: "%.\(digits)f", v) : "\(v)"
    }

    static func scientific(_ v: Double) -> String {
        v.isFinite ? String(format: "%.3g", v) : "\(v)"
    }
}
