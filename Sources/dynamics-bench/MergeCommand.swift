import ArgumentParser
import BenchSupport
import Foundation

extension DynamicsBench {
    /// `dynamics-bench merge FILE... [--out FILE]`: combines result files (e.g. the shards of a sweep).
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Combines result files (e.g. the shards of a sweep) into one.",
            discussion: "Keeps every result, in file order, under the metadata of the first file; warns about configurations that occur more than once.")

        @Argument(help: "Result files to combine.")
        var files: [String]

        @Option(name: .long, help: "Write the merged file here (default: standard output).")
        var out: String?

        func run() throws {
            guard !files.isEmpty else { throw BenchUsageError("merge needs at least one result file") }
            let loaded = try files.map { try ResultFile.load(path: $0, role: "input") }
            let merged = ResultFile.merge(loaded, names: files)
            let dups = ResultFile.duplicateKeys(merged.results)
            if !dups.isEmpty {
                warn("configurations measured more than once (all kept): \(dups.map(\.description).joined(separator: ", "))")
            }
            if let out {
                try checkWritable(out)
                try write(merged, to: out)
            } else {
                FileHandle.standardOutput.write(try merged.encoded())
            }
        }
    }
}
