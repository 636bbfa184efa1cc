import DynamicsEngine

/// The ragdoll of Box2D's shared samples code (`CreateHuman` in `shared/human.c`, v3.2), which
/// its `rain` benchmark drops by the thousand: 11 bones (hip, torso, head, two legs and two
/// arms of two bones each) pinned by revolute joints with angle limits, joint friction and an
/// angular spring.
///
/// In metres, y up, relative to the point between the feet, at scale 1, as Box2D builds it:
/// each bone a vertical capsule, friction 0.2, density 1, sleep threshold 0.1 m/s; a foot under
/// each lower leg, a polygon rounded by 0.015 m, friction 0.05; each joint at a pivot given in
/// the world, its friction torque `frictionScale × jointFriction` (a motor of speed 0), its
/// limits in units of π, a spring of `jointHertz` and `jointDamping` toward its reference
/// angle. Box2D's filters: every shape of ragdoll number n has group index −n (so it never
/// meets itself or another ragdoll of its number), the bones are category 2 colliding with
/// categories 1 (the ground) and 2, the feet category 2 colliding with category 1 only.
struct Ragdoll {
    var bodies: [BodyHandle]
    var joints: [JointHandle]

    /// One bone: its parent (index in `bones`), centre height, capsule (segment from `low` to
    /// `high` along y, radius), the joint to its parent (pivot height, limits in π, friction
    /// scale, reference angle in π), linear damping and whether it carries a foot.
    struct Bone {
        var parent: Int
        var y: Float
        var low: Float, high: Float, radius: Float
        var pivot: Float = 0, lower: Float = 0, upper: Float = 0, frictionScale: Float = 1, reference: Float = 0
        var damping: Float = 0
        var foot = false
    }

    /// Box2D's bones in its creation order.
    static let bones: [Bone] = {
        let hip = Bone(parent: -1, y: 0.95, low: -0.02, high: 0.02, radius: 0.095)
        let torso = Bone(parent: 0, y: 1.2, low: -0.135, high: 0.135, radius: 0.09,
                         pivot: 1.0, lower: -0.25, upper: 0, frictionScale: 0.5)
        let head = Bone(parent: 1, y: 1.475, low: -0.038, high: 0.039, radius: 0.075,
                        pivot: 1.4, lower: -0.3, upper: 0.1, frictionScale: 0.25, damping: 0.1)
        func upperLeg() -> Bone {
            Bone(parent: 0, y: 0.775, low: -0.125, high: 0.125, radius: 0.06, pivot: 0.9, lower: -0.05, upper: 0.4)
        }
        func lowerLeg(_ parent: Int) -> Bone {
            Bone(parent: parent, y: 0.475, low: -0.155, high: 0.125, radius: 0.045,
                 pivot: 0.625, lower: -0.5, upper: -0.02, frictionScale: 0.5, foot: true)
        }
        func upperArm() -> Bone {
            Bone(parent: 1, y: 1.225, low: -0.125, high: 0.125, radius: 0.035,
                 pivot: 1.35, lower: -0.1, upper: 0.8, frictionScale: 0.5)
        }
        func lowerArm(_ parent: Int) -> Bone {
            Bone(parent: parent, y: 0.975, low: -0.125, high: 0.125, radius: 0.03,
                 pivot: 1.1, lower: -0.2, upper: 0.3, frictionScale: 0.1, reference: 0.25, damping: 0.1)
        }
        return [hip, torso, head, upperLeg(), lowerLeg(3), upperLeg(), lowerLeg(5), upperArm(), lowerArm(7), upperArm(), lowerArm(9)]
    }()

    /// The foot under a lower leg (m, in the leg's frame): Box2D's hull, counter-clockwise.
    static let foot = [Vec2(-0.03, -0.185), Vec2(0.11, -0.185), Vec2(0.11, -0.16), Vec2(-0.03, -0.14)]

    /// Box2D's body sleep threshold for the bones (m/s).
    static let sleepThreshold: Float = 0.1
    /// The foot's rounding (m).
    static let footRadius: Float = 0.015

    /// Ragdoll numbers whose shapes are made once (`boneShapes`); others are made per ragdoll.
    static let preparedNumbers: ClosedRange<Int32> = 0...15

    /// Each bone's shapes (pt, in the bone's frame) for each ragdoll number in
    /// `preparedNumbers`, made once: every ragdoll of a number hands the world the same lists,
    /// so creating one allocates nothing here.
    static let boneShapes: [[[ShapeDef]]] = preparedNumbers.map { shapes(number: $0) }

    /// Each bone's shapes for ragdoll number `n` (group index −n; 0: no group).
    static func shapes(number n: Int32) -> [[ShapeDef]] {
        let m = SceneUnits.pointsPerMetre
        let skin = Material(density: 1, friction: 0.2, restitution: 0)
        let sole = Material(density: 1, friction: 0.05, restitution: 0)
        let bone = ShapeFilter(categoryBits: 2, maskBits: 1 | 2, groupIndex: -n)
        let soleFilter = ShapeFilter(categoryBits: 2, maskBits: 1, groupIndex: -n)
        return bones.map { b in
            var shapes = [ShapeDef(.capsule(Vec2(0, b.low * m), Vec2(0, b.high * m), radius: b.radius * m), material: skin, filter: bone)]
            if b.foot { shapes.append(ShapeDef(.roundedPolygon(foot.map { $0 * m }, radius: footRadius * m), material: sole, filter: soleFilter)) }
            return shapes
        }
    }

    /// Creates a ragdoll standing on `position` (pt). `jointFriction` is Box2D's friction torque
    /// in N·m, `jointHertz` and `jointDamping` its joints' spring (no spring at 0 Hz); `number`
    /// is Box2D's `groupIndex` (its shapes get group index −number).
    init(in world: World, at position: Vec2, jointFriction: Float, jointHertz: Float, jointDamping: Float,
         number: Int32) throws {
        bodies = []
        joints = []
        bodies.reserveCapacity(Self.bones.count)
        joints.reserveCapacity(Self.bones.count - 1)
        try create(in: world, at: position, jointFriction: jointFriction, jointHertz: jointHertz, jointDamping: jointDamping, number: number)
    }

    /// Creates the ragdoll's bodies and joints again, in its own lists (after `destroy`).
    mutating func create(in world: World, at position: Vec2, jointFriction: Float, jointHertz: Float, jointDamping: Float,
                         number: Int32) throws {
        let m = SceneUnits.pointsPerMetre
        let shapes = Self.preparedNumbers.contains(number) ? Self.boneShapes[Int(number - Self.preparedNumbers.lowerBound)]
                                                           : Self.shapes(number: number)
        bodies.removeAll(keepingCapacity: true)
        joints.removeAll(keepingCapacity: true)
        for (k, bone) in Self.bones.enumerated() {
            var def = BodyDef(type: .dynamic, position: position + Vec2(0, bone.y * m))
            def.linearDamping = bone.damping
            def.sleepThreshold = Self.sleepThreshold * m
            let body = try world.createBody(def, shapes: shapes[k])
            if bone.parent >= 0 {
                let parent = bodies[bone.parent], pivot = position + Vec2(0, bone.pivot * m)
                var joint = JointDef(type: .revolute, bodyA: parent, bodyB: body)
                joint.localAnchorA = pivot - world.position(parent)
                joint.localAnchorB = pivot - def.position
                joint.referenceAngle = bone.reference * Float.pi
                joint.enableLimit = true
                joint.lower = bone.lower * Float.pi
                joint.upper = bone.upper * Float.pi
                joint.enableMotor = true
                joint.maxMotorTorque = bone.frictionScale * jointFriction * m * m
                joint.enableSpring = jointHertz > 0
                joint.hertz = jointHertz
                joint.dampingRatio = jointDamping
                joints.append(world.createJoint(joint))
            }
            bodies.append(body)
        }
    }

    /// Destroys the ragdoll's joints and bodies.
    func destroy(in world: World) {
        for j in joints { world.destroyJoint(j) }
        for b in bodies { world.destroyBody(b) }
    }
}
