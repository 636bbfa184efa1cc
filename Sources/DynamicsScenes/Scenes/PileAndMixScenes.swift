import DynamicsEngine

/// `pile` and `mix` (scenes.md, "pile and mix"): N bodies dropped in rows of 50 into a
/// container 60 m wide (`BoxContainer`). One large island: they measure the contact solver.
enum PileAndMixScenes {
    /// `pile`: every body a 1 × 1 m box.
    static let pile = SceneDescriptor(
        name: "pile", summary: "N boxes (1 m) dropped in rows of 50 into a 60 m container",
        sizeMeaning: "boxes", sizes: [1_000, 4_000, 10_000], defaultSize: 4_000
    ) { try build($0, circleAt: { _ in false }) }

    /// `mix`: even bodies are circles of radius 0.5 m, odd bodies 1 × 1 m boxes. Exercises
    /// circle–circle, circle–box and box–box contacts.
    static let mix = SceneDescriptor(
        name: "mix", summary: "N bodies, alternating circles (r 0.5 m) and boxes (1 m), in the pile container",
        sizeMeaning: "bodies (even index circle, odd index box)", sizes: [1_000, 4_000, 10_000], defaultSize: 4_000
    ) { try build($0, circleAt: { $0 % 2 == 0 }) }

    /// Builds the container and its bodies, body i a circle where `circleAt(i)`, else a box.
    /// Seed 0 is the scene as written; another seed shifts each body sideways by a few
    /// centimetres (`SceneJitter`).
    static func build(_ request: SceneDescriptor.Request, circleAt: (Int) -> Bool) throws -> SceneInstance {
        let size = request.size
        let world = SceneUnits.throughputWorld()
        let statics = try BoxContainer.addContainer(to: world, bodyCount: size)
        let half = BoxContainer.bodySize / 2
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(size)
        for i in 0..<size {
            let p = BoxContainer.position(of: i, shift: SceneJitter.offset(seed: request.seed, index: i))
            if circleAt(i) {
                bodies.append(try world.addCircle(.dynamic, center: p, radius: half))
            } else {
                bodies.append(try world.addBox(.dynamic, center: p, halfWidth: half, halfHeight: half))
            }
        }
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: statics,
                                frame: BoxContainer.frame(bodyCount: size))
    }
}
