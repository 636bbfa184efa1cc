import DynamicsEngine

/// `rain`: Box2D v3.2's benchmark of that name (`CreateRain`, `StepRain`): ragdolls
/// (`Ragdoll`, Box2D's `CreateHuman`) rain in groups onto five floors of small boxes; once every
/// column has had its groups, the oldest column's ragdolls are destroyed and dropped again.
///
/// In metres, y up, as Box2D builds it: floor r (r = 0 … 4) is a row of 12.5 C + 1 boxes of
/// half size 0.25 at y = 45 r, x = −3.125 C + 0.5 k (one static body); every 8 steps, before
/// the step, each of the 5 rows gets a group in the next column c (C columns; after the last,
/// the oldest column's groups are destroyed first, round robin): 5 ragdolls, 0.5 m apart,
/// standing on x = −3.125 C + 6.25 (c + 0.5), y = 40 + 45 r, joint friction 0.05 N·m, joint
/// springs of 5 Hz with damping ratio 0.5. The n-th ragdolls of all groups (n = 1 … 5) never
/// collide with each other nor with themselves (Box2D's group index −n, `ShapeFilter`), and
/// feet touch only the floors (see `Ragdoll`). Sleeping on, 1 000 steps. C = 40 (up to
/// 1 000 ragdolls, 11 000 bodies) is Box2D's release size (its floors are 500 boxes + 1: the
/// same), 10 the small size here (Box2D's debug size has 3 rows and groups of 2).
///
/// Ragdolls that slide off the end of a floor fall past the floors below for good, as in
/// Box2D; they do not count as escaped (the scene's region reaches 2 km down). Falling through
/// a floor does.
///
/// Checks: `attached` — every joint's anchors within 0.25 m of each other (a ragdoll landing at
/// 28 m/s stretches its joints by up to about 0.15 m); `floors_hold` — no body under the lowest
/// floor, between its ends.
/// Metrics: `joint_gap` (pt), `ragdolls` (alive now), `through_floor`.
enum RainScene {
    static let descriptor = SceneDescriptor(
        name: "rain", summary: "Box2D's rain: ragdolls dropped in groups onto 5 floors, the oldest replaced, 1 000 steps",
        sizeMeaning: "columns of ragdoll groups (C; 5 rows × C groups of 5 ragdolls of 11 bodies)",
        sizes: [10, 40], defaultSize: 40, steps: 1_000, maximumSize: 400, builder: build)  // 400 columns: up to 10 000 ragdolls

    static let rows = 5
    static let groupSize = 5
    static let floorPitch: Float = 45
    /// Box2D's release `delay` mask (0x7): a column every 8 steps.
    static let delayMask = 7
    static let jointFriction: Float = 0.05
    static let jointHertz: Float = 5
    static let jointDamping: Float = 0.5
    /// Largest anchor distance (m) for `attached`.
    static let gapTolerance: Float = 0.25

    /// Builds the floors; the ragdolls come in `beforeStep`. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let columns = request.size
        let world = Box2DBenchmark.world(sleep: true)
        let m = SceneUnits.pointsPerMetre
        let gridCount = 25 * columns / 2
        let span = 0.5 * Float(gridCount)
        var floors: [ShapeDef] = []
        floors.reserveCapacity(Self.rows * (gridCount + 1))
        for r in 0..<Self.rows {
            for k in 0...gridCount {
                let center = Vec2(-0.5 * span + 0.5 * Float(k), Self.floorPitch * Float(r)) * m
                floors.append(ShapeDef(.box(halfWidth: 0.25 * m, halfHeight: 0.25 * m, center: center), material: SceneUnits.material))
            }
        }
        try world.createBody(BodyDef(type: .static, position: .zero), shapes: floors)

        let rain = Rain(columns: columns)
        let groupDistance = span / Float(columns)
        func dropGroup(row: Int, column: Int) throws {
            var p = Vec2(-0.5 * span + groupDistance * (Float(column) + 0.5), 40 + Self.floorPitch * Float(row)) * m
            for n in 0..<Self.groupSize {
                let slot = (row * columns + column) * Self.groupSize + n
                // A slot's ragdoll is made again in its own lists once it has been used.
                if rain.ragdolls[slot] != nil {
                    try rain.ragdolls[slot]!.create(in: world, at: p, jointFriction: Self.jointFriction, jointHertz: Self.jointHertz,
                                                    jointDamping: Self.jointDamping, number: Int32(n + 1))
                } else {
                    rain.ragdolls[slot] = try Ragdoll(in: world, at: p, jointFriction: Self.jointFriction, jointHertz: Self.jointHertz,
                                                      jointDamping: Self.jointDamping, number: Int32(n + 1))
                }
                p.x += 0.5 * m
            }
        }
        let beforeStep: SceneInstance.BeforeStep = { world, step in
            guard step & Self.delayMask == 0 else { return nil }
            let column: Int
            if rain.filledColumns < columns {
                column = rain.filledColumns
                rain.filledColumns += 1
            } else {
                column = rain.nextColumn
                rain.nextColumn = (rain.nextColumn + 1) % columns
            }
            for row in 0..<Self.rows {
                for n in 0..<Self.groupSize {
                    rain.ragdolls[(row * columns + column) * Self.groupSize + n]?.destroy(in: world)
                }
                // The engine throws only for invalid shapes, and these are fixed.
                try! dropGroup(row: row, column: column)
            }
            return nil
        }
        // What falls off a floor's end falls for good: 1 000 steps from the top floor end 1.2 km
        // below the lowest; at most 40 m/s sideways (the landing speed) it ends within 700 m.
        let depth: Float = 2_000 * m, reach = (0.5 * span + 1_000) * m
        let frame = SceneFrame(groundLevel: -depth, yUp: true, bodySize: 0.3 * m,
                               boundsMin: Vec2(-reach, -depth),
                               boundsMax: Vec2(reach, (40 + Self.floorPitch * Float(Self.rows - 1) + 10) * m))
        let floorEnd = (0.5 * span + 0.25) * m
        return request.instance(
            world: world, dynamicBodies: [], staticBodyCount: 1, frame: frame,
            judge: { scene, report in
                let alive = rain.ragdolls.compactMap { $0 }
                Box2DBenchmark.judgeAttachment(scene.world, alive.flatMap(\.joints), tolerance: Self.gapTolerance * m, into: &report)
                report.metrics["ragdolls"] = Double(alive.count)
                var through = 0
                for b in scene.dynamicBodies {
                    let p = scene.world.position(b)
                    if abs(p.x) <= floorEnd && p.y < -0.25 * m { through += 1 }
                }
                report.metrics["through_floor"] = Double(through)
                report.checks["floors_hold"] = through == 0
            },
            beforeStep: beforeStep,
            bodyList: { rain.ragdolls.flatMap { $0?.bodies ?? [] } })
    }
}

/// What `rain` keeps between steps: the ragdoll in each slot (row, column, number) and where
/// the next group goes.
private final class Rain {
    var ragdolls: [Ragdoll?]
    var filledColumns = 0
    var nextColumn = 0
    init(columns: Int) { ragdolls = Array(repeating: nil, count: RainScene.rows * columns * RainScene.groupSize) }
}
