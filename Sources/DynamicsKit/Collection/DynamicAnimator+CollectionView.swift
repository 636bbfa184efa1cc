import Foundation

extension DynamicAnimator {
    /// An animator for the cells of `layout` (UIKit's `init(collectionViewLayout:)`): the
    /// reference coordinate space is the layout's content (the reference bounds follow its
    /// content size at each layout pass), the items are `CollectionViewLayoutAttributes`, and
    /// after every tick that moved items the animator invalidates the layout, so that the
    /// collection view's next layout pass asks it again. The animator runs on the layout's
    /// collection view's clock (`.main` until the layout joins one).
    public convenience init(collectionViewLayout layout: CollectionViewLayout) {
        let cv = layout.collectionView
        self.init(referenceBounds: CGRect(origin: .zero, size: cv?.contentSize ?? .zero), clock: cv?.clock ?? .main)
        core.collectionViewLayout = layout
        core.drivesLayout = true
        layout.adopt(self)
    }
}
