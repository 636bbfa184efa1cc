import DynamicsEngine

/// `pile`: N boxes of 1 × 1 m dropped in rows of 50 into a container 60 m wide
/// (scenes.md, "pile and mix"). One large island: it measures the contact solver.
public struct PileScene: BenchmarkScene {
    public init() {}
    public var name: String { "pile" }
    public var summary: String { "N boxes (1 m) dropped in rows of 50 into a 60 m container" }
    public var sizeMeaning: String { "boxes" }
    public var defaultSizes: [Int] { [1_000, 4_000, 10_000] }
    public var defaultSize: Int { 4_000 }

    /// Builds the pile. Deterministic: `seed` is ignored.
    public func build(size: Int, seed: UInt64) throws -> SceneInstance {
        try validate(size: size)
        let world = SceneUnits.throughputWorld()
        let statics = try BoxContainer.addContainer(to: world, bodyCount: size)
        let half = BoxContainer.bodySize / 2
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(size)
        for i in 0..<size {
            bodies.append(try world.addBox(.dynamic, center: BoxContainer.position(of: i),
                                           halfWidth: half, halfHeight: half))
        }
        return SceneInstance(name: name, size: size, seed: seed, world: world, dynamicBodies: bodies,
                             staticBodyCount: statics, frame: BoxContainer.frame(bodyCount: size),
                             stepsDefault: stepsDefault)
    }
}
