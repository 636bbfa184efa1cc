import DynamicsEngine
import Foundation

/// The world of `dynamics-bench soak` : `items` bodies in a closed container, a
/// fraction of them replaced every simulated second, for as long as the caller steps it.
///
/// The container is `pile`'s (`BoxContainer`: 60 m wide, walls as high as the pile plus 2 m, in
/// the metre scenes' units, 100 pt = 1 m, gravity 10 m/s² down, sleeping off) with a lid on top,
/// so it is closed; every wall is `wallThickness` (1 m) thick. The bodies start as `mix` does
/// (rows of 50, even index a circle of 1 m diameter, odd a 1 m box). Churn destroys a random
/// body and creates a new one of a random kind — box, circle, ellipse or convex polygon, 0.6 to
/// 1.2 m across, random angle, density 0.5–2, friction 0.2–1, restitution 0–0.3 — dropped from
/// just under the lid with a random velocity of up to 5 m/s, so the body count stays `items`.
/// `churnPerSecond × items` bodies are replaced per simulated second (fractions carry over from
/// step to step). Everything is deterministic for a given seed and worker count.
///
/// Only the public `DynamicsEngine` API is used. Not thread-safe (like `World`).
public final class SoakWorld {
    /// Thickness of the container's ground, walls and lid (pt): 1 m.
    public static let wallThickness: Float = SceneUnits.pt(1)
    /// Clear space between the top of the initial rows and the lid (pt): 4 m.
    public static let headroom: Float = SceneUnits.pt(4)
    /// The largest body of the scene, across (pt): 1.2 m.
    public static let largestBody: Float = SceneUnits.pt(1.2)

    /// The physics world (use it read-only; `step()` advances it).
    public let world: World
    /// The inside of the container (pt): a dynamic body's centre belongs in here.
    public let inner: AABB
    /// The dynamic bodies now, `items` of them (replaced bodies take the place of the old one).
    public private(set) var bodies: [BodyHandle]
    /// Bodies replaced so far.
    public private(set) var replaced = 0
    /// Steps taken so far.
    public private(set) var steps = 0
    /// Fraction of the bodies replaced per simulated second (0.01 = 1 %).
    public let churnPerSecond: Double
    /// The time step: 1/60 s.
    public let dt: Float = SceneUnits.dt

    private var rng: SceneRandom
    private var churnDue: Double = 0

    /// Builds the container and the bodies.
    ///
    /// - Parameters:
    ///   - items: dynamic bodies, 1…100 000.
    ///   - churnPerSecond: fraction of `items` replaced per simulated second, 0…100 (0.01 = 1 %).
    ///   - seed: seeds the churn (which body goes, what replaces it).
    ///   - workers: `World.workerCount`, at least 1.
    /// - Throws: `SoakWorld.Error.invalid` for a value out of range (the message names it).
    public init(items: Int, churnPerSecond: Double = 0.01, seed: UInt64 = 0, workers: Int = 1) throws {
        guard (1...100_000).contains(items) else { throw Error.invalid("items must be between 1 and 100000 (got \(items))") }
        guard churnPerSecond.isFinite, (0...100).contains(churnPerSecond) else {
            throw Error.invalid("churn must be between 0 and 100 per second, e.g. 0.01 for 1 % (got \(churnPerSecond))")
        }
        guard workers >= 1 else { throw Error.invalid("workers must be at least 1 (got \(workers))") }
        self.churnPerSecond = churnPerSecond
        rng = SceneRandom(seed: seed)
        world = SceneUnits.throughputWorld()
        world.workerCount = workers

        let rows = BoxContainer.rows(for: items)
        let halfWidth = SceneUnits.pt(30)
        let height = SceneUnits.pt(BoxContainer.wallHeight(rows: rows)) + Self.headroom
        inner = AABB(lower: Vec2(-halfWidth, 0), upper: Vec2(halfWidth, height))
        let t = Self.wallThickness, ht = t / 2
        let walls: [(Vec2, Float, Float)] = [
            (Vec2(0, -ht), halfWidth + t, ht),                       // ground
            (Vec2(0, height + ht), halfWidth + t, ht),               // lid
            (Vec2(-halfWidth - ht, height / 2), ht, height / 2),     // left
            (Vec2(halfWidth + ht, height / 2), ht, height / 2),      // right
        ]
        for (p, hx, hy) in walls {
            try world.addBox(.static, center: p, halfWidth: hx, halfHeight: hy)
        }
        let half = BoxContainer.bodySize / 2
        bodies = []
        bodies.reserveCapacity(items)
        for i in 0..<items {
            let p = BoxContainer.position(of: i)
            bodies.append(i % 2 == 0 ? try world.addCircle(.dynamic, center: p, radius: half)
                                     : try world.addBox(.dynamic, center: p, halfWidth: half, halfHeight: half))
        }
    }

    /// Errors of `init`.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// A parameter is out of range; the message says which and what is allowed.
        case invalid(String)
        public var description: String { if case .invalid(let m) = self { return m }; return "" }
    }

    /// Replaces the bodies due (see the type's description), then steps the world by `dt`.
    public func step() {
        churnDue += churnPerSecond * Double(bodies.count) * Double(dt)
        while churnDue >= 1 {
            churnDue -= 1
            replaceOne()
        }
        world.step(dt: dt)
        steps += 1
    }

    /// Destroys a random body and drops a new random one from under the lid.
    public func replaceOne() {
        guard !bodies.isEmpty else { return }
        let k = Int(rng.next() % UInt64(bodies.count))
        world.destroyBody(bodies[k])
        let size = rng.float(in: SceneUnits.pt(0.6)...Self.largestBody)
        let material = Material(density: rng.float(in: 0.5...2), friction: rng.float(in: 0.2...1),
                                restitution: rng.float(in: 0...0.3))
        let geometry: Geometry
        switch rng.next() % 4 {
        case 0: geometry = .box(halfWidth: size / 2, halfHeight: size / 2 * rng.float(in: 0.5...1))
        case 1: geometry = .circle(radius: size / 2)
        case 2: geometry = .ellipse(halfWidth: size / 2, halfHeight: size / 2 * rng.float(in: 0.5...1), segments: 16)
        default:
            // A regular polygon of 3 to 8 sides: convex and counter-clockwise.
            let n = 3 + Int(rng.next() % 6)
            geometry = .polygon((0..<n).map { j in
                let a = 2 * Float.pi * Float(j) / Float(n)
                return Vec2(cosf(a), sinf(a)) * (size / 2)
            })
        }
        let margin = Self.largestBody
        let position = Vec2(rng.float(in: (inner.lower.x + margin)...(inner.upper.x - margin)), inner.upper.y - margin)
        var def = BodyDef(type: .dynamic, position: position, angle: rng.float(in: -Float.pi...Float.pi))
        let speed = rng.float(in: 0...SceneUnits.pt(5)), heading = rng.float(in: -Float.pi...Float.pi)
        def.linearVelocity = Vec2(cosf(heading), sinf(heading)) * speed
        // The shapes above are valid by construction: a throw here is an engine bug.
        bodies[k] = try! world.createBody(def, shapes: [ShapeDef(geometry, material: material)])
        replaced += 1
    }

    /// The first problem with the state now, nil when there is none: a body whose position,
    /// rotation, centre of mass or velocity is not finite, or whose centre of mass is beyond
    /// a wall (further outside `inner` than `wallThickness`), or a body count that is not
    /// `bodies.count` plus the 4 walls.
    public func problem() -> String? {
        if world.bodyCount != bodies.count + 4 {
            return "the world holds \(world.bodyCount) bodies, the soak \(bodies.count) + 4 walls"
        }
        let t = Self.wallThickness
        let out = AABB(lower: inner.lower - Vec2(t, t), upper: inner.upper + Vec2(t, t))
        for h in bodies {
            let xf = world.transform(h), c = world.worldCenter(h)
            let v = world.linearVelocity(h), w = world.angularVelocity(h)
            guard xf.p.isFinite, xf.q.c.isFinite, xf.q.s.isFinite, c.isFinite, v.isFinite, w.isFinite else {
                return "non-finite state: body \(h) position \(xf.p), rotation (\(xf.q.c), \(xf.q.s)), centre \(c), v \(v), w \(w)"
            }
            if c.x < out.lower.x || c.x > out.upper.x || c.y < out.lower.y || c.y > out.upper.y {
                return "escaped: body \(h) centre \(c) is beyond a wall of the container \(inner.lower)–\(inner.upper), v \(v)"
            }
        }
        return nil
    }
}
