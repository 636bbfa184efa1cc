import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Scene checkpoints (`SceneInstance.checkpoint()` / `resume(fromCheckpoint:)`) and the CLI's
/// `run --checkpoint-every N --checkpoint-dir DIR` / `--resume FILE`.
@Suite("Checkpoints", .serialized)
struct CheckpointTests {
    @Test("catalog scenes' worlds resume bit for bit (state digest every 5 steps, 1 and 2 workers)",
          arguments: [("pile", 300), ("mix", 300), ("islands", 200), ("pyramid", 12), ("chains", 3),
                      ("washer", 20), ("compounds", 10), ("spinner", 100), ("spinner_v31", 100)])
    func catalogWorldsResume(name: String, size: Int) throws {
        let scene = try SceneCatalog.scene(named: name)
        for workers in [1, 2] {
            let original = try scene.build(size: size, seed: 3).world
            original.settings.isSleepEnabled = true
            original.workerCount = 1
            for _ in 0..<40 { original.step() }
            let restored = try World(snapshot: original.snapshot())
            restored.workerCount = workers
            #expect(restored.stateDigest() == original.stateDigest(), "\(name): the restored state differs")
            for k in 1...20 {
                original.step(); restored.step()
                if k % 5 == 0 {
                    #expect(restored.stateDigest() == original.stateDigest(), "\(name) \(size), \(workers) workers: differs \(k) steps after the restore")
                }
            }
        }
    }

    @Test("a scene resumed from a checkpoint ends in the uninterrupted run's state")
    func sceneResume() throws {
        let scene = try SceneCatalog.scene(named: "mix")
        let whole = try scene.build(size: 120, seed: 4)
        whole.run(steps: 25)
        let bytes = try whole.checkpoint()
        whole.run(steps: 20)

        let info = try SceneCheckpointInfo(checkpoint: bytes)
        #expect(try info == SceneCheckpointInfo(checkpoint: bytes))
        #expect(info.scene == "mix" && info.size == 120 && info.seed == 4 && info.step == 25)
        let resumed = try scene.build(size: 120, seed: 4)
        resumed.workerCount = 2
        try resumed.resume(fromCheckpoint: bytes)
        #expect(resumed.stepsTaken == 25)
        resumed.run(steps: 20)
        #expect(resumed.world.stateDigest() == whole.world.stateDigest())
        #expect(resumed.sanity().failures == whole.sanity().failures)

        // Another scene's, size's or seed's checkpoint is refused.
        let other = try scene.build(size: 120, seed: 5)
        #expect(throws: SceneCheckpointError.self) { try other.resume(fromCheckpoint: bytes) }
    }

    @Test("scenes whose state is not all in the world refuse, saying why")
    func notResumable() throws {
        let rain = try SceneCatalog.scene(named: "rain").build(size: 1, seed: 0)
        #expect(!rain.isResumable)
        do {
            _ = try rain.checkpoint()
            Issue.record("rain wrote a checkpoint")
        } catch let e as SceneCheckpointError {
            #expect(e.description.contains("per-step hook"))
        }
        #expect(try SceneCatalog.scene(named: "pile").build(size: 10, seed: 0).isResumable)
    }

    // MARK: - The CLI

    /// The `dynamics-bench` built beside the test bundle.
    static var bench: String? {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent(), URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/debug")] {
            let p = dir.appendingPathComponent("dynamics-bench").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Runs the CLI; returns (status, stdout, stderr).
    static func run(_ args: [String]) throws -> (Int32, String, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(bench, "dynamics-bench is not built beside the tests (swift build --build-tests)"))
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static func digest(_ json: String) throws -> (String, Int?) {
        let line = try #require(json.split(separator: "\n").first)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (try #require(obj["state_digest"] as? String), obj["resumed_from_step"] as? Int)
    }

    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("dk-checkpoints-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test("run --checkpoint-every, then --resume from a middle checkpoint: the same final digest")
    func cliResume() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let common = ["run", "pile", "--items", "60", "--warmup", "6", "--steps", "18", "--repeat", "1", "--format", "json", "--quiet"]
        let (status, out, err) = try Self.run(common + ["--checkpoint-every", "6", "--checkpoint-dir", dir])
        #expect(status == 0, "\(err)")
        let (whole, _) = try Self.digest(out)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["pile-60-seed0-step12.dkcp", "pile-60-seed0-step18.dkcp", "pile-60-seed0-step24.dkcp",
                          "pile-60-seed0-step6.dkcp"])
        for (file, threads) in [("pile-60-seed0-step12.dkcp", "2"), ("pile-60-seed0-step6.dkcp", "1")] {
            let (s2, out2, err2) = try Self.run(common + ["--resume", dir + "/" + file, "--threads", threads])
            #expect(s2 == 0, "\(err2)")
            let (resumed, from) = try Self.digest(out2)
            #expect(resumed == whole, "resumed from \(file) with \(threads) threads")
            #expect(from == (file.contains("12") ? 12 : 6))
        }
        // Without checkpoints the digest is the same too (checkpoints change nothing).
        let (s3, out3, _) = try Self.run(common + ["--state-digest"])
        #expect(s3 == 0)
        #expect(try Self.digest(out3).0 == whole)
        // Usage errors: another scene's checkpoint; a scene that cannot resume.
        let (s4, _, err4) = try Self.run(["run", "pile", "--items", "61", "--resume", dir + "/pile-60-seed0-step6.dkcp", "--quiet"])
        #expect(s4 == 2 && err4.contains("not of pile --items 61"), "\(err4)")
        let (s5, _, err5) = try Self.run(["run", "rain", "--items", "1", "--steps", "2", "--warmup", "0", "--repeat", "1",
                                          "--checkpoint-every", "1", "--checkpoint-dir", dir, "--quiet"])
        #expect(s5 == 2 && err5.contains("cannot be checkpointed"), "\(err5)")
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/pile-60-seed0-step6.dkcp")))
        damaged.removeLast(10)
        try Data(damaged).write(to: URL(fileURLWithPath: dir + "/cut.dkcp"))
        let (s6, _, err6) = try Self.run(["run", "pile", "--items", "60", "--resume", dir + "/cut.dkcp", "--quiet"])
        #expect(s6 == 2 && err6.contains("truncated"), "\(err6)")
    }

    @Test("a run killed while checkpointing leaves only whole checkpoints")
    func killedRun() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.bench, "dynamics-bench is not built beside the tests"))
        p.arguments = ["run", "pile", "--items", "2000", "--warmup", "0", "--steps", "100000", "--repeat", "1", "--quiet",
                       "--checkpoint-every", "1", "--checkpoint-dir", dir]
        p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
        try p.run()
        // Kill it once a few checkpoints exist (it writes one per step, so likely mid-write).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let n = (try? FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".dkcp") }.count) ?? 0
            if n >= 3 { break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        let checkpoints = names.filter { $0.hasSuffix(".dkcp") }
        #expect(checkpoints.count >= 3)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            if name.hasSuffix(".dkcp") {
                // Every file under a checkpoint's name is whole.
                let info = try SceneCheckpointInfo(checkpoint: bytes)
                #expect(name == "pile-2000-seed0-step\(info.step).dkcp")
                _ = try World(snapshot: bytes)
            } else {
                // Only the temporary file of the write in progress may be left, and it is hidden.
                #expect(name.hasPrefix(".") && name.contains(".tmp-"), "unexpected file \(name)")
            }
        }
    }
}
