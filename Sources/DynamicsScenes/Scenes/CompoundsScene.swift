import DynamicsEngine

/// `compounds`: Box2D v3.2's benchmark of that name (`CreateCompounds` in
/// `shared/benchmarks.c`): a tall column of bodies, each made of two overlapping triangles,
/// falls into a deep box — many bodies of more than one shape.
///
/// In metres, y up, as Box2D builds it: the box, one static body, `Box2DBenchmark.boxContainer`
/// with a floor of 81 boxes from x = −40 to 40 (top face y = 0.5) and walls of 100 boxes at
/// x = ±40 (up to y = 100.55), plus a segment from (−800, −80) to (800, −80) that catches what
/// leaves the box. 20 × R dynamic bodies, each two triangles — (−1, 0), (0.5, 1), (0, 2) and
/// (1, 0), (−0.5, 1), (0, 2), density 1, friction 0.5 — whose centre of mass is 1 m above the
/// body's origin: column i (outer loop) at x = 2 i − 19, row j at y = 2.25 j + 5.575, every other
/// body shifted by +0.25 / −0.25 m in x (starting with +0.25 and alternating through all
/// bodies). Sleeping on (Box2D's default), 500 steps. R = 150 (3 000 bodies, 6 000 triangles,
/// the top row at 341 m) is Box2D's release size; its debug size is 10 columns × 40 rows, here
/// R = 20 (the same 400 bodies in 20 columns).
///
/// Checks: `contained` — every body's centre of mass inside the box (within the walls' inner
/// faces, |x| ≤ 39.5 m, and above the floor's top face, y ≥ 0.5 m).
/// Metrics: `outside_box`.
enum CompoundsScene {
    static let descriptor = SceneDescriptor(
        name: "compounds",
        summary: "Box2D v3.2's compounds: 20 × R bodies of two triangles each fall into an 80 m box, 500 steps",
        sizeMeaning: "rows of bodies (R; 20 columns, 20 R bodies of two triangles)",
        // 200 rows start up to 453 m high: they fall into the box for 9.6 s.
        sizes: [20, 150], defaultSize: 150, steps: 500, maximumSize: 200, builder: build)

    static let columns = 20
    /// The walls' inner faces (m from x = 0) and the floor's top face (m).
    static let innerWall: Float = 39.5, floorTop: Float = 0.5

    /// Builds the box and the bodies. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let rows = request.size
        let world = Box2DBenchmark.world(sleep: true)
        var ground = Box2DBenchmark.boxContainer(halfSpan: 40, wallBoxes: 100)
        ground.append(ShapeDef(.segment(SceneUnits.pt(-800, -80), SceneUnits.pt(800, -80)), material: SceneUnits.material))
        try world.createBody(BodyDef(type: .static, position: .zero), shapes: ground)

        let material = Material(density: 1, friction: 0.5, restitution: 0)
        let triangles = [[Vec2(-1, 0), Vec2(0.5, 1), Vec2(0, 2)], [Vec2(1, 0), Vec2(-0.5, 1), Vec2(0, 2)]].map {
            ShapeDef(.polygon(Box2DBenchmark.convexHull($0).map { $0 * SceneUnits.pointsPerMetre }), material: material)
        }
        // Box2D's layout: columns `shift` apart, rows `shift + extra` apart, centred on x = 0,
        // the lowest row 5.575 m up.
        let shift: Float = 2, extra: Float = 0.25
        let centerX = shift * Float(Self.columns) / 2 - 1, centerY: Float = 1.15 / 2, yStart: Float = 5
        var side: Float = 0.25
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(Self.columns * rows)
        for i in 0..<Self.columns {
            let x = Float(i) * shift - centerX
            for j in 0..<rows {
                let y = Float(j) * (shift + extra) + centerY + yStart
                bodies.append(try world.createBody(BodyDef(type: .dynamic, position: SceneUnits.pt(x + side, y)), shapes: triangles))
                side = -side
            }
        }

        // A body's origin is the middle of its base, 1 m below its centre of mass; the frame
        // counts origins. Below the catch segment, or far to the side of it, a body has escaped.
        let bodySize = SceneUnits.pt(2)
        let top = SceneUnits.pt(Float(rows) * (shift + extra) + yStart)
        let frame = SceneFrame(groundLevel: SceneUnits.pt(-80), yUp: true, bodySize: bodySize,
                               boundsMin: SceneUnits.pt(-800, -90), boundsMax: Vec2(SceneUnits.pt(800), 2 * top))
        let wall = SceneUnits.pt(Self.innerWall), floor = SceneUnits.pt(Self.floorTop)
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 1, frame: frame) { scene, report in
            var outside = 0
            for b in bodies {
                let c = scene.world.worldCenter(b)
                if !(abs(c.x) <= wall && c.y >= floor) { outside += 1 }
            }
            report.metrics["outside_box"] = Double(outside)
            report.checks["contained"] = outside == 0
        }
    }
}
