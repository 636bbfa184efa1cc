import DynamicsEngine

/// What the scenes of Box2D v3.1.1's benchmark app (`benchmark/main.c`, `shared/benchmarks.c` of
/// erincatto/box2d) share: Box2D's defaults and a few shapes our engine does not have.
///
/// Box2D's scenes are in metres with y up and Box2D's default world: gravity (0, −10) m/s²,
/// 4 sub-steps, sleeping on unless the scene turns it off, shapes of density 1, friction 0.6,
/// restitution 0. Here they are in points (100 pt = 1 m) with y still up, like the other metre
/// scenes (`SceneUnits`); the engine's contact and joint softness defaults are Box2D's.
enum Box2DBenchmark {
    /// A world with Box2D's defaults; `sleep` is `b2World_EnableSleeping`.
    static func world(sleep: Bool, gravity: Vec2 = SceneUnits.gravity) -> World {
        var settings = WorldSettings()
        settings.isSleepEnabled = sleep
        return World(gravity: gravity, settings: settings)
    }

    /// A convex polygon (points, counter-clockwise) for Box2D's rounded box
    /// (`b2MakeRoundedBox`): the box of half extents `halfWidth` × `halfHeight` grown by
    /// `radius`, each rounded corner approximated by `arcPoints` points. With `halfHeight` 0
    /// it is Box2D's capsule along x of half length `halfWidth`, with `halfWidth` 0 one along y.
    static func roundedBox(halfWidth: Float, halfHeight: Float, radius: Float, center: Vec2 = .zero,
                           arcPoints: Int = 4) -> Geometry {
        let corners = [Vec2(halfWidth, halfHeight), Vec2(-halfWidth, halfHeight),
                       Vec2(-halfWidth, -halfHeight), Vec2(halfWidth, -halfHeight)].map { $0 + center }
        var points: [Vec2] = []
        for (k, c) in corners.enumerated() {
            for s in 0..<arcPoints {
                let a = (Float(k) + Float(s) / Float(arcPoints - 1)) * Float.pi / 2
                let p = c + Rot(angle: a).rotate(Vec2(radius, 0))
                // Corners that coincide (a capsule's) would repeat a point.
                if let last = points.last, separation(last, p) < 1e-3 { continue }
                points.append(p)
            }
        }
        if let first = points.first, let last = points.last, separation(first, last) < 1e-3 { points.removeLast() }
        return .polygon(points)
    }

    /// The largest distance between the two anchors of any of `joints` (pt): 0 for joints that
    /// hold exactly, large when a chain or grid has come apart.
    static func largestJointGap(_ world: World, _ joints: [JointHandle]) -> Float {
        var gap: Float = 0
        for j in joints {
            let (a, b) = world.jointAnchors(j)
            let d = separation(a, b)
            gap = d.isNaN ? .nan : max(gap, d)
            if gap.isNaN { break }
        }
        return gap
    }

    /// Records `joint_gap` (pt) and the check `attached`: every joint's anchors within
    /// `tolerance` (pt) of each other.
    static func judgeAttachment(_ world: World, _ joints: [JointHandle], tolerance: Float, into report: inout SanityReport) {
        let gap = largestJointGap(world, joints)
        report.metrics["joint_gap"] = Double(gap)
        report.checks["attached"] = gap <= tolerance
    }

    /// The distance between two points.
    static func separation(_ a: Vec2, _ b: Vec2) -> Float {
        let d = a - b
        return (d * d).sum().squareRoot()
    }
}
