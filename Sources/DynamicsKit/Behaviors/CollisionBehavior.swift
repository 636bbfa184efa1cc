import DynamicsEngine
import Foundation

/// Told when items of a collision behavior touch each other or its boundaries. All optional.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items of `behavior` started touching at `p` (reference coordinates).
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint)
    /// Two items of `behavior` stopped touching, or stopped counting as a pair (an item or the
    /// behavior left, the collision mode changed).
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem)
    /// An item started touching the boundary `identifier` (nil: the reference-bounds loop) at
    /// `p` (reference coordinates).
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint)
    /// An item stopped touching the boundary `identifier` (nil: the reference-bounds loop), or
    /// the boundary was removed.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?)
}

extension CollisionBehaviorDelegate {
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {}
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?) {}
}

/// Makes its items collide with each other and with its boundaries (UIKit's
/// `UICollisionBehavior`). Items collide only with items and boundaries of a collision
/// behavior they share. **Better than UIKit**: there is no limit on the number of collision
/// behaviors.
///
/// Contact calls: for each pair of items and each (item, boundary identifier) pair, the
/// delegate gets one `began` when they start touching and one `ended` when they stop touching,
/// or when the item leaves the behavior, the boundary is removed, the collision mode stops
/// covering them, or the behavior leaves its animator. A pair counts once however many edges
/// or shapes touch: an item in a corner of the reference-bounds loop gets one `began` for the
/// identifier nil, and one `ended` when it touches neither edge. Calls after a world step come
/// in one batch (every `began`, then every `ended`); the `ended` calls a removal causes are
/// made as soon as the removing call has finished (or after the current tick, when the
/// removal is made from a delegate call or an action). Replacing a boundary, adding other
/// boundaries or items, or changing the reference bounds does not repeat a call for a pair
/// that stays in contact. A delegate set while items already touch gets a `began` for each
/// such pair after the next tick.
open class CollisionBehavior: ItemListBehavior {
    /// What the items collide with.
    public struct Mode: OptionSet, Sendable {
        /// The option bits: 1 items, 2 boundaries.
        public let rawValue: UInt
        /// A mode from its option bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The items collide with each other.
        public static let items = Mode(rawValue: 1)
        /// The items collide with the behavior's boundaries (the reference-bounds loop included).
        public static let boundaries = Mode(rawValue: 2)
        /// The items collide with each other and with the boundaries (the default).
        public static let everything: Mode = [.items, .boundaries]
    }

    /// What the items collide with (default `.everything`). Pairs the new mode no longer
    /// covers get their `ended` call.
    public var collisionMode: Mode = .everything {
        didSet { applyMode() }
    }
    /// Told when items touch each other or the boundaries (see the class comment).
    public weak var collisionDelegate: CollisionBehaviorDelegate? {
        didSet { needsScan = true; dynamicAnimator?.tickListsChanged() }
    }

    /// A loop 1 pt outside the (inset) reference bounds; its identifier is nil in callbacks.
    /// Its sides push only inward: an item squeezed past one (by a snap, say) is pushed back in.
    public var translatesReferenceBoundsIntoBoundary = false {
        didSet { if translatesReferenceBoundsIntoBoundary != oldValue { rebuildLoop() } }
    }
    private var insets = EdgeInsets.zero

    /// The high half of the engine ids of this behavior's boundaries, so that a contact with
    /// one is told apart from a contact with another behavior's: a number its animator gives
    /// it each time it joins (`DynamicAnimator.nextCollisionSerial()`), unique in that animator.
    private var serial: UInt32 = 0
    private var group: CollisionGroupID?

    /// A named boundary: its points, closed flag, its code (the low half of its engine id,
    /// kept while the identifier exists) and its engine segments.
    private struct Named {
        var id: String
        var points: [CGPoint]
        var closed: Bool
        var code: UInt32
        var segments: [BoundaryHandle] = []
    }
    private var named: [Named] = []
    private var loopSegments: [BoundaryHandle] = []
    private var nextCode: UInt32 = 1
    /// The code of the reference-bounds loop.
    private static let loopCode: UInt32 = 0

    /// A collision behavior for `items`, with no boundary and mode `.everything`.
    public override init(items: [any DynamicItem] = []) {
        super.init(items: items)
    }

    /// Turns on the reference-bounds loop, inset from the reference bounds by `insets`.
    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        precondition(insets.top.isFinite && insets.left.isFinite && insets.bottom.isFinite && insets.right.isFinite,
                     "setTranslatesReferenceBoundsIntoBoundary(with:): insets must be finite")
        let changed = insets != self.insets
        self.insets = insets
        if translatesReferenceBoundsIntoBoundary { if changed { rebuildLoop() } } else { translatesReferenceBoundsIntoBoundary = true }
    }

    /// Adds (or replaces) a segment boundary.
    public func addBoundary(withIdentifier identifier: String, from p1: CGPoint, to p2: CGPoint) {
        // Replacing a segment with a segment reuses its point list (a component that moves its
        // boundary on every toggle allocates nothing here).
        if let k = named.firstIndex(where: { $0.id == identifier }), named[k].points.count == 2 {
            precondition(p1.x.isFinite && p1.y.isFinite && p2.x.isFinite && p2.y.isFinite, "addBoundary: points must be finite")
            removeSegments(&named[k].segments)
            named[k].points[0] = p1
            named[k].points[1] = p2
            named[k].closed = false
            addSegments(of: k)
            dynamicAnimator?.resume()
            return
        }
        addBoundary(withIdentifier: identifier, for: [p1, p2])
    }

    /// Adds (or replaces) a boundary along a path: an open polyline, or a closed polygon when
    /// the last point equals the first. Replacing keeps the calls of items touching it: an item
    /// still touching the new path gets no second `began`.
    public func addBoundary(withIdentifier identifier: String, for path: [CGPoint]) {
        precondition(path.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "addBoundary: points must be finite")
        precondition(path.count >= 2, "addBoundary: a boundary needs at least 2 points")
        var points = path, closed = false
        if points.count > 3, points.first == points.last { points.removeLast(); closed = true }
        if let k = named.firstIndex(where: { $0.id == identifier }) {
            removeSegments(&named[k].segments)
            named[k].points = points
            named[k].closed = closed
            addSegments(of: k)
        } else {
            named.append(Named(id: identifier, points: points, closed: closed, code: nextCode))
            nextCode &+= 1
            addSegments(of: named.count - 1)
        }
        dynamicAnimator?.resume()
    }

    /// The points of the boundary with this identifier, or nil.
    public func boundary(withIdentifier identifier: String) -> [CGPoint]? {
        named.first { $0.id == identifier }.map { $0.closed ? $0.points + [$0.points[0]] : $0.points }
    }

    /// Removes a boundary; an unknown identifier is ignored (as in UIKit). Items touching it
    /// get their `ended` call.
    public func removeBoundary(withIdentifier identifier: String) {
        guard let k = named.firstIndex(where: { $0.id == identifier }) else { return }
        removeSegments(&named[k].segments)
        named.remove(at: k)
        boundariesLeft()
    }

    /// Removes every named boundary (the reference-bounds loop stays).
    public func removeAllBoundaries() {
        guard !named.isEmpty else { return }
        for k in named.indices { removeSegments(&named[k].segments) }
        named.removeAll()
        boundariesLeft()
    }

    /// The identifiers of the named boundaries, in the order they were added; nil when there
    /// are none (the reference-bounds loop has no identifier).
    public var boundaryIdentifiers: [String]? { named.isEmpty ? nil : named.map(\.id) }

    // MARK: Engine

    private var engineMode: CollisionMode {
        var m: CollisionMode = []
        if collisionMode.contains(.items) { m.insert(.items) }
        if collisionMode.contains(.boundaries) { m.insert(.boundaries) }
        return m
    }

    private func applyMode() {
        guard let animator = dynamicAnimator?.core, let g = group else { return }
        animator.world.setMode(engineMode, of: g)
        needsScan = true
        pruneContacts(animator)
        animator.resume()
        animator.deliverContactCallsIfIdle()
    }

    override func attach(to animator: AnimatorCore) {
        serial = animator.nextCollisionSerial()
        let g = animator.world.createCollisionGroup(mode: engineMode)
        group = g
        for h in bodies { animator.world.addBody(h, to: g) }
        if translatesReferenceBoundsIntoBoundary { addLoop() }
        for k in named.indices { addSegments(of: k) }
        needsScan = true
    }

    override func detach(from animator: AnimatorCore) {
        if let g = group, animator.world.isValid(g) { animator.world.destroyCollisionGroup(g) }
        group = nil
        loopSegments.removeAll()
        for k in named.indices { named[k].segments.removeAllKeepingCapacity() }
        pruneContacts(animator)
    }

    override func itemsDidChange(added: [any DynamicItem], removed: [any DynamicItem], animator: AnimatorCore) {
        guard let g = group else { return }
        for item in added { if let h = animator.body(for: item) { animator.world.addBody(h, to: g) } }
        for item in removed { if let h = animator.body(for: item) { animator.world.removeBody(h, from: g) } }
        needsScan = true
        if !removed.isEmpty { pruneContacts(animator) }
    }

    override func referenceBoundsChanged() { if translatesReferenceBoundsIntoBoundary { rebuildLoop() } }

    override func contribute(to state: inout CompiledState) { if wantsContactScans { state.reportContacts(of: self) } }

    private func engineID(_ code: UInt32) -> UInt64 { UInt64(serial) << 32 | UInt64(code) }

    private func addSegments(of k: Int) {
        guard let animator = dynamicAnimator, let g = group else { return }
        let b = named[k]
        if !b.closed && b.points.count == 2 {
            // One segment: what addBoundaryPath would add (nothing when degenerate), without
            // its point and handle lists.
            named[k].segments.removeAllKeepingCapacity()
            if let h = try? animator.world.addBoundary(b.points[0].vec, b.points[1].vec, group: g, id: engineID(b.code)) {
                named[k].segments.append(h)
            }
            return
        }
        named[k].segments = (try? animator.world.addBoundaryPath(b.points.map { $0.vec }, closed: b.closed, group: g,
                                                                  id: engineID(b.code))) ?? []
    }

    private func addLoop() {
        guard let animator = dynamicAnimator, let g = group else { return }
        let r = animator.referenceBounds
        let x0 = r.minX + insets.left - 1, y0 = r.minY + insets.top - 1
        let x1 = r.maxX - insets.right + 1, y1 = r.maxY - insets.bottom + 1
        let corners = [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)]
        // An empty or inverted rectangle (insets larger than the bounds) makes no loop.
        guard x1 > x0, y1 > y0 else { return }
        loopSegments = (try? animator.world.addBoundaryPath(corners.map { $0.vec }, closed: true, group: g,
                                                             id: engineID(Self.loopCode), keepsBodiesInside: true)) ?? []
    }

    private func removeSegments(_ segments: inout [BoundaryHandle]) {
        if let animator = dynamicAnimator {
            for h in segments where animator.world.isValid(h) { animator.world.removeBoundary(h) }
        }
        segments.removeAllKeepingCapacity()
    }

    private func rebuildLoop() {
        removeSegments(&loopSegments)
        if translatesReferenceBoundsIntoBoundary { addLoop() } else { boundariesLeft(); return }
        dynamicAnimator?.resume()
    }

    /// After boundaries went away: their pairs end.
    private func boundariesLeft() {
        guard let animator = dynamicAnimator?.core else { return }
        pruneContacts(animator)
        animator.resume()
        animator.deliverContactCallsIfIdle()
    }

    // MARK: Contact calls

    /// A pair the delegate has been told touches: two items (ordered by identity) or an item
    /// and a boundary code.
    enum PairKey: Hashable {
        case items(ObjectIdentifier, ObjectIdentifier)
        case boundary(ObjectIdentifier, UInt32)
    }
    struct Pair {
        var key: PairKey
        var item: any DynamicItem
        var other: (any DynamicItem)?
        var identifier: String?
        var point: CGPoint
    }
    /// The pairs the delegate was told about (`began` without `ended` yet), in the order they
    /// began; `touchingIndex` maps a key to its position.
    private var touching: [Pair] = []
    private var touchingIndex: [PairKey: Int] = [:]
    /// The delegate `touching` was reported to.
    private var touchingDelegate: ObjectIdentifier?
    /// Whether a tick must look at this behavior's contacts: it has a delegate, or still
    /// remembers pairs told to one (cleared on the next look once the delegate is gone).
    var wantsContactScans: Bool { collisionDelegate != nil || touchingDelegate != nil }
    /// The previous `touching` buffer, reused by the next scan.
    private var keptScratch: [Pair] = []
    /// The pairs found touching by the scan under way.
    private var found: [Pair] = []
    private var foundIndex: [PairKey: Int] = [:]
    /// Set when membership, boundaries, the mode or the delegate changed: the next tick looks
    /// at the world's contacts even if the step reported no event.
    var needsScan = true

    /// Whether the tick that just ran must look at the contacts for this behavior; clears
    /// silently what a vanished delegate was told.
    func wantsScan(afterEvents events: Bool) -> Bool {
        guard let d = collisionDelegate else {
            if !touching.isEmpty { touching.removeAll(); touchingIndex.removeAll() }
            touchingDelegate = nil
            return false
        }
        if touchingDelegate != ObjectIdentifier(d) {
            // A new delegate starts from nothing: it is told about every pair that touches.
            touching.removeAll(); touchingIndex.removeAll()
            touchingDelegate = ObjectIdentifier(d)
            return true
        }
        return events || needsScan
    }

    func beginScan() {
        found.removeAllKeepingCapacity()
        foundIndex.removeAll(keepingCapacity: true)
    }

    private func boundaryName(_ code: UInt32) -> String?? {
        if code == Self.loopCode { return translatesReferenceBoundsIntoBoundary && !loopSegments.isEmpty ? .some(nil) : nil }
        guard let b = named.first(where: { $0.code == code }) else { return nil }
        return .some(b.id)
    }

    /// A touching contact between two items of the animator.
    func scanned(_ a: any DynamicItem, _ b: any DynamicItem, at p: CGPoint) {
        guard collisionMode.contains(.items) else { return }
        let ia = ObjectIdentifier(a), ib = ObjectIdentifier(b)
        guard ia != ib, itemSet.contains(ia), itemSet.contains(ib) else { return }
        let key = PairKey.items(min(ia, ib), max(ia, ib))
        guard foundIndex[key] == nil else { return }
        foundIndex[key] = found.count
        found.append(Pair(key: key, item: a, other: b, identifier: nil, point: p))
    }

    /// A touching contact between an item and a boundary segment of this behavior.
    func scanned(_ a: any DynamicItem, boundaryCode code: UInt32, at p: CGPoint) {
        guard collisionMode.contains(.boundaries), itemSet.contains(ObjectIdentifier(a)), let name = boundaryName(code) else { return }
        let key = PairKey.boundary(ObjectIdentifier(a), code)
        guard foundIndex[key] == nil else { return }
        foundIndex[key] = found.count
        found.append(Pair(key: key, item: a, other: nil, identifier: name, point: p))
    }

    /// Compares the scan with what the delegate was told: new pairs `began`, missing ones `ended`.
    func endScan(began: inout [ContactCall], ended: inout [ContactCall]) {
        needsScan = false
        // The new list is built in a reused buffer and swapped in: no allocation once warm.
        var kept = keptScratch
        keptScratch = []
        kept.removeAllKeepingCapacity()
        for p in touching {
            if foundIndex[p.key] != nil { kept.append(p) } else { ended.append(ContactCall(behavior: self, pair: p, began: false)) }
        }
        for p in found where touchingIndex[p.key] == nil {
            kept.append(p)
            began.append(ContactCall(behavior: self, pair: p, began: true))
        }
        keptScratch = touching
        touching = kept
        touchingIndex.removeAll(keepingCapacity: true)
        for (k, p) in touching.enumerated() { touchingIndex[p.key] = k }
    }

    /// Ends the pairs that membership, boundaries, mode or the animator no longer allow.
    func pruneContacts(_ animator: AnimatorCore) {
        guard !touching.isEmpty else { return }
        let attached = group != nil
        var kept: [Pair] = []
        for p in touching {
            let alive: Bool
            switch p.key {
            case .items(let a, let b):
                alive = attached && collisionMode.contains(.items) && itemSet.contains(a) && itemSet.contains(b)
            case .boundary(let a, let code):
                alive = attached && collisionMode.contains(.boundaries) && itemSet.contains(a) && boundaryName(code) != nil
            }
            if alive {
                kept.append(p)
            } else if !animator.withdrawBegan(of: self, p.key) {
                animator.queue(ContactCall(behavior: self, pair: p, began: false))
            }
        }
        if kept.count != touching.count {
            touching = kept
            touchingIndex.removeAll(keepingCapacity: true)
            for (k, p) in touching.enumerated() { touchingIndex[p.key] = k }
        }
    }

    /// Makes one delegate call.
    func deliver(_ call: ContactCall) {
        guard let delegate = collisionDelegate else { return }
        let p = call.pair
        if let other = p.other {
            if call.began { delegate.collisionBehavior(self, beganContactFor: p.item, with: other, at: p.point) }
            else { delegate.collisionBehavior(self, endedContactFor: p.item, with: other) }
        } else {
            if call.began { delegate.collisionBehavior(self, beganContactFor: p.item, withBoundaryIdentifier: p.identifier, at: p.point) }
            else { delegate.collisionBehavior(self, endedContactFor: p.item, withBoundaryIdentifier: p.identifier) }
        }
    }

    /// The behavior's boundary code in an engine boundary id, when the id is this behavior's.
    func boundaryCode(ofEngineID id: UInt64) -> UInt32? {
        UInt32(truncatingIfNeeded: id >> 32) == serial ? UInt32(truncatingIfNeeded: id) : nil
    }
}

/// One delegate call waiting to be made.
struct ContactCall {
    let behavior: CollisionBehavior
    let pair: CollisionBehavior.Pair
    let began: Bool
    /// Set when the pair ended before this `began` was made: it is skipped.
    var withdrawn = false
}
