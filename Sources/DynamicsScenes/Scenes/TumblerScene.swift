import DynamicsEngine

/// `tumbler`: Box2D v3.1.1's benchmark of that name (`CreateTumbler`): a hollow square drum
/// turned by a motor, tumbling a grid of small boxes inside it.
///
/// In metres, y up, as Box2D builds it: the drum, one dynamic body at (0, 10) with four walls of
/// density 50 — half sizes (0.5, 10) centred at x = ±10 and (10, 0.5) centred at y = ±10 —
/// pinned to the world at its centre by a revolute joint whose motor turns it at 25°/s with at
/// most 10⁸ N·m; G × G boxes of half size 0.125 (density 1) from (−0.2 G, 10 − 0.2 G), 0.4 apart.
/// Sleeping on (Box2D's default), 750 steps. G = 45 (2 025 boxes) is Box2D's release size,
/// 20 its debug size.
///
/// Checks: `contained` — every box is inside the drum (its centre within the walls' inner faces,
/// 9.5 m from the drum's centre, plus one box size).
/// Metrics: `outside_drum` (boxes that are not), `drum_angle` (radians turned).
enum TumblerScene {
    static let descriptor = SceneDescriptor(
        name: "tumbler", summary: "Box2D's tumbler: a motor-driven square drum tumbling G × G small boxes, 750 steps",
        sizeMeaning: "boxes per row and per column of the grid (G; G² boxes)",
        sizes: [20, 45], defaultSize: 45, steps: 750, maximumSize: 47, builder: build)  // the grid must fit in the drum: 47 × 0.4 m < 19 m

    static let center = SceneUnits.pt(0, 10)
    /// Distance (pt) from the drum's centre to a wall's inner face.
    static let inner = SceneUnits.pt(9.5)
    static let box = SceneUnits.pt(0.25)

    /// Builds the drum and the boxes. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let g = request.size
        let world = Box2DBenchmark.world(sleep: true)
        let wall = Material(density: 50, friction: 0.6, restitution: 0)
        let walls: [ShapeDef] = [(10, 0, 0.5, 10), (-10, 0, 0.5, 10), (0, 10, 10, 0.5), (0, -10, 10, 0.5)].map { x, y, w, h in
            ShapeDef(.box(halfWidth: SceneUnits.pt(w), halfHeight: SceneUnits.pt(h), center: SceneUnits.pt(x, y)), material: wall)
        }
        let drum = try world.createBody(BodyDef(type: .dynamic, position: Self.center), shapes: walls)
        var motor = JointDef(type: .revolute, bodyA: nil, bodyB: drum)
        motor.localAnchorA = Self.center
        motor.enableMotor = true
        motor.motorSpeed = 25 * Float.pi / 180
        // 10⁸ N·m: mass is in kg and lengths in points, so torques are 10⁴ times larger.
        motor.maxMotorTorque = 1e8 * SceneUnits.pointsPerMetre * SceneUnits.pointsPerMetre
        world.createJoint(motor)

        var bodies = [drum]
        bodies.reserveCapacity(1 + g * g)
        let half = Self.box / 2
        let start = -0.2 * Float(g)
        for i in 0..<g {
            for j in 0..<g {
                let p = SceneUnits.pt(start + 0.4 * Float(j), start + 10 + 0.4 * Float(i))
                bodies.append(try world.addBox(.dynamic, center: p, halfWidth: half, halfHeight: half))
            }
        }
        // Turning, the drum's outer corners reach 10.5 √2 m (< 15 m) from its centre.
        let reach = SceneUnits.pt(15)
        let frame = SceneFrame(groundLevel: Self.center.y - reach, yUp: true, bodySize: Self.box,
                               boundsMin: Self.center - Vec2(reach, reach), boundsMax: Self.center + Vec2(reach, reach))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 0, frame: frame) { scene, report in
            let w = scene.world, frame = w.transform(drum)
            let limit = Self.inner + Self.box
            var outside = 0
            for b in bodies.dropFirst() {
                let local = frame.invApply(w.position(b))  // the box's centre in the drum's frame
                if !(abs(local.x) <= limit && abs(local.y) <= limit) { outside += 1 }
            }
            report.metrics["outside_drum"] = Double(outside)
            report.metrics["drum_angle"] = Double(w.angle(drum))
            report.checks["contained"] = outside == 0
        }
    }
}
