import DynamicsKit
import Foundation
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// The springy list of iOS 7's Messages at any length: a flow layout whose cells hang on
/// zero-length springs (`AttachmentBehavior`, length 0, damping `springDamping`, frequency
/// `springFrequency`) to their flow positions, in a `DynamicAnimator(collectionViewLayout:)`.
/// When the list scrolls, each cell moves by the scroll's delta × min(1, its distance from the
/// finger / `resistanceDistance`): cells near the finger follow it, far ones lag and then
/// spring back (the objc.io article "UICollectionView + UIKit Dynamics").
///
/// **Tiling** (the article's second part): only the cells within one screen of the visible
/// rectangle (the bounds grown by their own size on every side) hold a spring. `prepare()`
/// adds springs for cells that come within that range and removes those of cells that leave
/// it; cells that stay keep their springs and their motion. A cell that gets a spring while
/// the finger is down starts displaced as the last scroll would have displaced it. So a
/// frame's cost follows the cells near the screen, not the number of items: the rows in range
/// are found by arithmetic (`forEachItem(in:_:)`), and leaving springs and their attributes are
/// kept for the next cells that come in (no allocation once warm).
///
/// The layout answers `layoutAttributesForElements(in:)` with the springs' attributes (cells
/// without a spring are never on screen) in a reused array, and
/// `layoutAttributesForItem(at:)` with a cell's spring attributes, or its flow attributes when
/// it has none.
open class SpringyFlowLayout: CollectionViewFlowLayout {
    /// The animator of the springs (on the collection view's clock).
    public private(set) lazy var animator = DynamicAnimator(collectionViewLayout: self)
    /// The springs' damping ratio (UIKit's `damping`). Default 0.8.
    public var springDamping: CGFloat = 0.8 {
        didSet { for s in springs.values { s.behavior.damping = springDamping }; for s in pool { s.behavior.damping = springDamping } }
    }
    /// The springs' frequency (Hz). Default 1.
    public var springFrequency: CGFloat = 1 {
        didSet { for s in springs.values { s.behavior.frequency = springFrequency }; for s in pool { s.behavior.frequency = springFrequency } }
    }
    /// The distance from the finger (pt, |dx| + |dy|) at which a cell stays put in the content
    /// when the list scrolls (it lags by the whole scroll); nearer cells move proportionally
    /// less. Default 1500.
    public var resistanceDistance: CGFloat = 1500 {
        didSet { precondition(resistanceDistance.isFinite && resistanceDistance > 0, "SpringyFlowLayout.resistanceDistance must be finite and positive") }
    }

    /// A cell's spring: its attributes (the animator's item) and the attachment holding them.
    private struct Spring {
        let attributes: CollectionViewLayoutAttributes
        let behavior: AttachmentBehavior
        var pass: Int
    }
    // The layout's state is `@exclusivity(unchecked)`: every frame reads it many times, and a
    // layout is used from its collection view's clock's thread only.
    /// The springs by cell (`key(_:)`: section and item in one integer, cheaper to hash than
    /// an index path).
    @exclusivity(unchecked) private var springs: [Int: Spring] = [:]
    /// Springs taken out of the animator, kept for the next cells.
    @exclusivity(unchecked) private var pool: [Spring] = []
    @exclusivity(unchecked) private var leaving: [Int] = []
    @exclusivity(unchecked) private var answer: [CollectionViewLayoutAttributes] = []
    @exclusivity(unchecked) private var pass = 0
    /// The scroll axis' last bounds change (pt), for the cells that get a spring meanwhile.
    @exclusivity(unchecked) private var latestDelta: CGFloat = 0

    @inline(__always) private static func key(_ ip: IndexPath) -> Int { ip.section &<< 32 | ip.item }
    @inline(__always) private static func key(section: Int, item: Int) -> Int { section &<< 32 | item }

    /// Springs added and removed so far (cells entering and leaving the tiled range).
    public private(set) var springsAdded = 0
    public private(set) var springsRemoved = 0
    /// Cells holding a spring now.
    public var springCount: Int { springs.count }

    /// A springy flow layout with the flow layout's defaults.
    public override init() {
        super.init()
        _ = animator
    }

    /// The bounds grown by their own size on every side: the cells that hold a spring.
    public var tiledRect: CGRect {
        guard let b = collectionView?.bounds else { return .null }
        return b.insetBy(dx: -b.width, dy: -b.height)
    }

    /// Recomputes the rows, then adds springs for cells that came within one screen of the
    /// visible rectangle and removes the springs of cells that left it.
    open override func prepare() {
        super.prepare()
        guard let cv = collectionView else { return }
        pass &+= 1
        let pass = self.pass
        let vertical = scrollDirection == .vertical
        let touch = cv.panGestureRecognizer.location(in: cv)
        let touching = touch != .zero
        forEachItem(in: tiledRect) { ip, frame in
            let anchor = CGPoint(x: frame.midX, y: frame.midY)
            let key = Self.key(ip)
            if let s = springs[key] {
                springs[key]!.pass = pass
                // (The rows moved: a new width, item size or spacing.)
                if s.behavior.anchorPoint != anchor { s.behavior.anchorPoint = anchor }
                return
            }
            var s: Spring
            if let spare = pool.popLast() {
                s = spare
                s.pass = pass
                s.attributes.indexPath = ip
                s.attributes.frame = frame
                s.attributes.transform = .identity
                s.behavior.anchorPoint = anchor
            } else {
                let a = CollectionViewLayoutAttributes(forCellWith: ip)
                a.frame = frame
                let b = AttachmentBehavior(item: a, attachedToAnchor: anchor)
                b.length = 0
                b.damping = springDamping
                b.frequency = springFrequency
                s = Spring(attributes: a, behavior: b, pass: pass)
            }
            if let n = sprungNeighbour(of: ip) {
                // Displaced as its neighbour is (along the scroll axis): the cells near the
                // screen keep their order and spacing however far the list lags.
                let d = vertical ? n.attributes.center.y - n.behavior.anchorPoint.y : n.attributes.center.x - n.behavior.anchorPoint.x
                s.attributes.center = vertical ? CGPoint(x: anchor.x, y: anchor.y + d) : CGPoint(x: anchor.x + d, y: anchor.y)
            } else if touching && latestDelta != 0 {
                s.attributes.center = displaced(s.attributes.center, anchor: anchor, touch: touch, delta: latestDelta, vertical: vertical)
            }
            springs[key] = s
            animator.addBehavior(s.behavior)
            springsAdded += 1
        }
        for (key, s) in springs where s.pass != pass { leaving.append(key) }
        if !leaving.isEmpty {
            for key in leaving {
                guard let s = springs.removeValue(forKey: key) else { continue }
                animator.removeBehavior(s.behavior)
                pool.append(s)
                springsRemoved += 1
            }
            leaving.removeAll(keepingCapacity: true)
        }
    }

    /// The spring of the item just before `ip` in its section, or else of the one just after.
    private func sprungNeighbour(of ip: IndexPath) -> Spring? {
        if ip.item > 0, let s = springs[Self.key(section: ip.section, item: ip.item - 1)] { return s }
        return springs[Self.key(section: ip.section, item: ip.item + 1)]
    }

    /// `center` moved along the scroll axis by `delta` scaled by its anchor's distance from
    /// the finger (at most the whole delta).
    @inline(__always)
    private func displaced(_ center: CGPoint, anchor: CGPoint, touch: CGPoint, delta: CGFloat, vertical: Bool) -> CGPoint {
        let resistance = (abs(touch.y - anchor.y) + abs(touch.x - anchor.x)) / resistanceDistance
        let move = delta * min(1, resistance)
        return vertical ? CGPoint(x: center.x, y: center.y + move) : CGPoint(x: center.x + move, y: center.y)
    }

    /// The springs' attributes whose frames overlap `rect` (one array, reused: do not keep it).
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        // (Emptied in place: the collection view let go of last frame's answer.)
        answer.removeAll(keepingCapacity: true)
        for s in springs.values {
            let a = s.attributes
            let c = a.center, h = a.size
            if c.x + h.width / 2 > rect.minX && c.x - h.width / 2 < rect.maxX && c.y + h.height / 2 > rect.minY && c.y - h.height / 2 < rect.maxY {
                answer.append(a)
            }
        }
        return answer
    }

    /// The cell's spring attributes, or its flow attributes when it holds no spring.
    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2 else { return nil }
        return springs[Self.key(indexPath)]?.attributes ?? super.layoutAttributesForItem(at: indexPath)
    }

    /// Moves every sprung cell by the scroll's delta scaled by its distance from the finger;
    /// true when the bounds move or change size (the springs' range follows the bounds, and a
    /// new size changes the rows).
    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let cv = collectionView else { return false }
        let vertical = scrollDirection == .vertical
        let old = cv.bounds
        let delta = vertical ? newBounds.minY - old.minY : newBounds.minX - old.minX
        latestDelta = delta
        if delta != 0 {
            let touch = cv.panGestureRecognizer.location(in: cv)
            for s in springs.values {
                let a = s.attributes
                a.center = displaced(a.center, anchor: s.behavior.anchorPoint, touch: touch, delta: delta, vertical: vertical)
                animator.updateItem(usingCurrentState: a)
            }
        }
        return delta != 0 || super.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
}
