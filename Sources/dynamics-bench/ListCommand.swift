import ArgumentParser
import DynamicsScenes

extension DynamicsBench {
    /// `dynamics-bench list`: the scenes, what their size means and their default sizes.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists the scenes, the meaning of --items and the default sizes.")

        func run() {
            let rows = SceneCatalog.all.map { s -> [String] in
                let sizes = s.defaultSizes.map { $0 == s.defaultSize ? "\($0)*" : "\($0)" }
                return [s.name, s.sizeMeaning, sizes.joined(separator: ", "), "\(s.stepsDefault)", s.summary]
            }
            print(ResultTable.grid(header: ["scene", "--items means", "sizes (* default)", "steps", "description"],
                                   rows: rows, rightAligned: []))
        }
    }
}
