import DynamicsEngine

/// `pyramid`: a pyramid of 1 × 1 m boxes with B boxes on its base row, B(B + 1)/2 boxes in all,
/// on a 200 m ground (scenes.md, "pyramid"). Boxes touch exactly at the start. Measures stacking
/// stability: it must still stand at the end.
///
/// `large_pyramid` is the same scene as Box2D v3.1.1's benchmark of that name
/// (`CreateLargePyramid`: base 100, the same ground box and box positions, sleeping off,
/// 500 steps): `PyramidScene.large`.
///
/// Checks: `standing` — the maximum height is within 1% of its start.
/// Metrics: `top_drift` (horizontal drift of the top box, pt), `top_drop` (how far the top box
/// sank, pt).
enum PyramidScene {
    /// `pyramid` (scenes.md).
    static let descriptor = SceneDescriptor(
        name: "pyramid", summary: "a pyramid of 1 m boxes, B on the base row, that must keep standing",
        sizeMeaning: sizeMeaning, sizes: [20, 50, 100], defaultSize: 100, maximumSize: maximumSize, builder: build)

    /// `large_pyramid`: Box2D's benchmark of that name, the same pyramid at base 100 for 500 steps
    /// (20 is Box2D's debug size).
    static let large = SceneDescriptor(
        name: "large_pyramid", summary: "Box2D's large_pyramid: the pyramid at base 100 (5 050 boxes), 500 steps",
        sizeMeaning: sizeMeaning, sizes: [20, 100], defaultSize: 100, steps: 500, maximumSize: maximumSize, builder: build)

    static let sizeMeaning = "boxes on the base row (B; B(B+1)/2 boxes)"
    /// 2 000 on the base = 2 001 000 boxes.
    static let maximumSize = 2_000

    /// Allowed change of the maximum height for `standing`, as a fraction of its start.
    static let standingTolerance = 0.01

    /// Centres (metres, y up) of a pyramid of 1 m boxes with `base` boxes on its base row, in
    /// creation order (row by row from the base, left to right; the last is the top box): the
    /// base row's first box at x = `firstX`, the base resting on y = `baseY`. Box2D's pyramids
    /// (`CreateLargePyramid`, `CreateSmallPyramid`) are laid out the same way. Row i (0 the base)
    /// is shifted sideways by `rowShift(i)` metres.
    static func boxCenters(base: Int, firstX: Float, baseY: Float, rowShift: (Int) -> Float = { _ in 0 }) -> [Vec2] {
        var centers: [Vec2] = []
        centers.reserveCapacity(base * (base + 1) / 2)
        for i in 0..<base {
            let shift = rowShift(i)
            for j in i..<base {
                centers.append(Vec2(firstX + 0.5 * Float(i) + Float(j - i) + shift, baseY + Float(i) + 0.5))
            }
        }
        return centers
    }

    /// Builds the pyramid. Seed 0 is the pyramid as written; another seed shifts each row
    /// sideways by a few centimetres (`SceneJitter`), the boxes of a row still touching.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let size = request.size
        let base = size
        let world = SceneUnits.throughputWorld()
        // Ground box centred (0, −1) m, half extents (100, 1) m: its surface is y = 0.
        try world.addBox(.static, center: SceneUnits.pt(0, -1),
                         halfWidth: SceneUnits.pt(100), halfHeight: SceneUnits.pt(1))
        let half = SceneUnits.pt(0.5)
        let bodies = try Self.boxCenters(base: base, firstX: 0.5 - 0.5 * Float(base), baseY: 0,
                                            rowShift: { SceneJitter.offset(seed: request.seed, index: $0) }).map {
            try world.addBox(.dynamic, center: $0 * SceneUnits.pointsPerMetre, halfWidth: half, halfHeight: half)
        }
        // The last box created is the single box of the top row.
        let top = bodies[bodies.count - 1]
        let topStart = world.position(top)
        let bodySize = SceneUnits.pt(1)
        let groundHalf = SceneUnits.pt(100)
        let frame = SceneFrame(
            groundLevel: 0, yUp: true, bodySize: bodySize,
            boundsMin: Vec2(-groundHalf - bodySize, -bodySize),
            boundsMax: Vec2(groundHalf + bodySize, 2 * topStart.y + 10 * bodySize))
        return request.instance(world: world, dynamicBodies: bodies, staticBodyCount: 1, frame: frame) { scene, report in
            let start = report.initialMaxHeight
            report.checks["standing"] = report.maxHeight.isFinite
                && abs(report.maxHeight - start) <= Self.standingTolerance * start
            let p = scene.world.position(top)
            report.metrics["top_drift"] = Double(abs(p.x - topStart.x))
            report.metrics["top_drop"] = Double(topStart.y - p.y)
        }
    }
}
