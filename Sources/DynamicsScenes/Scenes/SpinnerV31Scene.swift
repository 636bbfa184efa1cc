import DynamicsEngine

/// `spinner_v31`: Box2D v3.1.1's `spinner` benchmark (`CreateSpinner` of that release): a long
/// bar turned fast by a motor inside a round container, stirring a crowd of capsules, circles
/// and squares. The figures measured beside Box2D v3.1.1 (Results/box2d-scenes.md) are of this
/// scene; `spinner` (`SpinnerScene`) is the scene as Box2D v3.2 defines it (more bodies, closer
/// together, an unlimited motor, 500 steps).
///
/// In metres, y up, as Box2D builds it: the container, a closed loop of 360 points on the
/// circle of radius 40 around (0, 32), going clockwise from (40, 32) (Box2D's one-sided loop
/// chain; here a one-sided boundary loop that keeps bodies inside), friction 0.1; the bar, a
/// dynamic body at (0, 12) that never sleeps, Box2D's rounded box of half size (0.4, 20) and
/// radius 0.2, friction 0, pinned to the world at its centre by a revolute motor at 5 rad/s
/// of at most 40 000 N·m; N bodies in rows from (−24, 2), 1 m apart, 49 to a row, cycling
/// capsule (half length 0.25, radius 0.25), circle (radius 0.35), square (half size 0.35),
/// density 0.25, friction 0.1, restitution 0.1. Sleeping on, 1 400 steps. N = 3 038 is Box2D's
/// release size (62 rows, the top one at y = 63 m, just inside), 499 its debug size.
///
/// Differences: the bar and the capsules are convex polygons with 4 points per rounded corner
/// (`Box2DBenchmark.roundedBox`), as in the runs of Results/box2d-scenes.md (`spinner` has the
/// engine's capsules and rounded polygons). Box2D's bar does not touch the container (bodies
/// joined by a joint do not collide, and the container is on the ground body the bar is pinned
/// to); here the bar is in a collision group of its own that the crowd shares and the container
/// does not.
///
/// Checks: `contained` — every body's centre within the container (40 m from its centre).
/// Metrics: `outside_container`, `spinner_angle` (radians turned).
enum SpinnerV31Scene {
    static let descriptor = SceneDescriptor(
        name: "spinner_v31",
        summary: "Box2D v3.1.1's spinner: a motor-driven bar stirring N capsules, circles and squares in a round container, 1 400 steps",
        sizeMeaning: "bodies stirred (N)",
        sizes: [499, 3_038], defaultSize: 3_038, steps: 1_400, maximumSize: 3_038, builder: build)  // more would start above the container

    static let center = SceneUnits.pt(0, 32)
    static let radius = SceneUnits.pt(40)

    /// Builds the container, the bar and the crowd. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let world = Box2DBenchmark.world(sleep: true)
        let barShape = Box2DBenchmark.roundedBox(halfWidth: SceneUnits.pt(0.4), halfHeight: SceneUnits.pt(20), radius: SceneUnits.pt(0.2))
        // 40 000 N·m: mass is in kg and lengths in points, so torques are 10⁴ times larger.
        let (bar, stirred) = try SpinnerScene.stirrer(in: world, bar: barShape,
                                                      maxTorque: 40_000 * SceneUnits.pointsPerMetre * SceneUnits.pointsPerMetre)

        let material = Material(density: 0.25, friction: 0.1, restitution: 0.1)
        let shapes: [ShapeDef] = [
            Box2DBenchmark.roundedBox(halfWidth: SceneUnits.pt(0.25), halfHeight: 0, radius: SceneUnits.pt(0.25)),
            .circle(radius: SceneUnits.pt(0.35)),
            .box(halfWidth: SceneUnits.pt(0.35), halfHeight: SceneUnits.pt(0.35)),
        ].map { ShapeDef($0, material: material) }
        let bodies = try SpinnerScene.crowd(in: world, count: n, shapes: shapes, group: stirred, bar: bar, firstX: -24, lastX: 24, pitch: 1)
        return SpinnerScene.instance(request, world, bodies: bodies, bar: bar)
    }
}
