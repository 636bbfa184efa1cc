import DynamicsKit
import Foundation
import Testing
@testable import DynamicsLayout

/// Constraint tests share the program-wide conflict handler: run them one at a time.
@Suite(.serialized) struct LayoutConstraintTests {
    @Test func theProgramWideConflictHandlerIsSafeToSetFromManyThreads() {
        nonisolated(unsafe) var calls = 0
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            for _ in 0..<200 {
                LayoutConstraint.conflictHandler = k % 2 == 0 ? { _ in } : nil
                _ = LayoutConstraint.conflictHandler
            }
        }
        LayoutConstraint.conflictHandler = { _ in calls += 1 }
        defer { LayoutConstraint.conflictHandler = nil }
        let root = container()
        let v = child(root, "v")
        LayoutConstraint.activate([v.widthAnchor.constraint(equalToConstant: 10), v.widthAnchor.constraint(equalToConstant: 11)])
        #expect(calls == 1)
    }

    func close(_ a: CGRect, _ b: CGRect, _ tol: CGFloat = 1e-6) -> Bool {
        abs(a.minX - b.minX) < tol && abs(a.minY - b.minY) < tol && abs(a.width - b.width) < tol && abs(a.height - b.height) < tol
    }

    func container() -> DynamicView {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        root.name = "root"
        return root
    }

    func child(_ parent: DynamicView, _ name: String) -> DynamicView {
        let v = DynamicView(frame: .zero)
        v.name = name
        v.translatesAutoresizingMaskIntoConstraints = false
        parent.addSubview(v)
        return v
    }

    /// The first recipe: a view centred in its superview with two constraints (and a size).
    @Test func centresAViewInItsSuperviewWithTwoConstraints() {
        let root = container()
        let v = child(root, "box")
        root.addConstraint(LayoutConstraint(item: v, attribute: .centerX, relatedBy: .equal, toItem: root, attribute: .centerX, multiplier: 1, constant: 0))
        root.addConstraint(LayoutConstraint(item: v, attribute: .centerY, relatedBy: .equal, toItem: root, attribute: .centerY, multiplier: 1, constant: 0))
        v.addConstraints([v.widthAnchor.constraint(equalToConstant: 100), v.heightAnchor.constraint(equalToConstant: 50)])
        #expect(root.constraints.count == 2 && v.constraints.count == 2)
        root.layoutIfNeeded()
        #expect(close(v.frame, CGRect(x: 150, y: 125, width: 100, height: 50)))
        #expect(!v.hasAmbiguousLayout)
        // The superview's frame changes: the centre follows at the next pass.
        root.frame = CGRect(x: 10, y: 10, width: 200, height: 100)
        root.layoutIfNeeded()
        #expect(close(v.frame, CGRect(x: 50, y: 25, width: 100, height: 50)))
    }

    @Test func anchorsChainSiblingsAndMultipliersScale() {
        let root = container()
        let a = child(root, "a"), b = child(root, "b")
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
            a.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
            a.widthAnchor.constraint(equalToConstant: 60),
            a.heightAnchor.constraint(equalTo: a.widthAnchor, multiplier: 0.5),
            b.leftAnchor.constraint(equalTo: a.rightAnchor, constant: 8),
            b.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -20),
            b.centerYAnchor.constraint(equalTo: a.centerYAnchor),
            b.heightAnchor.constraint(equalTo: a.heightAnchor, multiplier: 2, constant: 4),
        ])
        #expect(root.constraints.count == 6 && a.constraints.count == 2)
        root.layoutIfNeeded()
        #expect(close(a.frame, CGRect(x: 20, y: 10, width: 60, height: 30)))
        #expect(close(b.frame, CGRect(x: 88, y: 25 - 32, width: 292, height: 64)))
        #expect(!a.hasAmbiguousLayout && !b.hasAmbiguousLayout)
    }

    @Test func cousinsRelateThroughTheirCommonAncestor() {
        let root = container()
        let p1 = child(root, "p1"), p2 = child(root, "p2")
        let c1 = child(p1, "c1"), c2 = child(p2, "c2")
        LayoutConstraint.activate([
            p1.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 10), p1.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
            p1.widthAnchor.constraint(equalToConstant: 100), p1.heightAnchor.constraint(equalToConstant: 100),
            p2.leftAnchor.constraint(equalTo: p1.rightAnchor, constant: 30), p2.topAnchor.constraint(equalTo: root.topAnchor, constant: 50),
            p2.widthAnchor.constraint(equalToConstant: 100), p2.heightAnchor.constraint(equalToConstant: 100),
            c1.leftAnchor.constraint(equalTo: p1.leftAnchor, constant: 5), c1.topAnchor.constraint(equalTo: p1.topAnchor, constant: 5),
            c1.widthAnchor.constraint(equalToConstant: 20), c1.heightAnchor.constraint(equalToConstant: 20),
            // c2's left edge lines up with c1's right edge, in root's space.
            c2.leftAnchor.constraint(equalTo: c1.rightAnchor), c2.topAnchor.constraint(equalTo: c1.bottomAnchor),
            c2.widthAnchor.constraint(equalToConstant: 20), c2.heightAnchor.constraint(equalToConstant: 20),
        ])
        root.layoutIfNeeded()
        // c1 in root space: x 15…35, y 15…35; p2 starts at 140, 50: c2 at (35-140, 35-50) in p2.
        #expect(close(c2.frame, CGRect(x: -105, y: -15, width: 20, height: 20)))
    }

    @Test func prioritiesDecideBetweenOptionalConstraints() {
        let root = container()
        let v = child(root, "v")
        let wide = v.widthAnchor.constraint(equalToConstant: 500)
        wide.priority = .defaultHigh
        let narrow = v.widthAnchor.constraint(equalToConstant: 100)
        narrow.priority = .defaultLow
        LayoutConstraint.activate([
            v.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 20), v.topAnchor.constraint(equalTo: root.topAnchor),
            v.heightAnchor.constraint(equalToConstant: 10),
            v.rightAnchor.constraint(lessThanOrEqualTo: root.rightAnchor, constant: -20), wide, narrow,
        ])
        root.layoutIfNeeded()
        #expect(abs(v.frame.width - 360) < 1e-6)      // required edge, then the high priority
        wide.priority = LayoutPriority(100)
        root.layoutIfNeeded()
        #expect(abs(v.frame.width - 100) < 1e-6)
        wide.isActive = false
        narrow.constant = 140
        root.layoutIfNeeded()
        #expect(abs(v.frame.width - 140) < 1e-6)
        #expect(!wide.isActive && narrow.isActive)
    }

    /// Forgetting `translatesAutoresizingMaskIntoConstraints = false`: the frame's constraints
    /// contradict the new one, which is broken and reported once; layout completes.
    @Test func contradictingRequiredConstraintsAreReportedOnceAndBroken() {
        let root = container()
        let v = DynamicView(frame: CGRect(x: 5, y: 5, width: 50, height: 50))
        v.name = "forgot"
        root.addSubview(v)
        nonisolated(unsafe) var reports: [LayoutConflict] = []
        LayoutConstraint.conflictHandler = { reports.append($0) }
        defer { LayoutConstraint.conflictHandler = nil }
        let c = v.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 30)
        c.identifier = "left30"
        c.isActive = true
        root.layoutIfNeeded()
        root.layoutIfNeeded()
        #expect(reports.count == 1)
        #expect(reports.first?.brokenConstraint === c)
        #expect(c.isBroken && c.isActive)
        #expect(reports.first?.message.contains("Unable to simultaneously satisfy constraints") == true)
        #expect(reports.first?.message.contains("left30") == true)
        // The minimal conflicting set: v's frame x (autoresizing) and the new constraint.
        #expect(reports.first?.constraints.count == 2)
        #expect(close(v.frame, CGRect(x: 5, y: 5, width: 50, height: 50)))
        // Setting the flag false removes the frame constraints: the broken one holds again.
        v.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([v.topAnchor.constraint(equalTo: root.topAnchor), v.widthAnchor.constraint(equalToConstant: 10), v.heightAnchor.constraint(equalToConstant: 10)])
        root.layoutIfNeeded()
        #expect(!c.isBroken)
        #expect(close(v.frame, CGRect(x: 30, y: 0, width: 10, height: 10)))
        #expect(reports.count == 1)
    }

    @Test func aConstantMadeContradictoryBreaksTheLowestPriorityOne() {
        let root = container()
        let a = child(root, "a")
        nonisolated(unsafe) var reports: [LayoutConflict] = []
        LayoutConstraint.conflictHandler = { reports.append($0) }
        defer { LayoutConstraint.conflictHandler = nil }
        let minWidth = a.widthAnchor.constraint(greaterThanOrEqualToConstant: 100)
        let maxWidth = a.widthAnchor.constraint(lessThanOrEqualToConstant: 200)
        LayoutConstraint.activate([a.leftAnchor.constraint(equalTo: root.leftAnchor), a.topAnchor.constraint(equalTo: root.topAnchor),
                                   a.heightAnchor.constraint(equalToConstant: 10), minWidth, maxWidth])
        maxWidth.constant = 50     // contradicts width ≥ 100: the changed one is broken
        root.layoutIfNeeded()
        #expect(reports.count == 1 && reports.first?.brokenConstraint === maxWidth)
        #expect(abs(a.frame.width - 100) < 1e-6)
        #expect(reports.first.map { Set($0.constraints.map(ObjectIdentifier.init)) } == Set([minWidth, maxWidth].map(ObjectIdentifier.init)))
        maxWidth.constant = 150    // consistent again
        root.layoutIfNeeded()
        #expect(!maxWidth.isBroken && reports.count == 1)
    }

    @Test func removingAViewFromItsSuperviewRemovesTheConstraintsThatInvolveItOrItsSubviews() {
        let root = container()
        let a = child(root, "a"), b = child(root, "b")
        let inner = child(b, "inner")
        let ab = a.leftAnchor.constraint(equalTo: b.rightAnchor, constant: 10)
        let aInner = a.topAnchor.constraint(equalTo: inner.bottomAnchor)
        let aWidth = a.widthAnchor.constraint(equalToConstant: 40)
        LayoutConstraint.activate([ab, aInner, aWidth])
        #expect(ab.isActive && aInner.isActive && aWidth.isActive)
        root.layoutIfNeeded()
        b.removeFromSuperview()
        // As in UIKit: the ancestors' constraints that reach into the removed subtree go; the
        // constraints that involve only views still in the tree stay.
        #expect(!ab.isActive && !aInner.isActive, "constraints to the removed view and its subview should be removed")
        #expect(aWidth.isActive)
        #expect(!root.constraints.contains { $0 === ab || $0 === aInner })
        root.layoutIfNeeded()
        #expect(abs(a.frame.width - 40) < 1e-6)
    }

    @Test func textViewsSizeFromTheirTextAndFont() {
        let root = container()
        let label = child(root, "label")
        label.text = "Hello"
        label.font = .systemFont(ofSize: 20)
        #expect(label.intrinsicContentSize == CGSize(width: 55, height: 24))
        LayoutConstraint.activate([label.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 10), label.topAnchor.constraint(equalTo: root.topAnchor, constant: 10)])
        root.layoutIfNeeded()
        #expect(close(label.frame, CGRect(x: 10, y: 10, width: 55, height: 24)))
        #expect(!label.hasAmbiguousLayout)
        // A text or font change re-measures the label by itself, as UIKit's does.
        label.text = "Hello, world"
        root.layoutIfNeeded()
        #expect(abs(label.frame.width - 132) < 1e-6)
        label.font = .systemFont(ofSize: 10)
        root.layoutIfNeeded()
        #expect(abs(label.frame.width - 66) < 1e-6 && abs(label.frame.height - 12) < 1e-6)
        label.font = .systemFont(ofSize: 20)
        root.layoutIfNeeded()
        #expect(abs(label.frame.width - 132) < 1e-6)
        // A required maximum wins over compression resistance.
        label.widthAnchor.constraint(lessThanOrEqualToConstant: 80).isActive = true
        root.layoutIfNeeded()
        #expect(abs(label.frame.width - 80) < 1e-6)
        // Hugging below a stretching constraint: the view stretches.
        let plain = child(root, "plain")
        plain.intrinsicContentSize = CGSize(width: 40, height: 20)
        let stretch = plain.widthAnchor.constraint(equalToConstant: 300)
        stretch.priority = LayoutPriority(500)
        LayoutConstraint.activate([plain.leftAnchor.constraint(equalTo: root.leftAnchor), plain.topAnchor.constraint(equalTo: root.topAnchor), stretch])
        root.layoutIfNeeded()
        #expect(abs(plain.frame.width - 300) < 1e-6 && abs(plain.frame.height - 20) < 1e-6)
        plain.setContentHuggingPriority(LayoutPriority(600), for: .horizontal)
        root.layoutIfNeeded()
        #expect(abs(plain.frame.width - 40) < 1e-6)
        #expect(plain.contentHuggingPriority(for: .horizontal) == LayoutPriority(600))
        #expect(plain.contentCompressionResistancePriority(for: .vertical) == .defaultHigh)
    }

    @Test func ambiguityIsDetected() {
        let root = container()
        let v = child(root, "v")
        LayoutConstraint.activate([v.leftAnchor.constraint(equalTo: root.leftAnchor), v.topAnchor.constraint(equalTo: root.topAnchor)])
        #expect(v.hasAmbiguousLayout)
        v.widthAnchor.constraint(greaterThanOrEqualToConstant: 10).isActive = true
        v.heightAnchor.constraint(equalToConstant: 10).isActive = true
        #expect(v.hasAmbiguousLayout)                // width ≥ 10 alone leaves it free
        let w = v.widthAnchor.constraint(equalToConstant: 30)
        w.priority = .defaultLow
        w.isActive = true
        #expect(!v.hasAmbiguousLayout)
        #expect(!root.hasAmbiguousLayout)            // translated frame: not ambiguous
    }

    /// The UIKit idiom: change a constant, then lay out inside an animation block.
    @Test func layoutInsideAnAnimationBlockAnimatesTheFrames() {
        let clock = AnimationClock()
        let root = container()
        let v = child(root, "v")
        let left = v.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 0)
        LayoutConstraint.activate([left, v.topAnchor.constraint(equalTo: root.topAnchor), v.widthAnchor.constraint(equalToConstant: 50), v.heightAnchor.constraint(equalToConstant: 50)])
        root.layoutIfNeeded()
        left.constant = 200
        DynamicView.animate(withDuration: 0.4, options: [.curveLinear], clock: clock, animations: { root.layoutIfNeeded() })
        #expect(abs(v.frame.minX - 200) < 1e-9)                 // model value at once
        clock.advance(by: 0.1)
        #expect(abs(v.presentation.frame.minX - 50) < 1e-6)     // a quarter of the way, linear
        clock.advance(by: 0.1)
        #expect(abs(v.presentation.frame.minX - 100) < 1e-6)
        clock.advance(by: 0.3)
        #expect(abs(v.presentation.frame.minX - 200) < 1e-6)
    }

    @Test func pendingLayoutRunsAtTheEndOfAClockAdvance() {
        let clock = AnimationClock()
        let root = container()
        let v = child(root, "v")
        let h = v.heightAnchor.constraint(equalToConstant: 20)
        LayoutConstraint.activate([v.leftAnchor.constraint(equalTo: root.leftAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.widthAnchor.constraint(equalTo: root.widthAnchor, multiplier: 0.5), h])
        clock.advance(by: 1.0 / 60)
        #expect(close(v.frame, CGRect(x: 0, y: 0, width: 200, height: 20)))
        h.constant = 70
        #expect(v.frame.height == 20)
        clock.advance(by: 1.0 / 60)
        #expect(v.frame.height == 70)
    }

    /// A view an animator moves keeps its physics position; layout only sizes it.
    @Test func animatorHeldViewsAreSizedNotPlaced() {
        let clock = AnimationClock()
        let root = container()
        let v = child(root, "falling")
        v.frame = CGRect(x: 100, y: 20, width: 30, height: 30)
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 300), clock: clock)
        animator.addBehavior(GravityBehavior(items: [v]))
        let w = v.widthAnchor.constraint(equalToConstant: 30)
        LayoutConstraint.activate([v.leftAnchor.constraint(equalTo: root.leftAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   w, v.heightAnchor.constraint(equalToConstant: 30)])
        clock.run(for: 0.5)
        #expect(v.center.y > 35 + 50)                 // fell (not pinned to top 0)
        #expect(abs(v.center.x - 115) < 1)            // x left to the animator, not 15
        w.constant = 40
        clock.advance(by: 1.0 / 60)
        #expect(v.bounds.width == 40)
        animator.removeAllBehaviors()
        root.setNeedsLayout()
        root.layoutIfNeeded()
        #expect(close(v.frame, CGRect(x: 0, y: 0, width: 40, height: 30)))
    }

    @Test func separateGroupsMergeWhenAConstraintLinksThem() {
        let root = container()
        let a = child(root, "a"), b = child(root, "b")
        LayoutConstraint.activate([a.widthAnchor.constraint(equalToConstant: 10), a.heightAnchor.constraint(equalToConstant: 10),
                                   b.widthAnchor.constraint(equalToConstant: 20), b.heightAnchor.constraint(equalToConstant: 20),
                                   b.topAnchor.constraint(equalTo: root.topAnchor, constant: 3)])
        LayoutConstraint.activate([a.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 7), a.topAnchor.constraint(equalTo: b.bottomAnchor),
                                   b.leftAnchor.constraint(equalTo: a.rightAnchor)])
        root.layoutIfNeeded()
        #expect(close(a.frame, CGRect(x: 7, y: 23, width: 10, height: 10)))
        #expect(close(b.frame, CGRect(x: 17, y: 3, width: 20, height: 20)))
        LayoutConstraint.deactivate(b.constraints)
        #expect(b.constraints.isEmpty)
    }
}
