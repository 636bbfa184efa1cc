import DynamicsEngine

/// The container and body layout shared by `pile` and `mix` (scenes.md, "pile and mix").
///
/// In metres, y up: a ground box centred (0, −0.5) with half extents (31, 0.5), walls centred
/// (±30.5, H/2) with half extents (0.5, H/2), H = 1.1 × rows + 2, rows = ceil(N / 50).
/// Body i sits at row r = i / 50, column c = i mod 50:
/// x = (c − 24.5) × 1.1 ± 0.25 (+ on odd rows), y = 1 + 1.1 × r, at rest, angle 0.
enum BoxContainer {
    static let columns = 50
    /// Side of a box / diameter of a circle (pt).
    static let bodySize: Float = SceneUnits.pt(1)

    /// Number of rows for `count` bodies.
    static func rows(for count: Int) -> Int { (count + columns - 1) / columns }

    /// Wall height H in metres.
    static func wallHeight(rows: Int) -> Float { 1.1 * Float(rows) + 2 }

    /// Centre of body `i`, in points, moved `shift` metres sideways.
    static func position(of i: Int, shift: Float = 0) -> Vec2 {
        let r = i / columns, c = i % columns
        let x = (Float(c) - 24.5) * 1.1 + (r % 2 == 1 ? 0.25 : -0.25) + shift
        let y = 1 + 1.1 * Float(r)
        return SceneUnits.pt(x, y)
    }

    /// Creates the ground and the two walls; returns the number of static bodies.
    static func addContainer(to world: World, bodyCount: Int) throws -> Int {
        let h = wallHeight(rows: rows(for: bodyCount))
        try world.addBox(.static, center: SceneUnits.pt(0, -0.5),
                         halfWidth: SceneUnits.pt(31), halfHeight: SceneUnits.pt(0.5))
        for side: Float in [-1, 1] {
            try world.addBox(.static, center: SceneUnits.pt(side * 30.5, h / 2),
                             halfWidth: SceneUnits.pt(0.5), halfHeight: SceneUnits.pt(h / 2))
        }
        return 3
    }

    /// Ground at y = 0; a body escapes when its centre is more than one body size below the
    /// ground, more than one body size beyond a wall's inner face (x = ±30 m), or higher than
    /// twice the wall height plus ten body sizes.
    static func frame(bodyCount: Int) -> SceneFrame {
        let h = SceneUnits.pt(wallHeight(rows: rows(for: bodyCount)))
        let inner = SceneUnits.pt(30)
        return SceneFrame(groundLevel: 0, yUp: true, bodySize: bodySize,
                          boundsMin: Vec2(-inner - bodySize, -bodySize),
                          boundsMax: Vec2(inner + bodySize, 2 * h + 10 * bodySize))
    }
}
