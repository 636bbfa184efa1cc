import DynamicsEngine

/// `pyramid`: a pyramid of 1 × 1 m boxes with B boxes on its base row, B(B + 1)/2 boxes in all,
/// on a 200 m ground (scenes.md, "pyramid"). Boxes touch exactly at the start. Measures stacking
/// stability: it must still stand at the end.
///
/// Checks: `standing` — the maximum height is within 1% of its start.
/// Metrics: `top_drift` (horizontal drift of the top box, pt), `top_drop` (how far the top box
/// sank, pt).
public struct PyramidScene: BenchmarkScene {
    public init() {}
    public var name: String { "pyramid" }
    public var summary: String { "a pyramid of 1 m boxes, B on the base row, that must keep standing" }
    public var sizeMeaning: String { "boxes on the base row (B; B(B+1)/2 boxes)" }
    public var defaultSizes: [Int] { [20, 50, 100] }
    public var defaultSize: Int { 100 }
    /// 2 000 on the base = 2 001 000 boxes.
    public var maximumSize: Int { 2_000 }

    /// Allowed change of the maximum height for `standing`, as a fraction of its start.
    public static let standingTolerance = 0.01

    /// Builds the pyramid. Deterministic: `seed` is ignored.
    public func build(size: Int, seed: UInt64) throws -> SceneInstance {
        try validate(size: size)
        let base = size
        let world = SceneUnits.throughputWorld()
        // Ground box centred (0, −1) m, half extents (100, 1) m: its surface is y = 0.
        try world.addBox(.static, center: SceneUnits.pt(0, -1),
                         halfWidth: SceneUnits.pt(100), halfHeight: SceneUnits.pt(1))
        let half = SceneUnits.pt(0.5)
        var bodies: [BodyHandle] = []
        bodies.reserveCapacity(base * (base + 1) / 2)
        for i in 0..<base {
            for j in i..<base {
                let x = Float(i + 1) * 0.5 + Float(j - i) - 0.5 * Float(base)
                let y = Float(i) + 0.5
                bodies.append(try world.addBox(.dynamic, center: SceneUnits.pt(x, y),
                                               halfWidth: half, halfHeight: half))
            }
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
        return SceneInstance(
            name: name, size: size, seed: seed, world: world, dynamicBodies: bodies,
            staticBodyCount: 1, frame: frame, stepsDefault: stepsDefault
        ) { scene, report in
            let start = report.initialMaxHeight
            report.checks["standing"] = report.maxHeight.isFinite
                && abs(report.maxHeight - start) <= Self.standingTolerance * start
            let p = scene.world.position(top)
            report.metrics["top_drift"] = Double(abs(p.x - topStart.x))
            report.metrics["top_drop"] = Double(topStart.y - p.y)
        }
    }
}
