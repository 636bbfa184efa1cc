import DynamicsEngine

/// `islands`: G small independent groups (scenes.md, "islands"): each a cup (ground and two
/// walls) with 8 boxes of 40 × 40 pt dropped in, on a grid far enough apart that groups never
/// touch. Points, y down, gravity 1000 pt/s². It measures island-level parallelism.
enum IslandsScene {
    static let descriptor = SceneDescriptor(
        name: "islands", summary: "G independent cups of 8 boxes (40 pt) each: many small islands",
        sizeMeaning: "groups", sizes: [100, 1_000, 4_000], defaultSize: 1_000, builder: build)

    /// Cell pitch of the grid of groups, and the cup's inner size (pt).
    static let pitch: Float = 300
    static let cupWidth: Float = 180
    static let wallHeight: Float = 200
    static let box: Float = 40

    /// Builds the groups. Deterministic: `seed` only jitters where boxes start, reproducibly.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let size = request.size
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let world = World(gravity: Vec2(0, 1000), settings: settings)
        let columns = Int(Float(size).squareRoot().rounded(.up))
        var rng = SceneRandom(seed: request.seed)
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(size * 8)
        let material = Material(density: 1, friction: 0.6, restitution: 0)
        let half = Self.box / 2
        for g in 0..<size {
            let origin = Self.origin(ofGroup: g, columns: columns)
            // The cup: a ground slab (top surface at origin.y) and two walls.
            let floorY = origin.y
            try world.createBody(BodyDef(type: .static, position: Vec2(origin.x, floorY + 10)),
                                 shapes: [ShapeDef(.box(halfWidth: Self.cupWidth / 2 + 20, halfHeight: 10), material: material)])
            for side: Float in [-1, 1] {
                try world.createBody(BodyDef(type: .static, position: Vec2(origin.x + side * (Self.cupWidth / 2 + 10), floorY - Self.wallHeight / 2)),
                                     shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: Self.wallHeight / 2), material: material)])
            }
            // 8 boxes in staggered rows of three, dropped from above the floor.
            for k in 0..<8 {
                let row = k / 3, col = k % 3
                let x = origin.x + (Float(col) - 1) * 50 + (row % 2 == 1 ? 12 : -12) + rng.float(in: -2...2)
                let y = floorY - half - 10 - Float(row) * 55
                bodies.append(try world.createBody(BodyDef(type: .dynamic, position: Vec2(x, y)),
                                                   shapes: [ShapeDef(.box(halfWidth: half, halfHeight: half), material: material)]))
            }
        }
        let rows = (size + columns - 1) / columns
        let frame = SceneFrame(groundLevel: Float(rows) * Self.pitch, yUp: false, bodySize: Self.box,
                               boundsMin: Vec2(-Self.pitch, -Self.pitch),
                               boundsMax: Vec2(Float(columns + 1) * Self.pitch, Float(rows + 1) * Self.pitch))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: size * 3, frame: frame) { instance, report in
            // Every box must still be inside its own cup.
            var outside = 0
            for (i, b) in instance.dynamicBodies.enumerated() {
                let o = Self.origin(ofGroup: i / 8, columns: columns)
                let p = instance.world.position(b)
                if abs(p.x - o.x) > Self.cupWidth / 2 || p.y > o.y || p.y < o.y - Self.wallHeight - 200 { outside += 1 }
            }
            report.metrics["outside_cup"] = Double(outside)
            report.checks["contained"] = outside == 0
        }
    }

    /// The floor centre of group `g` (y down: the cup opens upwards, towards smaller y).
    static func origin(ofGroup g: Int, columns: Int) -> Vec2 {
        Vec2(Float(g % columns) * pitch + pitch / 2, Float(g / columns) * pitch + pitch - 40)
    }
}
