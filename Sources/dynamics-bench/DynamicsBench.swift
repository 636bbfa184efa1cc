import ArgumentParser
import DynamicsScenes
import Foundation

/// `dynamics-bench`: runs the benchmark scenes of `DynamicsScenes` and reports throughput and a
/// sanity check. With no arguments it runs the default suite (`suite`).
///
/// Exit codes: 0 success, 1 a run failed its sanity check (escaped bodies, a fallen pyramid…),
/// 2 a usage error (unknown scene, bad count).
@main
struct DynamicsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamics-bench",
        abstract: "Benchmarks the DynamicsKit physics engine on named scenes.",
        discussion: """
            With no subcommand, runs `suite`: the default scenes (\(SceneCatalog.defaultSuite
                .map { "\($0.scene) \($0.size)" }.joined(separator: ", "))) at 300 steps, as a table.
            Exit status: 0 ok, 1 a run failed its sanity check, 2 usage error.
            """,
        subcommands: [Run.self, List.self, Suite.self],
        defaultSubcommand: Suite.self
    )

    /// Parses, runs, and maps every usage error to one line on stderr and exit status 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as SceneError {
            fail(String(describing: error))
        } catch {
            let code = exitCode(for: error)
            // Help, version and our own exit codes keep ArgumentParser's handling.
            if code == .success || error is ExitCode || error is CleanExit { exit(withError: error) }
            fail(message(for: error))
        }
    }

    private static func fail(_ message: String) -> Never {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "error"
        FileHandle.standardError.write(Data("dynamics-bench: error: \(line)\n".utf8))
        Foundation.exit(2)
    }
}

/// Throws a `ValidationError` unless `value > 0`.
func requirePositive(_ value: Int, _ name: String) throws {
    guard value > 0 else { throw ValidationError("\(name) must be a positive integer (got \(value))") }
}

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}
