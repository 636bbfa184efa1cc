@_spi(Layout) import DynamicsKit
import Foundation

/// Per-view layout state, kept in the view's layout storage slot; the view tells it of the
/// changes layout follows.
final class ViewLayoutState: ViewLayoutStorage {
    var constraints: [LayoutConstraint] = []
    var translates = true
    var hugging = AxisPriorities.defaultHugging
    var compression = AxisPriorities.defaultCompression
    var intrinsicOverride: CGSize?
    /// The engine solving this view's frame, and the view's entry in it.
    var engine: LayoutEngine?
    var entry = -1
    /// See `DynamicView.layoutConflictHandler`.
    var conflictHandler: ((LayoutConflict) -> Void)?

    /// A text or font change re-measures the view, as a label's does.
    func viewContentChanged(_ view: DynamicView) { view.invalidateIntrinsicContentSize() }

    /// A view leaving its superview takes with it, as in UIKit, the constraints of its former
    /// ancestors that involve it or its subviews.
    func view(_ view: DynamicView, willLeave superview: DynamicView) {
        LayoutConstraint.removeConstraints(involving: view, from: superview)
    }
}

/// A priority per axis: a view's content hugging or its compression resistance.
struct AxisPriorities {
    var horizontal: LayoutPriority
    var vertical: LayoutPriority

    /// UIKit's defaults: 250 for hugging, 750 for compression resistance, on both axes.
    static let defaultHugging = AxisPriorities(horizontal: .defaultLow, vertical: .defaultLow)
    static let defaultCompression = AxisPriorities(horizontal: .defaultHigh, vertical: .defaultHigh)

    subscript(axis: LayoutAxis) -> LayoutPriority {
        get { axis == .horizontal ? horizontal : vertical }
        set { if axis == .horizontal { horizontal = newValue } else { vertical = newValue } }
    }
}

extension DynamicView {
    var layoutState: ViewLayoutState {
        if let s = layoutStorage as? ViewLayoutState { return s }
        let s = ViewLayoutState()
        layoutStorage = s
        return s
    }
    var existingLayoutState: ViewLayoutState? { layoutStorage as? ViewLayoutState }
}

/// The solver of one group of views linked by active constraints (engines merge when a
/// constraint links two groups). Frames are written in layout passes, which run at the end of
/// the next clock advance on the thread where the engine needed one, or at `layoutIfNeeded()`.
final class LayoutEngine: PendingLayoutPass {
    let solver = LayoutSolver()

    struct Entry {
        weak var view: DynamicView?
        let x, y, w, h: LayoutSolver.Variable
        /// The four frame constraints of a view that translates its frame, and that frame.
        var frameConstraints: [LayoutConstraint] = []
        var fixedFrame = CGRect.zero
        /// The intrinsic-size constraints (hugging and compression) and what they were made from.
        var sizeConstraints: [LayoutConstraint] = []
        var sizeKey: [Float] = []
    }
    /// Set when intrinsic sizes must be checked at the next pass (a view joined, or
    /// `setNeedsLayout` / `invalidateIntrinsicContentSize` / a priority or flag changed).
    var intrinsicDirty = true
    /// Entries whose views translate their frames.
    var translating: [Int] = []
    /// Hot per-entry data for the frame-writing loop (trivial values, no references): the
    /// variables, whether the view translates its frame, the frame last written.
    struct Hot { var x, y, w, h: LayoutSolver.Variable; var translates: Bool; var written: CGRect }
    var hot: [Hot] = []
    var entries: [Entry] = []
    /// Every constraint in this engine (user, frame and content-size), broken ones included.
    var constraints: [LayoutConstraint] = []
    var needsLayout = false
    /// Constraints of this engine broken to resolve a conflict.
    var brokenCount = 0

    // MARK: Views

    func entry(for view: DynamicView) -> Int {
        let st = view.layoutState
        if st.engine === self { return st.entry }
        precondition(st.engine == nil, "LayoutEngine: internal error: the view belongs to another engine")
        let i = entries.count
        let e = Entry(view: view, x: solver.addVariable(), y: solver.addVariable(), w: solver.addVariable(), h: solver.addVariable())
        entries.append(e)
        hot.append(Hot(x: e.x, y: e.y, w: e.w, h: e.h, translates: false, written: CGRect(x: CGFloat.nan, y: .nan, width: .nan, height: .nan)))
        st.engine = self
        st.entry = i
        syncTranslation(i)
        syncIntrinsicSize(i)
        return i
    }

    /// Adds or drops the frame constraints of entry `i` as its view's flag says.
    func syncTranslation(_ i: Int) {
        guard let v = entries[i].view else { return }
        let translates = v.layoutState.translates
        if translates && entries[i].frameConstraints.isEmpty {
            let f = v.frame
            precondition(f.minX.isFinite && f.minY.isFinite && f.width.isFinite && f.height.isFinite,
                         "Auto Layout: the frame of '\(v.name)' is not finite (\(f)); it cannot become constraints (translatesAutoresizingMaskIntoConstraints)")
            entries[i].fixedFrame = f
            let attrs: [(LayoutConstraint.Attribute, CGFloat)] = [(.left, f.minX), (.top, f.minY), (.width, f.width), (.height, f.height)]
            var list: [LayoutConstraint] = []
            for (a, c) in attrs {
                let k = LayoutConstraint(item: v, attribute: .width, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: c)
                k.kind = .autoresizing
                k.autoresizingAttribute = a
                list.append(k)
            }
            entries[i].frameConstraints = list
            translating.append(i)
            hot[i].translates = true
            for k in list { add(k) }
        } else if !translates && !entries[i].frameConstraints.isEmpty {
            for k in entries[i].frameConstraints { remove(k) }
            entries[i].frameConstraints = []
            translating.removeAll { $0 == i }
            hot[i].translates = false
            hot[i].written.origin.x = .nan
        }
        if !translates { syncIntrinsicSize(i) }
    }

    /// Re-makes entry `i`'s hugging and compression constraints if its intrinsic size or
    /// priorities changed (none for a view that translates its frame).
    func syncIntrinsicSize(_ i: Int) {
        guard let v = entries[i].view else { return }
        let st = v.layoutState
        var key: [Float] = []
        if !st.translates {
            let s = v.intrinsicContentSize
            if s.width >= 0 || s.height >= 0 {
                key = [Float(s.width), Float(s.height), st.hugging.horizontal.rawValue, st.hugging.vertical.rawValue,
                       st.compression.horizontal.rawValue, st.compression.vertical.rawValue]
            }
        }
        if key == entries[i].sizeKey { return }
        for k in entries[i].sizeConstraints { remove(k) }
        entries[i].sizeConstraints = []
        entries[i].sizeKey = key
        guard !key.isEmpty else { return }
        var list: [LayoutConstraint] = []
        for (attr, size, hug, comp) in [(LayoutConstraint.Attribute.width, key[0], key[2], key[4]), (.height, key[1], key[3], key[5])] where size >= 0 {
            let hugging = LayoutConstraint(item: v, attribute: attr, relatedBy: .lessThanOrEqual, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: CGFloat(size))
            hugging.priority = LayoutPriority(hug)
            let resist = LayoutConstraint(item: v, attribute: attr, relatedBy: .greaterThanOrEqual, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: CGFloat(size))
            resist.priority = LayoutPriority(comp)
            hugging.kind = .contentSize; resist.kind = .contentSize
            list += [hugging, resist]
        }
        entries[i].sizeConstraints = list
        for k in list { add(k) }
    }

    // MARK: Constraints

    /// The expression of `view.attribute` in the space of `space` (an ancestor of `view` or
    /// `view` itself), appended to `terms` times `k`; returns its constant times `k`.
    func appendExpression(_ view: DynamicView, _ attribute: LayoutConstraint.Attribute, space: DynamicView?, times k: Double,
                          to terms: inout [(LayoutSolver.Variable, Double)]) {
        let e = entries[entry(for: view)]
        switch attribute {
        case .width: terms.append((e.w, k)); return
        case .height: terms.append((e.h, k)); return
        default: break
        }
        let horizontal = attribute.isHorizontal
        let size = horizontal ? e.w : e.h
        let fraction: Double
        switch attribute {
        case .left, .leading, .top: fraction = 0
        case .centerX, .centerY: fraction = 0.5
        default: fraction = 1
        }
        if fraction != 0 { terms.append((size, k * fraction)) }
        if view === space { return }     // a view's own bounds: origin 0
        var p: DynamicView? = view
        while let v = p, v !== space {
            let ev = entries[entry(for: v)]
            terms.append((horizontal ? ev.x : ev.y, k))
            p = v.superview
        }
    }

    /// Puts the constraint in the solver (or breaks it, reporting the conflict).
    func add(_ c: LayoutConstraint) {
        c.engine = self
        c.engineIndex = constraints.count
        constraints.append(c)
        c.isBroken = false
        buildTerms(c)
        insert(c)
        setNeedsLayout()
    }

    func buildTerms(_ c: LayoutConstraint) {
        var terms: [(LayoutSolver.Variable, Double)] = []
        guard let a = c.firstItem else { c.terms = []; c.baseConstant = 0; return }
        if c.kind == .autoresizing {
            let e = entries[entry(for: a)]
            let v: LayoutSolver.Variable
            switch c.autoresizingAttribute { case .left: v = e.x; case .top: v = e.y; case .width: v = e.w; default: v = e.h }
            c.terms = [(v, 1)]
            c.baseConstant = 0
            return
        }
        let space = c.commonAncestor()
        appendExpression(a, c.firstAttribute, space: space, times: 1, to: &terms)
        if c.hasSecondItem, let b = c.secondItem {
            appendExpression(b, c.secondAttribute, space: space, times: -Double(c.multiplier), to: &terms)
        }
        c.terms = terms
        c.baseConstant = 0
    }

    func solverRelation(_ r: LayoutConstraint.Relation) -> LayoutSolver.Relation {
        switch r { case .lessThanOrEqual: .lessThanOrEqual; case .equal: .equal; case .greaterThanOrEqual: .greaterThanOrEqual }
    }

    func insert(_ c: LayoutConstraint, reportConflict: Bool = true) {
        guard !c.terms.isEmpty else { return }
        do {
            c.handle = try solver.addConstraint(c.terms, constant: c.baseConstant - Double(c.constant), relation: solverRelation(c.relation),
                                                strength: c.priority.isRequired ? LayoutSolver.required : c.priority.weight)
        } catch {
            if reportConflict { breakConstraint(c) } else { c.isBroken = true; c.handle = nil }
        }
    }

    func remove(_ c: LayoutConstraint) {
        guard c.engine === self, c.engineIndex >= 0 else { return }
        let freesRoom = c.handle != nil && c.priority.isRequired
        if let h = c.handle { solver.removeConstraint(h); c.handle = nil }
        let i = c.engineIndex
        let last = constraints.removeLast()
        if last !== c { constraints[i] = last; last.engineIndex = i }
        c.engineIndex = -1
        c.isBroken = false
        c.engine = nil
        setNeedsLayout()
        // A broken constraint may hold now (a conflict is not reported twice).
        if freesRoom && brokenCount > 0 { for k in constraints where k.isBroken { k.isBroken = false; insert(k, reportConflict: false) } }
    }

    func constantChanged(_ c: LayoutConstraint) {
        setNeedsLayout()
        guard let h = c.handle else {
            if c.isBroken { c.isBroken = false; insert(c) }     // try again with the new constant
            return
        }
        do { try solver.setConstant(c.baseConstant - Double(c.constant), of: h) } catch {
            solver.removeConstraint(h)
            c.handle = nil
            breakConstraint(c)
        }
    }

    /// `c` (required) contradicts the solver's required constraints: it stays out of the
    /// solver, and the smallest contradicting set found is reported once.
    func breakConstraint(_ c: LayoutConstraint) {
        c.isBroken = true
        c.handle = nil
        LayoutConstraint.report(LayoutConflict(constraints: conflictSet(for: c) + [c], brokenConstraint: c),
                                near: c.installedOn ?? c.firstItem)
    }

    /// A minimal set of required constraints in the solver that contradicts `c`: those linked to
    /// it through shared variables, filtered by deletion (each is dropped if the rest still
    /// contradicts `c`), solved on scratch solvers.
    func conflictSet(for c: LayoutConstraint) -> [LayoutConstraint] {
        var reached = Set(c.terms.map { $0.0 })
        var pool = constraints.filter { $0 !== c && $0.handle != nil && $0.priority.isRequired }
        var linked: [LayoutConstraint] = []
        var grew = true
        while grew {
            grew = false
            var rest: [LayoutConstraint] = []
            for k in pool {
                if k.terms.contains(where: { reached.contains($0.0) }) {
                    linked.append(k); grew = true
                    for t in k.terms { reached.insert(t.0) }
                } else { rest.append(k) }
            }
            pool = rest
        }
        if linked.count > 300 {
            let direct = Set(c.terms.map { $0.0 })
            return linked.filter { $0.terms.contains { direct.contains($0.0) } }
        }
        func satisfiable(_ list: [LayoutConstraint]) -> Bool {
            let s = LayoutSolver()
            var map: [LayoutSolver.Variable: LayoutSolver.Variable] = [:]
            for k in list + [c] {
                let t = k.terms.map { (v, x) -> (LayoutSolver.Variable, Double) in
                    if let m = map[v] { return (m, x) }
                    let m = s.addVariable(); map[v] = m; return (m, x)
                }
                do { try s.addConstraint(t, constant: k.baseConstant - Double(k.constant), relation: solverRelation(k.relation)) } catch { return false }
            }
            return true
        }
        var set = linked
        var i = 0
        while i < set.count {
            var trial = set
            trial.remove(at: i)
            if !satisfiable(trial) { set = trial } else { i += 1 }
        }
        return set
    }

    // MARK: Layout passes

    func setNeedsLayout(intrinsic: Bool = false) {
        if intrinsic { intrinsicDirty = true }
        if needsLayout { return }
        needsLayout = true
        AnimationClock.scheduleLayoutPass(self)
    }

    /// Clears `needsLayout` and leaves the thread's pending passes.
    private func withdrawPendingPass() {
        needsLayout = false
        AnimationClock.withdrawLayoutPass(self)
    }

    func runLayoutPass() { layout() }

    /// Brings frames of translating views and intrinsic sizes into the solver, then writes the
    /// solved frames (sizes only for views an animator holds).
    func layout() {
        if needsLayout { withdrawPendingPass() }
        for i in translating {
            guard let v = entries[i].view else { continue }
            let f = v.frame
            // A non-finite frame (a programmer error elsewhere) is not taken into the solver.
            guard f.minX.isFinite && f.minY.isFinite && f.width.isFinite && f.height.isFinite else { continue }
            if f != entries[i].fixedFrame {
                entries[i].fixedFrame = f
                let values = [f.minX, f.minY, f.width, f.height]
                for (k, value) in zip(entries[i].frameConstraints, values) where k.constant != value { k.constant = value }
            }
        }
        if intrinsicDirty {
            intrinsicDirty = false
            for i in entries.indices where entries[i].frameConstraints.isEmpty {
                guard let v = entries[i].view else { continue }
                if v.text != nil || !entries[i].sizeKey.isEmpty || v.existingLayoutState?.intrinsicOverride != nil { syncIntrinsicSize(i) }
            }
        }
        if needsLayout { withdrawPendingPass() }    // the syncs above changed the solver
        var i = 0
        while i < hot.count {
            let h = hot[i]
            i += 1
            if h.translates { continue }
            let f = CGRect(x: solver.value(of: h.x), y: solver.value(of: h.y), width: solver.value(of: h.w), height: solver.value(of: h.h))
            if f == h.written { continue }
            guard let v = entries[i - 1].view else { continue }
            hot[i - 1].written = f
            if v.isHeldByAnimator {
                if v.bounds.size != f.size { v.bounds = CGRect(origin: v.bounds.origin, size: f.size) }   // (a scrolled view keeps its offset)
                hot[i - 1].written.origin.x = .nan      // its position is the animator's: check again next time
            } else {
                v.frame = f
            }
        }
    }

    /// Moves every view and constraint of `other` into this engine.
    func absorb(_ other: LayoutEngine) {
        let moved = other.constraints.filter { $0.kind == .user }
        for e in other.entries { if let v = e.view, v.existingLayoutState?.engine === other { v.layoutState.engine = nil; v.layoutState.entry = -1 } }
        if other.needsLayout { other.withdrawPendingPass() }
        other.constraints = []
        other.entries = []
        other.translating = []
        other.hot = []
        for c in moved { c.isBroken = false; c.engine = nil; c.handle = nil; c.engineIndex = -1; add(c) }
    }
}
