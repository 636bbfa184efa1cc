import DynamicsEngine
import Foundation

/// Accelerates its items (UIKit's `UIGravityBehavior`). Magnitude 1.0 = 1000 pt/s²; the default
/// direction (0, 1) points down the screen.
///
/// **Better than UIKit**: gravity acts on this behavior's own items, and several gravity
/// behaviors simply add up (UIKit keeps one world gravity: last write wins, and removing any
/// gravity behavior zeroes it).
open class GravityBehavior: ItemListBehavior {
    /// Direction and magnitude in one vector (magnitude 1 = 1000 pt/s²). `angle`, `magnitude`
    /// and `setAngle(_:magnitude:)` are another view of it; the angle is remembered while the
    /// magnitude is 0.
    public var gravityDirection: CGVector {
        get { direction.vector }
        set {
            precondition(newValue.dx.isFinite && newValue.dy.isFinite, "GravityBehavior.gravityDirection must be finite")
            direction.set(newValue)
            dynamicAnimator?.itemPropertiesChanged()
        }
    }
    private var direction = AngledVector(CGVector(dx: 0, dy: 1), angleWhileZero: .pi / 2)

    /// Gravity of magnitude 1 (1 000 pt/s²) down the screen on `items`.
    public override init(items: [any DynamicItem] = []) {
        super.init(items: items)
    }

    /// The direction's angle in radians (0 = +x, π/2 = down). Setting it keeps the magnitude.
    public var angle: CGFloat {
        get { direction.angle }
        set { setAngle(newValue, magnitude: magnitude) }
    }

    /// The vector's length. Setting it keeps the angle.
    public var magnitude: CGFloat {
        get { direction.magnitude }
        set { setAngle(angle, magnitude: newValue) }
    }

    /// Sets angle and magnitude together.
    public func setAngle(_ angle: CGFloat, magnitude: CGFloat) {
        direction.set(angle: angle, magnitude: magnitude)
        dynamicAnimator?.itemPropertiesChanged()
    }

    /// The acceleration in pt/s².
    var accelerationVector: Vec2 { Vec2(Float(gravityDirection.dx * 1000), Float(gravityDirection.dy * 1000)) }

    override func contribute(to state: inout CompiledState) { state.addGravity(accelerationVector, to: bodies) }
}
