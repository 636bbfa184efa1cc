import DynamicsEngine

/// Connects an item to an anchor point or to another item (UIKit's `UIAttachmentBehavior`):
/// a rigid rod (`frequency` 0) or a spring of `frequency` Hz and damping ratio `damping`.
/// Attached items still collide. An anchor attachment shorter than 1 pt with frequency 0
/// behaves as a pin.
public class AttachmentBehavior: DynamicBehavior {
    /// What the first item is attached to.
    public enum AttachedBehaviorType: Sendable { case items, anchor }

    public let items: [any DynamicItem]
    public let attachedBehaviorType: AttachedBehaviorType
    private let offsets: (Offset, Offset)
    private var joint: JointHandle?

    /// The anchor (anchor attachments): setting it drags the item ("drag a view").
    public var anchorPoint: CGPoint {
        didSet {
            precondition(anchorPoint.x.isFinite && anchorPoint.y.isFinite, "AttachmentBehavior.anchorPoint must be finite")
            update()
        }
    }
    /// The rest length (defaults to the initial distance).
    public var length: CGFloat {
        didSet {
            precondition(length.isFinite && length >= 0, "AttachmentBehavior.length must be finite and ≥ 0")
            update()
        }
    }
    /// Spring damping ratio (with `frequency` > 0).
    public var damping: CGFloat = 0 {
        didSet {
            precondition(damping.isFinite && damping >= 0, "AttachmentBehavior.damping must be finite and ≥ 0")
            update()
        }
    }
    /// 0: a rigid rod; > 0: a spring of this frequency (Hz).
    public var frequency: CGFloat = 0 {
        didSet {
            precondition(frequency.isFinite && frequency >= 0, "AttachmentBehavior.frequency must be finite and ≥ 0")
            update()
        }
    }

    public convenience init(item: any DynamicItem, attachedToAnchor point: CGPoint) {
        self.init(item: item, offsetFromCenter: .zero, attachedToAnchor: point)
    }

    public init(item: any DynamicItem, offsetFromCenter offset: Offset, attachedToAnchor point: CGPoint) {
        precondition(point.x.isFinite && point.y.isFinite, "AttachmentBehavior: the anchor must be finite")
        items = [item]
        attachedBehaviorType = .anchor
        offsets = (offset, .zero)
        anchorPoint = point
        let p = Self.worldPoint(item, offset)
        length = hypot(p.x - point.x, p.y - point.y)
        super.init()
    }

    public convenience init(item item1: any DynamicItem, attachedTo item2: any DynamicItem) {
        self.init(item: item1, offsetFromCenter: .zero, attachedTo: item2, offsetFromCenter: .zero)
    }

    public init(item item1: any DynamicItem, offsetFromCenter offset1: Offset, attachedTo item2: any DynamicItem,
                offsetFromCenter offset2: Offset) {
        items = [item1, item2]
        attachedBehaviorType = .items
        offsets = (offset1, offset2)
        let p1 = Self.worldPoint(item1, offset1), p2 = Self.worldPoint(item2, offset2)
        anchorPoint = p2
        length = hypot(p1.x - p2.x, p1.y - p2.y)
        super.init()
    }

    /// An item point at `offset` from its centre, rotated with the item.
    static func worldPoint(_ item: any DynamicItem, _ offset: Offset) -> CGPoint {
        let a = item.transform.rotationAngle
        return CGPoint(x: item.center.x + offset.horizontal * cos(a) - offset.vertical * sin(a),
                       y: item.center.y + offset.horizontal * sin(a) + offset.vertical * cos(a))
    }

    override var dynamicItems: [any DynamicItem] { items }

    private func definition(_ animator: DynamicAnimator) -> JointDef? {
        guard let b = animator.body(for: items[0]) else { return nil }
        let localB = Vec2(Float(offsets.0.horizontal), Float(offsets.0.vertical))
        let pin = attachedBehaviorType == .anchor && frequency == 0 && length < 1
        var def: JointDef
        if attachedBehaviorType == .anchor {
            def = JointDef(type: pin ? .revolute : .distance, bodyA: nil, bodyB: b)
            def.localAnchorA = anchorPoint.vec
        } else {
            guard let a = animator.body(for: items[1]) else { return nil }
            def = JointDef(type: .distance, bodyA: a, bodyB: b)
            def.localAnchorA = Vec2(Float(offsets.1.horizontal), Float(offsets.1.vertical))
        }
        def.localAnchorB = localB
        if !pin {
            def.length = Float(length)
            if frequency > 0 {
                def.enableSpring = true
                def.hertz = Float(frequency)
                def.dampingRatio = Float(damping)
            }
        }
        return def
    }

    override func attach(to animator: DynamicAnimator) {
        guard let def = definition(animator) else { return }
        joint = animator.world.createJoint(def)
    }

    override func detach(from animator: DynamicAnimator) {
        if let j = joint, animator.world.isValid(j) { animator.world.destroyJoint(j) }
        joint = nil
    }

    private func update() {
        guard let animator = dynamicAnimator, let def = definition(animator) else { return }
        if let j = joint, animator.world.isValid(j), animator.world.jointDef(j).type == def.type {
            // Same kind of joint: change it in place (keeps its warm-start impulses).
            animator.world.updateJoint(j) { d in
                d.localAnchorA = def.localAnchorA; d.length = def.length
                d.enableSpring = def.enableSpring; d.hertz = def.hertz; d.dampingRatio = def.dampingRatio
            }
        } else {
            detach(from: animator)
            attach(to: animator)
        }
        animator.resume()
    }
}
