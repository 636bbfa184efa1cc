import DynamicsEngine

/// A block of boxes asleep beside a scene, to measure what sleeping bodies cost a step
/// (`dynamics-bench run --sleeping N`): N boxes of the scene's body size, created asleep
/// (`BodyDef.startsAsleep`) in a square block of columns standing on each other, exactly
/// touching, on a ground of their own beyond the scene's bounds. Nothing reaches them, so they
/// sleep through the run while the scene moves; they are not among the scene's dynamic bodies
/// (its sanity check is unchanged).
public enum SleepingBlock {
    /// Adds `count` sleeping boxes and their ground to `instance`'s world; returns the boxes.
    @discardableResult
    public static func add(count: Int, to instance: SceneInstance) throws -> [BodyHandle] {
        precondition(count >= 0, "SleepingBlock.add: count must not be negative")
        guard count > 0 else { return [] }
        let world = instance.world, frame = instance.frame
        let size = frame.bodySize, half = size / 2
        let columns = Int(Double(count).squareRoot().rounded(.up))
        // Beyond the scene's right edge, with a gap of ten bodies.
        let left = frame.boundsMax.x + 10 * size
        let up: Float = frame.yUp ? 1 : -1
        let ground = frame.groundLevel
        let width = Float(columns) * size
        try world.createBody(BodyDef(type: .static, position: Vec2(left + width / 2, ground - up * half)),
                             shapes: [ShapeDef(.box(halfWidth: width / 2 + size, halfHeight: half))])
        var out: [BodyHandle] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let c = i % columns, r = i / columns
            var def = BodyDef(type: .dynamic, position: Vec2(left + (Float(c) + 0.5) * size, ground + up * (Float(r) + 0.5) * size))
            def.startsAsleep = true
            out.append(try world.createBody(def, shapes: [ShapeDef(.box(halfWidth: half, halfHeight: half))]))
        }
        return out
    }
}
