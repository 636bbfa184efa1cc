import DynamicsKit
import DynamicsLayout
import Foundation

/// The `layout` benchmark system (Auto Layout, not physics): `n` views in a grid of
/// `⌊√n⌋` columns inside a container whose width W and height H are edited at a strong
/// priority (W = 1000, H = 800 at the start). Each view: width, height ≥ 0; width = 40 and
/// height = 30 at a weak priority; in its row `left = 8` (first column) or
/// `left = previous.left + previous.width + 8` and `width = previous.width`; the last of a row
/// `left + width + 8 ≤ W`; `top = 8` (first row) or `top = above.top + above.height + 8`.
/// `scripts/layout-kiwi.py` builds the same system on kiwisolver.
public enum LayoutGrid {
    /// The strong priority of the container's size (kiwi's `strong`, 10⁶).
    public static let strong: Double = 1_000_000
    /// The weak priority of the views' preferred sizes (kiwi's `weak`, 1).
    public static let weak: Double = 1

    /// W for edit `k` (a window being resized): 1000 + k mod 200.
    public static func width(forEdit k: Int) -> Double { Double(1000 + k % 200) }

    /// The system on a bare `LayoutSolver` (the same calls kiwisolver gets).
    public final class SolverSystem {
        /// The solver holding the system.
        public let solver = LayoutSolver()
        /// The container's width and height (edit variables).
        public let width: LayoutSolver.Variable, height: LayoutSolver.Variable
        /// left, top, width, height of each view.
        public private(set) var frames: [(LayoutSolver.Variable, LayoutSolver.Variable, LayoutSolver.Variable, LayoutSolver.Variable)] = []

        /// Builds and solves the grid of `n` views (W = 1000, H = 800).
        public init(views n: Int) {
            precondition(n >= 1, "LayoutGrid: at least one view")
            let s = solver
            width = s.addVariable(); height = s.addVariable()
            s.addEditVariable(width, strength: LayoutGrid.strong)
            s.addEditVariable(height, strength: LayoutGrid.strong)
            s.suggestValue(1000, for: width)
            s.suggestValue(800, for: height)
            let cols = max(1, Int(Double(n).squareRoot()))
            frames.reserveCapacity(n)
            do {
                for i in 0..<n {
                    let r = i / cols, c = i % cols
                    let l = s.addVariable(), t = s.addVariable(), w = s.addVariable(), h = s.addVariable()
                    try s.addConstraint([(w, 1)], constant: 0, relation: .greaterThanOrEqual)
                    try s.addConstraint([(h, 1)], constant: 0, relation: .greaterThanOrEqual)
                    try s.addConstraint([(w, 1)], constant: -40, relation: .equal, strength: LayoutGrid.weak)
                    try s.addConstraint([(h, 1)], constant: -30, relation: .equal, strength: LayoutGrid.weak)
                    if c == 0 {
                        try s.addConstraint([(l, 1)], constant: -8, relation: .equal)
                    } else {
                        let p = frames[i - 1]
                        try s.addConstraint([(l, 1), (p.0, -1), (p.2, -1)], constant: -8, relation: .equal)
                        try s.addConstraint([(w, 1), (p.2, -1)], constant: 0, relation: .equal)
                    }
                    if c == cols - 1 || i == n - 1 {
                        try s.addConstraint([(l, 1), (w, 1), (width, -1)], constant: 8, relation: .lessThanOrEqual)
                    }
                    if r == 0 {
                        try s.addConstraint([(t, 1)], constant: -8, relation: .equal)
                    } else {
                        let a = frames[i - cols]
                        try s.addConstraint([(t, 1), (a.1, -1), (a.3, -1)], constant: -8, relation: .equal)
                    }
                    frames.append((l, t, w, h))
                }
            } catch {
                preconditionFailure("LayoutGrid: the grid's required constraints contradict (\(error))")
            }
        }

        /// Suggests W and reads every frame; returns the sum of the frames' values (so the
        /// reads are not optimised away, and as a checksum).
        @inline(never)
        public func edit(width w: Double) -> Double {
            solver.suggestValue(w, for: width)
            var sum = 0.0
            for f in frames { sum += solver.value(of: f.0) + solver.value(of: f.1) + solver.value(of: f.2) + solver.value(of: f.3) }
            return sum
        }
    }

    /// The system on views: a container (not translating its frame) whose width and height are
    /// constraints of priority 999, and `n` subviews made with anchors.
    public final class ViewSystem {
        /// The container (its width and height are constraints of priority 999).
        public let container: DynamicView
        /// The container's width constraint, whose constant an edit changes.
        public let widthConstraint: LayoutConstraint
        /// The grid's views, row by row.
        public let views: [DynamicView]

        /// Builds the grid of `n` views with anchors, activates it and lays it out.
        public init(views n: Int) {
            precondition(n >= 1, "LayoutGrid: at least one view")
            let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
            let box = DynamicView(frame: .zero)
            box.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(box)
            container = box
            var cs: [LayoutConstraint] = [box.leftAnchor.constraint(equalTo: root.leftAnchor), box.topAnchor.constraint(equalTo: root.topAnchor)]
            widthConstraint = box.widthAnchor.constraint(equalToConstant: 1000)
            widthConstraint.priority = LayoutPriority(999)
            let hc = box.heightAnchor.constraint(equalToConstant: 800)
            hc.priority = LayoutPriority(999)
            cs += [widthConstraint, hc]
            let cols = max(1, Int(Double(n).squareRoot()))
            var list: [DynamicView] = []
            list.reserveCapacity(n)
            for i in 0..<n {
                let r = i / cols, c = i % cols
                let v = DynamicView(frame: .zero)
                v.translatesAutoresizingMaskIntoConstraints = false
                box.addSubview(v)
                let pw = v.widthAnchor.constraint(equalToConstant: 40), ph = v.heightAnchor.constraint(equalToConstant: 30)
                pw.priority = .fittingSizeLevel; ph.priority = .fittingSizeLevel
                cs += [v.widthAnchor.constraint(greaterThanOrEqualToConstant: 0), v.heightAnchor.constraint(greaterThanOrEqualToConstant: 0), pw, ph]
                if c == 0 {
                    cs.append(v.leftAnchor.constraint(equalTo: box.leftAnchor, constant: 8))
                } else {
                    let p = list[i - 1]
                    cs += [v.leftAnchor.constraint(equalTo: p.rightAnchor, constant: 8), v.widthAnchor.constraint(equalTo: p.widthAnchor)]
                }
                if c == cols - 1 || i == n - 1 { cs.append(v.rightAnchor.constraint(lessThanOrEqualTo: box.rightAnchor, constant: -8)) }
                cs.append(r == 0 ? v.topAnchor.constraint(equalTo: box.topAnchor, constant: 8)
                                 : v.topAnchor.constraint(equalTo: list[i - cols].bottomAnchor, constant: 8))
                list.append(v)
            }
            views = list
            LayoutConstraint.activate(cs)
            box.layoutIfNeeded()
        }

        /// Changes the width constraint's constant, lays out, reads every frame.
        @inline(never)
        public func edit(width w: Double) -> Double {
            widthConstraint.constant = CGFloat(w)
            container.layoutIfNeeded()
            var sum = 0.0
            for v in views { let f = v.frame; sum += f.minX + f.minY + f.width + f.height }
            return sum
        }
    }
}
