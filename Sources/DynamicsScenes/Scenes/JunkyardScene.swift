import DynamicsEngine

/// `junkyard`: Box2D v3.2's benchmark of that name (`CreateJunkyard` and `StepJunkyard` in
/// `shared/benchmarks.c`): thousands of pentagons dropped into a wide yard, which a kinematic
/// pusher sweeps back and forth.
///
/// In metres, y up, as Box2D builds it: the yard, one static body, `Box2DBenchmark.boxContainer`
/// with a floor of 161 boxes from x = −80 to 80 (top face y = 0.5) and walls of 50 boxes at
/// x = ±80; 200 × R pentagons, each the convex hull of the points at 0.25 m from its origin in
/// the directions k · π(√5 − 1) (k = 0 … 4; the Fibonacci-sphere angles), density 1, friction 0.6:
/// column i (outer loop) at x = 0.375 (2 i − 200), row j at y = 15 + j, every other body shifted
/// by −0.1 / +0.1 m in x (starting with −0.1 and alternating through all bodies); the pusher, a
/// kinematic body at the origin with a box of half size (2, 4) centred at (0, 4). Before each
/// step k the pusher is given the velocity that brings it to (60 sin(0.2 t), 0), t = k / 60 s,
/// by the end of the step (Box2D's `b2Body_SetTargetTransform`), so it sweeps to x = 60 m and
/// back at up to 12 m/s. Sleeping on (Box2D's default), 800 steps. R = 40 (8 000 pentagons) is
/// Box2D's release size, 2 its debug size.
///
/// The pentagon's directions and the pusher's path take their cosines and sines from Box2D's
/// approximation (`Box2DBenchmark.cosSin`), as Box2D does: the exact functions would move the
/// pentagon's corners by up to 0.4 mm and the pusher by up to 10 cm.
///
/// Checks: `contained` — every pentagon's centre inside the yard (within the walls' inner faces,
/// |x| ≤ 79.5 m, and above the floor's top face, y ≥ 0.5 m); `pusher_on_path` — the pusher is
/// where its path puts it after the steps taken (within 1 pt). Metrics: `outside_yard`,
/// `pusher_x` (pt).
enum JunkyardScene {
    static let descriptor = SceneDescriptor(
        name: "junkyard",
        summary: "Box2D v3.2's junkyard: 200 × R pentagons dropped into a 160 m yard that a kinematic pusher sweeps, 800 steps",
        sizeMeaning: "rows of pentagons (R; 200 columns, 200 R pentagons)",
        // 20 000 pentagons pile about 25 m high, half the walls' height.
        sizes: [2, 40], defaultSize: 40, steps: 800, maximumSize: 100, builder: build)

    static let columns = 200
    /// Radius (m) of the pentagons' corners.
    static let radius: Float = 0.25
    /// The walls' inner faces (m from x = 0) and the floor's top face (m).
    static let innerWall: Float = 79.5, floorTop: Float = 0.5

    /// The pentagon (m): the hull of five points on a circle of radius 0.25, at angles
    /// π(√5 − 1) apart.
    static func pentagon() -> [Vec2] {
        let phi = Float.pi * (Float(5).squareRoot() - 1)
        let points = (0..<5).map { k -> Vec2 in
            let cs = Box2DBenchmark.cosSin(phi * Float(k))
            return Vec2(cs.cos, cs.sin) * Self.radius
        }
        return Box2DBenchmark.convexHull(points)
    }

    /// Where the pusher's path puts it (pt) before step `step` is taken, i.e. its target for
    /// that step.
    static func pusherTarget(step: Int) -> Vec2 {
        let time = SceneUnits.dt * Float(step)
        return SceneUnits.pt(60 * Box2DBenchmark.cosSin(0.2 * time).sin, 0)
    }

    /// Builds the yard, the pentagons and the pusher. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let rows = request.size
        let world = Box2DBenchmark.world(sleep: true)
        try world.createBody(BodyDef(type: .static, position: .zero),
                             shapes: Box2DBenchmark.boxContainer(halfSpan: 80, wallBoxes: 50))

        let shape = [ShapeDef(.polygon(Self.pentagon().map { $0 * SceneUnits.pointsPerMetre }), material: SceneUnits.material)]
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(Self.columns * rows)
        var side: Float = -0.1
        for i in 0..<Self.columns {
            let x = 1.5 * Float(2 * i - Self.columns) * Self.radius
            for j in 0..<rows {
                let y = 4 * Float(j) * Self.radius + 15
                bodies.append(try world.createBody(BodyDef(type: .dynamic, position: SceneUnits.pt(x + side, y)), shapes: shape))
                side = -side
            }
        }
        let pusher = try world.createBody(BodyDef(type: .kinematic, position: .zero), shapes: [
            ShapeDef(.box(halfWidth: SceneUnits.pt(2), halfHeight: SceneUnits.pt(4), center: SceneUnits.pt(0, 4)),
                     material: SceneUnits.material),
        ])
        // The pusher keeps its rotation (none), so moving its origin to the target moves its
        // centre of mass there too.
        let beforeStep: SceneInstance.BeforeStep = { world, step in
            let move = Self.pusherTarget(step: step) - world.position(pusher)
            world.setLinearVelocity(pusher, move / SceneUnits.dt)
            return nil
        }

        let bodySize = SceneUnits.pt(2 * Self.radius)
        let wall = SceneUnits.pt(Self.innerWall), top = SceneUnits.pt(15 + Float(rows))
        let frame = SceneFrame(groundLevel: SceneUnits.pt(Self.floorTop), yUp: true, bodySize: bodySize,
                               boundsMin: Vec2(-wall - bodySize, 0), boundsMax: Vec2(wall + bodySize, 2 * top + 10 * bodySize))
        return request.instance(
            world: world, dynamicBodies: bodies, staticBodyCount: 1, frame: frame,
            judge: { scene, report in
                let w = scene.world, floor = SceneUnits.pt(Self.floorTop)
                var outside = 0
                for b in bodies {
                    let p = w.position(b)
                    if !(abs(p.x) <= wall && p.y >= floor) { outside += 1 }
                }
                report.metrics["outside_yard"] = Double(outside)
                report.checks["contained"] = outside == 0
                let p = w.position(pusher)
                let expected = scene.stepsTaken == 0 ? Vec2.zero : Self.pusherTarget(step: scene.stepsTaken - 1)
                report.metrics["pusher_x"] = Double(p.x)
                report.checks["pusher_on_path"] = Box2DBenchmark.separation(p, expected) <= 1
            },
            beforeStep: beforeStep)
    }
}
