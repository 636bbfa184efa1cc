import DynamicsKit
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// The springy flow layout of the objc.io article "UICollectionView + UIKit Dynamics", ported line
/// for line: one zero-length spring per cell to its flow position; a scroll moves each cell by
/// the scroll's delta scaled by its distance from the finger, so that cells near the finger
/// follow it and far ones lag, then spring back.
final class ObjcIOSpringyFlowLayout: CollectionViewFlowLayout {
    var dynamicAnimator: DynamicAnimator!

    override init() {
        super.init()
        minimumInteritemSpacing = 10
        minimumLineSpacing = 10
        itemSize = CGSize(width: 44, height: 44)
        sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        dynamicAnimator = DynamicAnimator(collectionViewLayout: self)
    }

    override func prepare() {
        super.prepare()
        let contentSize = collectionViewContentSize
        let items = super.layoutAttributesForElements(in: CGRect(origin: .zero, size: contentSize)) ?? []
        if dynamicAnimator.behaviors.isEmpty {
            for item in items {
                let behaviour = AttachmentBehavior(item: item, attachedToAnchor: item.center)
                behaviour.length = 0
                behaviour.damping = 0.8
                behaviour.frequency = 1
                dynamicAnimator.addBehavior(behaviour)
            }
        }
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        dynamicAnimator.items(in: rect) as? [CollectionViewLayoutAttributes]
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        dynamicAnimator.layoutAttributesForCell(at: indexPath)
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        let scrollView = collectionView!
        let delta = newBounds.origin.y - scrollView.bounds.origin.y
        let touchLocation = collectionView!.panGestureRecognizer.location(in: collectionView)
        for case let springBehaviour as AttachmentBehavior in dynamicAnimator.behaviors {
            let yDistanceFromTouch = abs(touchLocation.y - springBehaviour.anchorPoint.y)
            let xDistanceFromTouch = abs(touchLocation.x - springBehaviour.anchorPoint.x)
            let scrollResistance = (yDistanceFromTouch + xDistanceFromTouch) / 1500
            let item = springBehaviour.items.first!
            var center = item.center
            if delta < 0 {
                center.y += max(delta, delta * scrollResistance)
            } else {
                center.y += min(delta, delta * scrollResistance)
            }
            item.center = center
            dynamicAnimator.updateItem(usingCurrentState: item)
        }
        return false
    }
}

@Suite("objc.io's springy flow layout, ported")
struct SpringyPortTests {
    /// The port on a 320 × 480 screen with `count` cells (five a row), on its own clock.
    func makeSpringyList(count: Int) -> (CollectionView, ObjcIOSpringyFlowLayout) {
        let layout = ObjcIOSpringyFlowLayout()
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout, clock: AnimationClock())
        let source = CountsSource([count])
        cv.dataSource = source
        cv.reloadData()
        withExtendedLifetime(source) {}
        return (cv, layout)
    }

    /// The resting (flow) centre of every cell.
    func restingCenters(_ layout: CollectionViewFlowLayout, count: Int) -> [CGPoint] {
        (0..<count).map { i in let f = layout.frameForItem(at: IndexPath(item: i, section: 0))!; return CGPoint(x: f.midX, y: f.midY) }
    }

    /// True when, in every column, each cell is below the one above it with room to spare.
    func keepsOrder(_ layout: ObjcIOSpringyFlowLayout, count: Int) -> Bool {
        let a = (0..<count).map { layout.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))! }
        return (5..<count).allSatisfy { a[$0].center.y > a[$0 - 5].center.y }
    }

    @Test("the animator runs on the collection view's clock, its items are the cells' attributes, and it invalidates the layout as it ticks")
    func animatorWiring() throws {
        let (cv, layout) = makeSpringyList(count: 100)
        let animator = layout.dynamicAnimator!
        #expect(animator.clock === cv.clock)
        #expect(animator.behaviors.count == 100)
        #expect(animator.referenceBounds == CGRect(origin: .zero, size: cv.contentSize))
        let third = try #require(animator.layoutAttributesForCell(at: IndexPath(item: 3, section: 0)))
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 3, section: 0)) === third)
        #expect(animator.layoutAttributesForCell(at: IndexPath(item: 100, section: 0)) == nil)
        // The cells on screen are the springs' attributes in the visible rectangle.
        #expect(Set(cv.indexPathsForVisibleItems) == Set((animator.items(in: cv.bounds) as! [CollectionViewLayoutAttributes]).map(\.indexPath)))
        // Move a cell: the animator's tick moves it back and the collection view's layout pass
        // moves its view with it.
        third.center.y += 30
        animator.updateItem(usingCurrentState: third)
        cv.clock.advance(by: 1.0 / 60)
        let view = try #require(cv.cellForItem(at: IndexPath(item: 3, section: 0)))
        #expect(view.center == third.center)
        #expect(third.center.y < layout.frameForItem(at: IndexPath(item: 3, section: 0))!.midY + 30)
    }

    @Test("dragging: cells near the finger move with it, far ones lag; after a fling every cell settles within 0.5 pt of its flow position, in order")
    func springy() {
        let count = 400
        let (cv, layout) = makeSpringyList(count: count)
        let rest = restingCenters(layout, count: count)
        // (A jump of the offset moves the cells too, as in UIKit: let them settle.)
        cv.contentOffset = CGPoint(x: 0, y: 1000)
        #expect(cv.clock.runUntilIdle(timeout: 10))
        // The finger at (160, 400) on screen, content y 1400: drag up 100 pt in 10 moves over 1/6 s.
        cv.beginDrag(at: CGPoint(x: 160, y: 400))
        for k in 1...10 {
            cv.drag(to: CGPoint(x: 160, y: 400 - CGFloat(k) * 10))
            cv.clock.advance(by: 1.0 / 60)
            #expect(keepsOrder(layout, count: count), "order kept at move \(k)")
        }
        // The cell under the finger (row 25: y 1360…1404, x 118…162) hardly moved from its place in the content.
        let near = layout.layoutAttributesForItem(at: IndexPath(item: 25 * 5 + 2, section: 0))!
        let nearRest = rest[25 * 5 + 2]
        #expect(abs(near.center.y - nearRest.y) < 5, "near the finger: \(near.center.y - nearRest.y) pt off")
        // A cell at the top of the screen (row 18, 370 pt above the finger) lags: it moved
        // down the content, so it stays behind on screen.
        let far = layout.layoutAttributesForItem(at: IndexPath(item: 18 * 5, section: 0))!
        let lag = far.center.y - rest[18 * 5].y
        #expect(lag > 10 && lag < 100, "far from the finger: lags \(lag) pt")
        cv.endDrag(velocity: CGPoint(x: 0, y: -1500))
        var t = 0.0
        while t < 20 && !(cv.clock.isIdle && !cv.isDecelerating) {
            cv.clock.advance(by: 1.0 / 60); t += 1.0 / 60
            if Int(t * 60) % 6 == 0 { #expect(keepsOrder(layout, count: count), "order kept at \(t) s") }
        }
        #expect(!cv.isDecelerating && cv.clock.isIdle, "at rest after \(t) s")
        #expect(cv.contentOffset.y > 1500, "the fling scrolled on: \(cv.contentOffset.y)")
        var worst: CGFloat = 0
        for i in 0..<count {
            let a = layout.layoutAttributesForItem(at: IndexPath(item: i, section: 0))!
            worst = max(worst, abs(a.center.x - rest[i].x), abs(a.center.y - rest[i].y))
        }
        #expect(worst <= 0.5, "every cell back at its flow position (worst \(worst) pt)")
        for ip in cv.indexPathsForVisibleItems {
            #expect(cv.cellForItem(at: ip)!.center == layout.layoutAttributesForItem(at: ip)!.center)
        }
    }
}
