import DynamicsKit
import Foundation

/// One item of a sequence: a `DynamicView` (or, rarely, a `DynamicItemGroup` of two views)
/// that belongs to one animator for the whole sequence.
final class ItemRecord {
    let item: any DynamicItem
    let animator: Int
    let name: String
    let size: CGSize
    /// Group members (moved by the group).
    let members: [DynamicView]

    init(item: any DynamicItem, animator: Int, name: String, members: [DynamicView] = []) {
        self.item = item
        self.animator = animator
        self.name = name
        self.size = item.bounds.size
        self.members = members
    }

    var id: ObjectIdentifier { ObjectIdentifier(item) }
    /// Mass at density 1 (100 × 100 pt = 1).
    var area: CGFloat { members.isEmpty ? size.width * size.height / 10_000 : members.reduce(0) { $0 + $1.bounds.width * $1.bounds.height / 10_000 } }
    /// Half the diagonal: the farthest the item reaches from its centre, however it turns.
    var reach: CGFloat { (size.width * size.width + size.height * size.height).squareRoot() / 2 }
}

/// One behavior of a sequence. Its animator is fixed (its items belong to that animator); where
/// it is (top level, child, free) is read from the public API, except `pending`: a change asked
/// for during a tick that takes effect after it.
final class BehaviorRecord {
    enum Kind: String { case gravity, collision, push, snap, attachment, items, field, composite, plain }
    let id: Int
    let kind: Kind
    let behavior: DynamicBehavior
    let animator: Int
    var pending = false
    /// Collision behaviors: the delegate, the insets last given, every item and boundary
    /// identifier it ever had (nil: the reference bounds).
    var ledger: ContactLedger?
    var insets = EdgeInsets.zero
    var everItems = Set<ObjectIdentifier>()
    var everBoundaryIDs = Set<String?>()
    /// Item behaviors: items given velocity while the behavior was not in an animator (applied
    /// when it joins one).
    var pendingVelocityItems = Set<ObjectIdentifier>()
    /// Fields: the largest strength that keeps accelerations app-like.
    var maxStrength: CGFloat = 1

    init(id: Int, kind: Kind, behavior: DynamicBehavior, animator: Int) {
        self.id = id
        self.kind = kind
        self.behavior = behavior
        self.animator = animator
    }

    var name: String { "\(kind.rawValue)#\(id)" }
    var isLive: Bool { behavior.dynamicAnimator != nil }
    var isTopLevel: Bool { behavior.dynamicAnimator != nil && behavior.parent == nil }
    var isFree: Bool { behavior.dynamicAnimator == nil && behavior.parent == nil && !pending }
    var itemList: ItemListBehavior? { behavior as? ItemListBehavior }
}

/// One replayable sequence of random, legal API calls with invariant checks after each.
final class AppLifeSequence {
    let seed: UInt64
    let plannedCalls: Int
    let log: ((String) -> Void)?
    var rng: FuzzRandom
    private(set) var violations: [AppLifeFuzzer.Violation] = []
    private(set) var callsMade = 0
    /// The call being made (-1: set-up).
    private(set) var callIndex = -1
    private var currentCall = "set-up"

    let clock = AnimationClock()
    private var animators: [DynamicAnimator] = []
    private var pauseLedgers: [PauseLedger] = []
    private var items: [ItemRecord] = []
    private var names: [ObjectIdentifier: String] = [:]
    private var records: [BehaviorRecord] = []
    /// A view that is never dynamic, for view animations.
    private let label = DynamicView(frame: CGRect(x: 10, y: 10, width: 80, height: 20))
    private var completionCounts: [Int] = []
    /// Two cards with property animators (start, pause, scrub, reverse, stop, finish, continue).
    private lazy var propertyAnimators = PropertyAnimatorFuzz(
        clock: clock, fail: { [unowned self] in self.fail($0, $1) }, note: { [unowned self] in self.note($0) },
        logCallback: { [unowned self] in self.logCallback($0) })
    private var settledCounts: [Int] = []
    /// Simulated seconds asked for so far, and the most this sequence asks for.
    private var simTime = 0.0
    private let timeBudget: Double
    private var timestamp = 1_000.0
    private var tickStarted = false
    /// Changes still allowed from callbacks (keeps a sequence from snowballing).
    private var callbackBudget: Int
    private var callbackDepth = 0
    /// Per animator: seconds stepped while it was running (when ticks really happen).
    private var runningTime: [Double] = []
    /// (collision record, item) pairs whose item has been inside the boundary.
    private var guarded = Set<GuardKey>()
    /// Touching contact keys whose pair is apart, with the running time when first seen so.
    private var stale: [StaleKey: Double] = [:]
    /// Items whose velocity the current call may change on purpose.
    private var velocityExempt = Set<ObjectIdentifier>()
    private var callMovesTime = false
    /// The smallest possible mass (density 0.5): pushes are scaled to it.
    private var minimumMass: CGFloat = 1

    private struct GuardKey: Hashable { let record: Int; let item: ObjectIdentifier }
    private enum StaleKey: Hashable {
        case pair(Int, ContactLedger.PairKey)
        case boundary(Int, ContactLedger.BoundaryKey)
    }

    /// Tolerance (pt) of the boundary check on an item's centre.
    static let boundaryTolerance: CGFloat = 2
    /// Running seconds after which a contact whose pair came apart must have had its `ended`.
    static let endedDeadline = 0.05
    /// Largest inset given to `setTranslatesReferenceBoundsIntoBoundary(with:)`.
    static let maxInset: CGFloat = 20

    init(seed: UInt64, calls: Int, log: ((String) -> Void)?) {
        self.seed = seed
        self.plannedCalls = max(1, calls)
        self.log = log
        rng = FuzzRandom(seed: seed)
        timeBudget = rng.double(2, 6)
        callbackBudget = rng.int(in: 0...16)
    }

    // MARK: Running

    func run() {
        setUp()
        check()
        let n = plannedCalls / 2 + rng.int(plannedCalls)
        for i in 0..<n where violations.isEmpty {
            callIndex = i
            callsMade += 1
            performCall()
            check()
        }
        if violations.isEmpty { finish() }
    }

    private func setUp() {
        let animatorCount = rng.chance(0.2) ? 2 : 1
        for a in 0..<animatorCount {
            let w = (375 + rng.cg(-25, 25)).rounded(), h = (667 + rng.cg(-45, 45)).rounded()
            let origin = rng.chance(0.2) ? CGPoint(x: rng.cg(-40, 40).rounded(), y: rng.cg(-40, 40).rounded()) : .zero
            let animator = DynamicAnimator(referenceBounds: CGRect(origin: origin, size: CGSize(width: w, height: h)), clock: clock)
            let ledger = PauseLedger(sequence: self, index: a)
            animator.delegate = ledger
            animators.append(animator)
            pauseLedgers.append(ledger)
            runningTime.append(0)
            say("animator \(a): referenceBounds \(fmt(animator.referenceBounds))")
        }
        let count = rng.int(in: animatorCount...8)
        for k in 0..<count {
            let a = k < animatorCount ? k : rng.int(animatorCount)
            let bounds = animators[a].referenceBounds
            let w = rng.cg(20, 120).rounded(), h = rng.chance(0.3) ? w : rng.cg(20, 120).rounded()
            let view = DynamicView(frame: CGRect(x: 0, y: 0, width: w, height: h))
            view.center = point(inside: bounds, margin: max(w, h) / 2 + Self.maxInset + 2)
            if rng.chance(0.3) { view.collisionBoundsType = .ellipse }
            if rng.chance(0.1) { view.transform = CGAffineTransform(rotationAngle: rng.angle()) }
            let name = "v\(k)"
            view.name = name
            addItemRecord(ItemRecord(item: view, animator: a, name: name))
            say("\(name): \(Int(w))×\(Int(h)) \(view.collisionBoundsType == .ellipse ? "ellipse" : "rectangle") at \(fmt(view.center)), animator \(a)")
        }
        if rng.chance(0.08) {
            // Two views side by side as one group.
            let bounds = animators[0].referenceBounds
            let s = rng.cg(20, 50).rounded()
            let c = point(inside: bounds, margin: 2 * s + Self.maxInset + 2)
            let m1 = DynamicView(frame: CGRect(x: c.x - s, y: c.y - s / 2, width: s, height: s))
            let m2 = DynamicView(frame: CGRect(x: c.x, y: c.y - s / 2, width: s, height: s))
            if rng.chance(0.5) { m2.collisionBoundsType = .ellipse }
            let group = DynamicItemGroup(items: [m1, m2])
            addItemRecord(ItemRecord(item: group, animator: 0, name: "g0", members: [m1, m2]))
            say("g0: group of two \(Int(s)) pt views at \(fmt(group.center)), animator 0")
        }
        minimumMass = items.map(\.area).min()! * 0.5
    }

    private func addItemRecord(_ r: ItemRecord) {
        items.append(r)
        names[r.id] = r.name
        for (k, m) in r.members.enumerated() { names[ObjectIdentifier(m)] = "\(r.name).\(k)" }
    }

    /// Removes every behavior, advances one frame and checks that every began got its ended.
    private func finish() {
        callIndex = callsMade
        callbackBudget = 0
        currentCall = "final: removeAllBehaviors() on every animator, then clock.advance(by: 1/60)"
        say("#\(callIndex) \(currentCall)")
        for a in animators { a.removeAllBehaviors() }
        propertyAnimators.finish()
        clock.advance(by: 1.0 / 60.0)
        check()
        for r in records {
            guard let ledger = r.ledger else { continue }
            for (k, since) in ledger.pairs {
                fail("lost ended (item–item)", "\(r.name): \(name(k.a))–\(name(k.b)) began at call #\(since) and never ended, though every behavior was removed")
            }
            for (k, since) in ledger.boundaries {
                fail("lost ended (boundary)", "\(r.name): \(name(k.item))–boundary \(k.identifier.map { "\"\($0)\"" } ?? "nil") began at call #\(since) and never ended, though every behavior was removed")
            }
        }
    }

    // MARK: Reporting

    func name(_ item: any DynamicItem) -> String { names[ObjectIdentifier(item)] ?? "item?" }
    func name(_ id: ObjectIdentifier) -> String { names[id] ?? "item?" }

    func fail(_ kind: String, _ message: String) {
        guard violations.count < 8 else { return }
        let v = AppLifeFuzzer.Violation(sequenceSeed: seed, callsPerSequence: plannedCalls, callIndex: callIndex, kind: kind,
                                        message: "\(message) (call #\(callIndex): \(currentCall))")
        violations.append(v)
        log?("VIOLATION \(v.kind): \(v.message)")
    }

    private func say(_ s: String) { log?(s) }

    private func note(_ s: String) {
        if callbackDepth > 0 { return callbackNote(s) }
        currentCall = s
        log?("#\(callIndex) \(s)")
    }

    func logCallback(_ s: String) {
        if let log { log("    ↳ \(s)") }
    }

    // MARK: Checks

    /// The invariants that hold after every call.
    private func check() {
        for r in items {
            for (item, n) in [(r.item, r.name)] + r.members.enumerated().map({ ($1 as any DynamicItem, "\(r.name).\($0)") }) {
                let c = item.center, a = item.transform.rotationAngle
                if !(c.x.isFinite && c.y.isFinite && a.isFinite) {
                    fail("non-finite item", "\(n): centre \(c), rotation \(a)")
                }
            }
        }
        checkBoundaries()
        checkStaleContacts()
        propertyAnimators.check()
        for (a, l) in pauseLedgers.enumerated() where (l.resumes > l.pauses) != animators[a].isRunning {
            fail("pause calls out of step", "animator \(a): isRunning \(animators[a].isRunning) but \(l.resumes) willResume / \(l.pauses) didPause calls")
        }
    }

    /// Forgets the boundary guard of every (collision behavior, item) pair whose item is no
    /// longer in that behavior, or whose behavior is no longer in its animator.
    private func dropGuardsOfItemsThatLeft() {
        guard !guarded.isEmpty else { return }
        var held = Set<GuardKey>()
        for r in records where r.kind == .collision && r.isLive {
            for item in (r.behavior as! CollisionBehavior).items { held.insert(GuardKey(record: r.id, item: ObjectIdentifier(item))) }
        }
        guarded.formIntersection(held)
    }

    /// Items of a live collision behavior with the reference-bounds boundary stay inside once in.
    private func checkBoundaries() {
        var next = Set<GuardKey>()
        for r in records where r.kind == .collision && r.isLive {
            let c = r.behavior as! CollisionBehavior
            guard c.translatesReferenceBoundsIntoBoundary, c.collisionMode.contains(.boundaries) else { continue }
            let b = animators[r.animator].referenceBounds
            let inner = CGRect(x: b.minX + r.insets.left, y: b.minY + r.insets.top,
                               width: b.width - r.insets.left - r.insets.right, height: b.height - r.insets.top - r.insets.bottom)
            let outer = inner.insetBy(dx: -Self.boundaryTolerance, dy: -Self.boundaryTolerance)
            for item in c.items {
                let key = GuardKey(record: r.id, item: ObjectIdentifier(item))
                let p = item.center
                if guarded.contains(key) {
                    if outer.contains(p) {
                        next.insert(key)
                    } else {
                        let d = max(inner.minX - p.x, p.x - inner.maxX, inner.minY - p.y, p.y - inner.maxY)
                        fail("item escaped its boundary", "\(name(item)) centre \(fmt(p)) is \(String(format: "%.1f", d)) pt outside \(r.name)'s reference-bounds boundary \(fmt(inner))")
                    }
                } else if inner.contains(p) {
                    next.insert(key)
                }
            }
        }
        guarded = next
    }

    /// A touching pair that came apart (item, partner, boundary or behavior gone, or the mode
    /// no longer colliding them) must get its `ended` within `endedDeadline` running seconds.
    private func checkStaleContacts() {
        var seen = Set<StaleKey>()
        for r in records {
            guard let ledger = r.ledger, ledger.isTouchingAnything else { continue }
            let c = r.behavior as! CollisionBehavior
            let live = r.isLive
            func holds(_ id: ObjectIdentifier) -> Bool { c.items.contains { ObjectIdentifier($0) == id } }
            let now = runningTime[r.animator]
            func markStale(_ key: StaleKey, _ why: String, _ what: String) {
                seen.insert(key)
                if let since = self.stale[key] {
                    if now - since >= Self.endedDeadline {
                        fail("lost ended (\(why))", "\(r.name): \(what) is still touching \(String(format: "%.3f", now - since)) s after \(why)")
                        self.stale[key] = .infinity
                    }
                } else {
                    self.stale[key] = now
                }
            }
            for (k, _) in ledger.pairs {
                let why: String? = !live ? "behavior left the animator" : !holds(k.a) || !holds(k.b) ? "item left the behavior"
                    : !c.collisionMode.contains(.items) ? "mode excludes items" : nil
                if let why { markStale(.pair(r.id, k), why, "\(name(k.a))–\(name(k.b))") }
            }
            for (k, _) in ledger.boundaries {
                let why: String?
                if !live { why = "behavior left the animator" }
                else if !holds(k.item) { why = "item left the behavior" }
                else if !c.collisionMode.contains(.boundaries) { why = "mode excludes boundaries" }
                else if let id = k.identifier { why = (c.boundaryIdentifiers ?? []).contains(id) ? nil : "boundary removed" }
                else { why = c.translatesReferenceBoundsIntoBoundary ? nil : "reference boundary turned off" }
                if let why { markStale(.boundary(r.id, k), why, "\(name(k.item))–boundary \(k.identifier.map { "\"\($0)\"" } ?? "nil")") }
            }
        }
        stale = stale.filter { seen.contains($0.key) }
    }

    private struct VelocityKey: Hashable { let record: Int; let item: ObjectIdentifier }

    /// Velocities readable through live item behaviors, for items whose velocity no structural
    /// change may touch (not anchored, and for the angular part, free to turn).
    private func velocities() -> [VelocityKey: (CGPoint, CGFloat?)] {
        var anchored = Set<ObjectIdentifier>(), fixed = Set<ObjectIdentifier>()
        for r in records where r.kind == .items && r.isLive {
            let ib = r.behavior as! DynamicItemBehavior
            for item in ib.items {
                if ib.isAnchored { anchored.insert(ObjectIdentifier(item)) }
                if !ib.allowsRotation { fixed.insert(ObjectIdentifier(item)) }
            }
        }
        var out: [VelocityKey: (CGPoint, CGFloat?)] = [:]
        for r in records where r.kind == .items && r.isLive {
            let ib = r.behavior as! DynamicItemBehavior
            for item in ib.items where !anchored.contains(ObjectIdentifier(item)) {
                let id = ObjectIdentifier(item)
                out[VelocityKey(record: r.id, item: id)] = (ib.linearVelocity(for: item), fixed.contains(id) ? nil : ib.angularVelocity(for: item))
            }
        }
        return out
    }

    private func checkVelocities(before: [VelocityKey: (CGPoint, CGFloat?)]) {
        guard !before.isEmpty else { return }
        let after = velocities()
        for (k, v0) in before where !velocityExempt.contains(k.item) {
            guard let v1 = after[k] else { continue }
            let dv = hypot(v1.0.x - v0.0.x, v1.0.y - v0.0.y), s = hypot(v0.0.x, v0.0.y)
            if !(dv <= 1e-3 * max(1, s)) {
                fail("velocity changed by a structural call", "\(name(k.item)) velocity \(fmt(v0.0)) became \(fmt(v1.0)) though no time passed")
                return
            }
            if let w0 = v0.1, let w1 = v1.1, !(abs(w1 - w0) <= 1e-3 * max(1, abs(w0))) {
                fail("velocity changed by a structural call", "\(name(k.item)) angular velocity \(fmt(w0)) became \(fmt(w1)) though no time passed")
                return
            }
        }
    }

    // MARK: Calls

    private func performCall() {
        velocityExempt.removeAll()
        callMovesTime = false
        let before = velocities()
        let clockTimeBefore = clock.time
        let running = animators.map { ($0.isRunning, $0.elapsedTime) }
        let liveBefore = records.map(\.isLive)
        switch rng.weighted([30, 14, 6, 5, 8, 6, 16, 5, 4, 5, 1, 4, 2, 1, 1, 2, 10]) {
        case 0: timeCall()
        case 1: addNewBehavior()
        case 2: removeBehavior()
        case 3: reAddBehavior()
        case 4: itemJoins()
        case 5: itemLeaves()
        case 6: changeProperty()
        case 7: moveItem()
        case 8: compositeChange()
        case 9: boundaryChange()
        case 10:
            let a = rng.int(animators.count)
            note("animator \(a).removeAllBehaviors()")
            animators[a].removeAllBehaviors()
        case 11: addVelocity()
        case 12: viewAnimation()
        case 13: whenSettled()
        case 14: growBounds()
        case 15: toggleAction()
        default: propertyAnimators.randomCall(&rng)
        }
        for (a, animator) in animators.enumerated() where running[a].0 {
            runningTime[a] += animator.elapsedTime - running[a].1
        }
        for r in records { r.pending = false }
        // Velocities added before a behavior joined are applied when it joins.
        for (k, r) in records.enumerated() where !r.pendingVelocityItems.isEmpty && r.isLive && !(k < liveBefore.count && liveBefore[k]) {
            velocityExempt.formUnion(r.pendingVelocityItems)
            r.pendingVelocityItems.removeAll()
        }
        // A callback may have advanced the clock (re-entrantly) during this call: then time passed.
        if !callMovesTime && clock.time == clockTimeBefore { checkVelocities(before: before) }
    }

    // Time

    private func duration(upTo cap: Double = 3) -> Double {
        let left = timeBudget - simTime
        var d: Double
        switch rng.weighted([5, 10, 25, 30, 18, 10, 1]) {
        case 0: d = 0
        case 1: d = rng.double(0.0005, 0.006)
        case 2: d = 1.0 / 120.0
        case 3: d = 1.0 / 60.0
        case 4: d = rng.double(0.02, 0.3)
        case 5: d = rng.double(0.3, 1)
        default: d = rng.double(2, 3)
        }
        d = min(d, cap)
        if d > left { d = min(d, 1.0 / 60.0) }
        return d
    }

    /// A call that moves time on by `d`: noted as `call` (the call's text up to its argument)
    /// with `d`, counted in `simTime` and made by `make`.
    private func advanceTime(by d: Double, _ call: String, _ make: (Double) -> Void) {
        note("\(call) \(fmt(d)))")
        simTime += d
        make(d)
    }

    private func timeCall() {
        callMovesTime = true
        let a = rng.int(animators.count)
        switch rng.weighted([40, 14, 8, 8, 14, 3]) {
        case 0: advanceTime(by: duration(), "clock.advance(by:") { clock.advance(by: $0) }
        case 1: advanceTime(by: duration(upTo: 1), "animator \(a).step(by:") { animators[a].step(by: $0) }
        case 2: advanceTime(by: duration(upTo: 0.5), "animator \(a).run(for:") { animators[a].run(for: $0) }
        case 3: advanceTime(by: duration(upTo: 0.5), "animator \(a).runUntilPaused(timeout:") { animators[a].runUntilPaused(timeout: $0) }
        case 4:
            if !tickStarted {
                tickStarted = true
                note("clock.tick(timestamp: \(fmt(timestamp))) (first: records only)")
                clock.tick(timestamp: timestamp)
                return
            }
            let gap: Double
            switch rng.weighted([50, 15, 8, 8, 5, 14]) {
            case 0: gap = 1.0 / 60.0
            case 1: gap = 1.0 / 120.0
            case 2: gap = 0
            case 3: gap = rng.double(0.6, 5)        // a stall: counts as 1/60 s
            case 4: gap = -rng.double(0.001, 0.1)   // earlier than the last: nothing
            default: gap = simTime < timeBudget ? rng.double(0.02, 0.3) : 1.0 / 60.0
            }
            timestamp += gap
            simTime += gap > 0.5 ? 1.0 / 60.0 : max(0, gap)
            note("clock.tick(timestamp: \(fmt(timestamp))) (gap \(fmt(gap)))")
            clock.tick(timestamp: timestamp)
        default:
            let d = duration(upTo: 0.5)
            note("clock.runUntilIdle(timeout: \(fmt(d)))")
            simTime += d
            clock.runUntilIdle(timeout: d)
        }
    }

    // Behaviors

    private func items(of a: Int) -> [ItemRecord] { items.filter { $0.animator == a } }

    private func subset(of a: Int, emptyChance: Double = 0.08) -> [any DynamicItem] {
        if rng.chance(emptyChance) { return [] }
        let all = items(of: a)
        if all.isEmpty { return [] }
        var out = all.filter { _ in rng.chance(0.55) }
        if out.isEmpty { out = [rng.pick(all)] }
        return out.map(\.item)
    }

    private func point(inside r: CGRect, margin: CGFloat) -> CGPoint {
        let mx = min(margin, r.width / 2 - 1), my = min(margin, r.height / 2 - 1)
        return CGPoint(x: rng.cg(r.minX + mx, r.maxX - mx).rounded(), y: rng.cg(r.minY + my, r.maxY - my).rounded())
    }

    private func newRecord(_ kind: BehaviorRecord.Kind, _ b: DynamicBehavior, _ a: Int) -> BehaviorRecord {
        let r = BehaviorRecord(id: records.count, kind: kind, behavior: b, animator: a)
        records.append(r)
        return r
    }

    /// A push magnitude whose speed change (instantaneous) or acceleration (continuous) stays
    /// under ~2 000 pt/s (per second) for the lightest item.
    private func pushMagnitude() -> CGFloat { 20 * minimumMass * rng.cg(0.05, 1) }

    /// Makes a behavior of a random (or the given) kind for animator `a`, not yet added.
    private func makeBehavior(_ a: Int, kind forced: BehaviorRecord.Kind? = nil, depth: Int = 0) -> BehaviorRecord {
        let kinds: [BehaviorRecord.Kind] = [.gravity, .collision, .push, .snap, .attachment, .items, .field, .composite, .plain]
        var kind = forced ?? kinds[rng.weighted([14, 18, 8, 8, 10, 12, 7, depth == 0 ? 6 : 1, 3])]
        let bounds = animators[a].referenceBounds
        let mine = items(of: a)
        if (kind == .attachment || kind == .snap) && mine.isEmpty { kind = .gravity }
        let r: BehaviorRecord
        var desc = ""
        var pendingVelocity = Set<ObjectIdentifier>()
        switch kind {
        case .gravity:
            let g = GravityBehavior(items: subset(of: a))
            switch rng.int(3) {
            case 0: break
            case 1: g.setAngle(rng.angle(), magnitude: rng.cg(0, 2))
            default: g.gravityDirection = CGVector(dx: rng.cg(-1.2, 1.2), dy: rng.cg(-1.2, 1.2))
            }
            r = newRecord(.gravity, g, a)
            desc = "GravityBehavior(items: \(names(g.items))), direction \(fmt(g.gravityDirection))"
        case .collision:
            let c = CollisionBehavior(items: subset(of: a))
            r = newRecord(.collision, c, a)
            let ledger = ContactLedger(sequence: self, record: r)
            r.ledger = ledger
            c.collisionDelegate = ledger
            r.everItems.formUnion(c.items.map { ObjectIdentifier($0) })
            switch rng.int(10) {
            case 0...4:
                c.translatesReferenceBoundsIntoBoundary = true
                r.everBoundaryIDs.insert(nil)
            case 5...6:
                r.insets = randomInsets()
                c.setTranslatesReferenceBoundsIntoBoundary(with: r.insets)
                r.everBoundaryIDs.insert(nil)
            default: break
            }
            if rng.chance(0.25) { for _ in 0..<rng.int(in: 1...2) { addRandomBoundary(r, quiet: true) } }
            switch rng.int(10) {
            case 0: c.collisionMode = .items
            case 1: c.collisionMode = .boundaries
            default: break
            }
            desc = "CollisionBehavior(items: \(names(c.items))), reference boundary \(c.translatesReferenceBoundsIntoBoundary) insets \(fmt(r.insets)), boundaries \(c.boundaryIdentifiers ?? []), mode \(modeName(c.collisionMode))"
        case .push:
            let p = PushBehavior(items: subset(of: a), mode: rng.chance(0.5) ? .continuous : .instantaneous)
            p.setAngle(rng.angle(), magnitude: pushMagnitude())
            if rng.chance(0.2), let item = p.items.first {
                p.setTargetOffsetFromCenter(Offset(horizontal: rng.cg(-10, 10), vertical: rng.cg(-10, 10)), for: item)
            }
            r = newRecord(.push, p, a)
            desc = "PushBehavior(items: \(names(p.items)), mode: \(p.mode)), direction \(fmt(p.pushDirection))"
        case .snap:
            let item = rng.pick(mine)
            let s = SnapBehavior(item: item.item, snapTo: point(inside: bounds, margin: item.reach + Self.maxInset))
            if rng.chance(0.6) { s.damping = rng.cg(0, 1) }
            r = newRecord(.snap, s, a)
            desc = "SnapBehavior(item: \(item.name), snapTo: \(fmt(s.snapPoint))), damping \(fmt(s.damping))"
        case .attachment:
            let (b, d) = makeAttachment(a, mine: mine, bounds: bounds)
            r = newRecord(.attachment, b, a)
            desc = d
        case .items:
            let ib = DynamicItemBehavior(items: subset(of: a))
            if rng.chance(0.5) { ib.elasticity = rng.cg(0, 1) }
            if rng.chance(0.4) { ib.friction = rng.cg(0, 1) }
            if rng.chance(0.4) { ib.density = rng.cg(0.5, 4) }
            if rng.chance(0.3) { ib.resistance = rng.cg(0, 2) }
            if rng.chance(0.2) { ib.angularResistance = rng.cg(0, 2) }
            if rng.chance(0.2) { ib.allowsRotation = false }
            if rng.chance(0.15) { ib.charge = rng.cg(-1, 1) }
            if rng.chance(0.04) { ib.isAnchored = true }
            if rng.chance(0.2), let item = ib.items.first {
                pendingVelocity.insert(ObjectIdentifier(item))
                ib.addLinearVelocity(CGPoint(x: rng.cg(-600, 600), y: rng.cg(-600, 600)), for: item)
            }
            r = newRecord(.items, ib, a)
            r.pendingVelocityItems = pendingVelocity
            desc = "DynamicItemBehavior(items: \(names(ib.items))) elasticity \(fmt(ib.elasticity)) friction \(fmt(ib.friction)) density \(fmt(ib.density)) resistance \(fmt(ib.resistance)) rotation \(ib.allowsRotation) anchored \(ib.isAnchored)"
        case .field:
            let (f, maxStrength, d) = makeField(bounds)
            for item in subset(of: a) { f.addItem(item) }
            r = newRecord(.field, f, a)
            r.maxStrength = maxStrength
            desc = d + " items \(names(f.items))"
        case .composite:
            let parent = DynamicBehavior()
            r = newRecord(.composite, parent, a)
            var kids: [String] = []
            for _ in 0..<rng.int(in: 1...3) {
                let child = makeBehavior(a, depth: depth + 1)
                parent.addChildBehavior(child.behavior)
                kids.append(child.name)
            }
            desc = "DynamicBehavior() with children \(kids)"
        case .plain:
            let b = DynamicBehavior()
            r = newRecord(.plain, b, a)
            setAction(r)
            desc = "DynamicBehavior() with an action"
        }
        if kind != .plain && rng.chance(0.12) { setAction(r) }
        say("    made \(r.name): \(desc)\(r.behavior.action != nil ? " + action" : "")")
        return r
    }

    private func makeAttachment(_ a: Int, mine: [ItemRecord], bounds: CGRect) -> (AttachmentBehavior, String) {
        let i1 = rng.pick(mine)
        let others = mine.filter { $0 !== i1 }
        let pair = others.isEmpty ? nil : rng.pick(others)
        let anchor = point(inside: bounds, margin: Self.maxInset + 10)
        var kind = rng.weighted([30, 10, 20, 10, 8, 10, 6, 6])
        if pair == nil && [2, 3, 4, 5, 6].contains(kind) { kind = 0 }
        let b: AttachmentBehavior
        var d: String
        func mid(_ x: ItemRecord, _ y: ItemRecord) -> CGPoint {
            CGPoint(x: (x.item.center.x + y.item.center.x) / 2, y: (x.item.center.y + y.item.center.y) / 2)
        }
        switch kind {
        case 0:
            b = AttachmentBehavior(item: i1.item, attachedToAnchor: anchor)
            d = "AttachmentBehavior(item: \(i1.name), attachedToAnchor: \(fmt(anchor)))"
        case 1:
            let o = Offset(horizontal: rng.cg(-i1.size.width / 2, i1.size.width / 2), vertical: rng.cg(-i1.size.height / 2, i1.size.height / 2))
            b = AttachmentBehavior(item: i1.item, offsetFromCenter: o, attachedToAnchor: anchor)
            d = "AttachmentBehavior(item: \(i1.name), offsetFromCenter: \(o), attachedToAnchor: \(fmt(anchor)))"
        case 2:
            b = AttachmentBehavior(item: i1.item, attachedTo: pair!.item)
            d = "AttachmentBehavior(item: \(i1.name), attachedTo: \(pair!.name))"
        case 3:
            b = AttachmentBehavior.pinAttachment(with: i1.item, attachedTo: pair!.item, attachmentAnchor: mid(i1, pair!))
            if rng.chance(0.3) { b.frictionTorque = rng.cg(0, 5) }
            if rng.chance(0.3) { b.attachmentRange = FloatRange(minimum: -rng.cg(0, 2), maximum: rng.cg(0, 2)) }
            d = "pinAttachment(\(i1.name), \(pair!.name))"
        case 4:
            b = AttachmentBehavior.fixedAttachment(with: i1.item, attachedTo: pair!.item, attachmentAnchor: mid(i1, pair!))
            d = "fixedAttachment(\(i1.name), \(pair!.name))"
        case 5:
            b = AttachmentBehavior.limitAttachment(with: i1.item, offsetFromCenter: .zero, attachedTo: pair!.item, offsetFromCenter: .zero)
            d = "limitAttachment(\(i1.name), \(pair!.name))"
        case 6:
            let axis = CGVector(dx: rng.cg(-1, 1), dy: rng.chance(0.5) ? 1 : -1)
            b = AttachmentBehavior.slidingAttachment(with: i1.item, attachedTo: pair!.item, attachmentAnchor: mid(i1, pair!), axisOfTranslation: axis)
            if rng.chance(0.3) { b.attachmentRange = FloatRange(minimum: -rng.cg(0, 80), maximum: rng.cg(0, 80)) }
            d = "slidingAttachment(\(i1.name), \(pair!.name), axis \(fmt(axis)))"
        default:
            let axis = CGVector(dx: rng.chance(0.5) ? 1 : -1, dy: rng.cg(-1, 1))
            b = AttachmentBehavior.slidingAttachment(with: i1.item, attachmentAnchor: i1.item.center, axisOfTranslation: axis)
            d = "slidingAttachment(\(i1.name), anchor \(fmt(i1.item.center)), axis \(fmt(axis)))"
        }
        if kind <= 2 && rng.chance(0.5) {
            b.frequency = rng.cg(0.5, 5)
            b.damping = rng.cg(0, 1)
            d += " spring \(fmt(b.frequency)) Hz damping \(fmt(b.damping))"
        }
        return (b, d)
    }

    private func makeField(_ bounds: CGRect) -> (FieldBehavior, CGFloat, String) {
        let position = point(inside: bounds, margin: 30)
        let f: FieldBehavior, maxStrength: CGFloat, d: String
        switch rng.int(12) {
        case 0:
            let dir = CGVector(dx: rng.cg(-1, 1), dy: rng.cg(-1, 1))
            f = .linearGravityField(direction: dir); maxStrength = 1; d = "linearGravityField(direction: \(fmt(dir)))"
        case 1: f = .radialGravityField(position: position); maxStrength = 1; d = "radialGravityField(position: \(fmt(position)))"
        case 2: f = .springField(); maxStrength = 0.08; d = "springField()"
        case 3: f = .dragField(); maxStrength = 3; d = "dragField()"
        case 4:
            let dir = CGVector(dx: rng.cg(-5, 5), dy: rng.cg(-5, 5))
            f = .velocityField(direction: dir); maxStrength = 1; d = "velocityField(direction: \(fmt(dir)))"
        case 5: f = .vortexField(); maxStrength = 1; d = "vortexField()"
        case 6: f = .noiseField(smoothness: rng.cg(0, 1), animationSpeed: rng.cg(0, 2)); maxStrength = 0.5; d = "noiseField"
        case 7: f = .turbulenceField(smoothness: rng.cg(0, 1), animationSpeed: rng.cg(0, 2)); maxStrength = 0.5; d = "turbulenceField"
        case 8: f = .electricField(); maxStrength = 0.02; d = "electricField()"
        case 9: f = .magneticField(); maxStrength = 1; d = "magneticField()"
        case 10:
            let ax = rng.cg(-500, 500), ay = rng.cg(-500, 500)
            f = .field { _, _, m, _, _ in CGVector(dx: m * ax, dy: m * ay) }; maxStrength = 1; d = "field(evaluation:) accel (\(fmt(ax)), \(fmt(ay)))"
        default:
            f = .field { field, p, _, m, _, _ in
                CGVector(dx: m * (field.position.x - p.x), dy: m * (field.position.y - p.y))
            }
            maxStrength = 1; d = "field(evaluationBlock:) pull to position"
        }
        f.position = position
        f.strength = maxStrength * rng.cg(0.1, 1)
        if rng.chance(0.3) { f.region = rng.chance(0.5) ? Region(radius: rng.cg(80, 300)) : Region(size: CGSize(width: rng.cg(100, 400), height: rng.cg(100, 400))) }
        if rng.chance(0.2) { f.falloff = rng.cg(0, 2); f.minimumRadius = rng.cg(5, 40) }
        return (f, maxStrength, d + " strength \(fmt(f.strength))")
    }

    private func randomInsets() -> EdgeInsets {
        func v() -> CGFloat { rng.chance(0.4) ? 0 : rng.cg(0, Self.maxInset).rounded() }
        return EdgeInsets(top: v(), left: v(), bottom: v(), right: v())
    }

    private func addRandomBoundary(_ r: BehaviorRecord, quiet: Bool = false) {
        let c = r.behavior as! CollisionBehavior
        let bounds = animators[r.animator].referenceBounds
        let id = "b\(rng.int(4))"
        r.everBoundaryIDs.insert(id)
        switch rng.int(4) {
        case 0, 1:
            let p1 = point(inside: bounds, margin: 5)
            var p2 = point(inside: bounds, margin: 5)
            if hypot(p2.x - p1.x, p2.y - p1.y) < 20 { p2 = CGPoint(x: p1.x < bounds.midX ? p1.x + 40 : p1.x - 40, y: p1.y) }
            if !quiet { note("\(r.name).addBoundary(withIdentifier: \"\(id)\", from: \(fmt(p1)), to: \(fmt(p2)))") }
            c.addBoundary(withIdentifier: id, from: p1, to: p2)
        case 2:
            let path = (0..<rng.int(in: 3...4)).map { _ in point(inside: bounds, margin: 5) }
            if !quiet { note("\(r.name).addBoundary(withIdentifier: \"\(id)\", for: \(path.map(fmt))) (polyline)") }
            c.addBoundary(withIdentifier: id, for: path)
        default:
            let s = rng.cg(20, 60), p = point(inside: bounds, margin: s + 5)
            let square = [p, CGPoint(x: p.x + s, y: p.y), CGPoint(x: p.x + s, y: p.y + s), CGPoint(x: p.x, y: p.y + s), p]
            if !quiet { note("\(r.name).addBoundary(withIdentifier: \"\(id)\", for: closed square at \(fmt(p)) side \(fmt(s)))") }
            c.addBoundary(withIdentifier: id, for: square)
        }
    }

    private func setAction(_ r: BehaviorRecord) {
        r.behavior.action = { [weak self, weak r] in
            guard let self, let r else { return }
            self.callbackHook(from: r, chance: 0.01)
        }
    }

    private func addNewBehavior() {
        let a = rng.int(animators.count)
        guard records.count < 40 else { return reAddBehavior() }
        let r = makeBehavior(a)
        let roll = rng.int(20)
        if roll < 2, let parent = records.filter({ $0.kind == .composite && $0.animator == a && !$0.pending && !isWithin($0, r) }).randomPick(&rng) {
            note("\(parent.name).addChildBehavior(\(r.name))")
            parent.behavior.addChildBehavior(r.behavior)
        } else if roll == 2 {
            note("made \(r.name), not added")
        } else {
            animatorCall(.add, r)
        }
    }

    private func removeBehavior() {
        if rng.chance(0.1), let r = records.randomPick(&rng), !r.isTopLevel, !r.pending {
            // Not a top-level behavior of that animator: no effect.
            return animatorCall(.remove, r, remark: " (not top-level: no effect)")
        }
        guard let r = records.filter({ $0.isTopLevel }).randomPick(&rng) else { return timeCall() }
        animatorCall(.remove, r)
    }

    private func reAddBehavior() {
        if rng.chance(0.05), let r = records.filter({ $0.isTopLevel }).randomPick(&rng) {
            return animatorCall(.add, r, remark: " (already there: ignored)")
        }
        guard let r = records.filter({ $0.isFree }).randomPick(&rng) else { return addNewBehavior() }
        animatorCall(.add, r, remark: " (re-add)")
    }

    /// `addBehavior` or `removeBehavior` of `r`'s behavior on its animator, noted (with
    /// `remark`, which says what the call should do when that is not the obvious).
    private func animatorCall(_ call: AnimatorBehaviorCall, _ r: BehaviorRecord, remark: String = "") {
        note("animator \(r.animator).\(call.rawValue)(\(r.name))\(remark)")
        switch call {
        case .add: animators[r.animator].addBehavior(r.behavior)
        case .remove: animators[r.animator].removeBehavior(r.behavior)
        }
    }

    private enum AnimatorBehaviorCall: String {
        case add = "addBehavior", remove = "removeBehavior"
    }

    private func itemJoins() {
        guard let r = records.filter({ $0.itemList != nil }).randomPick(&rng) else { return addNewBehavior() }
        let list = r.itemList!
        let candidates = items(of: r.animator)
        guard !candidates.isEmpty else { return }
        let pick = rng.pick(candidates)
        note("\(r.name).addItem(\(pick.name))\(list.items.contains { $0 === pick.item } ? " (already there)" : "")")
        r.everItems.insert(pick.id)
        list.addItem(pick.item)
    }

    private func itemLeaves() {
        guard let r = records.filter({ $0.itemList.map { !$0.items.isEmpty } ?? false }).randomPick(&rng) else { return itemJoins() }
        let list = r.itemList!
        let item: any DynamicItem = rng.chance(0.1) ? rng.pick(items(of: r.animator)).item : rng.pick(list.items)
        note("\(r.name).removeItem(\(name(item)))")
        list.removeItem(item)
    }

    private func changeProperty() {
        guard let r = records.randomPick(&rng) else { return addNewBehavior() }
        changeProperty(of: r)
    }

    private func changeProperty(of r: BehaviorRecord) {
        let bounds = animators[r.animator].referenceBounds
        switch r.kind {
        case .gravity:
            let g = r.behavior as! GravityBehavior
            switch rng.int(4) {
            case 0: let v = rng.angle(); note("\(r.name).angle = \(fmt(v))"); g.angle = v
            case 1: let v = rng.cg(0, 2); note("\(r.name).magnitude = \(fmt(v))"); g.magnitude = v
            case 2: let v = rng.angle(), m = rng.cg(0, 2); note("\(r.name).setAngle(\(fmt(v)), magnitude: \(fmt(m)))"); g.setAngle(v, magnitude: m)
            default:
                let v = CGVector(dx: rng.cg(-1.4, 1.4), dy: rng.cg(-1.4, 1.4))
                note("\(r.name).gravityDirection = \(fmt(v))"); g.gravityDirection = v
            }
        case .collision:
            let c = r.behavior as! CollisionBehavior
            switch rng.int(5) {
            case 0, 1:
                let m: CollisionBehavior.Mode = rng.pick([.everything, .everything, .items, .boundaries])
                note("\(r.name).collisionMode = \(modeName(m))"); c.collisionMode = m
            case 2:
                let v = !c.translatesReferenceBoundsIntoBoundary
                note("\(r.name).translatesReferenceBoundsIntoBoundary = \(v)")
                if v { r.everBoundaryIDs.insert(nil) }
                c.translatesReferenceBoundsIntoBoundary = v
            case 3:
                let i = randomInsets()
                note("\(r.name).setTranslatesReferenceBoundsIntoBoundary(with: \(fmt(i)))")
                r.insets = i
                r.everBoundaryIDs.insert(nil)
                c.setTranslatesReferenceBoundsIntoBoundary(with: i)
                // The loop moved: an item it now leaves outside is not held by it until it is
                // back inside (the one-sided loop pushes it in).
                guarded = guarded.filter { $0.record != r.id }
            default:
                boundaryChange(r)
            }
        case .push:
            let p = r.behavior as! PushBehavior
            switch rng.int(6) {
            case 0, 1: note("\(r.name).active = true"); p.active = true
            case 2: note("\(r.name).active = false"); p.active = false
            case 3: let v = rng.angle(); note("\(r.name).angle = \(fmt(v))"); p.angle = v
            case 4: let m = pushMagnitude(); note("\(r.name).magnitude = \(fmt(m))"); p.magnitude = m
            default:
                if let item = p.items.randomPick(&rng) {
                    let o = Offset(horizontal: rng.cg(-10, 10), vertical: rng.cg(-10, 10))
                    note("\(r.name).setTargetOffsetFromCenter(\(o), for: \(name(item)))")
                    p.setTargetOffsetFromCenter(o, for: item)
                } else {
                    let m = pushMagnitude(), v = rng.angle()
                    note("\(r.name).setAngle(\(fmt(v)), magnitude: \(fmt(m)))"); p.setAngle(v, magnitude: m)
                }
            }
        case .snap:
            let s = r.behavior as! SnapBehavior
            if rng.chance(0.7) {
                let reach = items.first { $0.item === s.item }?.reach ?? 60
                let v = point(inside: bounds, margin: reach + Self.maxInset)
                note("\(r.name).snapPoint = \(fmt(v))"); s.snapPoint = v
            } else {
                let v = rng.cg(0, 1); note("\(r.name).damping = \(fmt(v))"); s.damping = v
            }
        case .attachment:
            let b = r.behavior as! AttachmentBehavior
            switch rng.int(6) {
            case 0:
                let v = max(0, b.length * rng.cg(0.7, 1.3)); note("\(r.name).length = \(fmt(v))"); b.length = v
            case 1:
                let v = rng.chance(0.3) ? 0 : rng.cg(0.5, 5); note("\(r.name).frequency = \(fmt(v))"); b.frequency = v
            case 2: let v = rng.cg(0, 1); note("\(r.name).damping = \(fmt(v))"); b.damping = v
            case 3, 4:
                // A drag: the anchor moves a little, as a finger does in one frame.
                guard b.attachedBehaviorType == .anchor else { return timeCall() }
                let m = Self.maxInset + 10
                let v = CGPoint(x: min(max(b.anchorPoint.x + rng.cg(-30, 30), bounds.minX + m), bounds.maxX - m),
                                y: min(max(b.anchorPoint.y + rng.cg(-30, 30), bounds.minY + m), bounds.maxY - m))
                note("\(r.name).anchorPoint = \(fmt(v))"); b.anchorPoint = v
            default:
                if rng.chance(0.5) { let v = rng.cg(0, 5); note("\(r.name).frictionTorque = \(fmt(v))"); b.frictionTorque = v }
                else {
                    let v = rng.chance(0.3) ? FloatRange.infinite : FloatRange(minimum: -rng.cg(0, 2), maximum: rng.cg(0, 2))
                    note("\(r.name).attachmentRange = \(v)"); b.attachmentRange = v
                }
            }
        case .items:
            let ib = r.behavior as! DynamicItemBehavior
            switch rng.int(9) {
            case 0: let v = rng.cg(0, 1); note("\(r.name).elasticity = \(fmt(v))"); ib.elasticity = v
            case 1: let v = rng.cg(0, 1); note("\(r.name).friction = \(fmt(v))"); ib.friction = v
            case 2: let v = rng.cg(0.5, 4); note("\(r.name).density = \(fmt(v))"); ib.density = v
            case 3: let v = rng.cg(0, 2); note("\(r.name).resistance = \(fmt(v))"); ib.resistance = v
            case 4: let v = rng.cg(0, 2); note("\(r.name).angularResistance = \(fmt(v))"); ib.angularResistance = v
            case 5:
                let v = !ib.allowsRotation; note("\(r.name).allowsRotation = \(v)")
                velocityExempt.formUnion(ib.items.map { ObjectIdentifier($0) })
                ib.allowsRotation = v
            case 6:
                let v = rng.chance(0.3) ? !ib.isAnchored : false; note("\(r.name).isAnchored = \(v)")
                velocityExempt.formUnion(ib.items.map { ObjectIdentifier($0) })
                ib.isAnchored = v
            case 7: let v = rng.cg(-1, 1); note("\(r.name).charge = \(fmt(v))"); ib.charge = v
            default: addVelocity(r)
            }
        case .field:
            let f = r.behavior as! FieldBehavior
            switch rng.int(5) {
            case 0: let v = r.maxStrength * rng.cg(0, 1); note("\(r.name).strength = \(fmt(v))"); f.strength = v
            case 1: let v = point(inside: bounds, margin: 30); note("\(r.name).position = \(fmt(v))"); f.position = v
            case 2:
                let v: Region = rng.chance(0.4) ? .infinite : Region(radius: rng.cg(80, 300))
                note("\(r.name).region = \(v)"); f.region = v
            case 3: let v = rng.cg(0, 2); note("\(r.name).falloff = \(fmt(v))"); f.falloff = v
            default: let v = rng.cg(0, 1); note("\(r.name).smoothness = \(fmt(v))"); f.smoothness = v
            }
        case .composite, .plain:
            toggleAction(r)
        }
    }

    private func boundaryChange() {
        guard let r = records.filter({ $0.kind == .collision }).randomPick(&rng) else { return addNewBehavior() }
        boundaryChange(r)
    }

    private func boundaryChange(_ r: BehaviorRecord) {
        let c = r.behavior as! CollisionBehavior
        switch rng.int(10) {
        case 0...5: addRandomBoundary(r)
        case 6...8:
            let id = (c.boundaryIdentifiers ?? []).randomPick(&rng) ?? "b\(rng.int(4))"
            note("\(r.name).removeBoundary(withIdentifier: \"\(id)\")")
            c.removeBoundary(withIdentifier: id)
        default:
            note("\(r.name).removeAllBoundaries()")
            c.removeAllBoundaries()
        }
    }

    private func moveItem() {
        let r = rng.pick(items)
        let animator = animators[r.animator]
        let bounds = animator.referenceBounds
        let margin = r.reach + Self.maxInset + 2
        let old = r.item.center
        var p: CGPoint
        if rng.chance(0.6) && old.x.isFinite && old.y.isFinite {
            p = CGPoint(x: old.x + rng.cg(-30, 30), y: old.y + rng.cg(-30, 30))
            p.x = min(max(p.x, bounds.minX + margin), bounds.maxX - margin)
            p.y = min(max(p.y, bounds.minY + margin), bounds.maxY - margin)
        } else {
            p = point(inside: bounds, margin: margin)
        }
        let turn = rng.chance(0.3) ? rng.angle() : nil
        note("\(r.name).center = \(fmt(p))\(turn.map { ", transform = rotation \(fmt($0))" } ?? ""); animator \(r.animator).updateItem(usingCurrentState: \(r.name))")
        r.item.center = p
        if let turn { r.item.transform = CGAffineTransform(rotationAngle: turn) }
        animator.updateItem(usingCurrentState: r.item)
    }

    /// Whether `r` is `ancestor` or inside it.
    private func isWithin(_ r: BehaviorRecord, _ ancestor: BehaviorRecord) -> Bool {
        var b: DynamicBehavior? = r.behavior
        while let x = b { if x === ancestor.behavior { return true }; b = x.parent }
        return false
    }

    private func compositeChange() {
        if rng.chance(0.5), let child = records.filter({ $0.behavior.parent != nil }).randomPick(&rng) {
            let parent = child.behavior.parent!
            let pname = records.first { $0.behavior === parent }?.name ?? "parent"
            note("\(pname).removeChildBehavior(\(child.name))")
            parent.removeChildBehavior(child.behavior)
            return
        }
        guard let parent = records.filter({ $0.kind == .composite && !$0.pending }).randomPick(&rng) else { return addNewBehavior() }
        let candidates = records.filter { $0.isFree && $0.animator == parent.animator && !isWithin(parent, $0) }
        if let child = candidates.randomPick(&rng), rng.chance(0.6) {
            note("\(parent.name).addChildBehavior(\(child.name))")
            parent.behavior.addChildBehavior(child.behavior)
        } else {
            let child = makeBehavior(parent.animator, depth: 1)
            note("\(parent.name).addChildBehavior(\(child.name)) (new)")
            parent.behavior.addChildBehavior(child.behavior)
        }
    }

    private func addVelocity(_ given: BehaviorRecord? = nil) {
        guard let r = given ?? records.filter({ $0.kind == .items }).randomPick(&rng) else { return addNewBehavior() }
        let ib = r.behavior as! DynamicItemBehavior
        guard let item = ib.items.randomPick(&rng) else { return }
        velocityExempt.insert(ObjectIdentifier(item))
        if !r.isLive { r.pendingVelocityItems.insert(ObjectIdentifier(item)) }
        let v = ib.linearVelocity(for: item)
        if !(v.x.isFinite && v.y.isFinite) { fail("non-finite velocity", "\(name(item)) linearVelocity \(v)") }
        if rng.chance(0.7) {
            let dv = CGPoint(x: rng.cg(-700, 700), y: rng.cg(-700, 700))
            note("\(r.name).addLinearVelocity(\(fmt(dv)), for: \(name(item)))")
            ib.addLinearVelocity(dv, for: item)
        } else {
            let w = rng.cg(-10, 10)
            note("\(r.name).addAngularVelocity(\(fmt(w)), for: \(name(item)))")
            ib.addAngularVelocity(w, for: item)
        }
    }

    private func viewAnimation() {
        let k = completionCounts.count
        completionCounts.append(0)
        let duration = rng.chance(0.1) ? 0 : rng.double(0.05, 1)
        let delay = rng.chance(0.7) ? 0 : rng.double(0, 0.3)
        var options: AnimationOptions = rng.pick([.curveEaseInOut, .curveEaseIn, .curveEaseOut, .curveLinear])
        if rng.chance(0.2) { options.insert(.beginFromCurrentState) }
        if rng.chance(0.1) { options.insert(.autoreverse) }
        if rng.chance(0.03) { options.insert(.repeat) }
        let alpha = rng.cg(0, 1)
        let mutates = rng.chance(0.3)
        note("DynamicView.animate(withDuration: \(fmt(duration)), delay: \(fmt(delay)), options: \(options.rawValue), clock: clock) { label.alpha = \(fmt(alpha)) } (animation \(k))")
        DynamicView.animate(withDuration: duration, delay: delay, options: options, clock: clock,
                            animations: { [label] in label.alpha = alpha },
                            completion: { [weak self] finished in
                                guard let self else { return }
                                self.completionCounts[k] += 1
                                self.logCallback("animation \(k) completion(\(finished))")
                                if self.completionCounts[k] > 1 { self.fail("completion called twice", "view animation \(k)'s completion ran \(self.completionCounts[k]) times") }
                                if mutates { self.callbackHook(from: nil, chance: 1) }
                            })
    }

    private func whenSettled() {
        let a = rng.int(animators.count)
        let k = settledCounts.count
        settledCounts.append(0)
        note("animator \(a).whenSettled { … } (handler \(k))")
        animators[a].whenSettled { [weak self] in
            guard let self else { return }
            self.settledCounts[k] += 1
            if self.settledCounts[k] > 1 { self.fail("whenSettled handler called twice", "handler \(k) ran \(self.settledCounts[k]) times") }
        }
    }

    private func growBounds() {
        let a = rng.int(animators.count)
        let b = animators[a].referenceBounds.insetBy(dx: -rng.cg(0, 15).rounded(), dy: -rng.cg(0, 15).rounded())
        note("animator \(a).referenceBounds = \(fmt(b)) (grown)")
        animators[a].referenceBounds = b
    }

    private func toggleAction() {
        guard let r = records.randomPick(&rng) else { return addNewBehavior() }
        toggleAction(r)
    }

    private func toggleAction(_ r: BehaviorRecord) {
        if r.behavior.action == nil {
            note("\(r.name).action = { … }")
            setAction(r)
        } else {
            note("\(r.name).action = nil")
            r.behavior.action = nil
        }
    }

    // MARK: Changes from callbacks

    /// Called from delegate calls, actions and completions: sometimes changes something, as an
    /// app's handler does (add or remove behaviors — which take effect after the tick — items
    /// joining or leaving, properties, boundaries, even advancing the clock again).
    func callbackHook(from source: BehaviorRecord?, chance: Double = 0.15) {
        // An item no behavior holds at this moment has left its world (its velocity is
        // forgotten, as in UIKit): a callback that brings it back gives it a new body at rest.
        for r in items where !animators[r.animator].items.contains(where: { $0 === r.item }) {
            velocityExempt.insert(ObjectIdentifier(r.item))
        }
        guard callbackBudget > 0, callbackDepth == 0, rng.chance(chance) else { return }
        callbackBudget -= 1
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        // An item a callback takes out of a collision behavior is no longer held by its
        // boundary, even if a later callback puts it back before the call returns.
        defer { dropGuardsOfItemsThatLeft() }
        let saved = currentCall
        defer { currentCall = saved }
        switch rng.weighted([4, 4, 5, 4, 3, 2, 1, 2]) {
        case 0:
            guard let r = records.filter({ $0.isFree }).randomPick(&rng) else { return }
            r.pending = true
            callbackNote("animator \(r.animator).addBehavior(\(r.name))")
            animators[r.animator].addBehavior(r.behavior)
        case 1:
            guard let r = records.filter({ $0.isTopLevel && !$0.pending }).randomPick(&rng) else { return }
            r.pending = true
            callbackNote("animator \(r.animator).removeBehavior(\(r.name))")
            animators[r.animator].removeBehavior(r.behavior)
        case 2:
            guard let r = records.filter({ $0.itemList != nil && !$0.pending }).randomPick(&rng),
                  let pick = items(of: r.animator).randomPick(&rng) else { return }
            callbackNote("\(r.name).addItem(\(pick.name))")
            r.everItems.insert(pick.id)
            r.itemList!.addItem(pick.item)
        case 3:
            guard let r = records.filter({ ($0.itemList?.items.isEmpty == false) && !$0.pending }).randomPick(&rng),
                  let item = r.itemList!.items.randomPick(&rng) else { return }
            callbackNote("\(r.name).removeItem(\(name(item)))")
            r.itemList!.removeItem(item)
        case 4:
            guard let r = records.filter({ [.gravity, .snap, .push, .attachment].contains($0.kind) }).randomPick(&rng) else { return }
            callbackNote("property of \(r.name):")
            changeProperty(of: r)
        case 5:
            guard let r = records.filter({ $0.kind == .collision }).randomPick(&rng) else { return }
            callbackNote("boundary of \(r.name):")
            boundaryChange(r)
        case 6:
            let d = 1.0 / 120.0
            callbackNote("clock.advance(by: \(fmt(d))) (re-entrant)")
            clock.advance(by: d)
        default:
            let a = source?.animator ?? rng.int(animators.count)
            guard records.count < 40 else { return }
            let r = makeBehavior(a, depth: 1)
            r.pending = true
            callbackNote("animator \(a).addBehavior(\(r.name)) (new)")
            animators[a].addBehavior(r.behavior)
        }
    }

    private func callbackNote(_ s: String) {
        currentCall = "\(currentCall) ↳ from a callback: \(s)"
        log?("    ↳ from the callback: \(s)")
    }

    // MARK: Formatting

    private func names(_ list: [any DynamicItem]) -> String { "[" + list.map { name($0) }.joined(separator: ", ") + "]" }
}

// MARK: - Formatting helpers

func modeName(_ m: CollisionBehavior.Mode) -> String {
    m == .everything ? ".everything" : m == .items ? ".items" : m == .boundaries ? ".boundaries" : "[]"
}
func fmt(_ v: Double) -> String { String(format: "%.4g", v) }
func fmt(_ v: CGFloat) -> String { String(format: "%.4g", Double(v)) }
func fmt(_ p: CGPoint) -> String { "(\(fmt(p.x)), \(fmt(p.y)))" }
func fmt(_ v: CGVector) -> String { "(\(fmt(v.dx)), \(fmt(v.dy)))" }
func fmt(_ r: CGRect) -> String { "(\(fmt(r.minX)), \(fmt(r.minY)), \(fmt(r.width)) × \(fmt(r.height)))" }
func fmt(_ i: EdgeInsets) -> String { "(\(fmt(i.top)), \(fmt(i.left)), \(fmt(i.bottom)), \(fmt(i.right)))" }

extension Array {
    /// A random element drawn with the fuzzer's own generator (nil when empty).
    func randomPick(_ rng: inout FuzzRandom) -> Element? { isEmpty ? nil : self[rng.int(count)] }
}
