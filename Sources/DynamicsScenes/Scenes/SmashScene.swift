import DynamicsEngine

/// `smash`: Box2D v3.1.1's benchmark of that name (`CreateSmash`): without gravity, a heavy box
/// flies into a block of small boxes that are touching and asleep, and scatters them.
///
/// In metres, y up, as Box2D builds it: gravity 0, sleeping on; the projectile, a box of half
/// size 4 and density 8 at (−20, 0) moving at (40, 0) m/s; C columns × R rows of boxes of half
/// size 0.2 (density 1) at (30 + 0.4 i, 0.4 (j − R/2)), created asleep, R = 2C/3. 300 steps.
/// C = 120 (9 600 boxes) is Box2D's release size; Box2D's debug size is 20 × 10, here 20 × 13.
///
/// Checks: `momentum` — with no gravity and no static bodies the total momentum keeps its
/// start value (within 1 % of it); `smashed` — from step 90 on, the block has slowed the
/// projectile and moves forward.
/// Metrics: `momentum_error` (fraction of the start momentum), `projectile_x` (pt),
/// `projectile_speed` (pt/s), `block_momentum` (the block's x momentum, mass × pt/s).
enum SmashScene {
    static let descriptor = SceneDescriptor(
        name: "smash", summary: "Box2D's smash: a heavy box flies into a sleeping block of C × 2C/3 small boxes, no gravity, 300 steps",
        sizeMeaning: "columns of the block (C; C × 2C/3 boxes)",
        sizes: [20, 120], defaultSize: 120, steps: 300, maximumSize: 1_500, builder: build)  // 1 500 × 1 000 boxes

    /// Rows of the block for `columns` columns.
    static func rows(columns: Int) -> Int { max(1, 2 * columns / 3) }

    /// Builds the projectile and the block. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let columns = request.size
        let world = Box2DBenchmark.world(sleep: true, gravity: .zero)
        var projectile = BodyDef(type: .dynamic, position: SceneUnits.pt(-20, 0))
        projectile.linearVelocity = SceneUnits.pt(40, 0)
        let heavy = Material(density: 8, friction: 0.6, restitution: 0)
        let hammer = try world.createBody(projectile, shapes: [
            ShapeDef(.box(halfWidth: SceneUnits.pt(4), halfHeight: SceneUnits.pt(4)), material: heavy),
        ])
        let rows = Self.rows(columns: columns)
        let d: Float = 0.4
        let shape = [ShapeDef(.box(halfWidth: SceneUnits.pt(d / 2), halfHeight: SceneUnits.pt(d / 2)), material: SceneUnits.material)]
        var bodies = [hammer]
        bodies.reserveCapacity(1 + columns * rows)
        for i in 0..<columns {
            for j in 0..<rows {
                var def = BodyDef(type: .dynamic, position: SceneUnits.pt(30 + d * Float(i), d * (Float(j) - Float(rows) / 2)))
                def.startsAsleep = true
                bodies.append(try world.createBody(def, shapes: shape))
            }
        }
        let startMomentum = Self.momentum(world, bodies)
        // 5 s at up to twice the projectile's speed: 400 m each way is far.
        let reach = SceneUnits.pt(400)
        let frame = SceneFrame(groundLevel: -reach, yUp: true, bodySize: SceneUnits.pt(d),
                               boundsMin: Vec2(-reach, -reach), boundsMax: Vec2(reach, reach))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 0, frame: frame) { scene, report in
            let p = Self.momentum(scene.world, bodies)
            let error = Box2DBenchmark.separation(p, startMomentum) / Box2DBenchmark.separation(startMomentum, .zero)
            report.metrics["momentum_error"] = Double(error)
            report.checks["momentum"] = error <= 0.01
            let x = scene.world.position(hammer).x
            report.metrics["projectile_x"] = Double(x)
            // The block's near face is at 29.8 m: the projectile (front 4 m ahead of its centre)
            // reaches it at x = 25.8 m after 69 steps. Free, it keeps exactly 40 m/s; by step 90
            // the block must have slowed it and been pushed forward.
            let speed = scene.world.linearVelocity(hammer).x
            let pushed = Self.momentum(scene.world, bodies.dropFirst()).x
            report.metrics["projectile_speed"] = Double(speed)
            report.metrics["block_momentum"] = Double(pushed)
            report.checks["smashed"] = scene.stepsTaken < 90 || (speed < SceneUnits.pt(40) && pushed > 0)
        }
    }

    /// Total linear momentum (mass × pt/s).
    static func momentum(_ world: World, _ bodies: some Sequence<BodyHandle>) -> Vec2 {
        var p = Vec2.zero
        for b in bodies { p += world.linearVelocity(b) * world.mass(b) }
        return p
    }
}
