import Testing
@testable import DynamicsEngine

/// Sleeping islands out of the step: a sleeping island's contacts live in a set of their own,
/// its shapes in the sleeping grid and its bodies off the awake list; waking brings them back.
@Suite("Sleeping sets")
struct SleepingSetTests {
    static let dt: Float = 1.0 / 60.0

    /// A stack of `count` 100 pt boxes standing on the ground at `x` (y down).
    @discardableResult
    static func stack(_ w: World, x: Float, count: Int) throws -> [BodyHandle] {
        try (0..<count).map { try TestWorld.box(w, at: Vec2(x, -50 - Float($0) * 100.5), size: Vec2(100, 100)) }
    }

    /// The touching contacts as (body, partner) pairs, in the order `forEachTouchingContact` visits them.
    static func touching(_ w: World) -> [String] {
        var out: [String] = []
        w.forEachTouchingContact { e in out.append("\(e.body) \(e.other)") }
        return out
    }

    static func stepUntilAsleep(_ w: World, _ bodies: [BodyHandle], limit: Int = 600) -> Bool {
        for _ in 0..<limit {
            w.step(dt: dt)
            if bodies.allSatisfy({ !w.isAwake($0) }) { return true }
        }
        return false
    }

    @Test("a sleeping island's contacts leave the step's records for its set and come back when it wakes: the same touching contacts, no event, the stack stands")
    func contactsLeaveAndComeBack() throws {
        let w = TestWorld.make(sleep: true)
        let ground = try TestWorld.ground(w, top: 0, width: 6000)
        let a = try Self.stack(w, x: -1500, count: 3), b = try Self.stack(w, x: 1500, count: 3)
        // A body kept in flight far away keeps the world partly awake.
        var flyer = BodyDef(type: .kinematic, position: Vec2(0, -2000))
        flyer.linearVelocity = Vec2(10, 0)
        _ = try w.createBody(flyer, shapes: [ShapeDef(.circle(radius: 10))])
        #expect(Self.stepUntilAsleep(w, a + b), "both stacks should fall asleep within 10 s")
        let touchingAsleep = Self.touching(w)
        #expect(touchingAsleep.count >= 6, "each stack touches the ground and itself: \(touchingAsleep)")
        // Everything but the flyer sleeps: the records hold no contact, the sets every one.
        #expect(w.contacts.count == 0, "\(w.contacts.count) contacts still in the step's records")
        #expect(w.contacts.asleepCount == w.contactCount && w.contactCount >= 6)
        #expect(w.awakeBodies().count == 1 && w.awakeBodyCount == 1)
        let placed = a.map { w.position($0) }
        // Wake one stack: its contacts come back, still touching (no event), and it stands.
        w.wake(a[1])
        var events = 0
        for k in 0..<30 {
            w.step(dt: Self.dt)
            events += w.contactBeginEvents.count + w.contactEndEvents.count
            if k == 0 {
                #expect(w.contacts.count >= 3 && w.contacts.asleepCount >= 3, "records \(w.contacts.count), sets \(w.contacts.asleepCount)")
            }
        }
        #expect(events == 0, "waking a resting stack began or ended \(events) contacts")
        #expect(Self.touching(w) == touchingAsleep, "the touching contacts changed across sleep and waking")
        for (h, p) in zip(a, placed) {
            #expect(distance(w.position(h), p) < 1, "a woken box moved \(distance(w.position(h), p)) pt")
        }
        #expect(b.allSatisfy { !w.isAwake($0) }, "the other stack should sleep on")
        _ = ground
    }

    @Test("deepestTouchingPenetration: a resting stack overlaps by less than the linear slop, asleep as awake; a box pushed 10 pt into the ground reads about 10 pt")
    func deepestPenetration() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0)
        let boxes = try Self.stack(w, x: 0, count: 4)
        #expect(w.deepestTouchingPenetration == 0, "nothing touches before the first step")
        var awakeDepth: Float = 0
        for _ in 0..<600 where boxes.contains(where: { w.isAwake($0) }) {
            awakeDepth = w.deepestTouchingPenetration
            w.step(dt: Self.dt)
        }
        #expect(boxes.allSatisfy { !w.isAwake($0) })
        let asleepDepth = w.deepestTouchingPenetration
        #expect(asleepDepth > 0 && asleepDepth <= w.settings.linearSlop, "a resting stack overlaps by \(asleepDepth) pt")
        #expect(abs(asleepDepth - awakeDepth) < 0.05, "asleep \(asleepDepth) pt, the step before \(awakeDepth) pt")
        // A box created 10 pt into the ground (y down): the next narrow phase measures the overlap.
        let box = try TestWorld.box(w, at: Vec2(600, -40), size: Vec2(100, 100))
        w.step(dt: Self.dt)
        #expect(abs(w.deepestTouchingPenetration - 10) < 1, "read \(w.deepestTouchingPenetration) pt for a box 10 pt deep")
        _ = box
    }

    @Test("destroying the ground under a sleeping stack wakes it: its ground contacts end (reported by the next step) and it falls")
    func destroyingGroundWakesSleepers() throws {
        let w = TestWorld.make(sleep: true)
        let ground = try TestWorld.ground(w, top: 0)
        let boxes = try Self.stack(w, x: 0, count: 2)
        #expect(Self.stepUntilAsleep(w, boxes))
        let y0 = w.position(boxes[0]).y
        w.destroyBody(ground)
        #expect(boxes.allSatisfy { w.isAwake($0) }, "the stack should wake when its ground goes")
        w.step(dt: Self.dt)
        let ended = w.contactEndEvents.filter { $0.other == .body(ground) || $0.body == ground }.count
        #expect(ended == 1, "end events of the ground contact: \(w.contactEndEvents)")
        TestWorld.run(w, seconds: 0.5)
        #expect(w.position(boxes[0]).y > y0 + 50, "the stack should fall once its ground is gone")
    }

    @Test("a step reads only the awake part: the box update, the moving grid and the awake list hold the awake bodies only; bodies at rest make no pair")
    func stepReadsOnlyAwakePart() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0, width: 20000)
        // A block of 24 × 24 boxes created asleep, exactly touching, far from a small falling pile.
        var block: [BodyHandle] = []
        for i in 0..<576 {
            var def = BodyDef(type: .dynamic, position: Vec2(3000 + Float(i % 24) * 40, -20 - Float(i / 24) * 40))
            def.startsAsleep = true
            block.append(try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 20))]))
        }
        var pile: [BodyHandle] = []
        for i in 0..<12 { pile.append(try TestWorld.box(w, at: Vec2(Float(i % 3) * 60, -300 - Float(i / 3) * 120), size: Vec2(50, 50))) }
        TestWorld.run(w, seconds: 0.5)
        #expect(pile.allSatisfy { w.isAwake($0) } && block.allSatisfy { !w.isAwake($0) })
        // Box update and moving grid: the pile's shapes only (each body has one shape).
        #expect(w.broadPhase.activity.active.count == pile.count, "box update reads \(w.broadPhase.activity.active.count) shapes")
        #expect(w.broadPhase.activity.sleepList.count == block.count)
        #expect(w.awakeBodies().count == pile.count)
        // No contact between two sleeping bodies, none of them with the ground.
        let blockSlots = Set(block.map(\.index))
        for c in w.contacts.view { #expect(!(blockSlots.contains(c.bodyA) || blockSlots.contains(c.bodyB)), "a contact of a sleeping body") }
        #expect(w.contacts.asleepCount == 0)
        // A woken body of the block finds its neighbours and the ground again, and wakes those it presses on.
        let middle = block[24 * 5 + 12]
        w.wake(middle)
        w.step(dt: Self.dt)
        var found = 0
        w.forEachContact(ofBody: Int(middle.index)) { _ in found += 1 }
        #expect(found >= 3, "the woken box has \(found) contacts")
        #expect(w.broadPhase.activity.active.count > pile.count)
    }

    @Test("sleeping jointed bodies leave the step: the islands read only the joints of awake bodies; waking a pair reads its own joint, not every joint; a woken pair's joint holds it together; destroying a body takes only its joints")
    func jointsOfSleepingIslands() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0, width: 20000)
        // 30 pairs of boxes side by side, each pair pinned together where they meet.
        var pairs: [(BodyHandle, BodyHandle, JointHandle)] = []
        for i in 0..<30 {
            let x = Float(i) * 300 - 4500
            let a = try TestWorld.box(w, at: Vec2(x, -50), size: Vec2(100, 100))
            let b = try TestWorld.box(w, at: Vec2(x + 100, -50), size: Vec2(100, 100))
            var def = JointDef(type: .revolute, bodyA: a, bodyB: b)
            def.localAnchorA = Vec2(50, 0); def.localAnchorB = Vec2(-50, 0)
            pairs.append((a, b, w.createJoint(def)))
        }
        // A body kept in flight far away keeps the world partly awake.
        var flyer = BodyDef(type: .kinematic, position: Vec2(0, -3000))
        flyer.linearVelocity = Vec2(10, 0)
        _ = try w.createBody(flyer, shapes: [ShapeDef(.circle(radius: 10))])
        #expect(w.awakeJointList().count == 30)
        #expect(Self.stepUntilAsleep(w, pairs.flatMap { [$0.0, $0.1] }), "the pairs should fall asleep")
        w.step(dt: Self.dt)
        #expect(w.awakeJointList().isEmpty, "\(w.awakeJointList().count) joints of sleeping bodies still read")
        // Kick one box of one pair: both wake together, and the pin keeps them side by side.
        let (a, b, _) = pairs[7]
        let rebuilds = w.counters.jointListRebuilds
        w.applyImpulse(a, Vec2(0, -400 * w.mass(a)))
        w.step(dt: Self.dt)
        #expect(w.isAwake(a) && w.isAwake(b))
        #expect(Array(w.awakeJointList()) == [Int32(pairs[7].2.index)])
        #expect(w.counters.jointListRebuilds == rebuilds, "waking one pair made the joint list again from all 30 joints")
        #expect(w.jointCount == 30 && w.islandCount == 1)
        for _ in 0..<20 {
            w.step(dt: Self.dt)
            #expect(distance(w.position(a), w.position(b)) < 101, "the pin let go: \(distance(w.position(a), w.position(b))) pt apart")
        }
        #expect(w.position(a).y < -60, "the kicked pair should be in the air")
        // Destroying a sleeping pair's box takes its pin and no other joint, and wakes its partner.
        let (c, d, pin) = pairs[3]
        w.destroyBody(c)
        #expect(!w.isValid(pin) && w.jointCount == 29)
        #expect(pairs.enumerated().allSatisfy { $0.offset == 3 || w.isValid($0.element.2) })
        #expect(w.isAwake(d))
        w.step(dt: Self.dt)
        #expect(w.counters.jointListRebuilds == rebuilds, "destroying a body made the joint list again from every joint")
        #expect(Set(w.awakeJointList()) == [Int32(pairs[7].2.index)], "the destroyed pin is still read")
    }

    @Test("a snapshot of a world with sleeping and awake islands restores its sets: both step on bit for bit through a wake and a teleport")
    func snapshotKeepsSets() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0, width: 6000)
        let a = try Self.stack(w, x: -1200, count: 3)
        #expect(Self.stepUntilAsleep(w, a))
        // Another stack dropped beside it, still moving when the snapshot is taken.
        let b = try Self.stack(w, x: 1200, count: 3)
        for _ in 0..<10 { w.step(dt: Self.dt) }
        #expect(w.contacts.asleepCount > 0 && w.contacts.count > 0)
        let copy = try World(snapshot: w.snapshot())
        #expect(copy.contactCount == w.contactCount && copy.contacts.asleepCount == w.contacts.asleepCount)
        for k in 0..<400 {
            for x in [w, copy] {
                if k == 100 { x.applyImpulse(a[2], Vec2(200, 0)) }
                if k == 250 { x.setTransform(b[0], position: Vec2(1200, -800), angle: 0.2) }
                x.step(dt: Self.dt)
            }
            let same = SleepTests.state(w) == SleepTests.state(copy) && Self.touching(w) == Self.touching(copy)
            #expect(same, "step \(k): the restored world diverged")
            if !same { break }
        }
    }
}
