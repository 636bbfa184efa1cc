import ArgumentParser
import BenchSupport
import DynamicsEngine
import DynamicsScenes
import Foundation

extension DynamicsBench {
    /// `dynamics-bench snapshot <scene> [--items N] [--steps S] [--repeat R] [--threads T] [--seed X]`
    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measures World.snapshot() and World(snapshot:) on a scene: size per body and per touching contact, time of each.",
            discussion: """
                Builds the scene, steps it --steps times (or loads --from FILE, timed as first_restore_ms), then takes \
                --repeat rounds of one snapshot and one restore (medians reported) and checks that the restored world's \
                state digest equals the original's. --items defaults to the scene's headline size.
                """
        )

        @OptionGroup var choice: SceneChoice

        @Option(name: .long, parsing: .unconditional, help: "Steps before the snapshot (default 120).")
        var steps: Int = 120

        @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Rounds of snapshot + restore (default 5).")
        var repeats: Int = 5

        @Option(name: .long, parsing: .unconditional, help: "Worker threads for the steps (default 2).")
        var threads: Int = 2

        @Option(name: .long, help: "Measure the world of this snapshot or checkpoint file instead (no build, no steps).")
        var from: String?

        @Option(name: .long, help: "Output format: table or json.")
        var format: OutputFormat = .table

        func run() throws {
            let (s, size) = try choice.resolve { $0.defaultSize }
            try requirePositive(repeats, "--repeat")
            try requirePositive(threads, "--threads")
            guard steps >= 0 else { throw BenchUsageError("--steps must not be negative") }
            let world: World
            var firstRestoreMs: Double? = nil
            if let path = from {
                guard let data = FileManager.default.contents(atPath: path) else { throw BenchUsageError("--from \(path): cannot read the file") }
                let bytes = [UInt8](data)
                let t0 = ContinuousClock().now
                do { world = try World(snapshot: bytes) } catch { throw BenchUsageError("--from \(path): \(error)") }
                firstRestoreMs = (ContinuousClock().now - t0).seconds * 1000
            } else {
                let instance = try s.build(size: size, seed: choice.seed)
                guard instance.driver == nil else { throw BenchUsageError("scene '\(s.name)' is not one engine world") }
                instance.workerCount = threads
                instance.run(steps: steps)
                world = instance.world
            }
            let clock = ContinuousClock()
            var saveMs: [Double] = [], loadMs: [Double] = []
            var bytes: [UInt8] = []
            var restoredDigest: UInt64 = 0
            for _ in 0..<repeats {
                bytes = []
                let t0 = clock.now
                bytes = world.snapshot()
                let t1 = clock.now
                let r = try World(snapshot: bytes)
                let t2 = clock.now
                saveMs.append((t1 - t0).seconds * 1000)
                loadMs.append((t2 - t1).seconds * 1000)
                restoredDigest = r.stateDigest()
            }
            let digest = world.stateDigest()
            let bodies = world.bodyCount, touching = world.touchingContactCount, contacts = world.contactCount
            let sections = Self.sections(bytes)
            let contactBytes = sections["CONT"] ?? 0
            let bodyBytes = bytes.count - contactBytes
            var out: [String: String] = [
                "scene": s.name, "items": "\(size)", "steps": "\(steps)", "bodies": "\(bodies)",
                "contacts": "\(contacts)", "touching_contacts": "\(touching)", "bytes": "\(bytes.count)",
                "bytes_per_body_all": String(format: "%.1f", Double(bytes.count) / Double(max(1, bodies))),
                "bytes_per_body_without_contacts": String(format: "%.1f", Double(bodyBytes) / Double(max(1, bodies))),
                "contact_bytes_per_touching_contact": String(format: "%.1f", Double(contactBytes) / Double(max(1, touching))),
                "budget_bytes": "\(200 * bodies + 64 * touching)",
                "snapshot_ms_median": String(format: "%.2f", median(saveMs)),
                "restore_ms_median": String(format: "%.2f", median(loadMs)),
                "snapshot_ms_runs": saveMs.map { String(format: "%.2f", $0) }.joined(separator: " "),
                "restore_ms_runs": loadMs.map { String(format: "%.2f", $0) }.joined(separator: " "),
                "digest": digest.hex16, "restored_digest_equal": "\(restoredDigest == digest)",
            ]
            for (k, v) in sections { out["section_\(k)"] = "\(v)" }
            // The process's first restore (loading --from): what a resumed run pays once.
            if let f = firstRestoreMs { out["first_restore_ms"] = String(format: "%.2f", f) }
            if format == .json {
                let data = try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                for k in out.keys.sorted() { print("\(k): \(out[k]!)") }
            }
            if restoredDigest != digest { throw ExitCode(1) }
        }

        /// Section lengths of a snapshot (tag → bytes, including the 12-byte section head).
        static func sections(_ b: [UInt8]) -> [String: Int] {
            var out: [String: Int] = [:]
            var i = 32
            while i + 12 <= b.count {
                let tag = String(decoding: b[i ..< i + 4], as: UTF8.self)
                var n = 0
                for k in 0..<8 { n |= Int(b[i + 4 + k]) << (8 * k) }
                out[tag] = n + 12
                i += 12 + n
            }
            return out
        }
    }
}
