import DynamicsEngine
import Foundation

/// Pushes its items (UIKit's `UIPushBehavior`). Magnitude 1.0 is a force that accelerates a
/// 100 × 100 pt item of density 1 (mass 1) at 100 pt/s²; an instantaneous push of magnitude 1
/// changes such an item's velocity by 100 pt/s.
open class PushBehavior: ItemListBehavior {
    /// How a push acts: `continuous`, a force on every tick while `active`; `instantaneous`, one
    /// impulse on the next tick, after which `active` turns false.
    public enum Mode: Sendable { case continuous, instantaneous }

    /// Whether the push is a continuous force or a one-off impulse.
    public let mode: Mode
    // `@exclusivity(unchecked)`: the push and a paused animator's idle check read it every
    // tick, and the dynamic check measurably slowed the menus scene (docs/architecture.md).
    /// An instantaneous push fires on the next tick and then sets `active` to false; setting it
    /// to true fires again.
    @exclusivity(unchecked) public var active = true {
        didSet { if active { dynamicAnimator?.resume() } }
    }
    /// Direction and magnitude in one vector. `angle`, `magnitude` and `setAngle(_:magnitude:)`
    /// are another view of it; the angle is remembered while the magnitude is 0, so
    /// `angle = .pi / 2` followed by `magnitude = 1` pushes down, in either order (as on iOS).
    public var pushDirection: CGVector {
        get { direction.vector }
        set {
            precondition(newValue.dx.isFinite && newValue.dy.isFinite, "PushBehavior.pushDirection must be finite")
            direction.set(newValue)
            dynamicAnimator?.resume()
        }
    }
    private var direction = AngledVector(.zero, angleWhileZero: 0)
    private var offsets: [ObjectIdentifier: Offset] = [:]

    /// A push of `mode` on `items`, active, with zero magnitude until you set one.
    public init(items: [any DynamicItem], mode: Mode) {
        self.mode = mode
        super.init(items: items)
    }

    /// The push's angle in radians (0 = +x, π/2 = down). Setting it keeps the magnitude.
    public var angle: CGFloat {
        get { direction.angle }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// The push's strength (the vector's length). Setting it keeps the angle.
    public var magnitude: CGFloat {
        get { direction.magnitude }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// Sets angle and magnitude together.
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        direction.set(angle: angle, magnitude: magnitude)
        dynamicAnimator?.resume()
    }

    /// Where on the item the push applies, from its centre (not rotated with the item, so an
    /// off-centre push also turns it).
    public func targetOffsetFromCenter(for item: any DynamicItem) -> Offset { offsets[ObjectIdentifier(item)] ?? .zero }

    /// Sets where on `item` the push applies, from its centre (see
    /// `targetOffsetFromCenter(for:)`).
    public func setTargetOffsetFromCenter(_ offset: Offset, for item: any DynamicItem) {
        precondition(offset.horizontal.isFinite && offset.vertical.isFinite, "setTargetOffsetFromCenter(_:for:): offset must be finite")
        offsets[ObjectIdentifier(item)] = offset
    }

    override func contribute(to state: inout CompiledState) { state.applyForcesEachTick(self) }
    override var actsEveryTick: Bool { mode == .continuous && active }

    override func applyForces(_ animator: AnimatorCore, dt: Double) {
        guard active, pushDirection != .zero else { return }
        let f = Vec2(Float(pushDirection.dx * 100), Float(pushDirection.dy * 100))
        // `bodies` are the bodies of `items`, in the same order.
        for (k, h) in bodies.enumerated() {
            let o = offsets.isEmpty ? .zero : targetOffsetFromCenter(for: items[k])
            let point = o == .zero ? nil : animator.world.worldCenter(h) + Vec2(Float(o.horizontal), Float(o.vertical))
            switch mode {
            case .continuous: animator.world.applyForce(h, f, at: point)
            case .instantaneous: animator.world.applyImpulse(h, f, at: point)
            }
        }
        if mode == .instantaneous { active = false }
    }
}
