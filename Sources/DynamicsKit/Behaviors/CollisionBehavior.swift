import DynamicsEngine

/// Told when items of a collision behavior touch each other or its boundaries. All optional.
public protocol CollisionBehaviorDelegate: AnyObject {
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint)
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem)
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint)
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
open class CollisionBehavior: ItemListBehavior {
    /// What the items collide with.
    public struct Mode: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let items = Mode(rawValue: 1)
        public static let boundaries = Mode(rawValue: 2)
        public static let everything: Mode = [.items, .boundaries]
    }

    public var collisionMode: Mode = .everything {
        didSet { applyMode() }
    }
    public weak var collisionDelegate: CollisionBehaviorDelegate?

    /// A loop 1 pt outside the (inset) reference bounds; its identifier is nil in callbacks.
    /// Its sides push only inward: an item squeezed past one (by a snap, say) is pushed back in.
    public var translatesReferenceBoundsIntoBoundary = false {
        didSet { rebuildBoundaries() }
    }
    private var insets = EdgeInsets.zero

    private var group: CollisionGroupID?
    /// Named boundaries: their points, closed flag and engine segments.
    private var named: [(id: String, points: [CGPoint], closed: Bool)] = []
    private var segments: [BoundaryHandle: String?] = [:]

    public override init(items: [any DynamicItem] = []) {
        super.init(items: items)
    }

    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        precondition(insets.top.isFinite && insets.left.isFinite && insets.bottom.isFinite && insets.right.isFinite,
                     "setTranslatesReferenceBoundsIntoBoundary(with:): insets must be finite")
        self.insets = insets
        translatesReferenceBoundsIntoBoundary = true
    }

    /// Adds (or replaces) a segment boundary.
    public func addBoundary(withIdentifier identifier: String, from p1: CGPoint, to p2: CGPoint) {
        addBoundary(withIdentifier: identifier, for: [p1, p2])
    }

    /// Adds (or replaces) a boundary along a path: an open polyline, or a closed polygon when
    /// the last point equals the first.
    public func addBoundary(withIdentifier identifier: String, for path: [CGPoint]) {
        precondition(path.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "addBoundary: points must be finite")
        precondition(path.count >= 2, "addBoundary: a boundary needs at least 2 points")
        var points = path, closed = false
        if points.count > 3, points.first == points.last { points.removeLast(); closed = true }
        named.removeAll { $0.id == identifier }
        named.append((identifier, points, closed))
        rebuildBoundaries()
    }

    /// The points of the boundary with this identifier, or nil.
    public func boundary(withIdentifier identifier: String) -> [CGPoint]? {
        named.first { $0.id == identifier }.map { $0.closed ? $0.points + [$0.points[0]] : $0.points }
    }

    /// Removes a boundary; an unknown identifier is ignored (as in UIKit).
    public func removeBoundary(withIdentifier identifier: String) {
        named.removeAll { $0.id == identifier }
        rebuildBoundaries()
    }

    public func removeAllBoundaries() {
        named.removeAll()
        rebuildBoundaries()
    }

    public var boundaryIdentifiers: [String]? { named.isEmpty ? nil : named.map(\.id) }

    // MARK: Engine

    private var engineMode: CollisionMode {
        var m: CollisionMode = []
        if collisionMode.contains(.items) { m.insert(.items) }
        if collisionMode.contains(.boundaries) { m.insert(.boundaries) }
        return m
    }

    private func applyMode() {
        guard let animator = dynamicAnimator, let g = group else { return }
        animator.world.setMode(engineMode, of: g)
        animator.resume()
    }

    override func attach(to animator: DynamicAnimator) {
        let g = animator.world.createCollisionGroup(mode: engineMode)
        group = g
        for item in items { if let h = animator.body(for: item) { animator.world.addBody(h, to: g) } }
        rebuildBoundaries()
    }

    override func detach(from animator: DynamicAnimator) {
        if let g = group { animator.world.destroyCollisionGroup(g) }
        group = nil
        segments.removeAll()
    }

    func referenceBoundsChanged() { if translatesReferenceBoundsIntoBoundary { rebuildBoundaries() } }

    private func rebuildBoundaries() {
        guard let animator = dynamicAnimator, let g = group else { return }
        for h in segments.keys where animator.world.isValid(h) { animator.world.removeBoundary(h) }
        segments.removeAll()
        func add(_ points: [CGPoint], closed: Bool, name: String?, inside: Bool = false) {
            let v = points.map { $0.vec }
            guard let hs = try? animator.world.addBoundaryPath(v, closed: closed, group: g, keepsBodiesInside: inside) else { return }
            for h in hs { segments[h] = .some(name) }
        }
        if translatesReferenceBoundsIntoBoundary {
            let r = animator.referenceBounds
            let x0 = r.minX + insets.left - 1, y0 = r.minY + insets.top - 1
            let x1 = r.maxX - insets.right + 1, y1 = r.maxY - insets.bottom + 1
            add([CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)], closed: true, name: nil, inside: true)
        }
        for b in named { add(b.points, closed: b.closed, name: b.id) }
        animator.resume()
    }

    private func holds(_ item: any DynamicItem) -> Bool { items.contains { $0 === item } }

    /// Forwards an engine contact event to the delegate when it concerns this behavior.
    func report(_ e: ContactEvent, began: Bool, animator: DynamicAnimator) {
        guard let delegate = collisionDelegate, let item = animator.item(ofBody: e.body), holds(item) else { return }
        switch e.other {
        case .body(let other):
            guard let item2 = animator.item(ofBody: other), holds(item2), collisionMode.contains(.items) else { return }
            if began { delegate.collisionBehavior(self, beganContactFor: item, with: item2, at: CGPoint(e.point)) }
            else { delegate.collisionBehavior(self, endedContactFor: item, with: item2) }
        case .boundary(let h, _):
            guard let name = segments[h] else { return }
            if began { delegate.collisionBehavior(self, beganContactFor: item, withBoundaryIdentifier: name, at: CGPoint(e.point)) }
            else { delegate.collisionBehavior(self, endedContactFor: item, withBoundaryIdentifier: name) }
        }
    }
}
