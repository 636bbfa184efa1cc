import Foundation

/// A Box2D v3 source tree given with `--box2d-source`: its version and engine name.
public struct Box2DSource: Sendable {
    public let path: String
    public let major: Int, minor: Int, revision: Int
    public var engine: String { Box2D3SourceBuild.engineName(major: major, minor: minor) }
    public var version: String { "\(major).\(minor).\(revision)" }

    public init(path given: String) throws {
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

/// Compiling and running the peer drivers of `Peers/` (`dynamics-bench peers`): each compiled
/// into `.build/peers/` beside `Peers/` when missing or older than its sources.
public struct PeerDrivers: Sendable {
    /// What each driver needs.
    struct Recipe: Sendable {
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
    public static let debianPackage = ["box2d": "libbox2d-dev", "chipmunk": "libchipmunk-dev"]

    /// The folder with the driver sources, and where the binaries go (`.build/peers/` beside it).
    public let sourceDir: URL
    public let buildDir: URL

    public init(sourceDir explicit: String?) throws {
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
    public func build(_ engine: String, log: ((String) -> Void)?) throws -> String {
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
    public func buildFromSource(_ tree: Box2DSource, log: ((String) -> Void)?) throws -> String {
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
    public static func arguments(engine: String, scene: String, items: Int, steps: Int, warmup: Int, threads: Int,
                          sleep: Bool, rollingResistance: Float = 0, seed: UInt64 = 0) -> [String] {
        PeerRun.driverArguments(engine: engine, scene: scene, items: items, steps: steps, warmup: warmup,
                                threads: threads, sleep: sleep, rollingResistance: rollingResistance, seed: seed)
    }

    /// Runs a driver and reads its result line; the run is labelled `engine` (a source-built
    /// Box2D prints `box2d3`, `reportedEngine`) and `threads`.
    public static func run(_ binary: String, arguments: [String], engine: String, reportedEngine: String, scene: String,
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
    public static func dpkgVersion(_ package: String) -> String? {
        guard let dpkg = which("dpkg-query"),
              let result = try? execute(dpkg, ["-W", "-f=${Version}", package]), result.status == 0 else { return nil }
        let v = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return v.isEmpty ? nil : v
    }
}
