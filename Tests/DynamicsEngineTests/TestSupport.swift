@testable import DynamicsEngine

/// Small builders shared by the engine tests (y down, points, gravity 1000 pt/s² unless set).
enum TestWorld {
    static func make(gravity: Vec2 = Vec2(0, 1000), sleep: Bool = false) -> World {
        var settings = WorldSettings()
        settings.isSleepEnabled = sleep
        return World(gravity: gravity, settings: settings)
    }

    @discardableResult
    static func box(_ w: World, at p: Vec2, size: Vec2 = Vec2(100, 100), angle: Float = 0,
                    type: BodyType = .dynamic, material: Material = Material(),
                    velocity: Vec2 = .zero) throws -> BodyHandle {
        var def = BodyDef(type: type, position: p, angle: angle)
        def.linearVelocity = velocity
        return try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: size.x / 2, halfHeight: size.y / 2), material: material)])
    }

    @discardableResult
    static func circle(_ w: World, at p: Vec2, radius: Float, material: Material = Material(),
                       velocity: Vec2 = .zero) throws -> BodyHandle {
        var def = BodyDef(type: .dynamic, position: p)
        def.linearVelocity = velocity
        return try w.createBody(def, shapes: [ShapeDef(.circle(radius: radius), material: material)])
    }

    /// A static ground box whose top surface is at y = `top` (y down: the box extends below).
    @discardableResult
    static func ground(_ w: World, top: Float, width: Float = 4000, material: Material = Material()) throws -> BodyHandle {
        try box(w, at: Vec2(0, top + 50), size: Vec2(width, 100), type: .static, material: material)
    }

    /// A pyramid of `size`-point boxes, `rows` on its base row, standing on y = 0 and centred
    /// on x = 0, touching exactly; made row by row from the base, left to right (the last box
    /// is the top one), as the pyramid scenes are. Returns the boxes in that order.
    @discardableResult
    static func pyramid(_ w: World, rows: Int, size: Float = 100) throws -> [BodyHandle] {
        var boxes: [BodyHandle] = []
        for i in 0..<rows {
            for j in i..<rows {
                let x = (Float(i) + 1) * 0.5 * size + Float(j - i) * size - 0.5 * Float(rows) * size
                boxes.append(try box(w, at: Vec2(x, -(Float(i) + 0.5) * size), size: Vec2(size, size)))
            }
        }
        return boxes
    }

    static func run(_ w: World, seconds: Float, dt: Float = 1.0 / 60.0, each: (() -> Void)? = nil) {
        let n = Int((seconds / dt).rounded())
        for _ in 0..<n { w.step(dt: dt); each?() }
    }
}

/// A deterministic generator (SplitMix64) for the randomized tests: fixed seeds, the same
/// sequence on every machine.
struct TestRandom: RandomNumberGenerator {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    /// Uniform in lo ..< hi (24 bits).
    mutating func float(_ lo: Float, _ hi: Float) -> Float {
        lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24)
    }
}
