import ArgumentParser
import BenchSupport
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench list`: the scenes, what their size means and their default sizes.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists the scenes, the meaning of --items and the default sizes.")

        func run() {
            let rows = SceneCatalog.all.map { s -> [String] in
                let sizes = s.defaultSizes.map { $0 == s.defaultSize ? "\($0)*" : "\($0)" }
                return [s.name, s.sizeMeaning, sizes.joined(separator: ", "), "\(s.maximumSize)", "\(s.stepsDefault)", s.summary]
            }
            print(TextTable.grid(header: ["scene", "--items means", "sizes (* default)", "max items", "steps", "description"],
                                 rows: rows, rightAligned: [3, 4]))
            print("\ndefault suite: \(SceneCatalog.defaultSuite.map { "\($0.scene) \($0.size)" }.joined(separator: ", ")), 300 steps, threads 1,2")
        }
    }
}
