import Foundation
import Testing

/// `scripts/gate --bisect GOOD BAD` (the real script, copied into a made-up repository) on a
/// small history whose fifth commit makes the step do 15 % more work. The repository's
/// "build" (`GATE_BUILD`) writes a stand-in `dynamics-bench`: a shell script that answers
/// `run … --format json` with 10⁶ / work steps per second and ±0.5 % noise, so no Swift is
/// compiled per commit; `ab` is this package's own `dynamics-bench` (`GATE_AB`).
@Suite(.serialized) struct GateBisectTests {
    struct Repo {
        let dir: URL, cache: URL, buildLog: URL, state: URL
        var commits: [String] = []

        init() throws {
            let top = FileManager.default.temporaryDirectory.appendingPathComponent("gate-bisect-\(UUID().uuidString)")
            dir = top.appendingPathComponent("repo")
            cache = top.appendingPathComponent("cache")
            buildLog = top.appendingPathComponent("builds.log")
            state = top.appendingPathComponent("state")
            for d in [dir, cache, state, dir.appendingPathComponent("scripts")] {
                try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            }
        }

        var top: URL { dir.deletingLastPathComponent() }

        func write(_ path: String, _ text: String, executable: Bool = false) throws {
            let url = dir.appendingPathComponent(path)
            try Data(text.utf8).write(to: url)
            if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }

        @discardableResult
        func git(_ args: [String]) throws -> String {
            let r = try GateBisectTests.run("/usr/bin/env", ["git"] + args, in: dir, environment: [:])
            guard r.status == 0 else { throw GitError(message: "git \(args.joined(separator: " ")): \(r.err)") }
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        mutating func commit(_ message: String) throws {
            try git(["add", "-A"])
            try git(["commit", "-q", "-m", message])
            commits.append(try git(["rev-parse", "HEAD"]))
        }

        /// Everything that must be the same before and after a bisection.
        func snapshot() throws -> [String] {
            let gitDir = dir.appendingPathComponent(".git")
            return [try git(["rev-parse", "HEAD"]), try git(["symbolic-ref", "HEAD"]),
                    try git(["status", "--porcelain", "--untracked-files=all"]),
                    try git(["worktree", "list", "--porcelain"]), try git(["for-each-ref"]),
                    try git(["stash", "list"]), try String(contentsOf: dir.appendingPathComponent("notes"), encoding: .utf8),
                    "bisect log: \(FileManager.default.fileExists(atPath: gitDir.appendingPathComponent("BISECT_LOG").path))",
                    "bisect start: \(FileManager.default.fileExists(atPath: gitDir.appendingPathComponent("BISECT_START").path))"]
        }

        func builds() throws -> [String] {
            guard FileManager.default.fileExists(atPath: buildLog.path) else { return [] }
            return try String(contentsOf: buildLog, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func gate(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
            let driver = try #require(BenchCLITests.builtExecutable(), "dynamics-bench is not in the build folder; run swift build --build-tests")
            return try GateBisectTests.run("/usr/bin/env", ["bash", "scripts/gate"] + args, in: dir, environment: [
                "GATE_BUILD": "sh build.sh", "GATE_CACHE": cache.path, "GATE_AB": driver.path,
                "BUILD_LOG": buildLog.path, "FAKE_STATE": state.path,
            ])
        }

        func remove() { try? FileManager.default.removeItem(at: top) }
    }

    struct GitError: Error { let message: String }

    static func run(_ exe: String, _ args: [String], in dir: URL, environment: [String: String]) throws
        -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // (Read both pipes at once: a full stderr pipe would block the process.)
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// c0 … c7 on `main`; c4 raises the work per step from 100 to 115.
    static func history() throws -> Repo {
        var repo = try Repo()
        try repo.git(["init", "-q", "-b", "main"])
        try repo.git(["config", "user.email", "gate@example.com"])
        try repo.git(["config", "user.name", "Gate Test"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try repo.write("scripts/gate", try String(contentsOf: root.appendingPathComponent("scripts/gate"), encoding: .utf8), executable: true)
        try repo.write(".gitignore", ".build/\n")
        try repo.write("build.sh", """
            #!/bin/sh
            # Builds the stand-in dynamics-bench of this commit: its steps cost the work in ./work.
            set -e
            git rev-parse HEAD >> "$BUILD_LOG"
            mkdir -p .build/release
            sed "s/@WORK@/$(cat work)/" bench.in > .build/release/dynamics-bench
            chmod +x .build/release/dynamics-bench

            """)
        try repo.write("bench.in", """
            #!/bin/sh
            # run SCENE … --format json: steps/s = 10^6 / work per step, with ±0.5 % noise.
            n=$(( $(cat "$FAKE_STATE/count" 2>/dev/null || echo 0) + 1 ))
            echo "$n" > "$FAKE_STATE/count"
            speed=$(( 1000000 * (1000 + (n * 37) % 11 - 5) / (1000 * @WORK@) ))
            printf '{"scene":"pile","items":10,"threads":1,"steps_per_second":%s,"cpu_steps_per_second":%s,"passed":true}\\n' "$speed" "$speed"

            """)
        try repo.write("work", "100\n")
        try repo.write("notes", "c0\n")
        try repo.commit("c0: the step does 100 units of work")
        for k in 1...7 {
            if k == 4 {
                try repo.write("work", "115\n")
                try repo.commit("c4: the step does 15 % more work")
            } else {
                try repo.write("notes", "c\(k)\n")
                try repo.commit("c\(k): notes")
            }
        }
        return repo
    }

    @Test func bisectFindsTheCommitThatAddsWorkAndLeavesTheRepositoryAsItWas() throws {
        let repo = try Self.history()
        defer { repo.remove() }
        // A dirty working tree and an untracked file must survive the bisection untouched.
        try repo.write("notes", "uncommitted change\n")
        try repo.write("scratch.txt", "untracked\n")
        let before = try repo.snapshot()
        let ab = ["--scenes", "pile:10", "--steps", "5"]
        let c = repo.commits
        let r = try repo.gate(["--bisect", c[0], c[7]] + ab)
        #expect(r.status == 0, "\(r.out)\n\(r.err)")
        let short = String(c[4].prefix(7))
        #expect(r.out.contains("gate: first regressing commit: \(short) c4: the step does 15 % more work"), "\(r.out)\n\(r.err)")
        // Its verdict against GOOD, with the ratio: 100/115 = 0.870 within the noise.
        let verdict = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("gate: against GOOD ") }, "\(r.out)")
        #expect(verdict.contains(": FAIL: pile 10 ×1 is "), "\(verdict)")
        let ratio = try #require(verdict.firstMatch(of: /\(ratio (\d\.\d+),/).flatMap { Double($0.1) }, "\(verdict)")
        #expect(abs(ratio - 100.0 / 115) < 0.01, "\(verdict)")
        #expect(try repo.snapshot() == before, "the repository changed")
        // GOOD and BAD, then the commits git bisect tried (three for seven candidates), each built once.
        let built = try repo.builds()
        #expect(Set(built).count == built.count && built.count <= 6 && built.contains(c[4]), "\(built)")
        #expect(built.prefix(2) == [c[0], c[7]])

        // Again: every build comes from the cache, and the answer is the same.
        let again = try repo.gate(["--bisect", c[0], c[7]] + ab)
        #expect(again.status == 0 && again.out.contains("first regressing commit: \(short) "), "\(again.out)\n\(again.err)")
        #expect(try repo.builds() == built)
        #expect(try repo.snapshot() == before)

        // A BAD that is not slower: nothing to bisect (exit 1); bad arguments: exit 2.
        let none = try repo.gate(["--bisect", c[0], c[3]] + ab)
        #expect(none.status == 1 && none.out.contains("gate: BAD is not slower than GOOD: nothing to bisect"), "\(none.out)\n\(none.err)")
        let reversed = try repo.gate(["--bisect", c[7], c[0]] + ab)
        #expect(reversed.status == 2 && reversed.err.contains("must be an ancestor of BAD"), "\(reversed.err)")
        #expect(try repo.snapshot() == before)

        // Without --bisect: the working tree (c7 and the uncommitted note) against c3, and against c5.
        let gate = try repo.gate([c[3]] + ab)
        #expect(gate.status == 1 && gate.out.contains("\nFAIL: pile 10 ×1 is "), "\(gate.out)\n\(gate.err)")
        let pass = try repo.gate([c[5]] + ab)
        #expect(pass.status == 0 && pass.out.contains("\nPASS: "), "\(pass.out)\n\(pass.err)")
        #expect(try repo.snapshot() == before)
    }
}
