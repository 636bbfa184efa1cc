import Foundation

/// Where a collection view shows one cell (UIKit's `UICollectionViewLayoutAttributes`): its
/// index path, centre and size in the collection view's content, transform, opacity, stacking
/// order and visibility. A `DynamicItem`: a `DynamicAnimator(collectionViewLayout:)` moves the
/// attributes its behaviors hold, and the layout hands those same objects to the collection
/// view, which places the cells where they say.
///
/// `frame` is the untransformed rectangle around `center` (as for `DynamicView`); setting it
/// sets `center` and `size`.
open class CollectionViewLayoutAttributes: DynamicItem {
    /// The cell's index path.
    public var indexPath: IndexPath
    /// The cell's centre in the collection view's content coordinates.
    open var center: CGPoint = .zero
    /// The cell's size.
    open var size: CGSize = .zero
    /// Rotation and scale about the centre (a dynamic animator writes its rotation here).
    open var transform: CGAffineTransform = .identity
    /// The cell's opacity, 0 … 1.
    open var alpha: CGFloat = 1
    /// The cell's stacking order among the cells (higher in front).
    open var zIndex: Int = 0
    /// Hidden cells are not shown.
    open var isHidden = false

    /// Attributes for the cell at `indexPath`, at the origin with a zero size.
    public required init(forCellWith indexPath: IndexPath) {
        self.indexPath = indexPath
    }

    /// The untransformed rectangle around `center`; setting it sets `center` and `size`.
    open var frame: CGRect {
        get { CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height) }
        set {
            center = CGPoint(x: newValue.midX, y: newValue.midY)
            size = newValue.size
        }
    }

    /// Origin zero and the cell's size; setting it sets `size` (the origin is ignored).
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: size) }
        set { size = newValue.size }
    }

    /// A copy with the same values (of the same class).
    open func copy() -> CollectionViewLayoutAttributes {
        let c = type(of: self).init(forCellWith: indexPath)
        c.center = center; c.size = size; c.transform = transform
        c.alpha = alpha; c.zIndex = zIndex; c.isHidden = isHidden
        return c
    }
}

extension CollectionViewLayoutAttributes: CustomStringConvertible {
    /// The index path and frame.
    public var description: String { "CollectionViewLayoutAttributes(\(indexPath), frame: \(frame))" }
}
