@_spi(Layout) import DynamicsKit
import Foundation

/// A value for `intrinsicContentSize` meaning "no intrinsic size along this axis".
public let noIntrinsicMetric: CGFloat = -1

/// The axis of content hugging and compression resistance.
public enum LayoutAxis: Sendable, Hashable { case horizontal, vertical }

extension DynamicView {
    /// The constraints installed on this view (by `addConstraint` or activation, on the items'
    /// nearest common ancestor).
    public var constraints: [LayoutConstraint] { existingLayoutState?.constraints ?? [] }

    /// Installs `constraint` on this view, which must be its items' common ancestor (or its
    /// only item), and activates it: the solver takes it in at once (incrementally), frames
    /// change at the next layout pass. A constraint installed elsewhere moves here.
    public func addConstraint(_ constraint: LayoutConstraint) {
        if constraint.installedOn === self { return }
        constraint.installedOn?.removeConstraint(constraint)
        guard let a = constraint.firstItem else { return }
        precondition(isAncestorOrSelf(of: a) && (constraint.secondItem.map { isAncestorOrSelf(of: $0) } ?? true),
                     "addConstraint: the view must be an ancestor of (or one of) the constraint's items: \(constraint)")
        layoutState.constraints.append(constraint)
        constraint.installedOn = self
        LayoutEngine.engine(for: constraint).add(constraint)
    }

    /// Installs each constraint (see `addConstraint(_:)`).
    public func addConstraints(_ constraints: [LayoutConstraint]) { for c in constraints { addConstraint(c) } }

    /// Removes a constraint installed on this view (deactivating it); others are ignored.
    public func removeConstraint(_ constraint: LayoutConstraint) {
        guard constraint.installedOn === self, let st = existingLayoutState else { return }
        st.constraints.removeAll { $0 === constraint }
        constraint.installedOn = nil
        constraint.engine?.remove(constraint)
    }

    /// Removes each constraint (see `removeConstraint(_:)`).
    public func removeConstraints(_ constraints: [LayoutConstraint]) { for c in constraints { removeConstraint(c) } }

    /// Whether the view's frame becomes four required constraints (its current origin and
    /// size, kept in step with later frame changes) when it takes part in layout. True by
    /// default, as in UIKit: set it false on views you position with constraints.
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { existingLayoutState?.translates ?? true }
        set {
            let st = layoutState
            if st.translates == newValue { return }
            st.translates = newValue
            if let e = st.engine { e.syncTranslation(st.entry); e.setNeedsLayout(intrinsic: true) }
        }
    }

    /// Marks the view's layout as needing a pass (run by `layoutIfNeeded()` or at the end of
    /// the next `AnimationClock.advance(by:)`). Call it (or `invalidateIntrinsicContentSize()`)
    /// after changing a view's text or font, and after changing the frame of a view whose frame
    /// is translated into constraints (unless you call `layoutIfNeeded()` on it or a subview).
    public func setNeedsLayout() {
        if let e = existingLayoutState?.engine { e.setNeedsLayout(intrinsic: true) }
    }

    /// Runs the pending layout passes of this thread now (this view's, and any other waiting
    /// on the thread): the solved frames are written to the views, so inside an animation block
    /// they animate. A changed frame of this view or an ancestor that translates its frame is
    /// picked up first.
    public func layoutIfNeeded() {
        var p: DynamicView? = self
        while let v = p {
            if let st = v.existingLayoutState, st.translates, let e = st.engine, e.entries[st.entry].fixedFrame != v.frame { e.setNeedsLayout() }
            p = v.superview
        }
        AnimationClock.runPendingLayoutPasses()
    }

    /// The size the view's content needs (`noIntrinsicMetric` along an axis without one): set
    /// explicitly, or, for a view with text, the text's size in its font — each character
    /// 0.55 × the font size wide, each line 1.2 × the font size high (`numberOfLines` 0 or
    /// above 1 allows explicit line breaks). Layout keeps the view at least this size at its
    /// compression resistance priority and at most this size at its hugging priority. Setting
    /// nil returns to the text-derived size.
    public var intrinsicContentSize: CGSize {
        get {
            if let s = existingLayoutState?.intrinsicOverride { return s }
            guard let text, !text.isEmpty else { return CGSize(width: noIntrinsicMetric, height: noIntrinsicMetric) }
            let lines = numberOfLines == 1 ? [Substring(text)] : text.split(separator: "\n", omittingEmptySubsequences: false)
            let shown = numberOfLines > 1 ? Array(lines.prefix(numberOfLines)) : lines
            let longest = shown.map { $0.count }.max() ?? 0
            let width = (CGFloat(longest) * font.size * 0.55 - 1e-9).rounded(.up)
            let height = (CGFloat(shown.count) * font.size * 1.2 - 1e-9).rounded(.up)
            return CGSize(width: width, height: height)
        }
        set {
            layoutState.intrinsicOverride = newValue
            setNeedsLayout()
        }
    }

    /// Tells layout the intrinsic size changed (text or font), like UIKit.
    public func invalidateIntrinsicContentSize() { setNeedsLayout() }

    /// How strongly the view resists growing beyond its intrinsic size (default 250).
    public func contentHuggingPriority(for axis: LayoutAxis) -> LayoutPriority {
        (existingLayoutState?.hugging ?? .defaultHugging)[axis]
    }

    /// Sets how strongly the view resists growing beyond its intrinsic size along `axis`.
    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        layoutState.hugging[axis] = priority
        setNeedsLayout()
    }

    /// How strongly the view resists shrinking below its intrinsic size (default 750).
    public func contentCompressionResistancePriority(for axis: LayoutAxis) -> LayoutPriority {
        (existingLayoutState?.compression ?? .defaultCompression)[axis]
    }

    /// Sets how strongly the view resists shrinking below its intrinsic size along `axis`.
    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        layoutState.compression[axis] = priority
        setNeedsLayout()
    }

    /// Whether the constraints leave this view's frame undetermined: some part of it could move
    /// without changing how well the constraints are met (false for a view not in layout or
    /// one that translates its frame).
    public var hasAmbiguousLayout: Bool {
        guard let st = existingLayoutState, !st.translates, let e = st.engine else { return false }
        let en = e.entries[st.entry]
        return [en.x, en.y, en.w, en.h].contains { e.solver.isAmbiguous($0) }
    }

    func isAncestorOrSelf(of v: DynamicView) -> Bool {
        var p: DynamicView? = v
        while let x = p { if x === self { return true }; p = x.superview }
        return false
    }
}

extension LayoutEngine {
    /// The engine that takes `c`: the one its views already belong to (engines merge when the
    /// constraint links two), or a new one.
    static func engine(for c: LayoutConstraint) -> LayoutEngine {
        var views: [DynamicView] = []
        let space = c.commonAncestor()
        for item in [c.firstItem, c.hasSecondItem ? c.secondItem : nil] {
            var p = item
            while let v = p { views.append(v); if v === space { break }; p = v.superview }
        }
        var found: [LayoutEngine] = []
        for v in views { if let e = v.existingLayoutState?.engine, !found.contains(where: { $0 === e }) { found.append(e) } }
        guard var target = found.first else { return LayoutEngine() }
        for e in found.dropFirst() where e.entries.count > target.entries.count { target = e }
        for e in found where e !== target { target.absorb(e) }
        return target
    }
}

extension LayoutSolver {
    /// Whether `v` could change without making the solution worse: it is non-basic (free), or
    /// its row holds an unrestricted symbol, or a slack or error symbol of zero objective
    /// weight that can grow (no degenerate row blocks it).
    public func isAmbiguous(_ v: Variable) -> Bool {
        let r = rowOf[Int(v.id)]
        if r < 0 { return true }
        for s in rowSyms[Int(r)] where kind[Int(s)] != .dummy {
            if kind[Int(s)] == .external { return true }
            if abs(objective.coef[Int(s)]) < LayoutSolver.epsilon && !isBlocked(s) { return true }
        }
        return false
    }

    /// Whether a restricted row with a zero constant stops non-basic `s` from growing.
    func isBlocked(_ s: Int32) -> Bool {
        stamp &+= 1
        var e = colHead[Int(s)]
        while e >= 0 {
            let r = entRow[Int(e)]
            e = entNext[Int(e)]
            let b = rowBasic[Int(r)]
            if b < 0 || rowStamp[Int(r)] == stamp { continue }
            rowStamp[Int(r)] = stamp
            let i = find(r, s)
            if i >= 0 && kind[Int(b)] != .external && rowCoefs[Int(r)][i] < 0 && rowConst[Int(r)] < LayoutSolver.epsilon { return true }
        }
        return false
    }
}
