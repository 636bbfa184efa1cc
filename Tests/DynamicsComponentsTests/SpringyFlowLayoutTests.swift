import DynamicsComponents
import DynamicsKit
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

private final class Rows: CollectionViewDataSource {
    var count: Int
    init(_ count: Int) { self.count = count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { count }
}

/// A 320 × 480 list of 320 × 50 rows 10 pt apart (60 pt a row) in a `SpringyFlowLayout`.
private func makeList(_ rows: Rows) -> (CollectionView, SpringyFlowLayout) {
    let layout = SpringyFlowLayout()
    layout.itemSize = CGSize(width: 320, height: 50)
    layout.minimumLineSpacing = 10
    let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout, clock: AnimationClock())
    cv.dataSource = rows
    cv.reloadData()
    return (cv, layout)
}

/// The rows whose frames overlap `lo ..< hi` (60 pt a row, 50 pt tall).
private func rows(_ lo: CGFloat, _ hi: CGFloat, count: Int) -> [Int] {
    (0..<count).filter { CGFloat($0) * 60 + 50 > lo && CGFloat($0) * 60 < hi }
}

@Suite("SpringyFlowLayout: springs tiled near the screen")
struct SpringyFlowLayoutTests {
    @Test("springs exactly for the rows within one screen of the visible ones, following the offset")
    func tiling() {
        let source = Rows(10_000)
        let (cv, layout) = makeList(source)
        func sprung() -> [Int] { (0..<10_000).filter { layout.animator.layoutAttributesForCell(at: IndexPath(item: $0, section: 0)) != nil } }
        #expect(sprung() == rows(-480, 960, count: 10_000))
        for y in [6_000.0, 6_037.5, 599_000.0, 12.0] {
            cv.contentOffset = CGPoint(x: 0, y: y)
            cv.layoutCellsIfNeeded()
            #expect(sprung() == rows(y - 480, y + 960, count: 10_000), "offset \(y)")
            #expect(layout.springCount == layout.animator.behaviors.count)
        }
        withExtendedLifetime(source) {}
    }

    @Test("cells that stay keep their spring and motion; leaving springs are reused; a shrinking data source drops its springs")
    func keepReuseShrink() throws {
        let source = Rows(10_000)
        let (cv, layout) = makeList(source)
        cv.contentOffset = CGPoint(x: 0, y: 6_000)
        cv.clock.run(for: 3)
        // Row 105 (y 6 300) is on screen: push it 40 pt down, then scroll 30 pt: it keeps its
        // spring (the same attributes) and still hangs below its place.
        let ip = IndexPath(item: 105, section: 0)
        let a = try #require(layout.animator.layoutAttributesForCell(at: ip))
        a.center.y += 40
        layout.animator.updateItem(usingCurrentState: a)
        cv.contentOffset = CGPoint(x: 0, y: 6_030)
        cv.clock.advance(by: 1.0 / 60)
        #expect(layout.animator.layoutAttributesForCell(at: ip) === a)
        #expect(a.center.y - 6_325 > 30, "still displaced: \(a.center.y - 6_325)")
        // A long scroll in steps: springs come and go, but the attributes objects are reused.
        var seen = Set<ObjectIdentifier>()
        for k in 1...300 {
            cv.contentOffset = CGPoint(x: 0, y: 6_030 + CGFloat(k) * 45)
            cv.clock.advance(by: 1.0 / 60)
            for ip in cv.indexPathsForVisibleItems { seen.insert(ObjectIdentifier(layout.animator.layoutAttributesForCell(at: ip)!)) }
        }
        #expect(layout.springsAdded > 200 && seen.count <= 40, "\(layout.springsAdded) springs added over \(seen.count) attributes")
        // The data source shrinks to 20 rows: the offset comes back to the end and only rows
        // that exist keep springs, within a screen of the visible ones.
        source.count = 20
        cv.reloadData()
        #expect(cv.contentOffset.y == CGFloat(20 * 60 - 10 - 480))
        // Rows 4 … 19 are within a screen of the visible 710 … 1 190 (row 3 ends at 230).
        let expected = rows(710 - 480, 1_190 + 480, count: 20)
        #expect(expected == Array(4..<20))
        #expect((0..<10_000).filter { layout.animator.layoutAttributesForCell(at: IndexPath(item: $0, section: 0)) != nil } == expected)
        #expect(cv.clock.runUntilIdle(timeout: 10))
        for i in expected {
            let c = layout.animator.layoutAttributesForCell(at: IndexPath(item: i, section: 0))!.center
            #expect(abs(c.y - (CGFloat(i) * 60 + 25)) <= 0.5 && abs(c.x - 160) <= 0.5, "row \(i) at \(c)")
        }
    }
}
