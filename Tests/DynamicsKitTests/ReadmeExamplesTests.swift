import DynamicsEngine
import DynamicsKit
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// The first programs of README.md, run and checked, and the README checked against them.
///
/// Each example's code stands between `// README: <name>` and `// README: end` below (the
/// Auto Layout one in `Tests/DynamicsLayoutTests/ReadmeLayoutExampleTests.swift`). README.md
/// shows the same lines in a ```swift block, after the `import` lines it needs;
/// `readmeMatchesTheTests` fails when the two differ, so the README cannot drift from code
/// that compiles and does what the README says.
@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("engine: a ball dropped from 5 m falls as ½gt² and comes to rest on the ground")
    func engine() throws {
        // README: engine
        // Points, y up: 100 pt = 1 m, so a gravity of 10 m/s² is 1 000 pt/s².
        let world = World(gravity: Vec2(0, -1000))
        // Static ground 20 m wide whose top face is y = 0.
        try world.createBody(BodyDef(type: .static, position: Vec2(0, -50)),
                             shapes: [ShapeDef(.box(halfWidth: 1000, halfHeight: 50))])
        // A ball 1 m across (density 1, friction 0.6 by default), dropped from 5 m.
        let ball = try world.createBody(BodyDef(type: .dynamic, position: Vec2(0, 500)),
                                        shapes: [ShapeDef(.circle(radius: 50))])
        for _ in 0..<30 { world.step(dt: 1.0 / 60.0) }
        let afterHalfSecond = world.position(ball).y    // ≈ 375 = 500 − ½ · 1000 · 0.5²
        for _ in 0..<150 { world.step(dt: 1.0 / 60.0) }
        let resting = world.position(ball).y            // ≈ 50: its centre one radius above the ground
        print(afterHalfSecond, resting)
        // README: end
        #expect(abs(afterHalfSecond - 375) < 2, "after 0.5 s: \(afterHalfSecond)")
        #expect(abs(resting - 50) < 1, "at rest: \(resting)")
        #expect(abs(world.position(ball).x) < 1e-3, "a ball dropped straight stays on its vertical")
        let v = world.linearVelocity(ball)
        #expect((v.x * v.x + v.y * v.y).squareRoot() < 1, "at rest after 3 s: \(v)")
    }

    @Test("animator: a square dropped in 320 × 480 bounds rests on the bottom edge and the animator pauses")
    func animator() {
        // README: animator
        let clock = AnimationClock()      // a headless display link (`.main` is the default)
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 480)   // UIKit's points, y down
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let square = DynamicView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        animator.addBehavior(GravityBehavior(items: [square]))
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        // Advances the clock in 1/60 s frames until nothing moves (true) or 10 s have passed.
        let paused = animator.runUntilPaused(timeout: 10)
        print(paused, square.frame)       // true, ≈ (100, 381, 100, 100): resting on the bottom edge
        // README: end
        #expect(paused, "the animator pauses once the square rests")
        #expect(!animator.isRunning)
        // Soft contacts rest about a point into the edge (the engine's linear slop and softness).
        #expect(square.frame.maxY > 479.5 && square.frame.maxY < 482, "bottom edge at \(square.frame.maxY)")
        #expect(abs(square.frame.minX - 100) < 0.5, "dropped flat, it does not slide: x \(square.frame.minX)")
        #expect(abs(square.frame.width - 100) < 1e-6 && abs(square.frame.height - 100) < 1e-6)
    }

    @Test("springy: the README's port of objc.io's layout lags far cells, then every cell settles at its flow position")
    func springy() {
        let layout = SpringyLayout()
        layout.itemSize = CGSize(width: 320, height: 44)
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), collectionViewLayout: layout, clock: AnimationClock())
        let source = CountsSource([200])
        cv.dataSource = source
        cv.reloadData()
        cv.beginDrag(at: CGPoint(x: 160, y: 400))
        for k in 1...10 { cv.drag(to: CGPoint(x: 160, y: 400 - CGFloat(k) * 20)); cv.clock.advance(by: 1.0 / 60) }
        // The top cell, 400 pt from the finger, lags; the one under it follows.
        let top = layout.animator.layoutAttributesForCell(at: IndexPath(item: 0, section: 0))!
        let under = layout.animator.layoutAttributesForCell(at: IndexPath(item: 7, section: 0))!
        #expect(top.center.y - 22 > 20, "top cell lags by \(top.center.y - 22)")
        #expect(abs(under.center.y - (7 * 54 + 22)) < 8, "cell under the finger: \(under.center.y - (7 * 54 + 22))")
        cv.endDrag(velocity: CGPoint(x: 0, y: -800))
        #expect(cv.clock.runUntilIdle(timeout: 20) && !cv.isDecelerating)
        for i in 0..<200 {
            let f = layout.frameForItem(at: IndexPath(item: i, section: 0))!
            let a = layout.animator.layoutAttributesForCell(at: IndexPath(item: i, section: 0))!
            #expect(abs(a.center.y - f.midY) <= 0.5 && abs(a.center.x - f.midX) <= 0.5, "cell \(i)")
        }
        withExtendedLifetime(source) {}
    }

    // MARK: - README.md against the marked code

    /// The package root: this file is `<root>/Tests/DynamicsKitTests/ReadmeExamplesTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines between `// README: name` and `// README: end` of a source file, with the
    /// indentation of the marker line taken off each.
    static func region(_ name: String, of source: String) -> [String]? {
        let lines = source.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// README: \(name)" })
        else { return nil }
        let indent = lines[start].prefix(while: { $0 == " " }).count
        var out: [String] = []
        for line in lines[(start + 1)...] {
            if line.trimmingCharacters(in: .whitespaces) == "// README: end" { return out }
            out.append(line.count >= indent && line.prefix(indent).allSatisfy({ $0 == " " })
                       ? String(line.dropFirst(indent)) : line)
        }
        return nil
    }

    /// Every ```swift block of a Markdown text, as lines.
    static func swiftBlocks(of markdown: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]? = nil
        for line in markdown.components(separatedBy: "\n") {
            if current == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```swift" { current = [] }
            } else if line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test("every ```swift block of README.md is a marked example of the tests, after its imports")
    func readmeMatchesTheTests() throws {
        let root = Self.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let thisFile = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let layoutFile = try String(
            contentsOf: root.appendingPathComponent("Tests/DynamicsLayoutTests/ReadmeLayoutExampleTests.swift"),
            encoding: .utf8)
        let examples: [(name: String, source: String)] = [("engine", thisFile), ("animator", thisFile),
                                                           ("layout", layoutFile), ("springy", thisFile)]
        let blocks = Self.swiftBlocks(of: readme)
        try #require(blocks.count == examples.count,
                     "README.md has \(blocks.count) swift blocks; the tests mark \(examples.count) examples")
        for (block, example) in zip(blocks, examples) {
            // The block: its `import` lines, one blank line, then the example's code.
            let imports = Array(block.prefix(while: { $0.hasPrefix("import ") }))
            var code = Array(block.dropFirst(imports.count))
            if !imports.isEmpty {
                #expect(code.first == "", "README's \(example.name) block: a blank line after its imports")
                code = Array(code.dropFirst())
            }
            let sourceLines = Set(example.source.components(separatedBy: "\n"))
            for line in imports {
                #expect(sourceLines.contains(line), "README's \(example.name) block imports what its test does not: \(line)")
            }
            let marked = try #require(Self.region(example.name, of: example.source),
                                      "no `// README: \(example.name)` … `// README: end` region")
            #expect(code == marked, """
                README's \(example.name) block differs from the marked code of its test; make them \
                the same (first differing line: \
                \(zip(code, marked).first(where: { $0 != $1 }).map { "README `\($0.0)` / test `\($0.1)`" } ?? "one is longer"))
                """)
            #expect(code.count + imports.count + (imports.isEmpty ? 0 : 1) <= 20,
                    "README's \(example.name) example is longer than 20 lines")
        }
    }
}

// README: springy
final class SpringyLayout: CollectionViewFlowLayout {  // objc.io's; at any length: SpringyFlowLayout (docs/dynamicskit.md)
    lazy var animator = DynamicAnimator(collectionViewLayout: self)
    override func prepare() {
        super.prepare()
        for item in animator.behaviors.isEmpty ? super.layoutAttributesForElements(in: CGRect(origin: .zero, size: collectionViewContentSize))! : [] {
            let spring = AttachmentBehavior(item: item, attachedToAnchor: item.center)
            (spring.length, spring.damping, spring.frequency) = (0, 0.8, 1)
            animator.addBehavior(spring)
        }
    }
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? { animator.items(in: rect) as? [CollectionViewLayoutAttributes] }
    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        let delta = newBounds.minY - collectionView!.bounds.minY, touch = collectionView!.panGestureRecognizer.location(in: collectionView)
        for case let spring as AttachmentBehavior in animator.behaviors {   // far from the finger: lags by up to the whole delta
            spring.items[0].center.y += delta * min(1, (abs(touch.y - spring.anchorPoint.y) + abs(touch.x - spring.anchorPoint.x)) / 1500)
            animator.updateItem(usingCurrentState: spring.items[0])
        }
        return false
    }
}
// README: end
