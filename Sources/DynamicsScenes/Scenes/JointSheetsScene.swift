import DynamicsEngine

/// `joint_sheets`: four N × N sheets of circles side by side, each held together by one kind of
/// joint — weld joints, distance rods, distance springs with a maximum length, and prismatic
/// joints with a spring and limits along each link — each hung from seven static circles in
/// the middle of its top row, as `joint_grid` hangs its revolute sheet. Only joints: the
/// circles never collide. It measures the joint kinds `joint_grid` does not (each sheet is one
/// island of 2 N (N − 1) joints, solved in lanes).
///
/// In metres, y up: sheet s (s = 0 … 3) has circle (k, i) of radius 0.4 at
/// (s (N + 4) + k, −i), density 1. Weld and prismatic joints join neighbours at the midpoint
/// of their link (local anchors ±0.5 m along it; a prismatic joint slides along the link, with
/// a 4 Hz spring and limits of ±0.1 m); distance joints join their centres (1 m apart; the
/// springs of 4 Hz, damping ratio 0.5, at most 1.2 m long). Sleeping off.
///
/// Checks: `attached` — every weld and prismatic joint's anchors within 1 m of each other, and
/// `links` — every distance joint's centres within 2.2 m.
/// Metrics: `joint_gap` (pt), `longest_link` (pt).
enum JointSheetsScene {
    static let descriptor = SceneDescriptor(
        name: "joint_sheets", summary: "four N × N sheets of circles joined by weld, distance (rod, spring) and prismatic joints",
        sizeMeaning: "circles per row and per column of each sheet (N; 4 N² circles, 8 N(N−1) joints)",
        sizes: [10, 50], defaultSize: 50, maximumSize: 500, builder: build)

    /// Largest anchor distance (m) for `attached`, and longest distance link (m) for `links`.
    static let gapTolerance: Float = 1
    static let longestLink: Float = 2.2

    /// Builds the sheets. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let n = request.size
        let m = SceneUnits.pointsPerMetre
        let world = Box2DBenchmark.world(sleep: false)
        let circles = world.createCollisionGroup(mode: [])
        let shape = [ShapeDef(.circle(radius: SceneUnits.pt(0.4)), material: SceneUnits.material)]
        var dynamic: [BodyHandle] = [], pinned: [JointHandle] = [], links: [JointHandle] = []
        var statics = 0
        for sheet in 0..<4 {
            var grid: [BodyHandle] = []
            grid.reserveCapacity(n * n)
            // `along`: the link's direction from a to b (m), (0, −1) down a column, (1, 0) along a row.
            func join(_ a: BodyHandle, _ b: BodyHandle, along: Vec2) {
                var def: JointDef
                switch sheet {
                case 0:
                    def = JointDef(type: .weld, bodyA: a, bodyB: b)
                case 1, 2:
                    def = JointDef(type: .distance, bodyA: a, bodyB: b)
                    if sheet == 2 {
                        def.enableSpring = true; def.hertz = 4; def.dampingRatio = 0.5; def.maxLength = 1.2 * m
                    }
                default:
                    def = JointDef(type: .prismatic, bodyA: a, bodyB: b)
                    def.localAxisA = along
                    def.enableSpring = true; def.hertz = 4; def.dampingRatio = 0.5
                    def.enableLimit = true; def.lower = -0.1 * m; def.upper = 0.1 * m
                }
                if sheet == 0 || sheet == 3 {
                    def.localAnchorA = 0.5 * along * m
                    def.localAnchorB = -0.5 * along * m
                }
                let h = world.createJoint(def)
                if sheet == 1 || sheet == 2 { links.append(h) } else { pinned.append(h) }
            }
            let x0 = Float(sheet * (n + 4))
            for k in 0..<n {
                for i in 0..<n {
                    var def = BodyDef(type: .dynamic, position: SceneUnits.pt(x0 + Float(k), -Float(i)))
                    if i == 0 && k >= n / 2 - 3 && k <= n / 2 + 3 { def.type = .static }
                    def.groups = [circles]
                    let body = try world.createBody(def, shapes: shape)
                    if i > 0 { join(grid[grid.count - 1], body, along: Vec2(0, -1)) }
                    if k > 0 { join(grid[grid.count - n], body, along: Vec2(1, 0)) }
                    grid.append(body)
                    if def.type == .dynamic { dynamic.append(body) } else { statics += 1 }
                }
            }
        }
        // The sheets swing below their top rows and out to the sides by up to their size.
        let extent = SceneUnits.pt(4 * Float(n + 4) + 2 * Float(n) + 2)
        let frame = SceneFrame(groundLevel: -extent, yUp: true, bodySize: SceneUnits.pt(0.8),
                               boundsMin: Vec2(-extent, -extent), boundsMax: Vec2(extent, extent))
        return request.instance(world: world, dynamicBodies: dynamic, staticBodyCount: statics,
                                frame: frame) { scene, report in
            Box2DBenchmark.judgeAttachment(scene.world, pinned, tolerance: SceneUnits.pt(Self.gapTolerance), into: &report)
            var longest: Float = 0
            for h in links {
                let (a, b) = scene.world.jointAnchors(h)
                longest = max(longest, Box2DBenchmark.separation(a, b))
            }
            report.metrics["longest_link"] = Double(longest)
            report.checks["links"] = longest <= SceneUnits.pt(Self.longestLink)
        }
    }
}
