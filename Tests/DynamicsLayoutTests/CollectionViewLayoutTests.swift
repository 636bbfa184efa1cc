import DynamicsKit
import DynamicsLayout
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

private final class TenRows: CollectionViewDataSource {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 100 }
}

@Suite("Collection views under Auto Layout")
struct CollectionViewLayoutTests {
    @Test("a collection view sized by constraints keeps its offset and lays its cells out for the new size")
    func sizedByConstraints() {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 600))
        let layout = CollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 50)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout, clock: AnimationClock())
        let source = TenRows()
        cv.dataSource = source
        cv.reloadData()
        cv.contentOffset = CGPoint(x: 0, y: 120)
        cv.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(cv)
        LayoutConstraint.activate([cv.leadingAnchor.constraint(equalTo: root.leadingAnchor),
                                   cv.trailingAnchor.constraint(equalTo: root.trailingAnchor),
                                   cv.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
                                   cv.bottomAnchor.constraint(equalTo: root.bottomAnchor)])
        root.layoutIfNeeded()   // Auto Layout's pass
        cv.layoutCellsIfNeeded()   // the collection view's cells
        #expect(cv.frame == CGRect(x: 0, y: 20, width: 400, height: 580))
        #expect(cv.contentOffset == CGPoint(x: 0, y: 120))
        // 400 pt wide: three cells a row (n = ⌊410 / 110⌋), 150 pt apart.
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame.minX == 300)
        #expect(cv.indexPathsForVisibleItems.first == IndexPath(item: 6, section: 0))
        withExtendedLifetime(source) {}
    }
}
