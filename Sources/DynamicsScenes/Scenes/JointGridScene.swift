import DynamicsEngine

/// `joint_grid`: Box2D v3.1.1's benchmark of that name (`CreateJointGrid`): an N × N grid of
/// circles joined by pin (revolute) joints to their neighbours, hung from a few static circles
/// in the middle of its top row; it falls into a swinging sheet. Only joints: the circles never
/// collide with each other.
///
/// In metres, y up, as Box2D builds it: circle (k, i) (column k, row i; k outer, i inner) of
/// radius 0.4 at (k, −i), density 1; static when i = 0 and N/2 − 3 ≤ k ≤ N/2 + 3. A joint joins
/// (k, i − 1) to (k, i) at local anchors (0, −0.5) / (0, 0.5), and (k − 1, i) to (k, i) at
/// (0.5, 0) / (−0.5, 0): 2 N (N − 1) joints. Sleeping off, 500 steps. N = 100 (10 000 circles,
/// 19 800 joints) is Box2D's release size, 10 its debug size.
///
/// Checks: `attached` — every joint's anchors within 1 m of each other. The sheet's soft pins
/// stretch as it swings: Box2D v3.2's own grid (built the same way) parts its anchors by up to
/// 0.61 m (after 100 steps), 0.49 m (300) and 0.42 m (500); ours by 0.62, 0.49 and 0.41 m.
/// Metrics: `joint_gap` (largest anchor distance, pt).
enum JointGridScene {
    static let descriptor = SceneDescriptor(
        name: "joint_grid", summary: "Box2D's joint_grid: N × N circles pinned to their neighbours, hung from the top, 500 steps",
        sizeMeaning: "circles per row and per column (N; N² circles, 2N(N−1) joints)",
        sizes: [10, 100], defaultSize: 100, steps: 500, maximumSize: 1_000, builder: build)  // 1 000 × 1 000 circles

    /// Largest anchor distance (m) for `attached`.
    static let gapTolerance: Float = 1

    /// Builds the grid. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let world = Box2DBenchmark.world(sleep: false)
        // Box2D's filter (category 2, mask ~2): the circles collide with nothing here.
        let circles = world.createCollisionGroup(mode: [])
        let shape = [ShapeDef(.circle(radius: SceneUnits.pt(0.4)), material: SceneUnits.material)]
        var grid: [BodyHandle] = [], dynamic: [BodyHandle] = [], joints: [JointHandle] = []
        grid.reserveCapacity(n * n)
        joints.reserveCapacity(2 * n * max(0, n - 1))
        func pin(_ a: BodyHandle, _ b: BodyHandle, _ anchorA: Vec2, _ anchorB: Vec2) {
            var def = JointDef(type: .revolute, bodyA: a, bodyB: b)
            def.localAnchorA = anchorA * SceneUnits.pointsPerMetre
            def.localAnchorB = anchorB * SceneUnits.pointsPerMetre
            joints.append(world.createJoint(def))
        }
        for k in 0..<n {
            for i in 0..<n {
                var def = BodyDef(type: .dynamic, position: SceneUnits.pt(Float(k), -Float(i)))
                if i == 0 && k >= n / 2 - 3 && k <= n / 2 + 3 { def.type = .static }
                def.groups = [circles]
                let body = try world.createBody(def, shapes: shape)
                if i > 0 { pin(grid[grid.count - 1], body, Vec2(0, -0.5), Vec2(0, 0.5)) }
                if k > 0 { pin(grid[grid.count - n], body, Vec2(0.5, 0), Vec2(-0.5, 0)) }
                grid.append(body)
                if def.type == .dynamic { dynamic.append(body) }
            }
        }
        // The sheet swings below its top row and out to the sides by up to its size.
        let extent = SceneUnits.pt(2 * Float(n) + 2)
        let frame = SceneFrame(groundLevel: -extent, yUp: true, bodySize: SceneUnits.pt(0.8),
                               boundsMin: Vec2(-extent, -extent), boundsMax: Vec2(extent, extent))
        return request.instance(world: world, dynamicBodies: dynamic, staticBodyCount: grid.count - dynamic.count,
                                frame: frame) { scene, report in
            Box2DBenchmark.judgeAttachment(scene.world, joints, tolerance: SceneUnits.pt(Self.gapTolerance), into: &report)
        }
    }
}
