import Foundation
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// What a collection view shows: how many sections and items (UIKit's
/// `UICollectionViewDataSource`; the cells themselves come from `CollectionView.cellProvider`).
public protocol CollectionViewDataSource: AnyObject {
    /// The number of items in `section` (≥ 0).
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The number of sections (≥ 0). Default 1.
    func numberOfSections(in collectionView: CollectionView) -> Int
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
}

/// How quickly a flung collection view slows down (UIKit's `UIScrollView.DecelerationRate`):
/// the fraction of its velocity kept per millisecond.
public struct DecelerationRate: Sendable, Equatable, Hashable {
    /// The fraction of the velocity kept per millisecond (0 < rawValue < 1).
    public let rawValue: CGFloat
    /// A rate; `rawValue` must be in (0, 1).
    public init(rawValue: CGFloat) {
        precondition(rawValue > 0 && rawValue < 1, "DecelerationRate: the rate must be between 0 and 1 (got \(rawValue))")
        self.rawValue = rawValue
    }
    /// UIKit's default, 0.998 per ms.
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// UIKit's fast rate, 0.99 per ms.
    public static let fast = DecelerationRate(rawValue: 0.99)
}

/// A headless collection view (UIKit's `UICollectionView`): a scrolling `DynamicView` whose
/// cells (subviews) are placed by its `collectionViewLayout`, with a scripted finger.
///
/// **Coordinates.** `bounds.origin` is `contentOffset`: the cells' centres are in content
/// coordinates, and what is on screen is the content rectangle `bounds`. `frame` and `center`
/// place the collection view in its superview, as for any view.
///
/// **Cells.** Only the cells whose attributes meet `bounds` exist, as subviews; a cell that
/// scrolls out goes to a reuse pool, and `cellProvider` reconfigures it for the next one that
/// comes in. The layout pass (layout `prepare()` when invalid, then
/// `layoutAttributesForElements(in: bounds)`, then the cells) runs at the end of the clock's
/// next advance after a change, or at once with `layoutCellsIfNeeded()`; `reloadData()` reads the
/// data source and prepares the layout at once.
///
/// **Scrolling.** `beginDrag(at:)`, `drag(to:)` and `endDrag(velocity:)` are a finger on the
/// screen (points in the collection view's frame coordinates): while dragging the content
/// follows the finger (beyond an end, with UIKit's rubber band), after it lifts the content
/// decelerates at `decelerationRate` per millisecond, and a fling that runs past an end springs
/// back. Each change of the offset asks the layout `shouldInvalidateLayout(forBoundsChange:)`
/// first, as UIKit does. The deceleration advances with `clock` (`.main` unless given another).
/// docs/dynamicskit.md, "Collection views", gives the model.
///
/// Use from the thread that advances `clock`.
open class CollectionView: DynamicView {
    /// Places the cells. A layout serves one collection view.
    public let collectionViewLayout: CollectionViewLayout
    /// The clock that decelerates this view and runs its layout's animators.
    public let clock: AnimationClock
    /// Gives the numbers of sections and items (held weakly; nil: no items).
    public weak var dataSource: CollectionViewDataSource?
    /// Makes the view of a cell that comes on screen: `reusing` is a cell that scrolled out
    /// (nil when none is spare), to reconfigure and return — or a new view. The collection view
    /// sets the cell's centre, size, transform, alpha and hidden state from its attributes.
    /// nil: plain light grey cells.
    public var cellProvider: ((_ collectionView: CollectionView, _ indexPath: IndexPath, _ reusing: DynamicView?) -> DynamicView)?
    /// The finger of the scripted drags (UIKit's `panGestureRecognizer`).
    public let panGestureRecognizer = PanGestureRecognizer()
    /// How quickly the content slows down after a fling. Default `.normal` (0.998 per ms).
    public var decelerationRate: DecelerationRate = .normal
    /// Whether the content may go past its ends (rubber band, spring back). Default true.
    public var bounces = true

    private var offset: CGPoint = .zero
    /// The size of the content (the layout's `collectionViewContentSize` at the last layout pass).
    public private(set) var contentSize: CGSize = .zero

    // Data source counts, read by `reloadData()` (and the first layout pass).
    private var counts: [Int] = []
    private var countsRead = false

    /// The cells on screen by index path, each with the layout pass that last placed it.
    private struct VisibleCell { let view: DynamicView; var pass: Int }
    private var visible: [IndexPath: VisibleCell] = [:]
    private var reusable: [DynamicView] = []
    private var staleKeys: [IndexPath] = []
    private var passNumber = 0
    private lazy var pendingPass = CollectionLayoutPass(self)
    private var passScheduled = false
    private var inLayoutPass = false

    /// A collection view with this frame (in its superview), laid out by `layout`, on `clock`.
    /// - Precondition: `layout` serves no other collection view.
    public init(frame: CGRect, collectionViewLayout layout: CollectionViewLayout, clock: AnimationClock = .main) {
        precondition(layout.collectionView == nil, "CollectionView: the layout already serves another collection view")
        self.collectionViewLayout = layout
        self.clock = clock
        super.init(frame: frame)
        layout.collectionView = self
        panGestureRecognizer.view = self
        layout.forEachAnimator { $0.move(to: clock) }
        layout.needsPrepare = true
        setNeedsCellLayout()
    }

    deinit {
        if passScheduled { AnimationClock.withdrawLayoutPass(pendingPass) }
        if scrollDriverRegistered { clock.removeFrameDriver(scroll) }
    }

    // MARK: Data

    /// Sections, from the data source at the last `reloadData()`.
    public var numberOfSections: Int { readCountsIfNeeded(); return counts.count }

    /// Items in `section` as of the last `reloadData()` (0 for a section that does not exist).
    public func numberOfItems(inSection section: Int) -> Int {
        readCountsIfNeeded()
        return section >= 0 && section < counts.count ? counts[section] : 0
    }

    /// Reads the data source again, makes the layout prepare at once, lets the offset back into
    /// the new content and places the cells (cells of items that no longer exist leave).
    public func reloadData() {
        readCounts()
        collectionViewLayout.needsPrepare = true
        layoutCellsIfNeeded()
        let clamped = clampedOffset(offset)
        if clamped != offset && !isDragging {
            stopScrolling()
            applyOffset(clamped)
            layoutCellsIfNeeded()
        }
    }

    private func readCountsIfNeeded() { if !countsRead { readCounts() } }

    private func readCounts() {
        countsRead = true
        counts.removeAll(keepingCapacity: true)
        guard let ds = dataSource else { return }
        let n = ds.numberOfSections(in: self)
        precondition(n >= 0, "CollectionView: numberOfSections(in:) returned a negative count (\(n))")
        for s in 0..<n {
            let c = ds.collectionView(self, numberOfItemsInSection: s)
            precondition(c >= 0, "CollectionView: collectionView(_:numberOfItemsInSection: \(s)) returned a negative count (\(c))")
            counts.append(c)
        }
    }

    private func isValid(_ indexPath: IndexPath) -> Bool {
        guard indexPath.count == 2 else { return false }
        let s = indexPath.section, i = indexPath.item
        return s >= 0 && s < numberOfSections && i >= 0 && i < counts[s]
    }

    // MARK: Geometry

    /// The content rectangle on screen: origin `contentOffset`, the view's size. Setting it
    /// sets the size (around the centre) and the offset.
    open override var bounds: CGRect {
        get { CGRect(origin: offset, size: super.bounds.size) }
        set {
            let sizeChanged = newValue.size != super.bounds.size
            if sizeChanged {
                let nb = CGRect(origin: newValue.origin, size: newValue.size)
                if collectionViewLayout.shouldInvalidateLayout(forBoundsChange: nb) { collectionViewLayout.invalidateLayout() }
                super.bounds = CGRect(origin: .zero, size: newValue.size)
                setNeedsCellLayout()
            }
            if newValue.origin != offset { setContentOffset(newValue.origin, animated: false) }
        }
    }

    /// The view's rectangle in its superview; setting it keeps the content offset (as UIKit's
    /// frame setter keeps the bounds origin).
    open override var frame: CGRect {
        get { super.frame }
        set {
            center = CGPoint(x: newValue.midX, y: newValue.midY)
            bounds = CGRect(origin: offset, size: newValue.size)
        }
    }

    /// The point of the content at the view's top-left corner (`bounds.origin`). Setting it
    /// scrolls at once (`setContentOffset(_:animated: false)`).
    public var contentOffset: CGPoint {
        get { offset }
        set { setContentOffset(newValue, animated: false) }
    }

    /// Scrolls so that `contentOffset` becomes `offset`: at once, or in 0.3 s (ease in and
    /// out) on the clock. Either stops a deceleration. Any offset is accepted, as in UIKit,
    /// even one past the ends.
    /// - Precondition: `offset` is finite (a NaN or infinite offset stops with a message).
    public func setContentOffset(_ offset: CGPoint, animated: Bool) {
        precondition(offset.x.isFinite && offset.y.isFinite, "CollectionView.setContentOffset: the offset must be finite (got \(offset))")
        stopScrolling()
        if animated {
            scroll.startAnimation(from: self.offset, to: offset)
            startScrollDriver()
        } else {
            applyOffset(offset)
        }
    }

    /// The one path of every offset change: the layout is asked first (with the old bounds
    /// still in place), then the offset changes and the cells are placed at the next layout pass.
    func applyOffset(_ o: CGPoint) {
        guard o != offset else { return }
        let newBounds = CGRect(origin: o, size: super.bounds.size)
        let invalidate = collectionViewLayout.shouldInvalidateLayout(forBoundsChange: newBounds)
        offset = o
        if invalidate { collectionViewLayout.invalidateLayout() }
        setNeedsCellLayout()
    }

    /// The smallest and largest offsets that show no space past the content's ends.
    var offsetRange: (min: CGPoint, max: CGPoint) {
        let s = super.bounds.size
        return (.zero, CGPoint(x: max(0, contentSize.width - s.width), y: max(0, contentSize.height - s.height)))
    }

    private func clampedOffset(_ o: CGPoint) -> CGPoint {
        let r = offsetRange
        return CGPoint(x: min(max(o.x, r.min.x), r.max.x), y: min(max(o.y, r.min.y), r.max.y))
    }

    /// Whether the content scrolls along x / y: it is larger than the view that way.
    var scrollsHorizontally: Bool { contentSize.width > super.bounds.size.width }
    var scrollsVertically: Bool { contentSize.height > super.bounds.size.height }

    // MARK: Cells

    /// The index paths of the cells on screen, in index order.
    public var indexPathsForVisibleItems: [IndexPath] {
        layoutCellsIfNeeded()
        return visible.keys.sorted()
    }

    /// The cells on screen (in index order).
    public var visibleCells: [DynamicView] {
        layoutCellsIfNeeded()
        return visible.sorted { $0.key < $1.key }.map(\.value.view)
    }

    /// The cell on screen for `indexPath`; nil when it is not on screen.
    public func cellForItem(at indexPath: IndexPath) -> DynamicView? {
        layoutCellsIfNeeded()
        return visible[indexPath]?.view
    }

    /// The layout's attributes for the item at `indexPath`; nil when the data source (as of the
    /// last `reloadData()`) has no such item.
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard isValid(indexPath) else { return nil }
        prepareLayoutIfNeeded()
        return collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }

    /// Makes the cells' layout pass run at the end of the clock's next advance (on this
    /// thread) — UIKit's `setNeedsLayout()` for the cells, named apart from Auto Layout's
    /// (DynamicsLayout's `setNeedsLayout()` and `layoutIfNeeded()` lay out constraints).
    public func setNeedsCellLayout() {
        guard !passScheduled else { return }
        passScheduled = true
        AnimationClock.scheduleLayoutPass(pendingPass)
    }

    /// Runs the cells' layout pass now if one is pending (UIKit's `layoutIfNeeded()` for the
    /// cells): the layout's `prepare()` when it was invalidated, then the cells of the visible
    /// rectangle.
    public func layoutCellsIfNeeded() {
        if passScheduled {
            passScheduled = false
            AnimationClock.withdrawLayoutPass(pendingPass)
            layoutCells()
        } else if collectionViewLayout.needsPrepare {
            layoutCells()
        }
    }

    private func prepareLayoutIfNeeded() {
        readCountsIfNeeded()
        let layout = collectionViewLayout
        guard layout.needsPrepare else { return }
        layout.needsPrepare = false
        layout.prepare()
        contentSize = layout.collectionViewContentSize
        if layout.hasAnimators {
            let rect = CGRect(origin: .zero, size: contentSize)
            layout.forEachAnimator { if $0.referenceBounds != rect { $0.referenceBounds = rect } }
        }
    }

    /// The layout pass (see the type): places every cell the layout returns for `bounds`.
    func layoutCells() {
        guard !inLayoutPass else { return }
        inLayoutPass = true
        defer { inLayoutPass = false }
        passScheduled = false
        prepareLayoutIfNeeded()
        passNumber &+= 1
        let pass = passNumber
        if let attributes = collectionViewLayout.layoutAttributesForElements(in: bounds) {
            for a in attributes where isValid(a.indexPath) {
                if let cell = visible[a.indexPath] {
                    visible[a.indexPath]!.pass = pass
                    place(cell.view, a)
                } else {
                    let spare = reusable.popLast()
                    let view = cellProvider?(self, a.indexPath, spare) ?? spare ?? Self.defaultCell()
                    if view.superview !== self { addSubview(view) }
                    view.isHidden = false
                    place(view, a)
                    visible[a.indexPath] = VisibleCell(view: view, pass: pass)
                }
            }
        }
        for (k, c) in visible where c.pass != pass { staleKeys.append(k) }
        if !staleKeys.isEmpty {
            for k in staleKeys {
                guard let c = visible.removeValue(forKey: k) else { continue }
                c.view.removeFromSuperview()
                reusable.append(c.view)
            }
            staleKeys.removeAll(keepingCapacity: true)
        }
    }

    private static func defaultCell() -> DynamicView {
        let v = DynamicView(frame: .zero)
        v.backgroundColor = .lightGray
        return v
    }

    /// Sets a cell's view from its attributes (only what changed).
    @inline(__always)
    private func place(_ view: DynamicView, _ a: CollectionViewLayoutAttributes) {
        let c = a.center
        if view.center != c { view.center = c }
        let s = a.size
        if view.bounds.size != s { view.bounds = CGRect(origin: .zero, size: s) }
        let t = a.transform
        if view.transform != t { view.transform = t }
        if view.alpha != a.alpha { view.alpha = a.alpha }
        if view.isHidden != a.isHidden { view.isHidden = a.isHidden }
    }

    // MARK: Scripted finger

    private lazy var scroll = ScrollMotion(self)
    private var scrollDriverRegistered = false

    /// Whether a finger is on the content (between `beginDrag(at:)` and `endDrag(velocity:)`).
    public private(set) var isDragging = false
    /// Whether the content moves on its own after a fling (decelerating or springing back).
    public var isDecelerating: Bool { scrollDriverRegistered && scroll.isDecelerating }

    /// A finger touches the screen at `point` (the collection view's frame coordinates) and
    /// starts dragging the content; a deceleration under way stops.
    /// - Precondition: no drag is under way; `point` is finite.
    public func beginDrag(at point: CGPoint) {
        precondition(point.x.isFinite && point.y.isFinite, "CollectionView.beginDrag(at:): the point must be finite (got \(point))")
        precondition(!isDragging, "CollectionView.beginDrag(at:): a drag is already under way")
        layoutCellsIfNeeded()
        stopScrolling()
        isDragging = true
        scroll.beginDrag(at: point, offset: offset)
        panGestureRecognizer.touch(point, state: .began, time: clock.time)
    }

    /// The finger moves to `point` (frame coordinates): the content follows it (with UIKit's
    /// rubber band past an end).
    /// - Precondition: a drag is under way; `point` is finite.
    public func drag(to point: CGPoint) {
        precondition(point.x.isFinite && point.y.isFinite, "CollectionView.drag(to:): the point must be finite (got \(point))")
        precondition(isDragging, "CollectionView.drag(to:): no drag is under way (call beginDrag(at:) first)")
        panGestureRecognizer.touch(point, state: .changed, time: clock.time)
        applyOffset(scroll.dragOffset(finger: point))
    }

    /// The finger lifts, moving at `velocity` (pt/s, frame coordinates; the content moves the
    /// other way of the offset, with the finger): the content decelerates from there, or
    /// springs back when it is past an end.
    /// - Precondition: a drag is under way; `velocity` is finite.
    public func endDrag(velocity: CGPoint) {
        precondition(velocity.x.isFinite && velocity.y.isFinite, "CollectionView.endDrag(velocity:): the velocity must be finite (got \(velocity))")
        precondition(isDragging, "CollectionView.endDrag(velocity:): no drag is under way")
        isDragging = false
        panGestureRecognizer.lift(velocity: velocity)
        scroll.startDeceleration(fingerVelocity: velocity, offset: offset)
        if scroll.isMoving { startScrollDriver() }
    }

    private func startScrollDriver() {
        guard !scrollDriverRegistered else { return }
        scrollDriverRegistered = true
        clock.addFrameDriver(scroll)
    }

    /// Stops a deceleration or animated scroll where it is.
    private func stopScrolling() {
        scroll.stop()
    }

    /// Called by `scroll` when it leaves the clock.
    func scrollDriverDidStop() { scrollDriverRegistered = false }
}

/// The collection view's pending layout pass (a separate object: the pass list holds it).
final class CollectionLayoutPass: PendingLayoutPass {
    unowned let view: CollectionView
    init(_ view: CollectionView) { self.view = view }
    func runLayoutPass() { view.layoutCells() }
}
