import DynamicsEngine
import Foundation

/// Connects an item to an anchor point or to another item (UIKit's `UIAttachmentBehavior`):
/// a rigid rod (`frequency` 0) or a spring of `frequency` Hz and damping ratio `damping`.
/// Attached items still collide. An anchor attachment shorter than 1 pt with frequency 0
/// behaves as a pin.
open class AttachmentBehavior: DynamicBehavior {
    /// What the first item is attached to (UIKit's `UIAttachmentBehavior.AttachmentType`).
    public enum AttachmentType: Sendable { case items, anchor }

    /// The attached items: one for an anchor attachment, two for an attachment between items.
    public let items: [any DynamicItem]
    /// Whether the item is attached to another item or to an anchor point.
    public let attachedBehaviorType: AttachmentType
    private let offsets: (Offset, Offset)
    private var joint: JointHandle?

    /// The kind of connection (the plain initialisers make a rod or spring).
    enum Kind { case distance, pin, fixed, limit, sliding(CGVector) }
    private var kind = Kind.distance
    /// The factories' anchor point in the reference space at creation.
    private var anchorAtCreation = CGPoint.zero

    /// Pin attachments: the torque that resists turning (joint friction).
    public var frictionTorque: CGFloat = 0 {
        didSet {
            precondition(frictionTorque.isFinite && frictionTorque >= 0, "AttachmentBehavior.frictionTorque must be finite and ≥ 0")
            update()
        }
    }
    /// Pin attachments: the allowed rotation range (radians); sliding attachments: the allowed
    /// translation range (pt). It must contain 0; otherwise it is reset to infinite with a warning.
    public var attachmentRange: FloatRange = .infinite {
        didSet {
            if !(attachmentRange.minimum <= 0 && attachmentRange.maximum >= 0) || attachmentRange.minimum.isNaN || attachmentRange.maximum.isNaN {
                print("DynamicsKit warning: attachmentRange \(attachmentRange) does not contain 0; using an infinite range")
                attachmentRange = .infinite
                return
            }
            update()
        }
    }

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

    /// Attaches the item's centre to `point` (reference coordinates) with a rigid rod of the
    /// current distance.
    public convenience init(item: any DynamicItem, attachedToAnchor point: CGPoint) {
        self.init(item: item, offsetFromCenter: .zero, attachedToAnchor: point)
    }

    /// Attaches a point of the item, `offset` from its centre, to `point` (reference
    /// coordinates) with a rigid rod of the current distance.
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

    /// Attaches the centres of two items with a rigid rod of their current distance.
    public convenience init(item item1: any DynamicItem, attachedTo item2: any DynamicItem) {
        self.init(item: item1, offsetFromCenter: .zero, attachedTo: item2, offsetFromCenter: .zero)
    }

    /// Attaches a point of `item1`, `offset1` from its centre, to a point of `item2`, `offset2`
    /// from its centre, with a rigid rod of their current distance.
    public init(item item1: any DynamicItem, offsetFromCenter offset1: Offset, attachedTo item2: any DynamicItem,
                offsetFromCenter offset2: Offset) {
        precondition(item1 !== item2, "AttachmentBehavior: an item cannot be attached to itself")
        items = [item1, item2]
        attachedBehaviorType = .items
        offsets = (offset1, offset2)
        let p1 = Self.worldPoint(item1, offset1), p2 = Self.worldPoint(item2, offset2)
        anchorPoint = p2
        length = hypot(p1.x - p2.x, p1.y - p2.y)
        super.init()
    }

    private convenience init(kind: Kind, item1: any DynamicItem, item2: (any DynamicItem)?, anchor: CGPoint) {
        precondition(anchor.x.isFinite && anchor.y.isFinite, "AttachmentBehavior: the anchor must be finite")
        if let item2 {
            self.init(item: item1, offsetFromCenter: .zero, attachedTo: item2, offsetFromCenter: .zero)
        } else {
            self.init(item: item1, offsetFromCenter: .zero, attachedToAnchor: anchor)
        }
        self.kind = kind
        self.anchorAtCreation = anchor
        self.anchorPoint = anchor
    }

    /// Two items turning about a shared pin at `point`.
    public static func pinAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                     attachmentAnchor point: CGPoint) -> AttachmentBehavior {
        AttachmentBehavior(kind: .pin, item1: item1, item2: item2, anchor: point)
    }

    /// Two items welded together at `point`.
    public static func fixedAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                       attachmentAnchor point: CGPoint) -> AttachmentBehavior {
        AttachmentBehavior(kind: .fixed, item1: item1, item2: item2, anchor: point)
    }

    /// A rope: the two points may come closer but not farther apart than at creation.
    public static func limitAttachment(with item1: any DynamicItem, offsetFromCenter offset1: Offset,
                                       attachedTo item2: any DynamicItem, offsetFromCenter offset2: Offset) -> AttachmentBehavior {
        let b = AttachmentBehavior(item: item1, offsetFromCenter: offset1, attachedTo: item2, offsetFromCenter: offset2)
        b.kind = .limit
        return b
    }

    /// Two items sliding along `axis` through `point`, without turning.
    public static func slidingAttachment(with item1: any DynamicItem, attachedTo item2: any DynamicItem,
                                         attachmentAnchor point: CGPoint, axisOfTranslation axis: CGVector) -> AttachmentBehavior {
        precondition(axis.dx.isFinite && axis.dy.isFinite && (axis.dx != 0 || axis.dy != 0), "slidingAttachment: the axis must be finite and not zero")
        return AttachmentBehavior(kind: .sliding(axis), item1: item1, item2: item2, anchor: point)
    }

    /// An item sliding along `axis` through the fixed `point`, without turning.
    public static func slidingAttachment(with item: any DynamicItem, attachmentAnchor point: CGPoint,
                                         axisOfTranslation axis: CGVector) -> AttachmentBehavior {
        precondition(axis.dx.isFinite && axis.dy.isFinite && (axis.dx != 0 || axis.dy != 0), "slidingAttachment: the axis must be finite and not zero")
        return AttachmentBehavior(kind: .sliding(axis), item1: item, item2: nil, anchor: point)
    }

    /// `p` (reference space) in the item's own frame (centre at 0, rotated with it).
    static func localPoint(_ item: any DynamicItem, _ p: CGPoint) -> Vec2 {
        let a = item.transform.rotationAngle
        let dx = p.x - item.center.x, dy = p.y - item.center.y
        return Vec2(Float(dx * cos(a) + dy * sin(a)), Float(-dx * sin(a) + dy * cos(a)))
    }

    /// An item point at `offset` from its centre, rotated with the item.
    static func worldPoint(_ item: any DynamicItem, _ offset: Offset) -> CGPoint {
        let a = item.transform.rotationAngle
        return CGPoint(x: item.center.x + offset.horizontal * cos(a) - offset.vertical * sin(a),
                       y: item.center.y + offset.horizontal * sin(a) + offset.vertical * cos(a))
    }

    override var dynamicItems: [any DynamicItem] { items }

    /// The joint for the current settings; nil until the items have bodies (`bodies` holds
    /// them, in the order of `items`, while the behavior is in an animator).
    private func definition(_ animator: AnimatorCore) -> JointDef? {
        guard bodies.count == items.count else { return nil }
        let b = bodies[0]
        if case .distance = kind {} else if case .limit = kind {} else {
            // Pin, fixed and sliding: a shared anchor point, fixed in each item's frame.
            let a = items.count > 1 ? bodies[1] : nil
            var def: JointDef
            switch kind {
            case .pin:
                def = JointDef(type: .revolute, bodyA: a, bodyB: b)
                if frictionTorque > 0 { def.enableMotor = true; def.maxMotorTorque = Float(frictionTorque); def.motorSpeed = 0 }
                if !attachmentRange.isInfinite {
                    def.enableLimit = true; def.lower = Float(attachmentRange.minimum); def.upper = Float(attachmentRange.maximum)
                }
            case .fixed:
                def = JointDef(type: .weld, bodyA: a, bodyB: b)
            case .sliding(let axis):
                def = JointDef(type: .prismatic, bodyA: a, bodyB: b)
                let ax = items.count > 1 ? Self.localPoint(items[1], CGPoint(x: items[1].center.x + axis.dx, y: items[1].center.y + axis.dy))
                                         : Vec2(Float(axis.dx), Float(axis.dy))
                def.localAxisA = ax
                if !attachmentRange.isInfinite {
                    def.enableLimit = true; def.lower = Float(attachmentRange.minimum); def.upper = Float(attachmentRange.maximum)
                }
            default:
                return nil
            }
            def.localAnchorB = Self.localPoint(items[0], anchorAtCreation)
            def.localAnchorA = items.count > 1 ? Self.localPoint(items[1], anchorAtCreation) : anchorPoint.vec
            return def
        }
        let localB = Vec2(Float(offsets.0.horizontal), Float(offsets.0.vertical))
        let pin = attachedBehaviorType == .anchor && frequency == 0 && length < 1
        var def: JointDef
        if attachedBehaviorType == .anchor {
            def = JointDef(type: pin ? .revolute : .distance, bodyA: nil, bodyB: b)
            def.localAnchorA = anchorPoint.vec
        } else {
            def = JointDef(type: .distance, bodyA: bodies[1], bodyB: b)
            def.localAnchorA = Vec2(Float(offsets.1.horizontal), Float(offsets.1.vertical))
        }
        def.localAnchorB = localB
        if case .limit = kind {
            def.length = Float(length)
            def.enableSpring = true; def.hertz = 0; def.minLength = 0; def.maxLength = Float(length); def.enableLimit = true
        } else if !pin {
            def.length = Float(length)
            if frequency > 0 {
                def.enableSpring = true
                def.hertz = Float(frequency)
                def.dampingRatio = Float(damping)
            }
        }
        return def
    }

    override func attach(to animator: AnimatorCore) {
        guard let def = definition(animator) else { return }
        joint = animator.world.createJoint(def)
    }

    override func detach(from animator: AnimatorCore) {
        if let j = joint, animator.world.isValid(j) { animator.world.destroyJoint(j) }
        joint = nil
    }

    private func update() {
        guard let animator = dynamicAnimator?.core, let def = definition(animator) else { return }
        if let j = joint, animator.world.isValid(j), animator.world.jointDef(j).type == def.type {
            // Same kind of joint: change it in place (keeps its warm-start impulses).
            animator.world.updateJoint(j) { d in
                d.localAnchorA = def.localAnchorA; d.length = def.length
                d.enableSpring = def.enableSpring; d.hertz = def.hertz; d.dampingRatio = def.dampingRatio
                d.minLength = def.minLength; d.maxLength = def.maxLength
                d.enableMotor = def.enableMotor; d.maxMotorTorque = def.maxMotorTorque
                d.enableLimit = def.enableLimit; d.lower = def.lower; d.upper = def.upper
            }
        } else {
            detach(from: animator)
            attach(to: animator)
        }
        animator.resume()
    }
}
