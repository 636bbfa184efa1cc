import ArgumentParser
import BenchSupport
import DynamicsEngine
import DynamicsScenes
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `run`'s checkpoint options: `--checkpoint-every N --checkpoint-dir DIR` and `--resume FILE`.
struct CheckpointOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional,
            help: "Write a checkpoint every N steps (counting warm-up steps) into --checkpoint-dir.")
    var checkpointEvery: Int?

    @Option(name: .long, help: "Directory for --checkpoint-every's files, <scene>-<items>-seed<seed>-step<k>.dkcp (created if missing).")
    var checkpointDir: String?

    @Flag(name: .long, help: "Report the final world's state digest (state_digest in JSON; implied by the other checkpoint options): equal digests, equal states bit for bit.")
    var stateDigest = false

    @Option(name: .long, help: "Continue from a checkpoint of the same scene, items and seed: its steps are not taken again (warm-up first, then timed).")
    var resume: String?

    /// Checks the combination; returns the plan (nil when no checkpoint option was given).
    func plan(sizes: [Int]) throws -> CheckpointPlan? {
        if checkpointEvery == nil && checkpointDir == nil && resume == nil && !stateDigest { return nil }
        if (checkpointEvery == nil) != (checkpointDir == nil) {
            throw BenchUsageError("--checkpoint-every and --checkpoint-dir go together")
        }
        if let n = checkpointEvery { try requirePositive(n, "--checkpoint-every") }
        var plan = CheckpointPlan(every: checkpointEvery ?? 0, directory: checkpointDir)
        if let dir = checkpointDir {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw BenchUsageError("--checkpoint-dir \(dir): \(error.localizedDescription)")
            }
        }
        if let path = resume {
            if sizes.count != 1 { throw BenchUsageError("--resume needs a single --items value (the checkpoint's)") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw BenchUsageError("--resume \(path): cannot read the file")
            }
            let bytes = [UInt8](data)
            do { plan.resumeInfo = try SceneCheckpointInfo(checkpoint: bytes) } catch {
                throw BenchUsageError("--resume \(path): \(error)")
            }
            plan.resume = bytes
            plan.resumePath = path
        }
        return plan
    }
}

/// What a run does about checkpoints.
struct CheckpointPlan {
    /// Write one every `every` steps (0: never) into `directory`.
    var every = 0
    var directory: String?
    /// The checkpoint to continue from.
    var resume: [UInt8]?
    var resumePath: String?
    var resumeInfo: SceneCheckpointInfo?
    /// Whether the results carry the final state's digest (always, with a plan).
    var reportsDigest: Bool { true }

    /// Continues `instance` from the checkpoint, if any; a usage error for a scene that cannot.
    func resumeIfAsked(_ instance: SceneInstance) throws {
        guard let bytes = resume else { return }
        do { try instance.resume(fromCheckpoint: bytes) } catch {
            throw BenchUsageError("--resume \(resumePath ?? ""): \(error)")
        }
    }

    /// Checks once, after the build, that the scene can be checkpointed at all.
    func check(_ instance: SceneInstance) throws {
        if (every > 0 || resume != nil) && !instance.isResumable {
            throw BenchUsageError("scene '\(instance.name)' cannot be checkpointed or resumed: "
                                  + (instance.driver != nil ? "it is stepped by DynamicsKit animators whose state is not in an engine world"
                                                            : "its per-step hook keeps state outside the engine world"))
        }
    }

    /// Writes a checkpoint when the step count is a multiple of `every`.
    func afterStep(_ instance: SceneInstance) throws {
        guard every > 0, let dir = directory, instance.stepsTaken % every == 0 else { return }
        let name = "\(instance.name)-\(instance.size)-seed\(instance.seed)-step\(instance.stepsTaken).dkcp"
        try CheckpointFile.writeAtomically(try instance.checkpoint(), to: dir + "/" + name)
    }
}

/// Atomic file writes: a reader sees the old file or the whole new one, never a part.
enum CheckpointFile {
    /// Writes `bytes` to a temporary file in the same directory, flushes it to disk, renames
    /// it over `path` and flushes the directory. A run killed midway leaves at most a
    /// temporary `.tmp` file, never a partial file under the checkpoint's name (and a cut-off
    /// file would fail the snapshot's length and checksum checks anyway).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let tmp = (dir.isEmpty ? "." : dir) + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw EnvironmentError("cannot create \(tmp): \(String(cString: strerror(errno)))") }
        var ok = false
        defer { if !ok { close(fd); unlink(tmp) } }
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EnvironmentError("cannot write \(tmp): \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
        guard fsync(fd) == 0 else { throw EnvironmentError("cannot flush \(tmp): \(String(cString: strerror(errno)))") }
        close(fd)
        ok = true
        guard rename(tmp, path) == 0 else {
            unlink(tmp)
            throw EnvironmentError("cannot rename \(tmp) to \(path): \(String(cString: strerror(errno)))")
        }
        let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }
}

extension UInt64 {
    /// Sixteen hex digits.
    var hex16: String {
        let s = String(self, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
