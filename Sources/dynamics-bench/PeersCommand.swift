import ArgumentParser
import BenchSupport
import DynamicsEngine
import DynamicsScenes
import Foundation

/// Output formats of `peers`.
enum PeersFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown
}

extension DynamicsBench {
    /// `dynamics-bench peers [--scenes pile,pyramid,mix] [--items N|scene:N,…] [--steps 600]
    /// [--warmup 100] [--repeat 3] [--engines ours,box2d,chipmunk,box2d3] [--threads 1,2]
    /// [--box2d-source DIR] [--sleep] [--rolling-resistance C] [--seed S] [--format table|json|markdown] [--out FILE]`: DynamicsKit
    /// side by side with Box2D 2.4, Chipmunk2D 7 and Box2D v3 on the same scenes.
    struct Peers: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares DynamicsKit with Box2D 2.4, Chipmunk2D 7 and Box2D v3 on pile, pyramid and mix.",
            discussion: """
                Compiles the peer drivers (Peers/box2d_driver.cpp with g++ -lbox2d, \
                Peers/chipmunk_driver.c with gcc -lchipmunk, Peers/box2d3_driver.c with gcc against \
                Box2D 3.1.1 from the pyb2d3 0.11.1 wheel in .build/peers/box2d3/; -O2 -DNDEBUG) into \
                .build/peers/ when they are missing or older than their sources, then runs each \
                configuration --repeat times, the engines and thread counts interleaved (ours, \
                box2d, chipmunk, box2d3 at 1 thread, ours, box2d3 at 2, ours, …) so that noise \
                hits all alike. Every engine builds the same bodies (scenes.md, "Units for the peer \
                scenes"), takes --warmup untimed steps and times --steps steps of 1/60 s with \
                sleeping off. DynamicsKit runs in this process (World.workerCount = each --threads \
                count, its default 4 sub-steps); Box2D 2.4 with 8 velocity / 3 position \
                iterations; Chipmunk with 10 iterations, collision slop 0.005 m and its default \
                bounding-box tree (both single-threaded: run once per repeat, labelled 1 thread); \
                Box2D v3 with 4 sub-steps and its defaults, at each --threads count (3.1: the \
                driver's task system, the calling thread plus helpers).

                --box2d-source DIR adds a Box2D v3 built from a source tree (DIR/src/*.c, \
                DIR/include; gcc -O2 -ffp-contract=off -DNDEBUG, plus -mavx2 -DBOX2D_AVX2 when \
                /proc/cpuinfo lists avx2) into .build/peers/box2d3-src-<hash>/, as the engine \
                box2d<major>.<minor> of its version (e.g. box2d3.2; 3.2 schedules its own workers). \
                --sleep turns sleeping on and --rolling-resistance C gives every dynamic shape that \
                rolling resistance (DynamicsKit and Box2D v3 only; Box2D's rule in both: a contact's \
                lever arm is the larger coefficient × the larger rounding radius).

                The table: steps/s median and min–max over the repeats, ms/step at the median, \
                ours/this = DynamicsKit's median at the same thread count over that engine's, and \
                the sanity check (escaped bodies; the pyramid must keep its height within 1 %, plus \
                Box2D 2.4's 0.01 m polygon skin per layer).

                Needs: g++ and gcc, libbox2d-dev and libchipmunk-dev, and the Box2D 3.1.1 wheel \
                (scripts/install-deps --peers installs them). Exit status: 0 ok (a peer failing its \
                sanity check is reported, not an error), 1 DynamicsKit failed its sanity check, 2 \
                usage error or a compiler, library or driver problem.
                """
        )

        @Option(name: .long, help: "Comma-separated scenes: pile, pyramid, mix.")
        var scenes: String = "pile,pyramid,mix"

        @Option(name: .long, parsing: .unconditional,
                help: "Sizes: N applies to every scene without its own entry, scene:N to that scene only; comma-separated (default: pile:4000,pyramid:100,mix:4000).")
        var items: String?

        @Option(name: .long, parsing: .unconditional, help: "Timed steps of 1/60 s per run.")
        var steps: Int = 600

        @Option(name: .long, parsing: .unconditional, help: "Untimed steps before the timed ones.")
        var warmup: Int = 100

        @Option(name: .customLong("repeat"), parsing: .unconditional,
                help: "Runs per engine and configuration (interleaved); steps/s is their median.")
        var repeats: Int = 3

        @Option(name: .long, help: "Comma-separated engines: ours, box2d, chipmunk, box2d3 (and the --box2d-source one, added by itself).")
        var engines: String = "ours,box2d,chipmunk"

        @Option(name: .long, help: "Comma-separated worker counts for DynamicsKit and Box2D v3 (Box2D 2.4 and Chipmunk run once, on one thread).")
        var threads: String = "1"

        @Option(name: .customLong("box2d-source"),
                help: "A Box2D v3 source tree (src/*.c, include/box2d) to build and run as engine box2d<major>.<minor>.")
        var box2dSource: String?

        @Flag(name: .long, help: "Sleeping on (DynamicsKit and Box2D v3 only; the comparison's default is off).")
        var sleep = false

        @Option(name: .customLong("rolling-resistance"), parsing: .unconditional,
                help: "Rolling resistance of every dynamic shape (Material.rollingResistance, Box2D v3's b2SurfaceMaterial.rollingResistance; DynamicsKit and Box2D v3 only; default 0: none).")
        var rollingResistance: Float = 0

        @Option(name: .long, parsing: .unconditional,
                help: "The scene's seed: 0 (the default) builds it as written, another value shifts each body of pile and mix, and each pyramid row, sideways by its own few centimetres, the same in every engine (DynamicsKit and Box2D v3 only). Piles come to rest at chaotic times: compare sets of seeds.")
        var seed: UInt64 = 0

        @Option(name: .long, help: "Output on stdout: table, json (one object per row) or markdown.")
        var format: PeersFormat = .table

        @Option(name: .long, help: "Also write the results to FILE: Markdown if it ends in .md, a plain table if .txt, else a JSON document.")
        var out: String?

        @Option(name: .customLong("source-dir"),
                help: "Folder holding box2d_driver.cpp, chipmunk_driver.c and box2d3_driver.c (default: Peers/ of the package, found from the working directory or this executable).")
        var sourceDir: String?

        @Flag(name: .customLong("build-only"), help: "Only compile the drivers (if needed) and print their paths.")
        var buildOnly = false

        @Flag(name: .long, help: "No per-run progress lines on stderr.")
        var quiet = false

        func run() throws {
            try requirePositive(steps, "--steps")
            try requirePositive(repeats, "--repeat")
            guard warmup >= 0 else { throw BenchUsageError("--warmup must not be negative (got \(warmup))") }
            let configs = try PeerPlan.configurations(scenes: scenes, items: items)
            let threadCounts = try PeerPlan.threadCounts(threads)
            let source = try box2dSource.map { try Box2DSource(path: $0) }
            var engineList = try PeerEngines.parse(engines, extra: source.map { [$0.engine] } ?? [])
            if let source, !engineList.contains(source.engine) { engineList.append(source.engine) }
            if sleep, let other = engineList.first(where: { !PeerEngines.hasSleepOption($0) }) {
                throw BenchUsageError("--sleep: the \(other) driver runs with sleeping off only; choose --engines among ours, box2d3\(source.map { ", " + $0.engine } ?? "")")
            }
            try checkRollingResistance(rollingResistance)
            if rollingResistance > 0, let other = engineList.first(where: { !PeerEngines.hasSleepOption($0) }) {
                throw BenchUsageError("--rolling-resistance: the \(other) driver has none; choose --engines among ours, box2d3\(source.map { ", " + $0.engine } ?? "")")
            }
            if seed != 0, let other = engineList.first(where: { !PeerEngines.hasSleepOption($0) }) {
                throw BenchUsageError("--seed: the \(other) driver builds the scenes as written only; choose --engines among ours, box2d3\(source.map { ", " + $0.engine } ?? "")")
            }
            if let out { try checkWritable(out) }

            let drivers = try PeerDrivers(sourceDir: sourceDir)
            var binaries: [String: String] = [:]
            let log: ((String) -> Void)? = quiet ? nil : { note($0) }
            for engine in engineList where engine != PeerComparison.ours {
                if let source, engine == source.engine {
                    binaries[engine] = try drivers.buildFromSource(source, log: log)
                } else {
                    binaries[engine] = try drivers.build(engine, log: log)
                }
            }
            if buildOnly {
                for engine in engineList where engine != PeerComparison.ours { print(binaries[engine]!) }
                return
            }
            let allocator = try Jemalloc.verify()
            #if DEBUG
            warn("dynamics-bench is a debug build: DynamicsKit's figures mean nothing; build with `swift build -c release --product dynamics-bench`")
            #endif

            var runs: [PeerRun] = []
            var oursFailed = false
            for c in configs {
                for r in 1...repeats {
                    for (k, t) in threadCounts.enumerated() {
                        for engine in engineList {
                            let multi = PeerEngines.isMultiThreaded(engine)
                            // Single-threaded peers run once per repeat, labelled one thread.
                            if !multi && k > 0 { continue }
                            let workers = multi ? t : 1
                            let run: PeerRun
                            if engine == PeerComparison.ours {
                                run = try runOurs(scene: c.scene, items: c.items, threads: workers, allocator: allocator)
                                if !run.passed { oursFailed = true }
                            } else {
                                let arguments = PeerDrivers.arguments(engine: engine, scene: c.scene, items: c.items,
                                                                      steps: steps, warmup: warmup, threads: workers,
                                                                      sleep: sleep, rollingResistance: rollingResistance,
                                                                      seed: seed)
                                run = try PeerDrivers.run(binaries[engine]!, arguments: arguments,
                                                          engine: engine, reportedEngine: PeerEngines.reportedName(engine),
                                                          scene: c.scene, items: c.items, steps: steps, warmup: warmup,
                                                          threads: workers)
                                guard (run.seed ?? 0) == seed else {
                                    throw BenchUsageError("\(engine) built \(c.scene) with seed \(run.seed ?? 0), not \(seed): rebuild its driver")
                                }
                            }
                            runs.append(run)
                            if !quiet {
                                let check = run.passed ? "" : "  FAILED: " + run.failures.joined(separator: ", ")
                                note("\(c.scene) \(c.items) \(engine) ×\(workers) [\(r)/\(repeats)]: \(TextTable.fixed(run.stepsPerSec, 1)) steps/s\(check)")
                            }
                        }
                    }
                }
            }

            let comparison = PeerComparison(runs: runs, engines: engineList)
            let header = describe(runs: runs, engines: engineList)
            switch format {
            case .table: print(header.map { "# " + $0 }.joined(separator: "\n") + "\n" + comparison.table())
            case .markdown: print(header.map { "- " + $0 }.joined(separator: "\n") + "\n\n" + comparison.markdown())
            case .json: for line in try comparison.jsonLines() { print(line) }
            }
            if let out { try write(comparison, header: header, runs: runs, to: out) }
            if oursFailed { throw ExitCode(1) }
        }

        /// Builds our scene, steps it exactly as the drivers step theirs (BenchRunner: one worker,
        /// warm-up untimed, only `step()` in the timed window) and converts the result to metres.
        private func runOurs(scene name: String, items: Int, threads: Int, allocator: String) throws -> PeerRun {
            let scene = try SceneCatalog.scene(named: name)
            var options = RunOptions(size: items, steps: steps, threads: threads, seed: seed, warmup: warmup, repeats: 1)
            options.rollingResistance = rollingResistance
            let bar = ProgressBar(label: "\(name) \(items) ours ×\(threads)", total: warmup + steps,
                                  enabled: ProgressBar.shouldDraw(quiet: quiet))
            let sleepOn = sleep
            var report: SanityReport?, subSteps = 0
            let record: BenchRecord
            do {
                defer { bar.finish() }
                record = try BenchRunner.run(scene, options, allocator: allocator, progress: bar,
                                             configure: { instance in
                                                 guard sleepOn else { return }
                                                 // (The engine's default sleep threshold is Box2D's, 5 cm/s.)
                                                 instance.world.settings.isSleepEnabled = true
                                             }) { instance, sanity in
                    report = sanity
                    subSteps = instance.world.settings.subSteps
                }
            }
            let m = Double(SceneUnits.pointsPerMetre)
            var run = PeerRun(engine: PeerComparison.ours, scene: name, items: items, bodies: record.bodies ?? 0,
                              steps: steps, stepsPerSec: record.median, escaped: record.escaped ?? 0)
            run.threads = threads
            run.sleep = sleep ? true : nil
            run.seed = seed
            run.version = "git " + (gitCommit().map { String($0.prefix(12)) } ?? "unknown")
            run.staticBodies = record.staticBodies
            run.warmup = warmup
            run.msPerStep = record.msPerStep
            run.seconds = record.stepSeconds
            run.buildSeconds = record.buildSeconds
            run.maxHeight = record.maxHeight.flatMap { $0.isFinite ? $0 / m : nil }
            run.initialMaxHeight = record.initialMaxHeight.map { $0 / m }
            run.avgHeight = record.avgHeight.map { $0 / m }
            // The last repeat's sanity report, in the peers' units: speeds in m/s; energy in J
            // (engine mass units are kg, lengths pt: 1 J = 10⁴ kg·pt²/s²).
            run.maxSpeed = report?.maxSpeed.map { $0 / m }
            run.meanSpeed = report?.meanSpeed.map { $0 / m }
            run.kineticEnergy = report.map { $0.kineticEnergy / 1e4 }
            run.awake = report?.awakeBodies
            // Within the warm-up, as the drivers report it.
            if sleep, let t = record.secondsToRest?.seconds, t <= Double(warmup) / 60 + 1e-9 {
                run.secondsToRest = t
                run.penetrationAtRest = record.penetrationAtRest.map { $0 / m }
            }
            run.touchingContacts = record.touchingContacts
            run.standing = record.checks?["standing"]
            // Checks the peers do not have (e.g. non-finite energy) stay visible.
            let other = (record.failures ?? []).filter { $0 != "escaped" && $0 != "standing" }
            run.failedChecks = other.isEmpty ? nil : other
            run.settings = "\(subSteps) sub-steps, sleeping \(sleep ? "on" : "off"), \(threads) worker\(threads == 1 ? "" : "s")"
                + (rollingResistance > 0 ? ", rolling resistance \(rollingResistance)" : "")
            return run
        }

        /// Lines describing the run: what was measured and each engine's version and settings.
        private func describe(runs: [PeerRun], engines: [String]) -> [String] {
            let threadText = (try? PeerPlan.threadCounts(threads)).map { $0.map(String.init).joined(separator: ", ") } ?? threads
            var lines = ["dynamics-bench peers: \(steps) steps of 1/60 s after \(warmup) warm-up, \(repeats) repeats interleaved, \(threadText) thread(s) for DynamicsKit and Box2D v3, sleeping \(sleep ? "on" : "off")\(rollingResistance > 0 ? ", rolling resistance \(rollingResistance)" : ""); steps/s median (min–max); \(ResultFile.now())"]
            let machine = MachineInfo.current()
            lines.append("machine: \(machine.cpu), \(machine.cores) cores, \(machine.os)")
            for e in engines {
                let engineRuns = runs.filter { $0.engine == e }
                guard let run = engineRuns.first else { continue }
                var what = e
                if let v = run.version { what += " " + v }
                if let package = PeerDrivers.debianPackage[e], let v = PeerDrivers.dpkgVersion(package) {
                    what += " (Debian \(package) \(v))"
                }
                if let origin = PeerEngines.origin(e, source: box2dSource) { what += " (\(origin))" }
                // One line per distinct settings (they name the worker count).
                var seen: [String] = []
                for r in engineRuns where !seen.contains(r.settings ?? "") { seen.append(r.settings ?? "") }
                lines.append("\(what): \(seen.joined(separator: "; "))")
            }
            return lines
        }

        private func write(_ comparison: PeerComparison, header: [String], runs: [PeerRun], to path: String) throws {
            let text: String
            if path.lowercased().hasSuffix(".md") {
                text = header.map { "- " + $0 }.joined(separator: "\n") + "\n\n" + comparison.markdown() + "\n"
            } else if path.lowercased().hasSuffix(".txt") {
                text = header.map { "# " + $0 }.joined(separator: "\n") + "\n" + comparison.table() + "\n"
            } else {
                let doc = PeersFile(date: ResultFile.now(), machine: .current(), gitCommit: gitCommit(),
                                    command: commandLineText, description: header,
                                    rows: comparison.rows.map(PeerComparison.RowJSON.init))
                text = String(decoding: try BenchJSON.encoder(pretty: true).encode(doc), as: UTF8.self) + "\n"
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw BenchUsageError("cannot write '\(path)': \((error as NSError).localizedDescription)")
            }
        }
    }
}

/// The JSON document `peers --out FILE.json` writes.
struct PeersFile: Codable {
    var format = "dynamics-bench-peers"
    var version = 1
    var date: String
    var machine: MachineInfo
    var gitCommit: String?
    var command: String
    var description: [String]
    var rows: [PeerComparison.RowJSON]

    enum CodingKeys: String, CodingKey {
        case format, version, date, machine, command, description, rows
        case gitCommit = "git_commit"
    }
}

/// A progress note on stderr.
private func note(_ message: String) {
    FileHandle.standardError.write(Data("dynamics-bench peers: \(message)\n".utf8))
}
