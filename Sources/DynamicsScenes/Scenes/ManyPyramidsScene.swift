import DynamicsEngine

/// `many_pyramids`: Box2D v3.1.1's benchmark of that name (`CreateManyPyramids`): N × N small
/// pyramids of 1 m boxes, 10 on the base row (55 boxes each), on N ground segments.
///
/// In metres, y up, as Box2D builds it: ground segments at y = 11 r (r = 0 … N − 1) from
/// x = −5.5 N to 5.5 N (Box2D's ground width is 2 × 0.5 × N × 11); pyramid (r, c) has its
/// base row's first box at x = −5.5 N + 11 c + 0.5 and rests on y = 11 r. Sleeping off, 200 steps.
/// At N = 20: 400 pyramids, 22 000 boxes (Box2D's release size; 5 is its debug size).
///
/// Checks: `standing` — every pyramid's top box is within 0.1 m of where it started.
/// Metrics: `fallen_pyramids`.
enum ManyPyramidsScene {
    static let descriptor = SceneDescriptor(
        name: "many_pyramids", summary: "Box2D's many_pyramids: N × N pyramids of 55 boxes (1 m) on N ground rows, 200 steps",
        sizeMeaning: "pyramids per row and per column (N; 55 N² boxes)",
        sizes: [5, 20], defaultSize: 20, steps: 200, maximumSize: 200, builder: build)  // 200 × 200 pyramids = 2 200 000 boxes

    static let base = 10
    /// Ground rows and pyramid columns are 11 m apart: the base (10 m) and one box of room.
    static let pitch: Float = 11
    /// How far (m) a top box may move before its pyramid counts as fallen.
    static let topTolerance: Float = 0.1

    /// Builds the pyramids. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let world = Box2DBenchmark.world(sleep: false)
        let halfWidth = 0.5 * Self.pitch * Float(n)
        let ground = (0..<n).map { r -> ShapeDef in
            let y = Self.pitch * Float(r)
            return ShapeDef(.segment(SceneUnits.pt(-halfWidth, y), SceneUnits.pt(halfWidth, y)), material: SceneUnits.material)
        }
        try world.createBody(BodyDef(type: .static, position: .zero), shapes: ground)
        let half = SceneUnits.pt(0.5)
        var bodies: [BodyHandle] = [], tops: [BodyHandle] = []
        bodies.reserveCapacity(n * n * Self.base * (Self.base + 1) / 2)
        for r in 0..<n {
            for c in 0..<n {
                let centers = PyramidScene.boxCenters(base: Self.base, firstX: -halfWidth + Self.pitch * Float(c) + 0.5,
                                                      baseY: Self.pitch * Float(r))
                for p in centers {
                    bodies.append(try world.addBox(.dynamic, center: p * SceneUnits.pointsPerMetre, halfWidth: half, halfHeight: half))
                }
                tops.append(bodies[bodies.count - 1])
            }
        }
        let topStarts = tops.map { world.position($0) }
        let bodySize = SceneUnits.pt(1)
        let frame = SceneFrame(
            groundLevel: 0, yUp: true, bodySize: bodySize,
            boundsMin: Vec2(SceneUnits.pt(-halfWidth) - bodySize, -bodySize),
            boundsMax: Vec2(SceneUnits.pt(halfWidth) + bodySize, SceneUnits.pt(Self.pitch * Float(n)) + 10 * bodySize))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 1, frame: frame) { scene, report in
            let limit = SceneUnits.pt(Self.topTolerance)
            var fallen = 0
            for (top, start) in zip(tops, topStarts) where !(Box2DBenchmark.separation(scene.world.position(top), start) <= limit) {
                fallen += 1
            }
            report.metrics["fallen_pyramids"] = Double(fallen)
            report.checks["standing"] = fallen == 0
        }
    }
}
