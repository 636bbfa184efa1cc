import DynamicsKit
import DynamicsLayout
import Foundation
import Testing

/// README.md's Auto Layout example, run and checked. Its code stands between
/// `// README: layout` and `// README: end`; `ReadmeExamplesTests.readmeMatchesTheTests`
/// (in DynamicsKitTests) checks that README.md shows exactly these lines.
@Suite("README Auto Layout example")
struct ReadmeLayoutExampleTests {
    @Test("layout: anchors and the visual format language put two views at their frames")
    func layout() throws {
        // README: layout
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let a = DynamicView(frame: .zero), b = DynamicView(frame: .zero)
        for view in [a, b] {
            view.translatesAutoresizingMaskIntoConstraints = false   // true by default, as in UIKit
            root.addSubview(view)
        }
        // Anchors: a is 40 pt high, 20 pt below the top; b as high as a, centred on it.
        LayoutConstraint.activate([a.heightAnchor.constraint(equalToConstant: 40),
                                   a.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
                                   b.heightAnchor.constraint(equalTo: a.heightAnchor),
                                   b.centerYAnchor.constraint(equalTo: a.centerYAnchor)])
        // Visual format: side by side, 100 apart, equal widths, the standard 20 pt from the edges.
        LayoutConstraint.activate(try LayoutConstraint.constraints(
            withVisualFormat: "H:|-[a]-100-[b(==a)]-|", options: [], metrics: nil, views: ["a": a, "b": b]))
        root.layoutIfNeeded()
        print(a.frame, b.frame)   // (20, 20, 130, 40) (250, 20, 130, 40)
        // README: end
        func close(_ r: CGRect, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> Bool {
            abs(r.minX - x) < 1e-6 && abs(r.minY - y) < 1e-6 && abs(r.width - w) < 1e-6 && abs(r.height - h) < 1e-6
        }
        #expect(close(a.frame, 20, 20, 130, 40), "a: \(a.frame)")
        #expect(close(b.frame, 250, 20, 130, 40), "b: \(b.frame)")
        #expect(!a.hasAmbiguousLayout && !b.hasAmbiguousLayout)
    }
}
