import DynamicsEngine

/// What the scenes of Box2D's benchmark app (`benchmark/main.c`, `shared/benchmarks.c` of
/// erincatto/box2d; v3.1.1's and v3.2's) share: Box2D's defaults, its convex hulls and box
/// containers, and the polygons that stand in for rounded boxes in the v3.1.1 scenes.
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

    /// The convex hull of `points`, counter-clockwise from the point of least x (least y among
    /// equals), without points inside it or on its edges: the polygon Box2D's `b2ComputeHull`
    /// and `b2MakePolygon` give for the few well-separated points the scenes pass, in a
    /// winding the engine accepts whatever order the points come in.
    static func convexHull(_ points: [Vec2]) -> [Vec2] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        func cross(_ o: Vec2, _ a: Vec2, _ b: Vec2) -> Float {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        // Andrew's monotone chain: the lower chain left to right, then the upper right to left,
        // each keeping only left turns.
        var hull: [Vec2] = []
        for pass in 0..<2 {
            let start = hull.count
            for p in pass == 0 ? sorted : sorted.reversed() {
                while hull.count >= start + 2 && cross(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 {
                    hull.removeLast()
                }
                hull.append(p)
            }
            hull.removeLast()  // the next chain starts with it
        }
        return hull
    }

    /// Cosine and sine of `radians` as Box2D's `b2ComputeCosSin` gives them; its scenes take
    /// some of their geometry and motion from it (the `junkyard` pentagon and pusher path), so
    /// ours do too. The angle is brought into −π … π (subtracting the nearest whole number of
    /// turns, in double precision), Bhaskara I's rational approximations of cosine and sine are
    /// taken there, and the pair is scaled to unit length: within about 0.002 of the exact
    /// values.
    static func cosSin(_ radians: Float) -> (cos: Float, sin: Float) {
        let turn = Double(2 * Float.pi)
        let x = Float(Double(radians) - (Double(radians) / turn).rounded(.toNearestOrEven) * turn)
        let pi = Float.pi, pi2 = Float.pi * Float.pi
        // Bhaskara's cosine holds on −π/2 … π/2: outside, cos x = −cos(x ∓ π).
        func bhaskaraCos(_ y: Float) -> Float { (pi2 - 4 * y * y) / (pi2 + y * y) }
        let c = x < -0.5 * pi ? -bhaskaraCos(x + pi) : x > 0.5 * pi ? -bhaskaraCos(x - pi) : bhaskaraCos(x)
        // Bhaskara's sine holds on 0 … π: below, sin x = −sin(x + π).
        func bhaskaraSin(_ y: Float) -> Float { 16 * y * (pi - y) / (5 * pi2 - 4 * y * (pi - y)) }
        let s = x < 0 ? -bhaskaraSin(x + pi) : bhaskaraSin(x)
        let length = (s * s + c * c).squareRoot()
        let scale: Float = length > 0 ? 1 / length : 0
        return (c * scale, s * scale)
    }

    /// The static box container of Box2D's `junkyard` and `compounds` (metres, converted to
    /// points): a floor of 2 `halfSpan` + 1 boxes of half size (0.55, 0.5) centred on y = 0 at
    /// x = −`halfSpan` … `halfSpan`, 1 m apart (so neighbours overlap), and at x = ±`halfSpan` a
    /// wall of `wallBoxes` boxes of half size (0.5, 0.55) centred on y = 1, 2, … `wallBoxes`.
    /// The floor's top face is y = 0.5 m, a wall's inner face 0.5 m inside x = ±`halfSpan`.
    static func boxContainer(halfSpan: Int, wallBoxes: Int) -> [ShapeDef] {
        func box(_ hw: Float, _ hh: Float, _ x: Float, _ y: Float) -> ShapeDef {
            ShapeDef(.box(halfWidth: SceneUnits.pt(hw), halfHeight: SceneUnits.pt(hh), center: SceneUnits.pt(x, y)),
                     material: SceneUnits.material)
        }
        var shapes: [ShapeDef] = []
        shapes.reserveCapacity(2 * halfSpan + 1 + 2 * wallBoxes)
        for k in -halfSpan...halfSpan { shapes.append(box(0.55, 0.5, Float(k), 0)) }
        for side: Float in [-1, 1] {
            for k in 1...max(1, wallBoxes) { shapes.append(box(0.5, 0.55, side * Float(halfSpan), Float(k))) }
        }
        return shapes
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
