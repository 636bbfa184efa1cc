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
    /// [--box2d-source DIR] [--sleep] [--format table|json|markdown] [--out FILE]`: DynamicsKit
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
                --sleep turns sleeping on (DynamicsKit and Box2D v3 only).

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
                                                                      sleep: sleep)
                                run = try PeerDrivers.run(binaries[engine]!, arguments: arguments,
                                                          engine: engine, reportedEngine: PeerEngines.reportedName(engine),
                                                          scene: c.scene, items: c.items, steps: steps, warmup: warmup,
                                                          threads: workers)
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
            let options = RunOptions(size: items, steps: steps, threads: threads, seed: 0, warmup: warmup, repeats: 1)
            let bar = ProgressBar(label: "\(name) \(items) ours ×\(threads)", total: warmup + steps,
                                  enabled: ProgressBar.shouldDraw(quiet: quiet))
            let sleepOn = sleep
            var speeds = (max: 0.0, mean: 0.0), awake = 0, energy = 0.0, subSteps = 0
            let record: BenchRecord
            do {
                defer { bar.finish() }
                record = try BenchRunner.run(scene, options, allocator: allocator, progress: bar,
                                             configure: { instance in
                                                 guard sleepOn else { return }
                                                 instance.world.settings.isSleepEnabled = true
                                                 // Box2D's default sleep speed, 0.05 m/s (our default,
                                                 // 1 pt/s, is UIKit's, for the animator).
                                                 instance.world.settings.sleepLinearThreshold = 0.05 * SceneUnits.pointsPerMetre
                                             }) { instance in
                    var sum = 0.0, top = 0.0
                    for b in instance.dynamicBodies {
                        let v = instance.world.linearVelocity(b)
                        let s = Double((v.x * v.x + v.y * v.y).squareRoot()) / Double(SceneUnits.pointsPerMetre)
                        sum += s; top = max(top, s)
                    }
                    speeds = (top, instance.dynamicBodies.isEmpty ? 0 : sum / Double(instance.dynamicBodies.count))
                    awake = instance.world.awakeBodyCount
                    // Engine units: mass in kg (density × area in m²), lengths in pt, so
                    // kg·pt²/s² (and kg·pt² × rad²/s² for rotation): 1 J = 10⁴ of them.
                    energy = instance.world.kineticEnergy / 1e4
                    subSteps = instance.world.settings.subSteps
                }
            }
            let m = Double(SceneUnits.pointsPerMetre)
            var run = PeerRun(engine: PeerComparison.ours, scene: name, items: items, bodies: record.bodies ?? 0,
                              steps: steps, stepsPerSec: record.median, escaped: record.escaped ?? 0)
            run.threads = threads
            run.sleep = sleep ? true : nil
            run.version = "git " + (gitCommit().map { String($0.prefix(12)) } ?? "unknown")
            run.staticBodies = record.staticBodies
            run.warmup = warmup
            run.msPerStep = record.msPerStep
            run.seconds = record.stepSeconds
            run.buildSeconds = record.buildSeconds
            run.maxHeight = record.maxHeight.flatMap { $0.isFinite ? $0 / m : nil }
            run.initialMaxHeight = record.initialMaxHeight.map { $0 / m }
            run.avgHeight = record.avgHeight.map { $0 / m }
            run.maxSpeed = speeds.max
            run.meanSpeed = speeds.mean
            run.kineticEnergy = energy
            run.awake = awake
            run.touchingContacts = record.touchingContacts
            run.standing = record.checks?["standing"]
            // Checks the peers do not have (e.g. non-finite energy) stay visible.
            let other = (record.failures ?? []).filter { $0 != "escaped" && $0 != "standing" }
            run.failedChecks = other.isEmpty ? nil : other
            run.settings = "\(subSteps) sub-steps, sleeping \(sleep ? "on" : "off"), \(threads) worker\(threads == 1 ? "" : "s")"
            return run
        }

        /// Lines describing the run: what was measured and each engine's version and settings.
        private func describe(runs: [PeerRun], engines: [String]) -> [String] {
            let threadText = (try? PeerPlan.threadCounts(threads)).map { $0.map(String.init).joined(separator: ", ") } ?? threads
            var lines = ["dynamics-bench peers: \(steps) steps of 1/60 s after \(warmup) warm-up, \(repeats) repeats interleaved, \(threadText) thread(s) for DynamicsKit and Box2D v3, sleeping \(sleep ? "on" : "off"); steps/s median (min–max); \(ResultFile.now())"]
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

/// A Box2D v3 source tree given with `--box2d-source`: its version and engine name.
struct Box2DSource {
    let path: String
    let major: Int, minor: Int, revision: Int
    var engine: String { Box2D3SourceBuild.engineName(major: major, minor: minor) }
    var version: String { "\(major).\(minor).\(revision)" }

    init(path given: String) throws {
        let dir = URL(fileURLWithPath: given).standardizedFileURL.path
        let core = dir + "/src/core.c"
        guard FileManager.default.fileExists(atPath: dir + "/include/box2d/box2d.h"),
              let text = try? String(contentsOfFile: core, encoding: .utf8) else {
            throw BenchUsageError("--box2d-source '\(given)' is not a Box2D v3 source tree (no include/box2d/box2d.h or src/core.c)")
        }
        guard let v = Box2D3SourceBuild.version(coreC: text), v.major >= 3 else {
            throw BenchUsageError("--box2d-source: cannot read a Box2D 3.x version from \(core)")
        }
        path = dir; major = v.major; minor = v.minor; revision = v.revision
    }
}

/// Compiling and running the peer drivers of `Peers/`.
struct PeerDrivers {
    /// What each driver needs.
    struct Recipe {
        var source: String
        var binary: String
        /// Environment variable overriding the compiler, and the default compiler.
        var compilerVariable: String
        var compiler: String
        var flags: [String]
        var libraries: [String]
        /// Debian package of the compiler, and the library's name, header and package.
        var compilerPackage: String
        var library: String
        var header: String
        var package: String
    }

    static let recipes: [String: Recipe] = [
        "box2d": Recipe(source: "box2d_driver.cpp", binary: "box2d_driver", compilerVariable: "CXX", compiler: "g++",
                        flags: ["-O2", "-DNDEBUG", "-std=c++17"], libraries: ["-lbox2d"], compilerPackage: "g++",
                        library: "Box2D 2.4", header: "box2d/box2d.h", package: "libbox2d-dev"),
        "chipmunk": Recipe(source: "chipmunk_driver.c", binary: "chipmunk_driver", compilerVariable: "CC", compiler: "gcc",
                           flags: ["-O2", "-DNDEBUG", "-std=c11"], libraries: ["-lchipmunk", "-lm"], compilerPackage: "gcc",
                           library: "Chipmunk2D 7", header: "chipmunk/chipmunk.h", package: "libchipmunk-dev"),
    ]

    /// The Debian package whose version `peers` reports for each engine.
    static let debianPackage = ["box2d": "libbox2d-dev", "chipmunk": "libchipmunk-dev"]

    /// The folder with the driver sources, and where the binaries go (`.build/peers/` beside it).
    let sourceDir: URL
    let buildDir: URL

    init(sourceDir explicit: String?) throws {
        let fm = FileManager.default
        func hasSources(_ dir: URL) -> Bool {
            fm.fileExists(atPath: dir.appendingPathComponent("box2d_driver.cpp").path)
                && fm.fileExists(atPath: dir.appendingPathComponent("chipmunk_driver.c").path)
                && fm.fileExists(atPath: dir.appendingPathComponent("box2d3_driver.c").path)
        }
        if let explicit {
            let dir = URL(fileURLWithPath: explicit).standardizedFileURL
            guard hasSources(dir) else {
                throw BenchUsageError("--source-dir '\(explicit)' does not hold box2d_driver.cpp, chipmunk_driver.c and box2d3_driver.c")
            }
            sourceDir = dir
        } else {
            // The package root: the working directory or a parent of this executable
            // (.build/release/dynamics-bench).
            var candidates = [URL(fileURLWithPath: fm.currentDirectoryPath)]
            var exe = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
            if let path = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { exe = URL(fileURLWithPath: path) }
            var dir = exe.deletingLastPathComponent()
            for _ in 0..<6 { candidates.append(dir); dir = dir.deletingLastPathComponent() }
            guard let root = candidates.first(where: { hasSources($0.appendingPathComponent("Peers")) }) else {
                throw BenchUsageError("cannot find Peers/box2d_driver.cpp: run from the package folder or give --source-dir")
            }
            sourceDir = root.appendingPathComponent("Peers")
        }
        buildDir = sourceDir.deletingLastPathComponent().appendingPathComponent(".build/peers")
    }

    /// Compiles `engine`'s driver unless the binary is newer than its source (and library) and was
    /// built by the same command; returns the binary's path. `log` hears about a compile.
    func build(_ engine: String, log: ((String) -> Void)?) throws -> String {
        if engine == "box2d3" { return try buildBox2D3Wheel(log: log) }
        guard let recipe = Self.recipes[engine] else { throw BenchUsageError("no driver for engine '\(engine)'") }
        let source = sourceDir.appendingPathComponent(recipe.source).path
        let binary = buildDir.appendingPathComponent(recipe.binary).path
        let compiler = try Self.compiler(variable: recipe.compilerVariable, default: recipe.compiler,
                                         package: recipe.compilerPackage, engine: engine)
        let arguments = recipe.flags + ["-o", binary, source] + recipe.libraries
        return try compileIfNeeded(compiler: compiler, arguments: arguments, binary: binary, inputs: [source],
                                   sourceName: recipe.source, log: log) { errors in
            if errors.contains(recipe.header) || errors.contains("cannot find \(recipe.libraries[0])")
                || errors.contains("-l\(recipe.libraries[0].dropFirst(2)): No such file") {
                return "\(recipe.library) is not installed (\(recipe.header) / \(recipe.libraries[0]) not found): apt-get install \(recipe.package), or run scripts/install-deps --peers"
            }
            return nil
        }
    }

    /// The Box2D 3.1.1 driver, linked with the pyb2d3 wheel's libbox2d.a in .build/peers/box2d3/.
    func buildBox2D3Wheel(log: ((String) -> Void)?) throws -> String {
        let root = buildDir.appendingPathComponent(Box2D3Wheel.folder).path
        let library = root + "/" + Box2D3Wheel.library
        guard FileManager.default.fileExists(atPath: root + "/" + Box2D3Wheel.header),
              FileManager.default.fileExists(atPath: library) else {
            throw BenchUsageError("Box2D 3.1.1 is not unpacked in \(root) (\(Box2D3Wheel.header), \(Box2D3Wheel.library) from the pyb2d3 \(Box2D3Wheel.version) wheel): run scripts/install-deps --peers")
        }
        let source = sourceDir.appendingPathComponent("box2d3_driver.c").path
        let binary = buildDir.appendingPathComponent("box2d3_driver").path
        let compiler = try Self.compiler(variable: "CC", default: "gcc", package: "gcc", engine: "box2d3")
        let arguments = Box2D3Wheel.compileArguments(driver: source, root: root, output: binary)
        return try compileIfNeeded(compiler: compiler, arguments: arguments, binary: binary,
                                   inputs: [source, library], sourceName: "box2d3_driver.c", log: log) { _ in nil }
    }

    /// A Box2D v3 source tree's `src/*.c` compiled (in parallel, once per content hash) into
    /// .build/peers/box2d3-src-<hash>/ and linked with the driver there.
    func buildFromSource(_ tree: Box2DSource, log: ((String) -> Void)?) throws -> String {
        let fm = FileManager.default
        let srcDir = tree.path + "/src"
        let cFiles = ((try? fm.contentsOfDirectory(atPath: srcDir)) ?? []).filter { $0.hasSuffix(".c") }.sorted()
        guard !cFiles.isEmpty else { throw BenchUsageError("--box2d-source: no .c files in \(srcDir)") }
        let avx2 = Box2D3SourceBuild.hasAVX2(cpuinfo: (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
        let libraryFlags = Box2D3SourceBuild.libraryFlags(source: tree.path, avx2: avx2)
        let compiler = try Self.compiler(variable: "CC", default: "gcc", package: "gcc", engine: tree.engine)

        // The folder is named after the compiler, flags and every source and header's content.
        var hash = Box2D3SourceBuild.fnv1a(Array(([compiler] + libraryFlags).joined(separator: " ").utf8))
        var headers: [String] = []
        for dir in [srcDir, tree.path + "/include/box2d"] {
            for f in ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).sorted() where f.hasSuffix(".c") || f.hasSuffix(".h") || f.hasSuffix(".inl") {
                headers.append(dir + "/" + f)
            }
        }
        for path in headers {
            hash = Box2D3SourceBuild.fnv1a(Array(path.utf8), seed: hash)
            if let data = fm.contents(atPath: path) { hash = Box2D3SourceBuild.fnv1a(data, seed: hash) }
        }
        let hex = String(hash, radix: 16)
        let outDir = buildDir.appendingPathComponent("box2d3-src-\(String(repeating: "0", count: max(0, 16 - hex.count)) + hex)")
        let objDir = outDir.appendingPathComponent("obj")
        let done = objDir.appendingPathComponent(".complete").path
        do {
            try fm.createDirectory(at: objDir, withIntermediateDirectories: true)
        } catch {
            throw BenchUsageError("cannot create '\(objDir.path)': \((error as NSError).localizedDescription)")
        }
        let objects = cFiles.map { objDir.appendingPathComponent(($0 as NSString).deletingPathExtension + ".o").path }
        if !fm.fileExists(atPath: done) {
            log?("compiling Box2D \(tree.version) (\(cFiles.count) files): \(compiler) \(libraryFlags.joined(separator: " ")) -c \(srcDir)/*.c")
            let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
            var next = 0
            var failure: String?
            while next < cFiles.count && failure == nil {
                // A batch of `jobs` compilers at a time.
                let batch = Array(next..<min(cFiles.count, next + jobs))
                var processes: [(Process, URL, Int)] = []
                for i in batch {
                    let p = Process()
                    p.executableURL = URL(fileURLWithPath: compiler)
                    p.arguments = libraryFlags + ["-c", srcDir + "/" + cFiles[i], "-o", objects[i]]
                    let errURL = fm.temporaryDirectory.appendingPathComponent("peers-box2d-\(getpid())-\(i).err")
                    _ = fm.createFile(atPath: errURL.path, contents: nil)
                    p.standardError = try? FileHandle(forWritingTo: errURL)
                    p.standardOutput = FileHandle.nullDevice
                    do { try p.run() } catch {
                        throw BenchUsageError("cannot run '\(compiler)': \((error as NSError).localizedDescription)")
                    }
                    processes.append((p, errURL, i))
                }
                for (p, errURL, i) in processes {
                    p.waitUntilExit()
                    let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
                    try? fm.removeItem(at: errURL)
                    if p.terminationStatus != 0 && failure == nil {
                        let first = errors.split(separator: "\n").first { $0.contains("error") } ?? errors.split(separator: "\n").first ?? ""
                        failure = "compiling \(cFiles[i]) of \(tree.path) failed: \(first)"
                    }
                }
                next += batch.count
            }
            if let failure { throw BenchUsageError(failure) }
            _ = fm.createFile(atPath: done, contents: Data())
        }
        let driver = sourceDir.appendingPathComponent("box2d3_driver.c").path
        let binary = outDir.appendingPathComponent("box2d3_driver").path
        let arguments = Box2D3SourceBuild.driverArguments(driver: driver, source: tree.path, avx2: avx2,
                                                          v32: tree.major > 3 || tree.minor >= 2,
                                                          objects: objects, output: binary)
        return try compileIfNeeded(compiler: compiler, arguments: arguments, binary: binary, inputs: [driver, done],
                                   sourceName: "box2d3_driver.c", log: log) { _ in nil }
    }

    /// The compiler named by `variable` (or `default`) as a full path, or a usage error naming
    /// its Debian package.
    static func compiler(variable: String, default name: String, package: String, engine: String) throws -> String {
        let compiler = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? name
        guard let path = which(compiler) else {
            throw BenchUsageError("\(compiler) not found on PATH (needed to build the \(engine) driver): apt-get install \(package), or run scripts/install-deps --peers")
        }
        return path
    }

    /// Runs `compiler arguments` unless `binary` is newer than every input and its stamp file
    /// holds the same command. `explain` turns the compiler's stderr into a friendlier error.
    func compileIfNeeded(compiler: String, arguments: [String], binary: String, inputs: [String], sourceName: String,
                         log: ((String) -> Void)?, explain: (String) -> String?) throws -> String {
        let fm = FileManager.default
        let stamp = binary + ".command"
        let command = ([(compiler as NSString).lastPathComponent] + arguments).joined(separator: " ")
        func modified(_ path: String) -> Date? {
            (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        if let built = modified(binary), fm.isExecutableFile(atPath: binary),
           inputs.allSatisfy({ modified($0).map { built >= $0 } ?? false }),
           (try? String(contentsOfFile: stamp, encoding: .utf8)) == command {
            return binary
        }
        let folder = (binary as NSString).deletingLastPathComponent
        do {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw BenchUsageError("cannot create '\(folder)': \((error as NSError).localizedDescription)")
        }
        log?("compiling: \(command)")
        let result = try Self.execute(compiler, arguments)
        guard result.status == 0 else {
            if let message = explain(result.stderr) { throw BenchUsageError(message) }
            let lines = result.stderr.split(separator: "\n")
            let first = lines.first { ($0.contains("error") || $0.contains("cannot find")) && !$0.hasPrefix("collect2") }
                ?? lines.first ?? ""
            throw BenchUsageError("compiling \(sourceName) failed (\(command)): \(first)")
        }
        try? command.write(toFile: stamp, atomically: true, encoding: .utf8)
        return binary
    }

    /// The arguments of `engine`'s driver (see `PeerRun.driverArguments`).
    static func arguments(engine: String, scene: String, items: Int, steps: Int, warmup: Int, threads: Int,
                          sleep: Bool) -> [String] {
        PeerRun.driverArguments(engine: engine, scene: scene, items: items, steps: steps, warmup: warmup,
                                threads: threads, sleep: sleep)
    }

    /// Runs a driver and reads its result line; the run is labelled `engine` (a source-built
    /// Box2D prints `box2d3`, `reportedEngine`) and `threads`.
    static func run(_ binary: String, arguments: [String], engine: String, reportedEngine: String, scene: String,
                    items: Int, steps: Int, warmup: Int, threads: Int) throws -> PeerRun {
        let result = try execute(binary, arguments)
        let name = URL(fileURLWithPath: binary).lastPathComponent
        guard result.status == 0 else {
            let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            throw BenchUsageError("\(name) \(scene) \(items) failed (exit \(result.status)): \(line)")
        }
        var run = try PeerRun.parse(output: result.stdout, source: name)
        guard run.engine == reportedEngine, run.scene == scene, run.items == items, run.steps == steps,
              (run.threads ?? 1) == threads else {
            throw BenchUsageError("\(name) answered for \(run.engine) \(run.scene) \(run.items) × \(run.steps) steps × \(run.threads ?? 1) threads, not \(reportedEngine) \(scene) \(items) × \(steps) × \(threads)")
        }
        run.engine = engine
        run.threads = threads
        run.warmup = run.warmup ?? warmup
        return run
    }

    /// Runs a program to the end; stdout through a pipe, stderr through a temporary file (so that
    /// neither can fill up and block it).
    static func execute(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("dynamics-bench-peers-\(getpid())-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errURL.path, contents: nil),
              let errHandle = try? FileHandle(forWritingTo: errURL) else {
            throw BenchUsageError("cannot create a temporary file in \(FileManager.default.temporaryDirectory.path)")
        }
        defer { try? errHandle.close(); try? FileManager.default.removeItem(at: errURL) }
        p.standardError = errHandle
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            throw BenchUsageError("cannot run '\(path)': \((error as NSError).localizedDescription)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return (p.terminationStatus, String(decoding: data, as: UTF8.self), err)
    }

    /// The full path of `program` (a path is taken as it is), or nil when it is not on PATH.
    static func which(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The installed version of a Debian package (`dpkg-query`), or nil.
    static func dpkgVersion(_ package: String) -> String? {
        guard let dpkg = which("dpkg-query"),
              let result = try? execute(dpkg, ["-W", "-f=${Version}", package]), result.status == 0 else { return nil }
        let v = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return v.isEmpty ? nil : v
    }
}

/// A progress note on stderr.
private func note(_ message: String) {
    FileHandle.standardError.write(Data("dynamics-bench peers: \(message)\n".utf8))
}
