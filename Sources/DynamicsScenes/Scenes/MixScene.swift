import DynamicsEngine

/// `mix`: like `pile`, but even bodies are circles of radius 0.5 m and odd bodies 1 × 1 m
/// boxes (scenes.md, "pile and mix"). Exercises circle–circle, circle–box and box–box contacts.
public struct MixScene: BenchmarkScene {
    public init() {}
    public var name: String { "mix" }
    public var summary: String { "N bodies, alternating circles (r 0.5 m) and boxes (1 m), in the pile container" }
    public var sizeMeaning: String { "bodies (even index circle, odd index box)" }
    public var defaultSizes: [Int] { [1_000, 4_000, 10_000] }
    public var defaultSize: Int { 4_000 }

    /// Builds the mix. Deterministic: `seed` is ignored.
    public func build(size: Int, seed: UInt64) throws -> SceneInstance {
        try validate(size: size)
        let world = SceneUnits.throughputWorld()
        let statics = try BoxContainer.addContainer(to: world, bodyCount: size)
        let half = BoxContainer.bodySize / 2
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(size)
        for i in 0..<size {
            let p = BoxContainer.position(of: i)
            if i % 2 == 0 {
                bodies.append(try world.addCircle(.dynamic, center: p, radius: half))
            } else {
                bodies.append(try world.addBox(.dynamic, center: p, halfWidth: half, halfHeight: half))
            }
        }
        return SceneInstance(name: name, size: size, seed: seed, world: world, dynamicBodies: bodies,
                             staticBodyCount: statics, frame: BoxContainer.frame(bodyCount: size),
                             stepsDefault: stepsDefault)
    }
}
