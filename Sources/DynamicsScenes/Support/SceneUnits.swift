import DynamicsEngine

/// Units and defaults shared by the metre scenes of `scenes.md` (pile, pyramid, mix).
///
/// The peer scenes are written in metres with y up; the engine works in points
/// (100 pt = 1 m), so every length is multiplied by `pointsPerMetre` and gravity is
/// (0, −1000) pt/s² (10 m/s² down). y stays up.
public enum SceneUnits {
    /// 100 pt = 1 m.
    public static let pointsPerMetre: Float = 100
    /// Gravity of the metre scenes in points: 10 m/s² down, y up.
    public static let gravity = Vec2(0, -1000)
    /// Every shape of the metre scenes, static and dynamic: density 1, friction 0.6,
    /// restitution 0.
    public static let material = Material(density: 1, friction: 0.6, restitution: 0)
    /// One step: 1/60 s.
    public static let dt: Float = 1.0 / 60.0

    /// Converts a point given in metres to points.
    @inlinable public static func pt(_ x: Float, _ y: Float) -> Vec2 { Vec2(x, y) * pointsPerMetre }
    /// Converts a length in metres to points.
    @inlinable public static func pt(_ metres: Float) -> Float { metres * pointsPerMetre }

    /// A world for a throughput scene: metre-scene gravity, default solver settings
    /// (4 sub-steps), sleeping off.
    public static func throughputWorld() -> World {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        return World(gravity: gravity, settings: settings)
    }
}

extension World {
    /// Adds a box body with the metre-scene material; sizes in points.
    @discardableResult
    func addBox(_ type: BodyType, center: Vec2, halfWidth: Float, halfHeight: Float,
                material: Material = SceneUnits.material) throws -> BodyHandle {
        try createBody(BodyDef(type: type, position: center),
                       shapes: [ShapeDef(.box(halfWidth: halfWidth, halfHeight: halfHeight), material: material)])
    }

    /// Adds a circle body with the metre-scene material; sizes in points.
    @discardableResult
    func addCircle(_ type: BodyType, center: Vec2, radius: Float,
                   material: Material = SceneUnits.material) throws -> BodyHandle {
        try createBody(BodyDef(type: type, position: center),
                       shapes: [ShapeDef(.circle(radius: radius), material: material)])
    }
}
