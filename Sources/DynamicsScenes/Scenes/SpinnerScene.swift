import DynamicsEngine

/// `spinner`: Box2D v3.2's benchmark of that name (`CreateSpinner` in `shared/benchmarks.c`): a
/// long bar turned by an unlimited motor inside a round container, stirring a dense crowd of
/// capsules, circles and squares. (`spinner_v31` is v3.1.1's older, sparser version.)
///
/// In metres, y up, as Box2D builds it: the container, a closed loop of 360 points on the
/// circle of radius 40 around (0, 32), going clockwise from (40, 32) (Box2D's one-sided loop
/// chain; here a one-sided boundary loop that keeps bodies inside), friction 0.1; the bar, a
/// dynamic body at (0, 12) that never sleeps, Box2D's rounded box of half size (0.4, 20) and
/// radius 0.2, friction 0, pinned to the world at its centre by a revolute motor at 5 rad/s
/// whose torque has no limit (`FLT_MAX`); N bodies in rows from (−23, 2), 0.5 m apart, a new row
/// 0.5 m higher once x reaches 23 (92 to a row), cycling capsule (centres (±0.25, 0), radius
/// 0.25), circle (radius 0.35), square (half size 0.35), density 0.25, friction 0.1, restitution
/// 0.1. Neighbours overlap at the start (0.5 m apart, up to 1 m across): the first steps push
/// them apart. Sleeping on, 500 steps. N = 6 076 (2 × 3 038, 67 rows) is Box2D's release size,
/// 499 its debug size. Box2D's per-step function only reads the bar's angle (here the metric
/// `spinner_angle`), so the scene has no per-step work.
///
/// The bar is a rounded polygon and the capsules are capsules (`Geometry.roundedPolygon`,
/// `Geometry.capsule`). Box2D's bar does not touch the container (bodies joined by a joint do
/// not collide, and the container is on the ground body the bar is pinned to); here the bar is
/// in a collision group of its own that the crowd shares and the container does not.
///
/// Checks: `contained` — every body's centre within the container (40 m from its centre).
/// Metrics: `outside_container`, `spinner_angle` (the bar's angle, radians in −π … π).
enum SpinnerScene {
    static let descriptor = SceneDescriptor(
        name: "spinner",
        summary: "Box2D v3.2's spinner: an unlimited motor turns a bar through N capsules, circles and squares in a round container, 500 steps",
        sizeMeaning: "bodies stirred (N)",
        // 125 rows of 92: the top row, at y = 64 m, still fits inside the container.
        sizes: [499, 6_076], defaultSize: 6_076, steps: 500, maximumSize: 11_500, builder: build)

    static let center = SceneUnits.pt(0, 32)
    static let radius = SceneUnits.pt(40)

    /// The spinners' container and bar (both versions'): a closed one-sided loop of 360 sides
    /// (radius 40 m round `center`, friction 0.1), and the bar of shape `bar` (density 1, no
    /// friction, never asleep, in a group of its own with the stirred bodies) pinned at (0, 12) m
    /// by a motor of 5 rad/s and `maxTorque`.
    static func stirrer(in world: World, bar barShape: Geometry, maxTorque: Float) throws -> (bar: BodyHandle, stirred: CollisionGroupID) {
        let slippery = Material(density: 1, friction: 0.1, restitution: 0)
        let loop = (0..<360).map { i -> Vec2 in
            let a = -2 * Float.pi * Float(i) / 360
            return Self.center + Rot(angle: a).rotate(Vec2(Self.radius, 0))
        }
        try world.addBoundaryPath(loop, closed: true, group: .default, material: slippery, keepsBodiesInside: true)
        let stirred = world.createCollisionGroup(mode: .items)
        var barDef = BodyDef(type: .dynamic, position: SceneUnits.pt(0, 12))
        barDef.allowSleep = false
        barDef.groups = [stirred]
        let bar = try world.createBody(barDef, shapes: [ShapeDef(barShape, material: Material(density: 1, friction: 0, restitution: 0))])
        var motor = JointDef(type: .revolute, bodyA: nil, bodyB: bar)
        motor.localAnchorA = barDef.position
        motor.enableMotor = true
        motor.motorSpeed = 5
        motor.maxMotorTorque = maxTorque
        world.createJoint(motor)
        return (bar, stirred)
    }

    /// Builds the container, the bar and the crowd. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let world = Box2DBenchmark.world(sleep: true)
        let hw = SceneUnits.pt(0.4), hh = SceneUnits.pt(20)
        let barShape = Geometry.roundedPolygon([Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)],
                                               radius: SceneUnits.pt(0.2))
        let (bar, stirred) = try stirrer(in: world, bar: barShape, maxTorque: .greatestFiniteMagnitude)

        let material = Material(density: 0.25, friction: 0.1, restitution: 0.1)
        let shapes: [ShapeDef] = [
            .capsule(SceneUnits.pt(-0.25, 0), SceneUnits.pt(0.25, 0), radius: SceneUnits.pt(0.25)),
            .circle(radius: SceneUnits.pt(0.35)),
            .box(halfWidth: SceneUnits.pt(0.35), halfHeight: SceneUnits.pt(0.35)),
        ].map { ShapeDef($0, material: material) }
        let bodies = try crowd(in: world, count: n, shapes: shapes, group: stirred, bar: bar, firstX: -23, lastX: 22.5, pitch: 0.5)
        return instance(request, world, bodies: bodies, bar: bar)
    }

    /// The stirred bodies (after `bar`, first in the list): `count` bodies taking `shapes` in
    /// turn, in rows from x = `firstX` to `lastX` m, `pitch` m apart, from y = 2 m up, in the
    /// default group and `group`.
    static func crowd(in world: World, count n: Int, shapes: [ShapeDef], group: CollisionGroupID, bar: BodyHandle,
                      firstX: Float, lastX: Float, pitch: Float) throws -> [BodyHandle] {
        var bodies = [bar]
        bodies.reserveCapacity(1 + n)
        var x = firstX, y: Float = 2
        for i in 0..<n {
            var def = BodyDef(type: .dynamic, position: SceneUnits.pt(x, y))
            def.groups = [.default, group]
            bodies.append(try world.createBody(def, shapes: [shapes[i % shapes.count]]))
            x += pitch
            if x > lastX { x = firstX; y += pitch }
        }
        return bodies
    }

    /// The spinners' instance: `bodies` (the bar first) in the container's frame, checked for
    /// `contained` (every stirred centre inside the loop); metrics `outside_container` and
    /// `spinner_angle`.
    static func instance(_ request: SceneDescriptor.Request, _ world: World, bodies: [BodyHandle], bar: BodyHandle) -> SceneInstance {
        let margin = SceneUnits.pt(1)
        let frame = SceneFrame(groundLevel: Self.center.y - Self.radius, yUp: true, bodySize: SceneUnits.pt(0.7),
                               boundsMin: Self.center - Vec2(Self.radius + margin, Self.radius + margin),
                               boundsMax: Self.center + Vec2(Self.radius + margin, Self.radius + margin))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 0, frame: frame) { scene, report in
            var outside = 0
            for b in bodies.dropFirst() where !(Box2DBenchmark.separation(scene.world.position(b), Self.center) <= Self.radius) {
                outside += 1
            }
            report.metrics["outside_container"] = Double(outside)
            report.metrics["spinner_angle"] = Double(scene.world.angle(bar))
            report.checks["contained"] = outside == 0
        }
    }
}
