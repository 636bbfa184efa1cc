import Foundation

/// Plain-text and CSV tables.
public enum TextTable {
    /// Columns padded to their widest cell, a rule under the header.
    public static func grid(header: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// RFC 4180 CSV: fields with a comma, quote or newline are quoted.
    public static func csv(header: [String], rows: [[String]]) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        return ([header] + rows).map { $0.map(field).joined(separator: ",") }.joined(separator: "\n")
    }

    public static func fixed(_ v: Double, _ digits: Int) -> String {
        v.isFinite ? String(format: "%.\(digits)f", v) : "\(v)"
    }

    /// 1536 → "1.5 KiB"; 3 × 2^20 → "3.0 MiB".
    public static func bytes(_ v: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var x = v, u = 0
        while abs(x) >= 1024, u < units.count - 1 { x /= 1024; u += 1 }
        return u == 0 ? String(format: "%.0f B", x) : String(format: "%.1f %@", x, units[u])
    }
}

/// Tables of results: the terminal table and CSV.
public enum ResultRendering {
    public static func table(_ results: [BenchRecord]) -> String {
        let header = ["scene", "items", "bodies", "workers", "steps/s", "min–max", "ms/step", "contacts/step",
                      "resident peak", "heap/body", "alloc B/step", "allocs/step", "allocs/toggle", "awake", "check"]
        let rows = results.map { r -> [String] in
            let check = r.passed == false ? "FAILED: " + (r.failures ?? []).joined(separator: ",") : "ok"
            return [r.scene, "\(r.items)", r.bodies.map { "\($0)" } ?? "—", "\(r.threads)",
                    TextTable.fixed(r.median, 1),
                    "\(TextTable.fixed(r.minimum, 1))–\(TextTable.fixed(r.maximum, 1))",
                    r.msPerStep.map { TextTable.fixed($0, 3) } ?? "—",
                    r.contactsPerStep.map { TextTable.fixed($0, 0) } ?? "—",
                    r.residentPeakBytes.map { TextTable.bytes(Double($0)) } ?? "—",
                    r.heapBytesPerBody.map { TextTable.bytes($0) } ?? "—",
                    r.threadAllocBytesPerStep.map { TextTable.fixed($0, 1) } ?? "—",
                    r.processAllocsPerStep.map { TextTable.fixed($0, 2) } ?? "—",
                    r.allocsPerToggle.map { t in
                        TextTable.fixed(t, 1) + (r.allocsPerStepBetweenToggles.map { " (+\(TextTable.fixed($0, 1))/step)" } ?? "")
                    } ?? "—",
                    r.awakeBodies.map { n in
                        "\(n)" + (r.secondsToRest.map { $0.seconds.map { " (rest \(TextTable.fixed($0, 2)) s)" } ?? "" } ?? "")
                    } ?? "—",
                    check]
        }
        return TextTable.grid(header: header, rows: rows, rightAligned: Set(1...13))
    }

    /// The step's phases of a `--profile` run, in step order (µs per step), or nil.
    public static func profileLine(_ r: BenchRecord) -> String? {
        guard let p = r.phaseMicroseconds else { return nil }
        let order = StepPhaseNames.inStepOrder
        let parts = order.compactMap { name in p[name].map { "\(name) \(TextTable.fixed($0, 1))" } }
        let total = p.values.reduce(0, +)
        return "profile \(r.key): " + parts.joined(separator: ", ") + " µs/step (total \(TextTable.fixed(total, 1)))"
    }

    public static let csvHeader = [
        "scene", "items", "bodies", "threads", "steps", "warmup", "repeats", "steps_per_second",
        "steps_per_second_min", "steps_per_second_max", "ms_per_step", "contacts_per_step",
        "resident_peak_bytes", "heap_bytes", "heap_bytes_per_body", "thread_alloc_bytes_per_step",
        "process_allocs_per_step", "escaped", "kinetic_energy", "max_height", "passed",
    ]

    public static func csv(_ results: [BenchRecord]) -> String {
        func o<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "" }
        let rows = results.map { r -> [String] in
            [r.scene, "\(r.items)", o(r.bodies), "\(r.threads)", o(r.steps), o(r.warmup), o(r.repeats),
             "\(r.median)", "\(r.minimum)", "\(r.maximum)", o(r.msPerStep), o(r.contactsPerStep),
             o(r.residentPeakBytes), o(r.heapBytes), o(r.heapBytesPerBody), o(r.threadAllocBytesPerStep),
             o(r.processAllocsPerStep), o(r.escaped), o(r.kineticEnergy), o(r.maxHeight), o(r.passed)]
        }
        return TextTable.csv(header: csvHeader, rows: rows)
    }

    /// Box2D's benchmark CSV (the `<benchmark>.csv` its `benchmark` app writes): a `threads,ms`
    /// header, then one `threads,ms` row per result, `ms` the smallest total over the repeats
    /// of the timed steps after the first (`box2dMilliseconds`), printed like C's `%g`.
    /// Results without that figure are left out.
    public static func box2dCSV(_ results: [BenchRecord]) -> String {
        let rows = results.compactMap { r in r.box2dMilliseconds.map { "\(r.threads),\(String(format: "%g", $0))" } }
        return (["threads,ms"] + rows).joined(separator: "\n")
    }
}

/// The names of `StepProfile.phases` in step order (BenchSupport does not link the engine).
public enum StepPhaseNames {
    public static let inStepOrder = ["broad_phase", "merge", "narrow_phase", "islands", "prepare", "solve", "finalize"]
}
