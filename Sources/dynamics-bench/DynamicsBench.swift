import ArgumentParser
import BenchSupport
import DynamicsScenes
import Foundation

/// `dynamics-bench`: runs the benchmark scenes of `DynamicsScenes` and reports throughput,
/// memory, allocations and a sanity check; compares and merges result files. With no
/// arguments it runs the default suite (`suite`).
///
/// Exit codes: 0 success, 1 a run failed its sanity check or `compare` / `ab` found a regression,
/// 2 a usage error (unknown scene, bad count or shard, unreadable or malformed file; for `ab`
/// also a missing executable or a run that failed), 3 the environment cannot measure (jemalloc
/// is not the allocator) or `ab` is inconclusive.
@main
struct DynamicsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamics-bench",
        abstract: "Benchmarks the DynamicsKit physics engine on named scenes.",
        discussion: """
            With no subcommand, runs `suite`: the default scenes (\(SceneCatalog.defaultSuite.map { "\($0.scene) \($0.size)" }.joined(separator: ", "))) at 300 steps for 1 and 2 \
            workers, 3 repeats after 100 warm-up steps, as a table.

            Memory comes from jemalloc (linked into this tool as its malloc): "resident peak" is \
            the largest stats.resident seen during a run, "heap/body" the live heap the built \
            scene holds per body, "alloc B/step" the bytes the stepping thread allocated per \
            timed step after warm-up (thread_alloc_bytes_per_step; jemalloc counts bytes per \
            thread, not events), and "allocs/step" the allocation events of the whole process \
            per timed step (process_allocs_per_step, all threads). Use --threads 1 to have all \
            stepping on the measured thread. Component scenes (menus, alerts, dashboard) also \
            report "allocs/toggle": after the timed steps, one more untimed cycle of 120 steps \
            counts the allocation events of the show / hide toggles per toggle \
            (allocs_per_toggle) and, in parentheses, those of the rest of each step \
            (allocs_per_step_between_toggles: clocks, animators, worlds, view animations).

            Exit status: 0 ok, 1 a run failed its sanity check or compare / ab found a regression, \
            2 usage error (for ab also a missing executable or a failed run), 3 jemalloc is not \
            the allocator (nothing can be measured) or ab is inconclusive.
            """,
        subcommands: [Suite.self, Run.self, List.self, Compare.self, AB.self, Merge.self, Render.self, Peers.self, FuzzAPI.self, Fuzz.self, Soak.self, Tick.self, Scaling.self, Layout.self, Snapshot.self, Query.self],
        defaultSubcommand: Suite.self
    )

    /// Parses, runs, and maps every usage error to one line on stderr and exit status 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as BenchUsageError {
            fail(error.message)
        } catch let error as SceneError {
            fail(String(describing: error))
        } catch let error as EnvironmentError {
            fail(error.description, code: 3)
        } catch {
            let code = exitCode(for: error)
            // Help, version and our own exit codes keep ArgumentParser's handling.
            if code == .success || error is ExitCode || error is CleanExit { exit(withError: error) }
            fail(message(for: error))
        }
    }

    private static func fail(_ message: String, code: Int32 = 2) -> Never {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "error"
        FileHandle.standardError.write(Data("dynamics-bench: error: \(line)\n".utf8))
        Foundation.exit(code)
    }
}
