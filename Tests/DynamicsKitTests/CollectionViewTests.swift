import DynamicsKit
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// A data source with fixed counts per section.
final class CountsSource: CollectionViewDataSource {
    var counts: [Int]
    init(_ counts: [Int]) { self.counts = counts }
    func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
}

/// A flow layout that records every bounds change it is asked about, with the bounds the
/// collection view had when asked.
final class RecordingFlowLayout: CollectionViewFlowLayout {
    var asked: [(old: CGRect, new: CGRect)] = []
    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        asked.append((collectionView!.bounds, newBounds))
        return super.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
}

/// Builds a flow layout and its collection view with `counts` items per section.
func makeList(width: CGFloat = 320, height: CGFloat = 480, counts: [Int], clock: AnimationClock = AnimationClock(),
              configure: (CollectionViewFlowLayout) -> Void) -> (CollectionView, CollectionViewFlowLayout, CountsSource) {
    let layout = CollectionViewFlowLayout()
    configure(layout)
    let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: width, height: height), collectionViewLayout: layout, clock: clock)
    let source = CountsSource(counts)
    cv.dataSource = source
    cv.reloadData()
    return (cv, layout, source)
}

@Suite("Collection views: flow placement, scrolling, cells")
struct CollectionViewTests {
    // MARK: Flow placement (UIKit's rules, worked by hand for each case)

    @Test("IndexPath(item:section:) has the item second and the section first")
    func indexPath() {
        let p = IndexPath(item: 7, section: 2)
        #expect(p.item == 7 && p.section == 2 && p.count == 2 && p == IndexPath(indexes: [2, 7]))
        #expect(IndexPath(item: 0, section: 1) > IndexPath(item: 5, section: 0))
    }

    @Test("100 × 100 cells in 320 pt, spacing 10: three a row, stretched to 110 pt apart; the last partial row keeps the columns")
    func threeColumns() throws {
        let (cv, layout, _) = makeList(counts: [7]) { $0.itemSize = CGSize(width: 100, height: 100) }
        // n = ⌊(320 + 10) / 110⌋ = 3; the 20 pt left over make the gaps 10 each: x = 0, 110, 220.
        let expected: [(CGFloat, CGFloat)] = [(0, 0), (110, 0), (220, 0), (0, 110), (110, 110), (220, 110), (0, 220)]
        for (i, (x, y)) in expected.enumerated() {
            let f = try #require(cv.layoutAttributesForItem(at: IndexPath(item: i, section: 0))).frame
            #expect(f == CGRect(x: x, y: y, width: 100, height: 100), "item \(i)")
        }
        #expect(layout.collectionViewContentSize == CGSize(width: 320, height: 320))
    }

    @Test("80 × 50 cells in 375 pt with insets 20/15/10/15, spacings 10 and 5: the gaps stretch to 52.5 pt, the rows 55 pt apart")
    func stretchedRows() throws {
        let (cv, layout, _) = makeList(width: 375, counts: [8]) {
            $0.itemSize = CGSize(width: 80, height: 50)
            $0.minimumInteritemSpacing = 10
            $0.minimumLineSpacing = 5
            $0.sectionInset = EdgeInsets(top: 20, left: 15, bottom: 10, right: 15)
        }
        // Width 345 between the insets: n = ⌊355 / 90⌋ = 3, (345 − 240) / 2 = 52.5 pt gaps, so the
        // third cell ends at 375 − 15.
        let xs: [CGFloat] = [15, 147.5, 280], ys: [CGFloat] = [20, 75, 130]
        for i in 0..<8 {
            let f = try #require(cv.layoutAttributesForItem(at: IndexPath(item: i, section: 0))).frame
            #expect(f.origin == CGPoint(x: xs[i % 3], y: ys[i / 3]), "item \(i)")
        }
        // 20 + 3 × 50 + 2 × 5 + 10.
        #expect(layout.collectionViewContentSize.height == 190)
        #expect(layout.frameForItem(at: IndexPath(item: 2, section: 0))!.maxX == 360)
    }

    @Test("a row that holds one cell centres it between the insets")
    func oneColumn() throws {
        let (cv, _, _) = makeList(counts: [3]) {
            $0.itemSize = CGSize(width: 200, height: 44)
            $0.sectionInset = EdgeInsets(top: 0, left: 10, bottom: 0, right: 30)
        }
        // 280 pt between the insets, two cells need 410: one a row, at 10 + (280 − 200) / 2.
        for i in 0..<3 {
            let f = try #require(cv.layoutAttributesForItem(at: IndexPath(item: i, section: 0))).frame
            #expect(f.origin == CGPoint(x: 50, y: CGFloat(i) * 54))
        }
    }

    @Test("exact fit: the gaps stay at the minimum spacing")
    func exactFit() throws {
        let (cv, _, _) = makeList(width: 330, counts: [3]) {
            $0.itemSize = CGSize(width: 100, height: 30)
            $0.minimumInteritemSpacing = 15
        }
        let xs = try (0..<3).map { try #require(cv.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))).frame.minX }
        #expect(xs == [0, 115, 230])
    }

    @Test("sections follow one another with their insets; an empty section takes no room")
    func sections() throws {
        let (cv, layout, _) = makeList(counts: [3, 0, 2]) {
            $0.itemSize = CGSize(width: 100, height: 100)
            $0.sectionInset = EdgeInsets(top: 10, left: 0, bottom: 10, right: 0)
        }
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame.minY == 10)
        // Section 0 ends at 10 + 100 + 10 = 120; section 2 starts 10 below.
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 1, section: 2))?.frame == CGRect(x: 110, y: 130, width: 100, height: 100))
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 0, section: 1)) == nil)
        #expect(layout.collectionViewContentSize.height == 240)
    }

    @Test("horizontal scrolling: columns filled top to bottom, the vertical gaps stretched")
    func horizontal() throws {
        let (cv, layout, _) = makeList(width: 320, height: 300, counts: [7]) {
            $0.scrollDirection = .horizontal
            $0.itemSize = CGSize(width: 100, height: 80)
            $0.minimumInteritemSpacing = 10
            $0.minimumLineSpacing = 20
        }
        // n = ⌊310 / 90⌋ = 3 a column, (300 − 240) / 2 = 30 pt gaps; columns 120 pt apart.
        for i in 0..<7 {
            let f = try #require(cv.layoutAttributesForItem(at: IndexPath(item: i, section: 0))).frame
            #expect(f.origin == CGPoint(x: CGFloat(i / 3) * 120, y: CGFloat(i % 3) * 110), "item \(i)")
        }
        #expect(layout.collectionViewContentSize == CGSize(width: 340, height: 300), "three columns: 100 + 120 + 120")
    }

    @Test("layoutAttributesForElements(in:) returns exactly the cells whose frames overlap the rectangle")
    func rectQuery() throws {
        let (_, layout, _) = makeList(counts: [40, 13]) {
            $0.itemSize = CGSize(width: 70, height: 33)
            $0.minimumLineSpacing = 7
            $0.sectionInset = EdgeInsets(top: 5, left: 9, bottom: 11, right: 4)
        }
        var all: [IndexPath: CGRect] = [:]
        for s in 0..<2 { for i in 0..<(s == 0 ? 40 : 13) { all[IndexPath(item: i, section: s)] = layout.frameForItem(at: IndexPath(item: i, section: s)) } }
        for rect in [CGRect(x: 0, y: 0, width: 320, height: 100), CGRect(x: 100, y: 333, width: 50, height: 400),
                     CGRect(x: -10, y: 440, width: 500, height: 1), CGRect(x: 0, y: 5000, width: 10, height: 10)] {
            let got = Set((layout.layoutAttributesForElements(in: rect) ?? []).map(\.indexPath))
            let want = Set(all.filter { $0.value.maxY > rect.minY && $0.value.minY < rect.maxY && $0.value.maxX > rect.minX && $0.value.minX < rect.maxX }.keys)
            #expect(got == want, "rect \(rect)")
        }
    }

    @Test("a million items: the visible cells only, as subviews")
    func millionItems() {
        let (cv, _, _) = makeList(counts: [1_000_000]) { $0.itemSize = CGSize(width: 320, height: 60); $0.minimumLineSpacing = 8 }
        cv.contentOffset = CGPoint(x: 0, y: 68 * 500_000 + 30)
        cv.layoutCellsIfNeeded()
        // 480 pt show rows 500 000 … 500 007 (the first one in part).
        #expect(cv.indexPathsForVisibleItems == (500_000...500_007).map { IndexPath(item: $0, section: 0) })
        #expect(cv.subviews.count == 8)
        #expect(cv.contentSize.height == CGFloat(67_999_992))
    }

    @Test("resizing keeps the offset and recomputes the rows for the new width")
    func resize() throws {
        let (cv, layout, _) = makeList(counts: [100]) { $0.itemSize = CGSize(width: 100, height: 100) }
        cv.contentOffset = CGPoint(x: 0, y: 330)
        cv.frame = CGRect(x: 10, y: 20, width: 430, height: 480)
        cv.layoutCellsIfNeeded()
        #expect(cv.contentOffset == CGPoint(x: 0, y: 330) && cv.bounds == CGRect(x: 0, y: 330, width: 430, height: 480))
        // Four a row now: n = ⌊440 / 110⌋, gaps (430 − 400) / 3 = 10.
        #expect(layout.frameForItem(at: IndexPath(item: 5, section: 0)) == CGRect(x: 110, y: 110, width: 100, height: 100))
        #expect(cv.contentSize == CGSize(width: 430, height: 25 * 110 - 10))
        #expect(cv.indexPathsForVisibleItems.first == IndexPath(item: 12, section: 0))
        // Setting the bounds' origin scrolls.
        cv.bounds = CGRect(x: 0, y: 440, width: 430, height: 480)
        #expect(cv.contentOffset.y == 440 && cv.frame == CGRect(x: 10, y: 20, width: 430, height: 480))
    }

    // MARK: Bad input

    @Test("index paths out of range give nil; a shrinking data source drops its cells after reloadData")
    func outOfRangeAndShrinking() {
        let (cv, _, source) = makeList(counts: [30]) { $0.itemSize = CGSize(width: 320, height: 40); $0.minimumLineSpacing = 0 }
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 30, section: 0)) == nil)
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: -1, section: 0)) == nil)
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 0, section: 1)) == nil)
        #expect(cv.layoutAttributesForItem(at: IndexPath(index: 3)) == nil)
        cv.contentOffset = CGPoint(x: 0, y: 720)   // the end: items 18 … 29
        cv.layoutCellsIfNeeded()
        #expect(cv.indexPathsForVisibleItems.first?.item == 18 && cv.subviews.count == 12)
        source.counts = [5]
        // Until reloadData the collection view keeps the counts it read.
        #expect(cv.numberOfItems(inSection: 0) == 30)
        cv.reloadData()
        #expect(cv.numberOfItems(inSection: 0) == 5)
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 5, section: 0)) == nil)
        #expect(cv.contentSize.height == 200 && cv.contentOffset == .zero, "the offset came back into the smaller content")
        #expect(cv.indexPathsForVisibleItems.map(\.item) == Array(0..<5))
        #expect(cv.subviews.count == 5)
        source.counts = []
        cv.reloadData()
        #expect(cv.subviews.isEmpty && cv.numberOfSections == 0)
    }

    @Test("a zero or negative item size stops with a message")
    func badItemSize() async {
        await #expect(processExitsWith: .failure) {
            CollectionViewFlowLayout().itemSize = CGSize(width: 0, height: 10)
        }
        await #expect(processExitsWith: .failure) {
            CollectionViewFlowLayout().itemSize = CGSize(width: 10, height: -1)
        }
    }

    @Test("a NaN or infinite offset is refused with a message")
    func nanOffset() async {
        await #expect(processExitsWith: .failure) {
            let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), collectionViewLayout: CollectionViewFlowLayout())
            cv.contentOffset = CGPoint(x: 0, y: CGFloat.nan)
        }
        await #expect(processExitsWith: .failure) {
            let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), collectionViewLayout: CollectionViewFlowLayout())
            cv.setContentOffset(CGPoint(x: CGFloat.infinity, y: 0), animated: true)
        }
    }

    // MARK: Scrolling

    @Test("every offset change asks the layout first, with the old bounds still in place")
    func boundsChangesAsked() {
        let layout = RecordingFlowLayout()
        layout.itemSize = CGSize(width: 320, height: 50)
        let clock = AnimationClock()
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout, clock: clock)
        let source = CountsSource([100])
        cv.dataSource = source
        cv.reloadData()
        cv.contentOffset = CGPoint(x: 0, y: 100)
        cv.beginDrag(at: CGPoint(x: 100, y: 400))
        cv.drag(to: CGPoint(x: 100, y: 300))
        cv.endDrag(velocity: CGPoint(x: 0, y: -500))
        clock.run(for: 1)
        cv.setContentOffset(CGPoint(x: 0, y: 50), animated: true)
        clock.run(for: 0.5)
        #expect(layout.asked.count > 20)
        var last = CGRect(x: 0, y: 0, width: 320, height: 480)
        for (old, new) in layout.asked {
            #expect(old == last, "asked with the bounds in place")
            last = new
        }
        #expect(last == cv.bounds && cv.contentOffset == CGPoint(x: 0, y: 50))
    }

    @Test("dragging moves the content with the finger; past the top, by UIKit's rubber band")
    func dragAndRubberBand() {
        let (cv, _, _) = makeList(counts: [100]) { $0.itemSize = CGSize(width: 320, height: 50) }
        cv.contentOffset = CGPoint(x: 0, y: 300)
        cv.beginDrag(at: CGPoint(x: 50, y: 400))
        cv.drag(to: CGPoint(x: 80, y: 250))
        // Up 150 pt: the content follows (no horizontal scrolling: the content is as wide).
        #expect(cv.contentOffset == CGPoint(x: 0, y: 450))
        #expect(cv.panGestureRecognizer.location(in: cv) == CGPoint(x: 80, y: 700))
        #expect(cv.panGestureRecognizer.location(in: nil) == CGPoint(x: 80, y: 250))
        // Down 600 pt from the start: 300 pt past the top shows as (1 − 1/(0.55·300/480 + 1))·480.
        cv.drag(to: CGPoint(x: 80, y: 1000))
        let expected = -(1 - 1 / (0.55 * 300 / 480 + 1)) * 480
        #expect(abs(cv.contentOffset.y - expected) < 1e-9)
        cv.endDrag(velocity: .zero)
        #expect(cv.isDecelerating)
        cv.clock.run(for: 1.5)
        #expect(!cv.isDecelerating && cv.contentOffset == .zero, "sprang back to the top")
    }

    @Test("a fling decelerates at 0.998 per ms: it travels v / (1000 · ln(1/0.998)) and stops")
    func flingDistance() {
        let (cv, _, _) = makeList(counts: [10_000]) { $0.itemSize = CGSize(width: 320, height: 50) }
        cv.contentOffset = CGPoint(x: 0, y: 10_000)
        cv.beginDrag(at: CGPoint(x: 100, y: 300))
        cv.endDrag(velocity: CGPoint(x: 0, y: -2_000))
        // After 0.25 s the velocity is 2000 · 0.998^250 and the distance the integral so far.
        cv.clock.run(for: 0.25)
        let k = pow(0.998, 250.0), lnr = 1000 * log(0.998)
        #expect(abs(cv.contentOffset.y - (10_000 + 2_000 * (k - 1) / lnr)) < 1e-6)
        cv.clock.run(for: 6)
        #expect(!cv.isDecelerating)
        #expect(abs(cv.contentOffset.y - (10_000 - 2_000 / lnr)) < 0.5)
    }

    @Test("a fling over the end overshoots, then springs back to it")
    func flingPastEnd() {
        let (cv, _, _) = makeList(counts: [20]) { $0.itemSize = CGSize(width: 320, height: 50); $0.minimumLineSpacing = 0 }
        // 1000 pt of content in 480: the end is at 520.
        cv.contentOffset = CGPoint(x: 0, y: 400)
        cv.beginDrag(at: CGPoint(x: 100, y: 300))
        cv.endDrag(velocity: CGPoint(x: 0, y: -3_000))
        var most: CGFloat = 0
        for _ in 0..<180 { cv.clock.advance(by: 1.0 / 60); most = max(most, cv.contentOffset.y) }
        #expect(most > 540 && most < 700, "overshot by \(most - 520)")
        #expect(!cv.isDecelerating && cv.contentOffset.y == 520)
    }

    @Test("an animated setContentOffset arrives in 0.3 s, easing in and out")
    func animatedOffset() {
        let (cv, _, _) = makeList(counts: [100]) { $0.itemSize = CGSize(width: 320, height: 50) }
        cv.setContentOffset(CGPoint(x: 0, y: 600), animated: true)
        #expect(cv.contentOffset == .zero)
        cv.clock.advance(by: 0.15)
        #expect(abs(cv.contentOffset.y - 300) < 1e-9)
        cv.clock.advance(by: 0.2)
        #expect(cv.contentOffset.y == 600 && cv.bounds.origin.y == 600)
    }

    @Test("cells are subviews at their attributes, reused as they scroll out and in")
    func cellsReused() {
        var made = 0
        let (cv, _, _) = makeList(counts: [1_000]) { $0.itemSize = CGSize(width: 320, height: 60); $0.minimumLineSpacing = 8 }
        cv.cellProvider = { _, ip, reusing in
            let v = reusing ?? { made += 1; return DynamicView(frame: .zero) }()
            v.tag = ip.item
            return v
        }
        cv.reloadData()
        for k in 1...200 { cv.contentOffset = CGPoint(x: 0, y: CGFloat(k) * 37); cv.layoutCellsIfNeeded() }
        #expect(made <= 9, "made \(made) cells for 480 pt of 68 pt rows")
        for ip in cv.indexPathsForVisibleItems {
            let cell = cv.cellForItem(at: ip)!
            #expect(cell.tag == ip.item && cell.superview === cv)
            #expect(cell.frame == cv.layoutAttributesForItem(at: ip)!.frame)
        }
    }
}
