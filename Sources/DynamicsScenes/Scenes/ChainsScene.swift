import DynamicsEngine

/// `chains`: ours, a companion to Box2D's benchmarks: N long chains, each of 50 links joined by
/// revolute (pin) joints, hanging from fixed points and released from a slant, so they swing,
/// whip and knock into their neighbours. Measures long joint chains (the slow case for an
/// iterative solver) together with contacts between them.
///
/// In metres, y up, density 1, friction 0.6, restitution 0, sleeping off, 600 steps: chain c
/// (c = 0 … N − 1) hangs from the world point (c − (N − 1)/2, 14) m; its links are boxes of
/// half size (0.1, 0.05) m, 0.25 m apart centre to centre, pinned to each other half-way between
/// their centres (0.05 m of gap between neighbouring links, so they touch only when bent almost
/// double) and the first to the hanging point. Each chain starts straight, slanted from the
/// vertical by 30° (even c) or 60° (odd c), towards +x: neighbours swing at different periods and
/// cross. A chain is 12.5 m long, so nothing reaches below y = 1.5 m.
///
/// Checks: `attached` — every joint's anchors within 0.1 m of each other.
/// Metrics: `joint_gap` (largest anchor distance, pt).
enum ChainsScene {
    static let descriptor = SceneDescriptor(
        name: "chains", summary: "N chains of 50 pinned links hanging and swinging into each other (ours)",
        sizeMeaning: "chains (N; 50 links and 50 joints each)",
        sizes: [10, 40], defaultSize: 40, maximumSize: 2_000, builder: build)  // 2 000 chains = 100 000 links

    static let links = 50
    /// Link pitch, half length and half thickness (m).
    static let pitch: Float = 0.25
    static let halfLength: Float = 0.1
    static let halfThickness: Float = 0.05
    static let anchorHeight: Float = 14
    /// Largest anchor distance (m) for `attached`.
    static let gapTolerance: Float = 0.1

    /// Builds the chains. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let world = Box2DBenchmark.world(sleep: false)
        let shape = [ShapeDef(.box(halfWidth: SceneUnits.pt(Self.halfLength), halfHeight: SceneUnits.pt(Self.halfThickness)),
                              material: SceneUnits.material)]
        var bodies: [BodyHandle] = [], joints: [JointHandle] = []
        bodies.reserveCapacity(n * Self.links)
        joints.reserveCapacity(n * Self.links)
        let end = SceneUnits.pt(Self.pitch / 2, 0)  // a link's joint points: ±end in its own frame
        for c in 0..<n {
            let top = SceneUnits.pt(Float(c) - Float(n - 1) / 2, Self.anchorHeight)
            // The chain points along `dir`, slanted from straight down by 30° or 60° towards +x;
            // each link's x axis along it.
            let angle = ((c % 2 == 0 ? 30 : 60) - 90) * Float.pi / 180
            let dir = Rot(angle: angle).rotate(Vec2(1, 0))
            var previous: BodyHandle?
            for k in 0..<Self.links {
                let center = top + dir * SceneUnits.pt(Self.pitch * (Float(k) + 0.5))
                let link = try world.createBody(BodyDef(type: .dynamic, position: center, angle: angle), shapes: shape)
                var pin = JointDef(type: .revolute, bodyA: previous, bodyB: link)
                pin.localAnchorA = previous == nil ? top : end
                pin.localAnchorB = -end
                joints.append(world.createJoint(pin))
                bodies.append(link)
                previous = link
            }
        }
        let length = SceneUnits.pt(Self.pitch * Float(Self.links))
        let size = SceneUnits.pt(2 * Self.halfLength)
        let halfSpan = SceneUnits.pt(Float(n) / 2) + length + size
        let frame = SceneFrame(groundLevel: 0, yUp: true, bodySize: size,
                               boundsMin: Vec2(-halfSpan, -size),
                               boundsMax: Vec2(halfSpan, SceneUnits.pt(Self.anchorHeight) + length + size))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 0, frame: frame) { scene, report in
            Box2DBenchmark.judgeAttachment(scene.world, joints, tolerance: SceneUnits.pt(Self.gapTolerance), into: &report)
        }
    }
}
