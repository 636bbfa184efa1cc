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
    /// [--warmup 100] [--repeat 3] [--engines ours,box2d,chipmunk] [--format table|json|markdown]
    /// [--out FILE]`: DynamicsKit side by side with Box2D 2.4 and Chipmunk2D 7 on the same scenes.
    struct Peers: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares DynamicsKit with Box2D 2.4 and Chipmunk2D 7 on pile, pyramid and mix.",
            discussion: """
                Compiles the peer drivers (Peers/box2d_driver.cpp with g++ -lbox2d, \
                Peers/chipmunk_driver.c with gcc -lchipmunk, -O2 -DNDEBUG) into .build/peers/ when \
                they are missing or older than their sources, then runs each configuration \
                --repeat times, the engines interleaved (ours, box2d, chipmunk, ours, box2d, …) so \
                that noise hits all alike. Every engine builds the same bodies (scenes.md, "Units \
                for the peer scenes"), takes --warmup untimed steps and times --steps steps of \
                1/60 s on one thread with sleeping off. DynamicsKit runs in this process \
                (World.workerCount = 1, its default 4 sub-steps); Box2D with 8 velocity / 3 \
                position iterations; Chipmunk with 10 iterations, collision slop 0.005 m and its \
                default bounding-box tree.

                The table: steps/s median and min–max over the repeats, ms/step at the median, \
                ours/this = DynamicsKit's median over that engine's, and the sanity check (escaped \
                bodies; the pyramid must keep its height within 1 %, plus Box2D's 0.01 m polygon \
                skin per layer).

                Needs: g++ and gcc, libbox2d-dev and libchipmunk-dev (scripts/install-deps --peers \
                installs them). Exit status: 0 ok (a peer failing its sanity check is reported, not \
                an error), 1 DynamicsKit failed its sanity check, 2 usage error or a compiler, \
                library or driver problem.
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

        @Option(name: .long, help: "Comma-separated engines: ours, box2d, chipmunk.")
        var engines: String = "ours,box2d,chipmunk"

        @Option(name: .long, help: "Output on stdout: table, json (one object per row) or markdown.")
        var format: PeersFormat = .table

        @Option(name: .long, help: "Also write the results to FILE: Markdown if it ends in .md, a plain table if .txt, else a JSON document.")
        var out: String?

        @Option(name: .customLong("source-dir"),
                help: "Folder holding box2d_driver.cpp and chipmunk_driver.c (default: Peers/ of the package, found from the working directory or this executable).")
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
            let engineList = try PeerEngines.parse(engines)
            if let out { try checkWritable(out) }

            let drivers = try PeerDrivers(sourceDir: sourceDir)
            var binaries: [String: String] = [:]
            for engine in engineList where engine != PeerComparison.ours {
                binaries[engine] = try drivers.build(engine, log: quiet ? nil : { note($0) })
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
                    for engine in engineList {
                        let run: PeerRun
                        if engine == PeerComparison.ours {
                            run = try runOurs(scene: c.scene, items: c.items, allocator: allocator)
                            if !run.passed { oursFailed = true }
                        } else {
                            run = try PeerDrivers.run(binaries[engine]!, engine: engine, scene: c.scene,
                                                      items: c.items, steps: steps, warmup: warmup)
                        }
                        runs.append(run)
                        if !quiet {
                            let check = run.passed ? "" : "  FAILED: " + run.failures.joined(separator: ", ")
                            note("\(c.scene) \(c.items) \(engine) [\(r)/\(repeats)]: \(TextTable.fixed(run.stepsPerSec, 1)) steps/s\(check)")
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
        private func runOurs(scene name: String, items: Int, allocator: String) throws -> PeerRun {
            let scene = try SceneCatalog.scene(named: name)
            let options = RunOptions(size: items, steps: steps, threads: 1, seed: 0, warmup: warmup, repeats: 1)
            let bar = ProgressBar(label: "\(name) \(items) ours", total: warmup + steps,
                                  enabled: ProgressBar.shouldDraw(quiet: quiet))
            var speeds = (max: 0.0, mean: 0.0), awake = 0, energy = 0.0, subSteps = 0
            let record: BenchRecord
            do {
                defer { bar.finish() }
                record = try BenchRunner.run(scene, options, allocator: allocator, progress: bar) { instance in
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
            run.settings = "\(subSteps) sub-steps, sleeping off, 1 worker"
            return run
        }

        /// Lines describing the run: what was measured and each engine's version and settings.
        private func describe(runs: [PeerRun], engines: [String]) -> [String] {
            var lines = ["dynamics-bench peers: \(steps) steps of 1/60 s after \(warmup) warm-up, \(repeats) repeats interleaved, one thread; steps/s median (min–max); \(ResultFile.now())"]
            let machine = MachineInfo.current()
            lines.append("machine: \(machine.cpu), \(machine.cores) cores, \(machine.os)")
            for e in engines {
                guard let run = runs.first(where: { $0.engine == e }) else { continue }
                var what = e
                if let v = run.version { what += " " + v }
                if let package = PeerDrivers.debianPackage[e], let v = PeerDrivers.dpkgVersion(package) {
                    what += " (Debian \(package) \(v))"
                }
                lines.append("\(what): \(run.settings ?? "")")
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

/// The engines `peers` knows, by their `--engines` names.
enum PeerEngines {
    static let all = ["ours", "box2d", "chipmunk"]

    /// Parses `--engines`; `ours` becomes `PeerComparison.ours`. Order is kept.
    static func parse(_ text: String) throws -> [String] {
        var out: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard all.contains(name) || name == PeerComparison.ours else {
                throw BenchUsageError("--engines: unknown engine '\(name)' (known: \(all.joined(separator: ", ")))")
            }
            let engine = name == "ours" ? PeerComparison.ours : name
            if !out.contains(engine) { out.append(engine) }
        }
        return out
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
        }
        if let explicit {
            let dir = URL(fileURLWithPath: explicit).standardizedFileURL
            guard hasSources(dir) else {
                throw BenchUsageError("--source-dir '\(explicit)' does not hold box2d_driver.cpp and chipmunk_driver.c")
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

    /// Compiles `engine`'s driver unless the binary is newer than its source and was built by
    /// the same command; returns the binary's path. `log` hears about a compile.
    func build(_ engine: String, log: ((String) -> Void)?) throws -> String {
        guard let recipe = Self.recipes[engine] else { throw BenchUsageError("no driver for engine '\(engine)'") }
        let fm = FileManager.default
        let source = sourceDir.appendingPathComponent(recipe.source).path
        let binary = buildDir.appendingPathComponent(recipe.binary).path
        let stamp = binary + ".command"

        let compiler = ProcessInfo.processInfo.environment[recipe.compilerVariable].flatMap { $0.isEmpty ? nil : $0 } ?? recipe.compiler
        guard let compilerPath = Self.which(compiler) else {
            throw BenchUsageError("\(compiler) not found on PATH (needed to build the \(engine) driver): apt-get install \(recipe.compilerPackage), or run scripts/install-deps --peers")
        }
        let arguments = recipe.flags + ["-o", binary, source] + recipe.libraries
        let command = ([compiler] + arguments).joined(separator: " ")

        func modified(_ path: String) -> Date? {
            (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        if let built = modified(binary), let written = modified(source), built >= written,
           fm.isExecutableFile(atPath: binary),
           (try? String(contentsOfFile: stamp, encoding: .utf8)) == command {
            return binary
        }

        do {
            try fm.createDirectory(at: buildDir, withIntermediateDirectories: true)
        } catch {
            throw BenchUsageError("cannot create '\(buildDir.path)': \((error as NSError).localizedDescription)")
        }
        log?("compiling: \(command)")
        let result = try Self.execute(compilerPath, arguments)
        guard result.status == 0 else {
            let errors = result.stderr
            if errors.contains(recipe.header) || errors.contains("cannot find \(recipe.libraries[0])")
                || errors.contains("-l\(recipe.libraries[0].dropFirst(2)): No such file") {
                throw BenchUsageError("\(recipe.library) is not installed (\(recipe.header) / \(recipe.libraries[0]) not found): apt-get install \(recipe.package), or run scripts/install-deps --peers")
            }
            let lines = errors.split(separator: "\n")
            let first = lines.first { ($0.contains("error") || $0.contains("cannot find")) && !$0.hasPrefix("collect2") }
                ?? lines.first ?? ""
            throw BenchUsageError("compiling \(recipe.source) failed (\(command)): \(first)")
        }
        try? command.write(toFile: stamp, atomically: true, encoding: .utf8)
        return binary
    }

    /// Runs a driver and reads its result line.
    static func run(_ binary: String, engine: String, scene: String, items: Int, steps: Int, warmup: Int) throws -> PeerRun {
        let result = try execute(binary, [scene, "\(items)", "\(steps)", "\(warmup)"])
        let name = URL(fileURLWithPath: binary).lastPathComponent
        guard result.status == 0 else {
            let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            throw BenchUsageError("\(name) \(scene) \(items) failed (exit \(result.status)): \(line)")
        }
        var run = try PeerRun.parse(output: result.stdout, source: name)
        guard run.engine == engine, run.scene == scene, run.items == items, run.steps == steps else {
            throw BenchUsageError("\(name) answered for \(run.engine) \(run.scene) \(run.items) × \(run.steps) steps, not \(engine) \(scene) \(items) × \(steps)")
        }
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
