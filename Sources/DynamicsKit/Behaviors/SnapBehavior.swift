import DynamicsEngine
import Foundation

/// Pulls one item to a point and its rotation to 0 (UIKit's `UISnapBehavior`), with a 4 Hz
/// spring on position and on angle; `damping` (0 … 1, default 0.5) is the springs' damping
/// ratio: 0.5 overshoots visibly and settles within about a second, 0.9 barely overshoots.
///
/// **Better than UIKit**: changing `damping` on a live snap takes effect at once.
open class SnapBehavior: DynamicBehavior {
    /// The item the behavior pulls.
    public let item: any DynamicItem
    /// Where the item's centre goes. Setting it moves the target and wakes the item.
    public var snapPoint: CGPoint {
        didSet {
            precondition(snapPoint.x.isFinite && snapPoint.y.isFinite, "SnapBehavior.snapPoint must be finite")
            update()
        }
    }
    /// Damping ratio of the pull's springs, 0 … 1 (default 0.5); a change applies at once.
    public var damping: CGFloat = 0.5 {
        didSet {
            precondition(damping.isFinite && damping >= 0, "SnapBehavior.damping must be finite and ≥ 0")
            update()
        }
    }
    /// Spring frequency (Hz) of the pull.
    static let hertz: Float = 4
    private var joint: JointHandle?

    /// Pulls `item`'s centre to `point` (reference coordinates) and its rotation to 0.
    public init(item: any DynamicItem, snapTo point: CGPoint) {
        precondition(point.x.isFinite && point.y.isFinite, "SnapBehavior: the snap point must be finite")
        self.item = item
        self.snapPoint = point
        super.init()
    }

    override var dynamicItems: [any DynamicItem] { [item] }
    override func forEachItem(_ body: (any DynamicItem) -> Void) { body(item) }

    override func attach(to animator: AnimatorCore) {
        guard let h = bodies.first else { return }
        var def = JointDef(type: .target, bodyA: nil, bodyB: h)
        def.localAnchorB = .zero
        def.target = snapPoint.vec
        def.targetAngle = 0
        def.hertz = Self.hertz; def.dampingRatio = Float(min(damping, 1))
        def.angularHertz = Self.hertz; def.angularDampingRatio = Float(min(damping, 1))
        joint = animator.world.createJoint(def)
    }

    override func detach(from animator: AnimatorCore) {
        if let j = joint, animator.world.isValid(j) { animator.world.destroyJoint(j) }
        joint = nil
    }

    private func update() {
        guard let animator = dynamicAnimator, let j = joint, animator.world.isValid(j) else { return }
        let p = snapPoint.vec, d = Float(min(damping, 1))
        animator.world.updateJoint(j) { $0.target = p; $0.dampingRatio = d; $0.angularDampingRatio = d }
        animator.resume()
    }
}
