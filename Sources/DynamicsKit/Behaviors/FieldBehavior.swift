import DynamicsEngine
import Foundation

/// Where a field acts, relative to the field's `position` (UIKit's `UIRegion`).
public indirect enum Region: Sendable {
    /// Everywhere.
    case infinite
    /// A disc of this radius around the field's position.
    case radius(CGFloat)
    /// A rectangle of this size centred on the field's position.
    case size(CGSize)
    /// Everywhere except the region.
    case inverse(Region)
    /// The points in either region.
    case union(Region, Region)
    /// The points in the first region and not in the second.
    case difference(Region, Region)
    /// The points in both regions.
    case intersection(Region, Region)

    /// UIKit's `UIRegion(radius:)`.
    public init(radius: CGFloat) { self = .radius(radius) }
    /// UIKit's `UIRegion(size:)`.
    public init(size: CGSize) { self = .size(size) }
    /// UIKit's `UIRegion.infinite`: everywhere.
    public static var infiniteRegion: Region { .infinite }
    /// Everywhere except this region.
    public func inverse() -> Region { .inverse(self) }
    /// The points in this region or in `other`.
    public func union(with other: Region) -> Region { .union(self, other) }
    /// The points in this region that are not in `other`.
    public func difference(from other: Region) -> Region { .difference(self, other) }
    /// The points in both this region and `other`.
    public func intersection(with other: Region) -> Region { .intersection(self, other) }

    /// Whether `point` (relative to the field's position) lies in the region.
    public func contains(_ point: CGPoint) -> Bool {
        switch self {
        case .infinite: return true
        case .radius(let r): return point.x * point.x + point.y * point.y <= r * r
        case .size(let s): return abs(point.x) <= s.width / 2 && abs(point.y) <= s.height / 2
        case .inverse(let r): return !r.contains(point)
        case .union(let a, let b): return a.contains(point) || b.contains(point)
        case .difference(let a, let b): return a.contains(point) && !b.contains(point)
        case .intersection(let a, let b): return a.contains(point) && b.contains(point)
        }
    }
}

/// A force field acting on its own items (UIKit's `UIFieldBehavior`). Only items inside
/// `region` (relative to `position`) feel it. Forces follow the usual physics, with UIKit's
/// scale (strength 1 ≈ the acceleration of gravity magnitude 1 on a mass-1 item):
/// - linear gravity: `strength · direction · 1000` pt/s²;
/// - radial gravity: towards `position`, `strength · 1000` pt/s² scaled by the falloff;
/// - spring: towards `position`, proportional to the distance (`strength` s⁻² · 100);
/// - drag: against the velocity, proportional to it; velocity: towards `direction` as a
///   velocity; vortex: tangential around `position` (counter-clockwise on screen for positive
///   strength); electric: `q · E`, E pointing away from `position`; magnetic: `q · v × B`, B out of
///   the screen; noise and turbulence: a smooth, deterministic pseudo-random field;
/// - `field(evaluation:)`: your closure returns the force.
/// Falloff: beyond `minimumRadius`, the force is multiplied by (minimumRadius / distance)^falloff
/// (falloff 0 = uniform).
open class FieldBehavior: ItemListBehavior {
    enum Kind {
        case linearGravity, radialGravity, spring, drag, velocity, vortex, noise, turbulence, electric, magnetic, block
        case custom((_ position: CGPoint, _ velocity: CGVector, _ mass: CGFloat, _ charge: CGFloat, _ deltaTime: TimeInterval) -> CGVector)
    }
    let kind: Kind
    /// The field's centre (reference coordinates): radial fields pull toward it, and `region`
    /// is placed around it.
    public var position: CGPoint = .zero { didSet { dynamicAnimator?.resume() } }
    /// Where the field acts, relative to `position` (default everywhere).
    public var region: Region = .infinite { didSet { dynamicAnimator?.resume() } }
    /// Scales the field's force (default 1; see the class comment for each kind's scale).
    public var strength: CGFloat = 1 { didSet { check(strength, "strength"); dynamicAnimator?.resume() } }
    /// How fast the force weakens with distance beyond `minimumRadius`: it is multiplied by
    /// (minimumRadius / distance)^falloff (0, the default: no falloff).
    public var falloff: CGFloat = 0 { didSet { check(falloff, "falloff") } }
    /// The distance from `position` (pt) within which the force does not fall off.
    public var minimumRadius: CGFloat = 0 { didSet { check(minimumRadius, "minimumRadius") } }
    /// The direction of linear gravity and velocity fields; its length scales the field.
    public var direction: CGVector = .zero { didSet { check(direction.dx, "direction"); check(direction.dy, "direction") } }
    /// Noise and turbulence fields: 0 … 1, larger gives larger, smoother swirls.
    public var smoothness: CGFloat = 0 { didSet { check(smoothness, "smoothness") } }
    /// Noise and turbulence fields: how fast the field changes over time (0: it stands still).
    public var animationSpeed: CGFloat = 0 { didSet { check(animationSpeed, "animationSpeed") } }
    private var time: Double = 0

    private func check(_ v: CGFloat, _ name: String) {
        precondition(v.isFinite, "FieldBehavior.\(name) must be finite")
    }

    init(kind: Kind) { self.kind = kind; super.init(items: []) }

    /// A field whose force (mass · pt/s²) `evaluation` computes from an item's position,
    /// velocity, mass, charge and the time step. This is the designated initialiser a subclass
    /// calls; `field(evaluation:)` is the same without subclassing.
    public init(evaluation: @escaping (_ position: CGPoint, _ velocity: CGVector, _ mass: CGFloat,
                                       _ charge: CGFloat, _ deltaTime: TimeInterval) -> CGVector) {
        self.kind = .custom(evaluation)
        super.init(items: [])
    }

    /// A uniform acceleration along `direction` (1 000 pt/s² per unit of length, times
    /// `strength`), like gravity limited to a region.
    public static func linearGravityField(direction: CGVector) -> FieldBehavior {
        let f = FieldBehavior(kind: .linearGravity); f.direction = direction; return f
    }
    /// An acceleration toward `position` of 1 000 pt/s² times `strength`, weakened by the
    /// falloff.
    public static func radialGravityField(position: CGPoint) -> FieldBehavior {
        let f = FieldBehavior(kind: .radialGravity); f.position = position; return f
    }
    /// Pulls items toward `position` like a spring: an acceleration of 100 · `strength` pt/s²
    /// per point of distance.
    public static func springField() -> FieldBehavior { FieldBehavior(kind: .spring) }
    /// Slows items down: an acceleration against the velocity, `strength` times it (1/s).
    public static func dragField() -> FieldBehavior { FieldBehavior(kind: .drag) }
    /// Drives items' velocity toward `direction` (100 pt/s per unit of length), within about
    /// 0.1 s at strength 1.
    public static func velocityField(direction: CGVector) -> FieldBehavior {
        let f = FieldBehavior(kind: .velocity); f.direction = direction; return f
    }
    /// Turns items around `position`: a tangential acceleration of 1 000 pt/s² times
    /// `strength`, counter-clockwise on screen for a positive strength.
    public static func vortexField() -> FieldBehavior { FieldBehavior(kind: .vortex) }
    /// A smooth, deterministic pseudo-random acceleration (of the order of 1 000 pt/s² times
    /// `strength`) that varies with position and, at `speed`, with time.
    public static func noiseField(smoothness: CGFloat, animationSpeed speed: CGFloat) -> FieldBehavior {
        let f = FieldBehavior(kind: .noise); f.smoothness = smoothness; f.animationSpeed = speed; return f
    }
    /// Like `noiseField(smoothness:animationSpeed:)`, with a choppier, turbulent pattern.
    public static func turbulenceField(smoothness: CGFloat, animationSpeed speed: CGFloat) -> FieldBehavior {
        let f = FieldBehavior(kind: .turbulence); f.smoothness = smoothness; f.animationSpeed = speed; return f
    }
    /// Pushes charged items away from `position` (pulls them, for a negative charge): a force
    /// of charge × `strength` × 1 000, weakened by the falloff.
    public static func electricField() -> FieldBehavior { FieldBehavior(kind: .electric) }
    /// Bends the paths of moving charged items (`q · v × B`, B out of the screen): it turns
    /// their velocity without changing their speed.
    public static func magneticField() -> FieldBehavior { FieldBehavior(kind: .magnetic) }
    /// A field whose force (mass · pt/s²) your closure computes from an item's position,
    /// velocity, mass, charge and the time step.
    public static func field(evaluation: @escaping (_ position: CGPoint, _ velocity: CGVector, _ mass: CGFloat,
                                                    _ charge: CGFloat, _ deltaTime: TimeInterval) -> CGVector) -> FieldBehavior {
        FieldBehavior(evaluation: evaluation)
    }

    /// UIKit's spelling of a custom field: the block also receives the field.
    public static func field(evaluationBlock block: @escaping (_ field: FieldBehavior, _ position: CGPoint, _ velocity: CGVector,
                                                            _ mass: CGFloat, _ charge: CGFloat, _ deltaTime: TimeInterval) -> CGVector) -> FieldBehavior {
        let f = FieldBehavior(kind: .block)
        f.evaluationBlock = block
        return f
    }

    /// Set by `field(evaluationBlock:)`.
    private var evaluationBlock: ((FieldBehavior, CGPoint, CGVector, CGFloat, CGFloat, TimeInterval) -> CGVector)?

    /// The falloff factor at distance `d`.
    private func attenuation(_ d: CGFloat) -> CGFloat {
        guard falloff != 0, d > minimumRadius, d > 0 else { return 1 }
        return pow(max(minimumRadius, 1) / d, falloff)
    }

    /// A smooth deterministic pseudo-random vector field of position and time (unit scale).
    private func noise(_ p: CGPoint, turbulent: Bool) -> CGVector {
        let scale = 1 / max(20, 200 * (1 - min(max(smoothness, 0), 0.99)))
        let t = time * Double(animationSpeed)
        let x = Double(p.x * scale), y = Double(p.y * scale)
        let n1 = sin(x * 1.7 + t) * cos(y * 1.3 - t * 0.7) + 0.5 * sin(x * 3.1 - y * 2.3 + t * 1.3)
        let n2 = cos(x * 1.1 - t * 0.9) * sin(y * 1.9 + t) + 0.5 * cos(x * 2.7 + y * 3.7 - t * 1.1)
        return turbulent ? CGVector(dx: n1 * abs(n2), dy: n2 * abs(n1)) : CGVector(dx: n1, dy: n2)
    }

    override func contribute(to state: inout CompiledState) { state.applyForcesEachTick(self) }
    override var actsEveryTick: Bool { true }

    override func applyForces(_ animator: AnimatorCore, dt: Double) {
        time += dt
        let world = animator.world
        // (A custom field's closure may take items out of the field: their bodies may be gone.)
        for h in bodies {
            guard world.isValid(h), world.type(h) == .dynamic else { continue }
            let c = world.worldCenter(h)
            let p = CGPoint(x: CGFloat(c.x), y: CGFloat(c.y))
            let rel = CGPoint(x: p.x - position.x, y: p.y - position.y)
            guard region.contains(rel) else { continue }
            let m = CGFloat(world.mass(h)), q = CGFloat(world.charge(h))
            let v = world.linearVelocity(h)
            let vel = CGVector(dx: CGFloat(v.x), dy: CGFloat(v.y))
            let d = (rel.x * rel.x + rel.y * rel.y).squareRoot()
            let toward = d > 0 ? CGVector(dx: -rel.x / d, dy: -rel.y / d) : .zero
            let k = strength * attenuation(d)
            var f: CGVector
            switch kind {
            case .linearGravity: f = CGVector(dx: m * k * direction.dx * 1000, dy: m * k * direction.dy * 1000)
            case .radialGravity: f = CGVector(dx: m * k * toward.dx * 1000, dy: m * k * toward.dy * 1000)
            case .spring: f = CGVector(dx: -m * k * rel.x * 100, dy: -m * k * rel.y * 100)
            case .drag: f = CGVector(dx: -m * k * vel.dx, dy: -m * k * vel.dy)
            case .velocity:
                // Drive the velocity towards `direction` (pt/s per unit, ×100) within ~0.1 s.
                f = CGVector(dx: m * k * (direction.dx * 100 - vel.dx) * 10, dy: m * k * (direction.dy * 100 - vel.dy) * 10)
            case .vortex:
                // Tangential: (x, y) → (y, −x) turns counter-clockwise on a y-down screen.
                f = d > 0 ? CGVector(dx: m * k * rel.y / d * 1000, dy: -m * k * rel.x / d * 1000) : .zero
            case .noise, .turbulence:
                let n = noise(p, turbulent: { if case .turbulence = kind { return true } else { return false } }())
                f = CGVector(dx: m * k * n.dx * 1000, dy: m * k * n.dy * 1000)
            case .electric:
                f = CGVector(dx: -q * k * toward.dx * 1000, dy: -q * k * toward.dy * 1000)
            case .magnetic:
                // F = q v × B with B = (0, 0, strength) turns the velocity at ω = −qB/m without
                // changing its length. Applied exactly, as a rotation of v over the time step
                // (an impulse), so strong fields on light items stay stable and do no work.
                if m > 0 {
                    let theta = -q * k / m * CGFloat(dt)
                    let nv = CGVector(dx: vel.dx * cos(theta) - vel.dy * sin(theta), dy: vel.dx * sin(theta) + vel.dy * cos(theta))
                    let j = Vec2(Float(m * (nv.dx - vel.dx)), Float(m * (nv.dy - vel.dy)))
                    if j.isFinite && j != .zero { world.applyImpulse(h, j) }
                }
                continue
            case .custom(let evaluate):
                f = evaluate(p, vel, m, q, dt)
            case .block:
                f = evaluationBlock?(self, p, vel, m, q, dt) ?? .zero
            }
            guard f.dx.isFinite, f.dy.isFinite, f != .zero else { continue }
            world.applyForce(h, Vec2(Float(f.dx), Float(f.dy)))
        }
    }
}
