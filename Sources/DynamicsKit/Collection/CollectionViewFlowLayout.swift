import Foundation
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// The direction a flow layout's content scrolls (UIKit's `UICollectionView.ScrollDirection`).
public enum CollectionViewScrollDirection: Sendable, Equatable {
    /// Rows, filled left to right, one below the other; the content scrolls up and down.
    case vertical
    /// Columns, filled top to bottom, side by side; the content scrolls left and right.
    case horizontal
}

/// UIKit's `UICollectionViewFlowLayout` for cells of one size: rows (vertical scrolling) or
/// columns (horizontal) of `itemSize` cells, section after section.
///
/// **Placement** (vertical; horizontal swaps x and y): a section starts `sectionInset.top`
/// below the previous section's end; its rows are `itemSize.height` tall and
/// `minimumLineSpacing` apart, and it ends `sectionInset.bottom` below its last row (an empty
/// section takes no room). A row holds as many cells as fit in the width between the insets
/// with at least `minimumInteritemSpacing` between them, n = ⌊(width + spacing) / (item width +
/// spacing)⌋; the spacing of every row is then stretched so that a full row spans the width
/// exactly (first cell at the left inset, last one at the right inset) — the justified rows
/// UIKit draws. The last row, when partial, keeps the columns of the full rows (left
/// aligned). When only one cell fits in a row, each row's cell is centred in the width. The
/// content is as wide as the collection view and as tall as its sections. Positions are not
/// rounded to pixels. (docs/dynamicskit.md, "Collection views".)
///
/// Every query is arithmetic on rows: `layoutAttributesForElements(in:)` costs the cells in
/// the rectangle, not the number of items, and `prepare()` costs the number of sections.
open class CollectionViewFlowLayout: CollectionViewLayout {
    /// The size of every cell (finite and positive: anything else stops with a message, as in
    /// UIKit). Default 50 × 50.
    open var itemSize = CGSize(width: 50, height: 50) {
        didSet {
            precondition(itemSize.width.isFinite && itemSize.height.isFinite && itemSize.width > 0 && itemSize.height > 0,
                         "CollectionViewFlowLayout: negative or zero item sizes are not supported in the flow layout (itemSize \(itemSize))")
            invalidateLayout()
        }
    }
    /// The least distance between rows (columns when scrolling horizontally). Default 10.
    open var minimumLineSpacing: CGFloat = 10 {
        didSet {
            precondition(minimumLineSpacing.isFinite && minimumLineSpacing >= 0,
                         "CollectionViewFlowLayout: minimumLineSpacing must be finite and not negative (got \(minimumLineSpacing))")
            invalidateLayout()
        }
    }
    /// The least distance between cells of a row (of a column when scrolling horizontally).
    /// Default 10.
    open var minimumInteritemSpacing: CGFloat = 10 {
        didSet {
            precondition(minimumInteritemSpacing.isFinite && minimumInteritemSpacing >= 0,
                         "CollectionViewFlowLayout: minimumInteritemSpacing must be finite and not negative (got \(minimumInteritemSpacing))")
            invalidateLayout()
        }
    }
    /// The margins of each section. Default zero.
    open var sectionInset: EdgeInsets = .zero {
        didSet {
            let i = sectionInset
            precondition(i.top.isFinite && i.left.isFinite && i.bottom.isFinite && i.right.isFinite,
                         "CollectionViewFlowLayout: sectionInset must be finite (got \(i))")
            invalidateLayout()
        }
    }
    /// The scroll direction. Default `.vertical`.
    open var scrollDirection: CollectionViewScrollDirection = .vertical {
        didSet { invalidateLayout() }
    }

    /// A flow layout with UIKit's defaults (50 × 50 cells, spacings 10, no insets, vertical).
    public override init() { super.init() }

    /// One section's rows, computed by `prepare()`. "Main" is the scroll axis (y when
    /// vertical), "cross" the other one.
    struct Section {
        var count: Int
        /// Cells a row holds.
        var perLine: Int
        var lines: Int
        /// Main-axis start of the first row.
        var firstLine: CGFloat
        /// Cross-axis position of the first column, and from one column to the next.
        var crossStart: CGFloat
        var crossPitch: CGFloat
        /// Main-axis end of the section (after its closing inset).
        var end: CGFloat
    }
    // What `prepare()` computed, read by every query (`@exclusivity(unchecked)`: a springy
    // layout queries rows every frame, and a layout is used from its collection view's clock's
    // thread only).
    @exclusivity(unchecked) private var sections: [Section] = []
    @exclusivity(unchecked) private var contentMain: CGFloat = 0
    @exclusivity(unchecked) private var contentCross: CGFloat = 0
    /// The settings `sections` were computed with.
    private struct Geometry {
        var vertical = true
        var itemSize = CGSize(width: 50, height: 50)
        var lineSpacing: CGFloat = 10
        var itemMain: CGFloat { vertical ? itemSize.height : itemSize.width }
        var itemCross: CGFloat { vertical ? itemSize.width : itemSize.height }
    }
    @exclusivity(unchecked) private var geometry = Geometry()
    private var vertical: Bool { geometry.vertical }
    private var itemMain: CGFloat { geometry.itemMain }
    private var itemCross: CGFloat { geometry.itemCross }

    /// As wide as the collection view and as tall as the sections (vertical), or the other way.
    open override var collectionViewContentSize: CGSize {
        vertical ? CGSize(width: contentCross, height: contentMain) : CGSize(width: contentMain, height: contentCross)
    }

    /// Computes the rows of every section from the collection view's item counts and size.
    open override func prepare() {
        super.prepare()
        // (Keeps the storage: a layout prepared every frame allocates nothing.)
        sections.removeAll(keepingCapacity: true)
        contentMain = 0; contentCross = 0
        geometry = Geometry(vertical: scrollDirection == .vertical, itemSize: itemSize, lineSpacing: minimumLineSpacing)
        guard let cv = collectionView else { return }
        let size = cv.bounds.size
        let inset = sectionInset
        let (before, after) = vertical ? (inset.top, inset.bottom) : (inset.left, inset.right)
        let (crossBefore, crossAfter) = vertical ? (inset.left, inset.right) : (inset.top, inset.bottom)
        let crossExtent = vertical ? size.width : size.height
        contentCross = crossExtent
        let available = crossExtent - crossBefore - crossAfter
        let im = itemMain, ic = itemCross, gap = minimumInteritemSpacing
        var perLine = 1
        if available >= ic { perLine = max(1, Int(((available + gap) / (ic + gap)).rounded(.down))) }
        var crossStart = crossBefore, crossPitch = ic + gap
        if perLine > 1 {
            crossPitch = ic + (available - CGFloat(perLine) * ic) / CGFloat(perLine - 1)
        } else if available > ic {
            crossStart = crossBefore + (available - ic) / 2
        }
        var y: CGFloat = 0
        for s in 0..<cv.numberOfSections {
            let count = cv.numberOfItems(inSection: s)
            let lines = count == 0 ? 0 : (count + perLine - 1) / perLine
            var section = Section(count: count, perLine: perLine, lines: lines, firstLine: y + before,
                                  crossStart: crossStart, crossPitch: crossPitch, end: y)
            if count > 0 {
                section.end = y + before + CGFloat(lines) * im + CGFloat(lines - 1) * geometry.lineSpacing + after
            }
            sections.append(section)
            y = section.end
        }
        contentMain = y
    }

    /// The frame of a cell by its row and column (no allocation).
    @inline(__always)
    private func frame(in s: Section, item: Int, _ g: Geometry) -> CGRect {
        let line = item / s.perLine, col = item - line * s.perLine
        let main = s.firstLine + CGFloat(line) * (g.itemMain + g.lineSpacing)
        let cross = s.crossStart + CGFloat(col) * s.crossPitch
        return g.vertical ? CGRect(x: cross, y: main, width: g.itemSize.width, height: g.itemSize.height)
                          : CGRect(x: main, y: cross, width: g.itemSize.width, height: g.itemSize.height)
    }

    /// **Better than UIKit**: the flow frame of the cell at `indexPath` as of the last
    /// `prepare()`, without making attributes; nil when there is no such cell.
    public func frameForItem(at indexPath: IndexPath) -> CGRect? {
        guard indexPath.count == 2 else { return nil }
        let sec = indexPath.section, item = indexPath.item
        guard sec >= 0, sec < sections.count, item >= 0, item < sections[sec].count else { return nil }
        return frame(in: sections[sec], item: item, geometry)
    }

    /// **Better than UIKit**: calls `body` with the index path and flow frame of every cell
    /// whose frame overlaps `rect`, in index order, without making attributes: the rows in the
    /// rectangle are found by arithmetic, so the cost follows the cells visited.
    public func forEachItem(in rect: CGRect, _ body: (IndexPath, CGRect) -> Void) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        let g = geometry, vertical = g.vertical, itemMain = g.itemMain
        let lo = vertical ? rect.minY : rect.minX, hi = vertical ? rect.maxY : rect.maxX
        let crossLo = vertical ? rect.minX : rect.minY, crossHi = vertical ? rect.maxX : rect.maxY
        let pitch = itemMain + g.lineSpacing
        for (si, s) in sections.enumerated() where s.count > 0 {
            let last = s.firstLine + CGFloat(s.lines - 1) * pitch + itemMain
            guard last > lo, s.firstLine < hi else { continue }
            let first = max(0, Int(((lo - s.firstLine) / pitch).rounded(.down)))
            let end = min(s.lines - 1, Int(((hi - s.firstLine) / pitch).rounded(.down)))
            guard first <= end else { continue }
            for line in first...end {
                let top = s.firstLine + CGFloat(line) * pitch
                guard top + itemMain > lo, top < hi else { continue }
                let start = line * s.perLine, stop = min(s.count, start + s.perLine)
                for item in start..<stop {
                    let f = frame(in: s, item: item, g)
                    let c0 = vertical ? f.minX : f.minY, c1 = vertical ? f.maxX : f.maxY
                    if c1 > crossLo && c0 < crossHi { body(IndexPath(item: item, section: si), f) }
                }
            }
        }
    }

    /// New attributes for every cell whose flow frame overlaps `rect`, in index order.
    open override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        var out: [CollectionViewLayoutAttributes] = []
        forEachItem(in: rect) { ip, f in
            let a = CollectionViewLayoutAttributes(forCellWith: ip)
            a.frame = f
            out.append(a)
        }
        return out
    }

    /// New attributes for the cell at `indexPath` at its flow frame; nil out of range.
    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard let f = frameForItem(at: indexPath) else { return nil }
        let a = CollectionViewLayoutAttributes(forCellWith: indexPath)
        a.frame = f
        return a
    }

    /// True when the size changes (the rows must be recomputed); a scroll alone changes nothing.
    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let cv = collectionView else { return false }
        return newBounds.size != cv.bounds.size
    }
}
