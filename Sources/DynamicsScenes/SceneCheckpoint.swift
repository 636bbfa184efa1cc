import DynamicsEngine

/// A checkpoint a `SceneInstance` refused to write or resume from.
public struct SceneCheckpointError: Error, CustomStringConvertible, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What a scene checkpoint says about the run that wrote it (its application data).
public struct SceneCheckpointInfo: Equatable, Sendable {
    /// The scene's name, size parameter and seed.
    public var scene: String
    public var size: Int
    public var seed: UInt64
    /// Steps the scene had taken (`SceneInstance.stepsTaken`).
    public var step: Int

    /// Reads the info of a checkpoint after checking the snapshot's header and checksum.
    /// - Throws: `World.SnapshotError` for a damaged file, `SceneCheckpointError` for a world
    ///   snapshot that is not a scene checkpoint.
    public init(checkpoint bytes: [UInt8]) throws {
        let data = try World.applicationData(ofSnapshot: bytes)
        var fields: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard fields["format"] == "dynamics-scene-checkpoint 1", let scene = fields["scene"],
              let size = fields["size"].flatMap({ Int($0) }), let seed = fields["seed"].flatMap({ UInt64($0) }),
              let step = fields["step"].flatMap({ Int($0) }), step >= 0 else {
            throw SceneCheckpointError("the snapshot is not a scene checkpoint (no scene, size, seed and step in its application data)")
        }
        self.scene = scene; self.size = size; self.seed = seed; self.step = step
    }

    init(scene: String, size: Int, seed: UInt64, step: Int) {
        self.scene = scene; self.size = size; self.seed = seed; self.step = step
    }

    var applicationData: [UInt8] {
        Array("format=dynamics-scene-checkpoint 1\nscene=\(scene)\nsize=\(size)\nseed=\(seed)\nstep=\(step)\n".utf8)
    }
}

extension SceneInstance {
    /// The scene's state as a checkpoint: its world's snapshot carrying the scene's name, size,
    /// seed and step count. Only for resumable scenes (`isResumable`).
    /// - Throws: `SceneCheckpointError` for a scene whose state is not all in its world.
    public func checkpoint() throws -> [UInt8] {
        try checkResumable("checkpointed")
        let info = SceneCheckpointInfo(scene: name, size: size, seed: seed, step: stepsTaken)
        return world.snapshot(applicationData: info.applicationData)
    }

    /// Continues from a checkpoint of the same scene, size and seed: the world is replaced by
    /// the checkpoint's (with this instance's worker count) and the step count set to its.
    /// The scene then steps exactly as the run that wrote the checkpoint did.
    /// - Throws: `SceneCheckpointError` for another scene's checkpoint or a scene that cannot
    ///   resume; `World.SnapshotError` for a damaged checkpoint.
    public func resume(fromCheckpoint bytes: [UInt8]) throws {
        try checkResumable("resumed")
        let info = try SceneCheckpointInfo(checkpoint: bytes)
        guard info.scene == name, info.size == size, info.seed == seed else {
            throw SceneCheckpointError("the checkpoint is of \(info.scene) size \(info.size) seed \(info.seed), not of \(name) size \(size) seed \(seed)")
        }
        let restored = try World(snapshot: bytes)
        restored.workerCount = world.workerCount
        restored.isProfiling = world.isProfiling
        world = restored
        stepsTaken = info.step
    }

    private func checkResumable(_ what: String) throws {
        guard isResumable else {
            let why = driver != nil ? "it is stepped by DynamicsKit animators whose state is not in an engine world"
                                    : "its per-step hook keeps state outside the engine world"
            throw SceneCheckpointError("scene '\(name)' cannot be \(what): \(why)")
        }
    }
}
