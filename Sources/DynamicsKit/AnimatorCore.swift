import DynamicsEngine
import Foundation

/// What a `DynamicAnimator` steps: its world, behaviors, items and tick, held strongly by the
/// animator and by its clock. The split keeps the clock's per-frame path off the animator
/// itself: an animator is the target of weak references (`behavior.dynamicAnimator`, the
/// holding animator of views and item groups), so every retain and release of it goes
/// through its side table, and a weak load and a release of it for each frame of a
/// one-animator clock cost a small component several per cent of its frame. Nothing refers
/// to the core weakly, so the clock retains it with an ordinary reference count. When the
/// animator is freed it takes its core off the clock (`DynamicAnimator.deinit`); a core being
/// stepped at that moment (the animator was dropped from one of its own call-outs, or on
/// another thread) finishes the frame and is freed after it. The core reaches its animator
/// (`owner`, weak) only for what hands the animator out: delegate calls, behaviors' and
/// items' back references.
final class AnimatorCore {
    /// The coordinate space's rectangle (the stand-in for UIKit's reference view).
    var referenceBounds: CGRect {
        didSet { for b in flat { b.referenceBoundsChanged() } ; resume() }
    }
    /// The animator this core steps (nil once it was freed).
    weak var owner: DynamicAnimator?
    /// Told when the animator resumes and pauses (held weakly).
    weak var delegate: DynamicAnimatorDelegate?
    /// The fixed sub-step (s).
    let fixedTimeStep: TimeInterval = 1.0 / 120.0
    // The animator's stored state is `@exclusivity(unchecked)`: ticks and behavior changes
    // touch it many times per step, an animator is used from its clock's thread only, and the
    // dynamic checks measurably slowed the component scenes (docs/architecture.md).
    /// Sum of the time given to `step(by:)` (never reset).
    @exclusivity(unchecked) private(set) var elapsedTime: TimeInterval = 0
    /// False once every body is at rest (or nothing is left to animate).
    @exclusivity(unchecked) private(set) var isRunning = false
    /// Worker threads of this animator's world (default 1: UI-sized worlds step faster on one).
    var workerCount: Int {
        get { world.workerCount }
        set { world.workerCount = newValue }
    }

    let world: World

    @exclusivity(unchecked) private(set) var topLevel: [DynamicBehavior] = []
    /// Every behavior in the hierarchy, parent before children, in insertion order.
    @exclusivity(unchecked) private(set) var flat: [DynamicBehavior] = []
    @exclusivity(unchecked) private var accumulator: TimeInterval = 0
    @exclusivity(unchecked) private var inTick = false
    @exclusivity(unchecked) private var stepping = false
    @exclusivity(unchecked) private var pending: [(add: Bool, behavior: DynamicBehavior)] = []

    struct ItemRecord {
        let item: any DynamicItem
        let body: BodyHandle
        var references: Int
        /// What `itemPropertiesChanged` last gave the body (nil: nothing yet), so that a change
        /// touches — and wakes — only the bodies whose gravity or properties really changed.
        var appliedProperties: ItemProperties? = nil
        var appliedGravity: Vec2? = nil
        /// The item's index in `live` (set when `live` is rebuilt).
        var liveIndex = -1
    }
    @exclusivity(unchecked) private var records: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) private var recordList: [ItemRecord?] = []
    @exclusivity(unchecked) private var freeRecords: [Int] = []
    /// Dense copies of the live items and their bodies for the per-tick write-back, rebuilt
    /// when items join or leave: each item with the angle last written to it and the body
    /// rotation behind that angle.
    struct LiveItem {
        let item: any DynamicItem
        /// The item when it is a `DynamicView`, written without a retain and a release per
        /// tick (a view has weak references, so each costs a side-table update, a
        /// noticeable part of a one-item animator's tick). `item` keeps it alive.
        let view: Unmanaged<DynamicView>?
        let body: BodyHandle
        var angle: CGFloat = .nan
        var rotation = Rot(c: .nan, s: .nan)
        init(item: any DynamicItem, body: BodyHandle) {
            self.item = item
            self.body = body
            view = (item as? DynamicView).map { Unmanaged.passUnretained($0) }
        }
    }
    @exclusivity(unchecked) private var live: [LiveItem] = []
    @exclusivity(unchecked) private var liveDirty = true

    /// The clock that steps this animator along with the view animations on it (an animator
    /// made for a collection view layout moves to its collection view's clock).
    var clock: AnimationClock

    /// The layout of `init(collectionViewLayout:)`, invalidated after every tick.
    weak var collectionViewLayout: CollectionViewLayout?
    /// Whether this animator was made for a collection view layout (checked each tick before
    /// the weak reference is read).
    @exclusivity(unchecked) var drivesLayout = false

    /// An animator for items inside `referenceBounds`, registered on `clock` (whose
    /// `advance(by:)` steps it; `step(by:)` steps it alone).
    init(referenceBounds: CGRect, clock: AnimationClock) {
        self.referenceBounds = referenceBounds
        world = World(gravity: .zero, settings: DynamicAnimator.worldSettings)
        world.workerCount = 1
        world.settleDistance = DynamicAnimator.settleDistance
        compiled = CompiledState(world: world)
        self.clock = clock
    }

    // MARK: Behaviors

    /// Adds a top-level behavior. Adding one that is already there is ignored; adding one that
    /// sits elsewhere (another animator, or as a child) is a programmer error. During a tick
    /// (from an action or a delegate call) the change takes effect after the tick.
    func addBehavior(_ behavior: DynamicBehavior) {
        if inTick { pending.append((true, behavior)); return }
        if topLevel.contains(where: { $0 === behavior }) { return }
        precondition(behavior.dynamicAnimator == nil && behavior.parent == nil,
                     "addBehavior: the behavior already belongs to an animator or to a parent behavior")
        topLevel.append(behavior)
        behaviorDidJoin(behavior)
    }

    /// Removes a top-level behavior (no effect if it is not one). Items no other behavior
    /// holds leave the world (their velocity is forgotten); pairs of its collision behaviors
    /// that were touching get their `ended` calls once the removal is done.
    func removeBehavior(_ behavior: DynamicBehavior) {
        if inTick { pending.append((false, behavior)); return }
        detachTopLevel(behavior)
        checkPause()
        deliverContactCallsIfIdle()
    }

    /// Removes every top-level behavior (the last added first).
    func removeAllBehaviors() {
        if inTick { for b in topLevel.reversed() { pending.append((false, b)) }; return }
        // Walk a reused copy (iterating `topLevel` itself would make each removal copy it),
        // and compile item properties once at the end: every item leaves the world anyway.
        var list = takeScratchList()
        defer { returnScratchList(&list) }
        list.append(contentsOf: topLevel)
        let deferring = deferringProperties
        deferringProperties = true
        for b in list.reversed() { detachTopLevel(b) }
        deferringProperties = deferring
        if !deferring { itemPropertiesChanged() }
        checkPause()
        deliverContactCallsIfIdle()
    }

    /// Set while `removeAllBehaviors` detaches: `itemPropertiesChanged` waits for its end.
    @exclusivity(unchecked) private var deferringProperties = false

    private func detachTopLevel(_ behavior: DynamicBehavior) {
        guard let i = topLevel.firstIndex(where: { $0 === behavior }) else { return }
        behaviorWillLeave(behavior)
        topLevel.remove(at: i)
        rebuildFlat()
    }

    func behaviorDidJoin(_ behavior: DynamicBehavior) {
        var list = takeScratchList()
        defer { returnScratchList(&list) }
        behavior.flattened(into: &list)
        for b in list {
            b.willMove(to: owner)
            b.dynamicAnimator = owner
            b.bodies.removeAll()
            b.forEachItem { b.bodies.append(retain($0)) }
        }
        rebuildFlat()
        for b in list { b.attach(to: self) }
        itemPropertiesChanged()
        resume()
    }

    func behaviorWillLeave(_ behavior: DynamicBehavior) {
        var list = takeScratchList()
        defer { returnScratchList(&list) }
        behavior.flattened(into: &list)
        for b in list.reversed() {
            b.detach(from: self)
            b.willMove(to: nil)
            b.forEachItem { release($0) }
            b.bodies.removeAll()
            b.dynamicAnimator = nil
        }
        rebuildFlat()
        itemPropertiesChanged()
    }

    /// Reused lists for `behaviorDidJoin`, `behaviorWillLeave` and `removeAllBehaviors`, a few
    /// deep: the last walks its list while each behavior leaves, which takes a second one (with
    /// a single list, that second one would be a new array for every behavior removed).
    @exclusivity(unchecked) private var scratchLists: [[DynamicBehavior]] = []
    private func takeScratchList() -> [DynamicBehavior] {
        scratchLists.popLast() ?? []
    }
    private func returnScratchList(_ list: inout [DynamicBehavior]) {
        list.removeAllKeepingCapacity()
        guard list.capacity > 0, scratchLists.count < 4 else { return }
        scratchLists.append(list)
        list = []
    }

    /// An item list of a behavior in this animator changed: only those items gain or lose
    /// bodies and memberships; every other body keeps its motion.
    func itemsChanged(_ behavior: DynamicBehavior, added: [any DynamicItem], removed: [any DynamicItem]) {
        for item in added { behavior.bodies.append(retain(item)) }
        for item in removed {
            if let h = body(for: item) { behavior.bodies.remove(h) }
        }
        behavior.itemsDidChange(added: added, removed: removed, animator: self)
        for item in removed { release(item) }
        itemPropertiesChanged()
        deliverContactCallsIfIdle()
    }

    private func rebuildFlat() {
        flat.removeAllKeepingCapacity()
        for b in topLevel { b.flattened(into: &flat) }
        tickListsChanged()
    }

    /// What the behaviors compile to (`DynamicBehavior.contribute(to:)`): per-body gravity and
    /// properties, and what a tick visits (so that a tick need not look at every behavior
    /// twice, and at the top level once more for the pause check). Recompiled by
    /// `itemPropertiesChanged`, and on first use after a behavior joined or left, an action
    /// was set or cleared or a collision delegate changed.
    @exclusivity(unchecked) private var compiled: CompiledState
    /// Whether anything is left to animate (kept with `compiled`).
    @exclusivity(unchecked) private var cachedHasWork = false
    @exclusivity(unchecked) private var tickListsDirty = true

    func tickListsChanged() { tickListsDirty = true }

    /// The last number given by `nextCollisionSerial()`.
    private var collisionSerial: UInt32 = 0

    /// A number for a collision behavior that joins this animator, unique among those it has
    /// given (the high half of the engine ids of the behavior's boundaries).
    func nextCollisionSerial() -> UInt32 {
        collisionSerial &+= 1
        return collisionSerial
    }

    /// Rebuilds `compiled` from every behavior, in hierarchy order. Inside a tick (an action
    /// or a callback changed something) the per-tick lists the tick is walking stay as they
    /// are, and are rebuilt on first use after it.
    private func compile() {
        let lists = !inTick
        compiled.reset(slots: recordList.count, tickLists: lists)
        for b in flat {
            b.contribute(to: &compiled)
            if b.action != nil { compiled.runActionEachTick(b) }
        }
        // Nothing to animate: no behavior, or only plain behaviors with no child and no action.
        cachedHasWork = !topLevel.isEmpty && !topLevel.allSatisfy({ $0.isInert })
        if lists { tickListsDirty = false }
    }

    // MARK: Items and bodies

    func body(for item: any DynamicItem) -> BodyHandle? {
        records[ObjectIdentifier(item)].flatMap { recordList[$0]?.body }
    }

    /// Counts one more holder of `item` (creating its body for the first) and returns its body.
    @discardableResult
    private func retain(_ item: any DynamicItem) -> BodyHandle {
        let key = ObjectIdentifier(item)
        if let r = records[key] { recordList[r]!.references += 1; return recordList[r]!.body }
        do { try DynamicAnimator.validate(item) } catch { preconditionFailure("addBehavior: \(error)") }
        precondition(!isHeldElsewhere(item),
                     "addBehavior: an item can be in one animator at a time; remove its behaviors from the other animator first")
        let size = item.bounds.size
        let hw = Float(size.width / 2), hh = Float(size.height / 2)
        let geometry: Geometry
        switch item.collisionBoundsType {
        case .rectangle: geometry = .box(halfWidth: hw, halfHeight: hh)
        case .ellipse: geometry = hw == hh ? .circle(radius: hw) : .ellipse(halfWidth: hw, halfHeight: hh)
        case .path: geometry = .polygon(try! DynamicAnimator.pathPolygon(item.collisionBoundingPath))
        }
        let slot = freeRecords.popLast() ?? { recordList.append(nil); return recordList.count - 1 }()
        var def = BodyDef(type: .dynamic, position: item.center.vec, angle: Float(item.transform.rotationAngle))
        def.groups = []
        def.gravity = .zero
        // Items rest by the animator's thresholds (`worldSettings`), not the engine's per-body one.
        def.sleepThreshold = .infinity
        def.linearDamping = Float(ItemProperties.defaults.resistance)
        def.angularDamping = Float(ItemProperties.defaults.angularResistance)
        def.userData = UInt64(slot)
        let material = Material(density: Float(ItemProperties.defaults.density), friction: Float(ItemProperties.defaults.friction),
                                restitution: Float(ItemProperties.defaults.elasticity))
        let handle: BodyHandle
        do {
            // A group is one compound body: one shape per member, laid out around its centre.
            if let group = item as? DynamicItemGroup {
                handle = try world.createBody(def, shapes: try group.shapes(material: material))
            } else {
                // One reused one-shape list: creating a body allocates no list.
                if singleShape.isEmpty { singleShape.append(ShapeDef(geometry, material: material)) }
                singleShape[0] = ShapeDef(geometry, material: material)
                handle = try world.createBody(def, shapes: singleShape)
            }
        } catch { preconditionFailure("addBehavior: \(error)") }
        // The body starts with exactly the default properties and no gravity of its own.
        recordList[slot] = ItemRecord(item: item, body: handle, references: 1,
                                      appliedProperties: .defaults, appliedGravity: .zero)
        records[key] = slot
        liveDirty = true
        setHoldingAnimator(of: item, to: owner)
        return handle
    }

    /// Whether another live animator holds `item`. Views and item groups carry the animator
    /// that holds them (`holdingAnimator`, weak: an animator that was freed holds nothing), so
    /// that one is found on any clock; an item of another class is looked for in the other
    /// animators of this animator's clock.
    private func isHeldElsewhere(_ item: any DynamicItem) -> Bool {
        let me = owner
        if let view = item as? DynamicView { return view.holdingAnimator.map { $0 !== me } ?? false }
        if let group = item as? DynamicItemGroup { return group.holdingAnimator.map { $0 !== me } ?? false }
        return clock.hasAnimator(holding: ObjectIdentifier(item), besides: self)
    }

    /// Records this animator as the one holding `item`, where the item carries it.
    private func setHoldingAnimator(of item: any DynamicItem, to animator: DynamicAnimator?) {
        if let view = item as? DynamicView { view.holdingAnimator = animator }
        else if let group = item as? DynamicItemGroup { group.holdingAnimator = animator }
    }

    /// Clears the holding animator that `item` carries, if it is this one.
    private func letGo(of item: any DynamicItem) {
        let me = owner
        if let view = item as? DynamicView { if view.holdingAnimator === me { view.holdingAnimator = nil } }
        else if let group = item as? DynamicItemGroup { if group.holdingAnimator === me { group.holdingAnimator = nil } }
    }

    /// Whether a behavior of this animator holds the item with this identity.
    func holds(_ item: ObjectIdentifier) -> Bool { records[item] != nil }

    @exclusivity(unchecked) private var singleShape: [ShapeDef] = []

    private func release(_ item: any DynamicItem) {
        let key = ObjectIdentifier(item)
        guard let r = records[key] else { return }
        recordList[r]!.references -= 1
        if recordList[r]!.references == 0 {
            world.destroyBody(recordList[r]!.body)
            recordList[r] = nil
            records[key] = nil
            freeRecords.append(r)
            liveDirty = true
            letGo(of: item)
        }
    }

    /// The item whose body `h` is; nil for a body that left the world or that this animator
    /// did not create.
    func item(ofBody h: BodyHandle) -> (any DynamicItem)? {
        guard world.isValid(h) else { return nil }
        let slot = Int(world.userData(h))
        guard slot >= 0 && slot < recordList.count, let r = recordList[slot], r.body == h else { return nil }
        return r.item
    }

    /// Every item some behavior of this animator holds, in the order they joined (slots are
    /// reused, so an item that left and came back may appear earlier).
    var items: [any DynamicItem] { recordList.compactMap { $0?.item } }

    /// Items whose bounding box overlaps `rect` (reference coordinates).
    func items(in rect: CGRect) -> [any DynamicItem] {
        let box = AABB(lower: Vec2(Float(rect.minX), Float(rect.minY)), upper: Vec2(Float(rect.maxX), Float(rect.maxY)))
        guard box.isValid else { return [] }
        return world.bodies(overlapping: box).compactMap { item(ofBody: $0) }
    }

    /// Re-reads the item's centre and rotation (keeping its velocity) and wakes it.
    func updateItem(usingCurrentState item: any DynamicItem) {
        guard let h = body(for: item) else { return }
        let c = item.center, a = item.transform.rotationAngle
        precondition(c.x.isFinite && c.y.isFinite && a.isFinite, "updateItem(usingCurrentState:): the item's centre and rotation must be finite")
        world.setTransform(h, position: c.vec, angle: Float(a))
        // Forget the remembered angle: the transform may have changed. (Only this item's: a
        // collection view layout updates every sprung cell each frame, and rebuilding the
        // whole list for that would be a sizeable part of the frame.)
        if !liveDirty, let slot = records[ObjectIdentifier(item)], let k = recordList[slot]?.liveIndex, k >= 0, k < live.count {
            live[k].angle = .nan
            live[k].rotation = Rot(c: .nan, s: .nan)
        } else {
            liveDirty = true
        }
        resume()
    }

    // MARK: Collection view layouts

    /// The attributes of the cell at `indexPath` that a behavior of this animator holds; nil
    /// when none does (UIKit's `layoutAttributesForCell(at:)`).
    func layoutAttributesForCell(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        for case let r? in recordList {
            if let a = r.item as? CollectionViewLayoutAttributes, a.indexPath == indexPath { return a }
        }
        return nil
    }

    /// Moves the animator to `clock` (a collection view's), leaving the one it was on.
    func move(to newClock: AnimationClock) {
        guard newClock !== clock else { return }
        clock.unregister(self)
        clock = newClock
        newClock.register(self)
    }

    // MARK: Item properties compiled from behaviors

    /// Recomputes every body's gravity and material from the behaviors (later ones win).
    func itemPropertiesChanged() {
        if deferringProperties { return }
        // Per record slot (no dictionaries: a toggle calls this several times and must not
        // allocate): gravity summed in hierarchy order, properties with later behaviors winning.
        compile()
        for k in 0..<recordList.count {
            guard let r = recordList[k] else { continue }
            let g = compiled.gravity[k]
            if r.appliedGravity != g {
                world.setGravity(r.body, g)
                recordList[k]!.appliedGravity = g
            }
            let p = compiled.properties[k]
            if r.appliedProperties != p {
                p.apply(to: world, body: r.body)
                recordList[k]!.appliedProperties = p
            }
        }
        resume()
    }

    // MARK: Clock

    /// Steps this animator alone by exactly `seconds`, in fixed sub-steps of `fixedTimeStep`
    /// (the remainder is kept for the next call). View animations and other animators on the
    /// clock do not move; use `run(for:)` or the clock for that. Called from inside one of this
    /// animator's callbacks (a delegate call or an action), the time joins the step under way.
    func step(by seconds: TimeInterval) {
        precondition(seconds.isFinite && seconds >= 0, "DynamicAnimator.step(by:): time must be finite and not negative (got \(seconds))")
        elapsedTime += seconds
        accumulator += seconds
        if stepping { return }
        if isIdle {
            // Paused with nothing to do: every tick of this call would return at once (a tick
            // that does nothing changes nothing the check reads), so only the time is counted.
            while accumulator >= fixedTimeStep * (1 - 1e-9) { accumulator -= fixedTimeStep }
            return
        }
        stepping = true
        defer { stepping = false }
        while accumulator >= fixedTimeStep * (1 - 1e-9) {
            accumulator -= fixedTimeStep
            tick(fixedTimeStep)
        }
    }

    /// True when a paused animator can skip its ticks: nothing it holds acts on its own each
    /// tick (fields, continuous pushes, action closures). Like UIKit's, a paused animator then
    /// does no work until a change resumes it.
    private var canIdleWhilePaused: Bool {
        if tickListsDirty { compile() }
        if !compiled.actionBehaviors.isEmpty { return false }
        // (Unretained: the compiled lists hold the behaviors.)
        var k = 0
        while k < compiled.forceRefs.count {
            if compiled.forceRefs[k]._withUnsafeGuaranteedRef({ $0.actsEveryTick }) { return false }
            k += 1
        }
        return true
    }

    /// True when a tick would do nothing: paused, no change pending, nothing acting each tick
    /// and no body awake.
    private var isIdle: Bool { !isRunning && pending.isEmpty && canIdleWhilePaused && !world.hasAwakeBodies }

    private func tick(_ dt: TimeInterval) {
        if isIdle { return }
        if tickListsDirty { compile() }
        inTick = true
        // By index (through a buffer pointer the list's buffer would be retained and released
        // each tick; no user code runs in `applyForces`, and the list only changes when compiled).
        var k = 0
        while k < compiled.forceRefs.count {
            compiled.forceRefs[k]._withUnsafeGuaranteedRef { $0.applyForces(self, dt: dt) }
            k += 1
        }
        world.step(dt: Float(dt))
        writeBack()
        if drivesLayout { collectionViewLayout?.invalidateLayout() }
        reportContacts()
        deliverContactCalls()
        for b in compiled.actionBehaviors { b.action?() }
        inTick = false
        if !pending.isEmpty {
            let changes = pending
            pending.removeAll()
            for c in changes { if c.add { addBehavior(c.behavior) } else { detachTopLevel(c.behavior) } }
        }
        checkPause()
        deliverContactCalls()
    }

    /// Writes every item's centre and rotation from its body, in one pass. The transform is
    /// only touched when the body's angle changed since the last write.
    private func writeBack() {
        if liveDirty {
            live.removeAllKeepingCapacity()
            for k in recordList.indices {
                guard let r = recordList[k] else { continue }
                recordList[k]!.liveIndex = live.count
                live.append(LiveItem(item: r.item, body: r.body))
            }
            liveDirty = false
        }
        // (One buffer of items opened in place, each with its body: parallel arrays cost a
        // uniqueness check or a retain each per tick, a sizeable part of a one-item animator's
        // tick.)
        let world = self.world
        live.withUnsafeMutableBufferPointer { live in
            for k in 0..<live.count {
                let xf = world.transform(live[k].body)
                let center = CGPoint(x: CGFloat(xf.p.x), y: CGFloat(xf.p.y))
                if let view = live[k].view {
                    view._withUnsafeGuaranteedRef { $0.center = center }
                } else {
                    live[k].item.center = center
                }
                // The angle (an arctangent) only when the body's rotation changed since the last
                // write; the engine's own (`Rot.portableAngle`), so an item's rotation has the
                // same bits on every platform and C library.
                if xf.q == live[k].rotation { continue }
                live[k].rotation = xf.q
                let a = CGFloat(xf.q.portableAngle)
                if a != live[k].angle {
                    // Rotate by the change since the last write (the first time, read the item's
                    // angle); changes made to the transform from outside go through
                    // updateItem(usingCurrentState:), which resets the remembered angle.
                    let remembered = live[k].angle
                    if let view = live[k].view {
                        // (Through the view as it is: copying the item out of its record
                        // would retain and release it, a sizeable part of a rotating item's
                        // write.)
                        view._withUnsafeGuaranteedRef { v in
                            let last = remembered.isNaN ? v.transform.rotationAngle : remembered
                            if last != a { v.transform = v.transform.rotated(by: a - last) }
                        }
                    } else {
                        let item = live[k].item
                        let last = remembered.isNaN ? item.transform.rotationAngle : remembered
                        if last != a { item.transform = item.transform.rotated(by: a - last) }
                    }
                    live[k].angle = a
                }
            }
        }
    }

    /// Finds, for every collision behavior with a delegate, the pairs that touch after this
    /// step and queues `began` for new pairs and `ended` for pairs gone (all `began` first).
    /// The world's contacts are read only when the step reported a contact event or a
    /// behavior changed since; no engine event is looked up by handle, so bodies and boundaries
    /// that left the world never are.
    private func reportContacts() {
        guard !compiled.scannedCollisions.isEmpty else { return }
        let events = world.hasContactEvents
        if !scanning.isEmpty { scanning.removeAllKeepingCapacity() }
        for c in compiled.scannedCollisions where c.wantsScan(afterEvents: events) { scanning.append(c) }
        guard !scanning.isEmpty else { return }
        for c in scanning { c.beginScan() }
        world.forEachTouchingContact { e in
            guard let first = item(ofBody: e.body) else { return }
            let p = CGPoint(e.point)
            switch e.other {
            case .body(let h):
                guard let other = item(ofBody: h) else { return }
                for c in scanning { c.scanned(first, other, at: p) }
            case .boundary(_, let id):
                for c in scanning { if let code = c.boundaryCode(ofEngineID: id) { c.scanned(first, boundaryCode: code, at: p) } }
            }
        }
        scanBegan.removeAllKeepingCapacity()
        scanEnded.removeAllKeepingCapacity()
        for c in scanning { c.endScan(began: &scanBegan, ended: &scanEnded) }
        outbox.append(contentsOf: scanBegan)
        outbox.append(contentsOf: scanEnded)
        scanning.removeAllKeepingCapacity()
    }

    @exclusivity(unchecked) private var scanning: [CollisionBehavior] = []
    @exclusivity(unchecked) private var scanBegan: [ContactCall] = []
    @exclusivity(unchecked) private var scanEnded: [ContactCall] = []
    /// Delegate calls waiting to be made, in order; calls before `nextCall` have been made.
    @exclusivity(unchecked) private var outbox: [ContactCall] = []
    @exclusivity(unchecked) private var nextCall = 0
    @exclusivity(unchecked) private var delivering = false

    func queue(_ call: ContactCall) { outbox.append(call) }

    /// Withdraws a `began` for this pair that is queued but not made yet (a change made from
    /// a delegate call ended the pair first): then neither call is made. False when none is.
    func withdrawBegan(of behavior: CollisionBehavior, _ key: CollisionBehavior.PairKey) -> Bool {
        var k = outbox.count - 1
        while k >= nextCall {
            let c = outbox[k]
            if c.began && !c.withdrawn && c.behavior === behavior && c.pair.key == key {
                outbox[k].withdrawn = true
                return true
            }
            k -= 1
        }
        return false
    }

    /// Outside a tick, makes the queued calls now; inside one (a delegate call or an action
    /// changed something) they are made by the tick.
    func deliverContactCallsIfIdle() { if !inTick { deliverContactCalls() } }

    /// Makes the queued delegate calls, in order, unless calls are already being made further
    /// up the stack (that loop makes the new ones too). Calls a delegate makes from a callback
    /// (removing an item, say) are queued behind the current ones.
    @inline(__always)
    func deliverContactCalls() {
        // (The common case, nothing queued, without a call: a tick asks twice.)
        if !outbox.isEmpty { deliverQueuedContactCalls() }
    }

    @inline(never)
    private func deliverQueuedContactCalls() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        nextCall = 0
        while nextCall < outbox.count {
            let call = outbox[nextCall]
            nextCall += 1
            if !call.withdrawn { call.behavior.deliver(call) }
        }
        outbox.removeAllKeepingCapacity()
        nextCall = 0
    }

    // MARK: Running and pausing

    @exclusivity(unchecked) private var settledHandlers: [() -> Void] = []

    /// **Better than UIKit**: calls `handler` once, the next time the animator pauses (at once
    /// if it is not running).
    func whenSettled(_ handler: @escaping () -> Void) {
        if isRunning { settledHandlers.append(handler) } else { handler() }
    }

    func resume() {
        if !isRunning && hasWork {
            isRunning = true
            if let d = delegate, let o = owner { d.dynamicAnimatorWillResume(o) }
        }
    }

    private var hasWork: Bool {
        if tickListsDirty { compile() }
        return cachedHasWork
    }

    private func checkPause() {
        guard isRunning else { return }
        if !hasWork || !world.hasAwakeBodies {
            isRunning = false
            if let d = delegate, let o = owner { d.dynamicAnimatorDidPause(o) }
            let handlers = settledHandlers
            settledHandlers.removeAll()
            for h in handlers { h() }
        }
    }
}

