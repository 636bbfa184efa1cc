import Foundation

/// Where a collection view's cells go (UIKit's `UICollectionViewLayout`): subclass it and
/// override what you need. The collection view asks, in its layout pass, for `prepare()` after
/// the layout was invalidated, then for `collectionViewContentSize` and
/// `layoutAttributesForElements(in:)` of its visible rectangle; before every change of its
/// bounds (a scroll) it asks `shouldInvalidateLayout(forBoundsChange:)`, with `collectionView`
/// still showing the old bounds.
///
/// A layout serves one collection view at a time (`CollectionView(frame:collectionViewLayout:)`
/// sets `collectionView`).
open class CollectionViewLayout {
    /// The collection view this layout places cells for (set by the collection view).
    public internal(set) weak var collectionView: CollectionView?

    /// Set by `invalidateLayout()`: the collection view's next layout pass calls `prepare()`.
    var needsPrepare = true

    /// The animators made with `DynamicAnimator(collectionViewLayout:)` for this layout: they
    /// run on its collection view's clock, and their reference bounds follow its content.
    private var animatorRefs: [WeakAnimatorRef] = []
    private struct WeakAnimatorRef { weak var animator: DynamicAnimator? }

    /// A layout that serves no collection view yet.
    public init() {}

    /// The size of all the content (the scrollable area). Default zero.
    open var collectionViewContentSize: CGSize { .zero }

    /// Called in the collection view's layout pass after the layout was invalidated (and by
    /// `reloadData()`): compute what the other methods answer. Default: nothing.
    open func prepare() {}

    /// The attributes of every cell whose frame meets `rect` (content coordinates). Default nil.
    open func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? { nil }

    /// The attributes of the cell at `indexPath`; nil when there is none. Default nil.
    open func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }

    /// Asked before the collection view's bounds become `newBounds` (its `bounds` still has the
    /// old ones): true makes the layout invalid (`invalidateLayout()`). Default false.
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }

    /// Marks the layout invalid: the collection view's next layout pass (at the end of its
    /// clock's next advance, or `layoutCellsIfNeeded()`) calls `prepare()` again and places the cells
    /// anew.
    open func invalidateLayout() {
        needsPrepare = true
        collectionView?.setNeedsCellLayout()
    }

    // MARK: Animators

    func adopt(_ animator: DynamicAnimator) {
        animatorRefs.removeAll { $0.animator == nil }
        animatorRefs.append(WeakAnimatorRef(animator: animator))
    }

    /// Calls `body` with each live animator made for this layout.
    func forEachAnimator(_ body: (DynamicAnimator) -> Void) {
        for r in animatorRefs { if let a = r.animator { body(a) } }
    }

    /// Whether any animator was made for this layout (read each layout pass; no weak loads
    /// when none was).
    var hasAnimators: Bool { !animatorRefs.isEmpty }
}
