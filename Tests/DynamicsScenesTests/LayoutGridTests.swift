import DynamicsScenes
import DynamicsLayout
import Foundation
import Testing

/// The `layout` benchmark grid, small: the frames the spec's constraints give by hand, on the
/// bare solver and through views.
@Suite struct LayoutGridTests {
    @Test func uncompressedGridKeepsThePreferredSizes() {
        let s = LayoutGrid.SolverSystem(views: 10)       // 3 columns, 4 rows (the last with one view)
        let v = LayoutGrid.ViewSystem(views: 10)
        _ = s.edit(width: 1000); _ = v.edit(width: 1000)
        for i in 0..<10 {
            let r = i / 3, c = i % 3
            let f = s.frames[i]
            let expected = [8 + 48 * Double(c), 8 + 38 * Double(r), 40, 30]
            let got = [s.solver.value(of: f.0), s.solver.value(of: f.1), s.solver.value(of: f.2), s.solver.value(of: f.3)]
            #expect(zip(expected, got).allSatisfy { abs($0 - $1) < 1e-9 }, "view \(i): \(got)")
            let vf = v.views[i].frame
            #expect(abs(vf.minX - expected[0]) < 1e-9 && abs(vf.minY - expected[1]) < 1e-9 && vf.width == 40 && vf.height == 30)
        }
    }

    @Test func narrowContainerSqueezesEqualWidthsAndResizesIncrementally() {
        let s = LayoutGrid.SolverSystem(views: 49)       // 7 columns
        let v = LayoutGrid.ViewSystem(views: 49)
        for w in [300.0, 250, 1000, 330] {
            let a = s.edit(width: w), b = v.edit(width: w)
            // 8 + 7 widths + 6 gaps of 8 + 8 ≤ W: widths (W − 64) / 7 when that is below 40.
            let width = min(40, (w - 64) / 7)
            for i in [0, 6, 27, 48] {
                #expect(abs(s.solver.value(of: s.frames[i].2) - width) < 1e-9, "W \(w), view \(i)")
                #expect(abs(v.views[i].frame.width - width) < 1e-9)
                #expect(abs(v.views[i].frame.minX - (8 + Double(i % 7) * (width + 8))) < 1e-9)
            }
            #expect(abs(a - b) < 1e-6 * a)
        }
    }
}
