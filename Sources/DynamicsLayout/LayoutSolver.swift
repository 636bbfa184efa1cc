/// An incremental Cassowary simplex solver for linear equalities and inequalities with
/// required and weighted (optional) strengths — the engine under `LayoutConstraint`, usable on
/// its own.
///
/// A constraint is `Σ coefficient·variable + constant  (≤ | = | ≥)  0`. Required constraints hold
/// exactly; an optional one of weight `w` adds `w·|violation|` to the objective the solver
/// minimises. Adding a constraint, removing one, changing a constraint's constant
/// (`setConstant(_:of:)`) and suggesting an edit variable's value re-solve incrementally (a
/// few pivots of the primal or, for constants, the dual simplex) on the same tableau.
///
/// Representation: every symbol (variable, slack, error or dummy) is a small integer. A row of
/// the tableau (a basic symbol expressed in the non-basic ones) holds its terms in two
/// parallel arrays; each symbol keeps the list of rows it appears in (a column index), so a
/// pivot touches only the rows that contain the entering symbol, not every row. The objective
/// is dense (indexed by symbol) with a list of its negative entries, so choosing an entering
/// symbol does not scan it. Nothing in a pivot allocates once the arrays have grown.
///
/// Not thread-safe: use one solver from one thread at a time.
public final class LayoutSolver {
    /// A variable of this solver (its value is read with `value(of:)`).
    public struct Variable: Hashable, Sendable {
        /// The variable's symbol number in its solver.
        public let id: Int32
    }

    /// A constraint added to this solver (to remove it or change its constant).
    public struct Constraint: Hashable, Sendable {
        /// The constraint's number in its solver.
        public let id: Int32
    }

    /// How a constraint's expression compares with zero.
    public enum Relation: Sendable, Equatable {
        /// The expression is at most, exactly, or at least zero.
        case lessThanOrEqual, equal, greaterThanOrEqual
    }

    /// The strength of a required constraint (any infinite strength is required).
    public static let required: Double = .infinity

    /// Why a constraint could not be added.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A required constraint contradicts the required constraints already in the solver.
        case unsatisfiable
        /// A sentence saying why the constraint was refused.
        public var description: String { "the required constraint contradicts the required constraints already added" }
    }

    // The tableau's arrays and the pivoting state are `@exclusivity(unchecked)`: the simplex
    // loops touch them at every step, a solver is used from one thread at a time, and the
    // dynamic checks measurably slowed solving and edits (docs/architecture.md).

    // MARK: Symbols

    @usableFromInline enum Kind: UInt8 { case external, slack, error, dummy }
    @usableFromInline @exclusivity(unchecked) var kind: [Kind] = []
    /// Per symbol: the row where it is basic, or -1.
    @usableFromInline @exclusivity(unchecked) var rowOf: [Int32] = []
    /// Per symbol: head of its column list (entries naming rows that may contain it), or -1.
    @exclusivity(unchecked) var colHead: [Int32] = []
    /// Per symbol: scratch position in the row being merged into (-1 outside a merge).
    @exclusivity(unchecked) var pos: [Int32] = []

    // MARK: Rows

    /// Per row: its basic symbol (-1 for a free row).
    @exclusivity(unchecked) var rowBasic: [Int32] = []
    @usableFromInline @exclusivity(unchecked) var rowConst: [Double] = []
    @exclusivity(unchecked) var rowSyms: [[Int32]] = []
    @exclusivity(unchecked) var rowCoefs: [[Double]] = []
    var freeRows: [Int32] = []
    /// Per row: the stamp of the last column walk that visited it (dedupes column entries).
    @exclusivity(unchecked) var rowStamp: [UInt32] = []
    @exclusivity(unchecked) var stamp: UInt32 = 0

    // MARK: Column entries (a pool of singly linked lists)

    @exclusivity(unchecked) var entRow: [Int32] = []
    @exclusivity(unchecked) var entNext: [Int32] = []
    var freeEnt: Int32 = -1

    // MARK: Objective

    /// A row kept dense: the objective and, while a constraint is added through an artificial
    /// variable, the artificial objective.
    struct DenseRow {
        var coef: [Double] = []
        var listed: [Bool] = []
        var list: [Int32] = []
        var negListed: [Bool] = []
        var neg: [Int32] = []
        var constant: Double = 0

        mutating func grow(to n: Int) {
            while coef.count < n { coef.append(0); listed.append(false); negListed.append(false) }
        }
        mutating func add(_ s: Int32, _ c: Double) {
            let i = Int(s)
            var v = coef[i] + c
            if abs(v) < LayoutSolver.epsilon { v = 0 }
            coef[i] = v
            if v != 0 && !listed[i] { listed[i] = true; list.append(s) }
            if v < 0 && !negListed[i] { negListed[i] = true; neg.append(s) }
        }
        mutating func clear() {
            for s in list { coef[Int(s)] = 0; listed[Int(s)] = false }
            for s in neg { negListed[Int(s)] = false }
            list.removeAll(keepingCapacity: true)
            neg.removeAll(keepingCapacity: true)
            constant = 0
        }
    }
    @exclusivity(unchecked) var objective = DenseRow()
    @exclusivity(unchecked) var artificial = DenseRow()
    var artificialActive = false

    // MARK: Constraints

    struct Info {
        var marker, other: Int32
        /// The marker's coefficient in the constraint's row as built (before any sign flip).
        var markerCoefficient: Double
        var constant, strength: Double
        var alive: Bool
    }
    @exclusivity(unchecked) var infos: [Info] = []
    var freeInfos: [Int32] = []

    /// Counts changes to the terms of rows (not constants): a cached column of a constraint's
    /// marker stays valid while it is unchanged.
    var version: UInt64 = 0
    /// Per constraint: the rows holding its marker and the marker's coefficients there, as of
    /// `version` (edits and constant changes that pivot nothing reuse it).
    struct MarkerColumn { var version: UInt64 = .max; var rows: [Int32] = []; var coefs: [Double] = [] }
    var markerColumns: [MarkerColumn] = []

    /// Restricted basic symbols whose rows may have gone negative (for the dual simplex).
    @exclusivity(unchecked) var infeasible: [Int32] = []

    /// Coefficients below this in magnitude are zero.
    public static let epsilon = 1e-8

    /// Pivots done so far (for tests and benchmarks).
    public var pivotCount: Int { pivots }
    @exclusivity(unchecked) var pivots = 0

    /// An empty solver.
    public init() {}

    /// The number of live constraints.
    public private(set) var constraintCount = 0
    /// The number of terms in all rows of the tableau (its size; for benchmarks).
    public var termCount: Int { rowSyms.reduce(0) { $0 + $1.count } }
    /// Column entries allocated (live and stale; for benchmarks).
    public var columnEntryCount: Int { entRow.count }

    /// The number of rows in the tableau.
    public var rowCount: Int { rowBasic.count - freeRows.count }

    // MARK: Public operations

    /// A new variable (value 0 until constraints say otherwise).
    public func addVariable() -> Variable { Variable(id: newSymbol(.external)) }

    /// The variable's value in the current solution.
    @inlinable public func value(of v: Variable) -> Double {
        let r = rowOf[Int(v.id)]
        return r >= 0 ? rowConst[Int(r)] : 0
    }

    /// Adds `Σ terms + constant (relation) 0` at `strength` (`LayoutSolver.required`, or a
    /// positive finite weight) and re-solves. Throws `Failure.unsatisfiable` (leaving the
    /// solver as it was) when a required constraint contradicts the required ones already
    /// added. Coefficients and the constant must be finite.
    @discardableResult
    public func addConstraint(_ terms: [(Variable, Double)], constant: Double, relation: Relation,
                              strength: Double = LayoutSolver.required) throws(Failure) -> Constraint {
        precondition(constant.isFinite, "LayoutSolver.addConstraint: the constant must be finite (got \(constant))")
        precondition(strength > 0 && !strength.isNaN, "LayoutSolver.addConstraint: the strength must be positive (got \(strength))")
        let required = strength.isInfinite
        let r = newRow(basic: -1)
        rowConst[Int(r)] = constant
        for (v, c) in terms {
            precondition(c.isFinite, "LayoutSolver.addConstraint: coefficients must be finite (got \(c))")
            precondition(v.id >= 0 && Int(v.id) < kind.count && kind[Int(v.id)] == .external, "LayoutSolver.addConstraint: not a variable of this solver")
            if abs(c) < Self.epsilon { continue }
            let br = rowOf[Int(v.id)]
            if br >= 0 { addRow(into: r, from: br, times: c) } else { addTerm(r, v.id, c) }
        }
        var info = Info(marker: -1, other: -1, markerCoefficient: 1, constant: constant, strength: strength, alive: true)
        switch relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let k: Double = relation == .lessThanOrEqual ? 1 : -1
            let slack = newSymbol(.slack)
            info.marker = slack; info.markerCoefficient = k
            addTerm(r, slack, k)
            if !required {
                let e = newSymbol(.error)
                info.other = e
                addTerm(r, e, -k)
                objective.add(e, strength)
            }
        case .equal:
            if !required {
                let ep = newSymbol(.error), em = newSymbol(.error)
                info.marker = ep; info.other = em; info.markerCoefficient = -1
                addTerm(r, ep, -1); addTerm(r, em, 1)
                objective.add(ep, strength); objective.add(em, strength)
            } else {
                let d = newSymbol(.dummy)
                info.marker = d; info.markerCoefficient = 1
                addTerm(r, d, 1)
            }
        }
        if rowConst[Int(r)] < 0 { negate(r) }

        var subject = chooseSubject(r, info)
        if subject < 0 && allDummies(r) {
            if abs(rowConst[Int(r)]) >= Self.epsilon {
                freeRow(r)
                throw .unsatisfiable
            }
            subject = info.marker
        }
        if subject < 0 && kind[Int(info.marker)] == .slack && find(r, info.marker) >= 0 {
            // A required inequality the current solution violates: its slack becomes basic
            // (negative), and the dual simplex restores feasibility from the optimal basis —
            // a few pivots where the artificial-variable pass takes many.
            solveFor(r, info.marker)
            setBasic(r, info.marker)
            if rowConst[Int(r)] < 0 { infeasible.append(info.marker) }
            if !dualOptimize() {
                infeasible.removeAll(keepingCapacity: true)
                dropMarkerRow(info.marker)
                refeasibilize()
                throw .unsatisfiable
            }
        } else if subject < 0 {
            if !addWithArtificialVariable(r) {
                // The constraint's own symbols appear nowhere else: the tableau is as before
                // (in another basis); restore optimality.
                optimize()
                throw .unsatisfiable
            }
        } else {
            solveFor(r, subject)
            setBasic(r, subject)
            substitute(subject, r)
        }
        let id: Int32
        if let f = freeInfos.popLast() { id = f; infos[Int(f)] = info } else { id = Int32(infos.count); infos.append(info) }
        constraintCount += 1
        optimize()
        return Constraint(id: id)
    }

    /// Removes a constraint added to this solver and re-solves.
    public func removeConstraint(_ c: Constraint) {
        precondition(c.id >= 0 && Int(c.id) < infos.count && infos[Int(c.id)].alive, "LayoutSolver.removeConstraint: not a live constraint of this solver")
        let info = infos[Int(c.id)]
        infos[Int(c.id)].alive = false
        freeInfos.append(c.id)
        constraintCount -= 1
        if kind[Int(info.marker)] == .error { removeMarkerEffects(info.marker, info.strength) }
        if info.other >= 0 && kind[Int(info.other)] == .error { removeMarkerEffects(info.other, info.strength) }
        dropMarkerRow(info.marker)
        optimize()
        // A required constraint's removal can leave restricted rows negative only through
        // rounding; the dual pass settles that.
        _ = dualOptimize()
    }

    /// Takes the row of marker `m` out of the tableau (pivoting `m` into the basis first if it
    /// is not basic): the constraint it marks no longer binds.
    func dropMarkerRow(_ m: Int32) {
        let mr = rowOf[Int(m)]
        if mr >= 0 {
            rowOf[Int(m)] = -1
            freeRow(mr)
            return
        }
        let r = markerLeavingRow(m)
        precondition(r >= 0, "LayoutSolver: internal error: no row to remove a constraint's marker from")
        exchange(r, m)
        rowOf[Int(m)] = -1
        freeRow(r)
    }

    /// Queues every restricted row with a negative constant and runs the dual simplex (after a
    /// failed change, from a dual-feasible basis of a feasible system: it succeeds).
    func refeasibilize() {
        for r in 0..<rowBasic.count {
            let b = rowBasic[r]
            if b >= 0 && kind[Int(b)] != .external && rowConst[r] < 0 { infeasible.append(b) }
        }
        let ok = dualOptimize()
        precondition(ok, "LayoutSolver: internal error: restoring feasibility failed")
    }

    /// Whether the constraint handle is live in this solver.
    public func contains(_ c: Constraint) -> Bool { c.id >= 0 && Int(c.id) < infos.count && infos[Int(c.id)].alive }

    /// The constant of a live constraint.
    public func constant(of c: Constraint) -> Double { infos[Int(c.id)].constant }

    /// Changes a live constraint's constant and re-solves incrementally (dual simplex, no
    /// rebuild). Throws `Failure.unsatisfiable` — and keeps the old constant, solution
    /// unchanged — when the new constant makes the required constraints contradict.
    public func setConstant(_ newConstant: Double, of c: Constraint) throws(Failure) {
        precondition(newConstant.isFinite, "LayoutSolver.setConstant: the constant must be finite (got \(newConstant))")
        precondition(contains(c), "LayoutSolver.setConstant: not a live constraint of this solver")
        let old = infos[Int(c.id)].constant
        if newConstant == old { return }
        if shiftConstant(c, by: newConstant - old) && dualOptimize() {
            infos[Int(c.id)].constant = newConstant
            return
        }
        // Back to the old constant from whatever basis the dual pass reached.
        infeasible.removeAll(keepingCapacity: true)
        _ = shiftConstant(c, by: old - newConstant)
        refeasibilize()
        throw .unsatisfiable
    }

    // MARK: Edit variables

    /// Makes `v` an edit variable of weight `strength` (finite): `suggestValue(_:for:)` then
    /// pulls it towards a value. Returns the edit constraint (`v == value` at `strength`).
    @discardableResult
    public func addEditVariable(_ v: Variable, strength: Double) -> Constraint {
        precondition(strength.isFinite && strength > 0, "LayoutSolver.addEditVariable: the strength must be positive and finite (not required)")
        precondition(edits[v] == nil, "LayoutSolver.addEditVariable: the variable is already an edit variable")
        let c = try! addConstraint([(v, 1)], constant: 0, relation: .equal, strength: strength)
        edits[v] = c
        return c
    }

    /// Stops editing `v` (removes its edit constraint).
    public func removeEditVariable(_ v: Variable) {
        guard let c = edits.removeValue(forKey: v) else { preconditionFailure("LayoutSolver.removeEditVariable: not an edit variable") }
        removeConstraint(c)
    }

    /// Whether `v` is an edit variable.
    public func hasEditVariable(_ v: Variable) -> Bool { edits[v] != nil }

    /// Suggests a value for an edit variable and re-solves incrementally.
    public func suggestValue(_ value: Double, for v: Variable) {
        precondition(value.isFinite, "LayoutSolver.suggestValue: the value must be finite (got \(value))")
        guard let c = edits[v] else { preconditionFailure("LayoutSolver.suggestValue: not an edit variable (addEditVariable first)") }
        // An edit constraint is optional: a new constant never contradicts the required ones.
        try! setConstant(-value, of: c)
    }

    var edits: [Variable: Constraint] = [:]

    // MARK: Symbols and rows

    func newSymbol(_ k: Kind) -> Int32 {
        let s = Int32(kind.count)
        kind.append(k)
        rowOf.append(-1)
        colHead.append(-1)
        pos.append(-1)
        objective.grow(to: kind.count)
        if artificialActive { artificial.grow(to: kind.count) }
        return s
    }

    func newRow(basic: Int32) -> Int32 {
        if let r = freeRows.popLast() {
            rowBasic[Int(r)] = basic
            rowConst[Int(r)] = 0
            return r
        }
        let r = Int32(rowBasic.count)
        rowBasic.append(basic)
        rowConst.append(0)
        rowSyms.append([])
        rowCoefs.append([])
        rowStamp.append(0)
        return r
    }

    func freeRow(_ r: Int32) {
        version &+= 1
        let b = rowBasic[Int(r)]
        if b >= 0 && rowOf[Int(b)] == r { rowOf[Int(b)] = -1 }
        rowBasic[Int(r)] = -1
        rowSyms[Int(r)].removeAll(keepingCapacity: true)
        rowCoefs[Int(r)].removeAll(keepingCapacity: true)
        freeRows.append(r)
    }

    @inline(__always) func setBasic(_ r: Int32, _ s: Int32) {
        version &+= 1
        rowBasic[Int(r)] = s
        rowOf[Int(s)] = r
    }

    func negate(_ r: Int32) {
        version &+= 1
        rowConst[Int(r)] = -rowConst[Int(r)]
        rowCoefs[Int(r)].withUnsafeMutableBufferPointer { b in for i in b.indices { b[i] = -b[i] } }
    }

    @inline(__always) func colPush(_ s: Int32, _ r: Int32) {
        let e: Int32
        if freeEnt >= 0 {
            e = freeEnt
            freeEnt = entNext[Int(e)]
            entRow[Int(e)] = r
        } else {
            e = Int32(entRow.count)
            entRow.append(r)
            entNext.append(-1)
        }
        entNext[Int(e)] = colHead[Int(s)]
        colHead[Int(s)] = e
    }

    /// The index of `s` in row `r`'s terms, or -1.
    @inline(__always) func find(_ r: Int32, _ s: Int32) -> Int {
        rowSyms[Int(r)].withUnsafeBufferPointer { b in
            for i in b.indices where b[i] == s { return i }
            return -1
        }
    }

    /// Adds `c·s` to row `r`.
    func addTerm(_ r: Int32, _ s: Int32, _ c: Double) {
        version &+= 1
        let i = find(r, s)
        if i >= 0 {
            let v = rowCoefs[Int(r)][i] + c
            if abs(v) < Self.epsilon { removeTerm(r, at: i) } else { rowCoefs[Int(r)][i] = v }
        } else if abs(c) >= Self.epsilon {
            rowSyms[Int(r)].append(s)
            rowCoefs[Int(r)].append(c)
            colPush(s, r)
        }
    }

    @inline(__always) func removeTerm(_ r: Int32, at i: Int) {
        version &+= 1
        let last = rowSyms[Int(r)].count - 1
        if i != last {
            rowSyms[Int(r)][i] = rowSyms[Int(r)][last]
            rowCoefs[Int(r)][i] = rowCoefs[Int(r)][last]
        }
        rowSyms[Int(r)].removeLast()
        rowCoefs[Int(r)].removeLast()
    }

    /// Row `r` += `k` × row `src` (constant and terms); `src` is left unchanged.
    func addRow(into r: Int32, from src: Int32, times k: Double) {
        version &+= 1
        rowConst[Int(r)] += rowConst[Int(src)] * k
        let srcSyms = rowSyms[Int(src)], srcCoefs = rowCoefs[Int(src)]
        if srcSyms.isEmpty { return }
        let n0 = rowSyms[Int(r)].count
        if n0 * srcSyms.count <= 32 {
            for j in srcSyms.indices { addTerm(r, srcSyms[j], srcCoefs[j] * k) }
            return
        }
        // Longer rows: positions through the per-symbol scratch, then drop the zeros.
        var syms = rowSyms[Int(r)], coefs = rowCoefs[Int(r)]
        rowSyms[Int(r)] = []; rowCoefs[Int(r)] = []
        syms.reserveCapacity(n0 + srcSyms.count)
        coefs.reserveCapacity(n0 + srcSyms.count)
        var zeros = false
        var added = 0
        pos.withUnsafeMutableBufferPointer { pos in
            syms.withUnsafeBufferPointer { b in for i in 0..<n0 { pos[Int(b[i])] = Int32(i) } }
            srcSyms.withUnsafeBufferPointer { ss in
                srcCoefs.withUnsafeBufferPointer { sc in
                    for j in 0..<ss.count {
                        let sym = ss[j], c = sc[j] * k
                        let p = pos[Int(sym)]
                        if p >= 0 {
                            let v = coefs[Int(p)] + c
                            coefs[Int(p)] = v
                            if abs(v) < Self.epsilon { zeros = true }
                        } else if abs(c) >= Self.epsilon {
                            pos[Int(sym)] = Int32(syms.count)
                            syms.append(sym); coefs.append(c)
                            added += 1
                        }
                    }
                }
            }
            syms.withUnsafeBufferPointer { b in for x in b { pos[Int(x)] = -1 } }
        }
        if added > 0 { for i in n0..<syms.count { colPush(syms[i], r) } }
        if zeros {
            var w = 0
            for i in syms.indices where abs(coefs[i]) >= Self.epsilon {
                syms[w] = syms[i]; coefs[w] = coefs[i]; w += 1
            }
            syms.removeLast(syms.count - w); coefs.removeLast(coefs.count - w)
        }
        rowSyms[Int(r)] = syms; rowCoefs[Int(r)] = coefs
    }

    /// Row `r` reads `0 = constant + … + a·s + …`; makes it `s = …` (s leaves the terms).
    func solveFor(_ r: Int32, _ s: Int32) {
        version &+= 1
        let i = find(r, s)
        precondition(i >= 0, "LayoutSolver: internal error: solving a row for a symbol it lacks")
        let k = -1 / rowCoefs[Int(r)][i]
        removeTerm(r, at: i)
        rowConst[Int(r)] *= k
        rowCoefs[Int(r)].withUnsafeMutableBufferPointer { b in for j in b.indices { b[j] *= k } }
    }

    /// Replaces `s` by its row `sr` (where it has just become basic) in every row that holds
    /// it, in the objective and in the artificial objective.
    func substitute(_ s: Int32, _ sr: Int32) {
        drainColumn(s) { r in
            if r == sr { return }
            let i = find(r, s)
            if i < 0 { return }
            let c = rowCoefs[Int(r)][i]
            removeTerm(r, at: i)
            addRow(into: r, from: sr, times: c)
            let b = rowBasic[Int(r)]
            if kind[Int(b)] != .external && rowConst[Int(r)] < 0 { infeasible.append(b) }
        }
        substituteDense(&objective, s, sr)
        if artificialActive { substituteDense(&artificial, s, sr) }
    }

    func substituteDense(_ d: inout DenseRow, _ s: Int32, _ sr: Int32) {
        let c = d.coef[Int(s)]
        if c == 0 { return }
        d.coef[Int(s)] = 0
        d.constant += rowConst[Int(sr)] * c
        let syms = rowSyms[Int(sr)], coefs = rowCoefs[Int(sr)]
        for j in syms.indices { d.add(syms[j], coefs[j] * c) }
    }

    // MARK: Subjects, pivots, optimisation

    func chooseSubject(_ r: Int32, _ info: Info) -> Int32 {
        let syms = rowSyms[Int(r)]
        var coefs = rowCoefs[Int(r)]
        for s in syms where kind[Int(s)] == .external { return s }
        for which in 0..<2 {
            let m = which == 0 ? info.marker : info.other
            guard m >= 0 else { continue }
            let k = kind[Int(m)]
            if k == .slack || k == .error {
                let i = find(r, m)
                if i >= 0 && coefs[i] < 0 { return m }
            }
        }
        // A row with a zero constant can be solved for any slack or error symbol (after a sign
        // flip if needed): the substitution changes no constant, so every row stays feasible.
        // This avoids the artificial-variable pass for, e.g., `a.width == b.width` between two
        // already-constrained views.
        if abs(rowConst[Int(r)]) < Self.epsilon {
            for i in syms.indices {
                let k = kind[Int(syms[i])]
                if k == .slack || k == .error {
                    rowConst[Int(r)] = 0
                    let positive = coefs[i] > 0
                    coefs = []
                    if positive { negate(r) }
                    return syms[i]
                }
            }
        }
        return -1
    }

    func allDummies(_ r: Int32) -> Bool {
        for s in rowSyms[Int(r)] where kind[Int(s)] != .dummy { return false }
        return true
    }

    /// Adds row `r` through an artificial variable; false (leaving the tableau as before, in
    /// another basis) when it cannot be satisfied.
    func addWithArtificialVariable(_ r: Int32) -> Bool {
        let art = newSymbol(.slack)
        setBasic(r, art)
        artificialActive = true
        artificial.grow(to: kind.count)
        artificial.constant = rowConst[Int(r)]
        let syms = rowSyms[Int(r)], coefs = rowCoefs[Int(r)]
        for j in syms.indices { artificial.add(syms[j], coefs[j]) }
        optimize(artificial: true)
        let success = abs(artificial.constant) < Self.epsilon
        artificial.clear()
        artificialActive = false
        let ar = rowOf[Int(art)]
        if ar >= 0 {
            if !success {
                // Art stayed basic all along, so no other row ever took a term from its row:
                // dropping the row drops exactly the new constraint.
                freeRow(ar)
                return false
            }
            if rowSyms[Int(ar)].isEmpty { freeRow(ar); return true }
            var entering: Int32 = -1
            for s in rowSyms[Int(ar)] where kind[Int(s)] == .slack || kind[Int(s)] == .error { entering = s; break }
            if entering < 0 { for s in rowSyms[Int(ar)] where kind[Int(s)] == .external { entering = s; break } }
            if entering < 0 { entering = rowSyms[Int(ar)][0] }
            rowOf[Int(art)] = -1
            addTerm(ar, art, -1)
            solveFor(ar, entering)
            setBasic(ar, entering)
            substitute(entering, ar)
        }
        // Art is non-basic: zero from now on.
        drainColumn(art) { rr in
            let i = find(rr, art)
            if i >= 0 { removeTerm(rr, at: i) }
        }
        objective.coef[Int(art)] = 0
        return success
    }

    /// The primal simplex on the objective (or the artificial objective).
    func optimize(artificial useArtificial: Bool = false) {
        // The most negative coefficient enters (few pivots); should a degenerate stretch run
        // long, Bland's rule (the lowest symbol) takes over, which cannot cycle.
        var iterations = 0
        let blandAfter = 1_000 + 4 * rowCount
        while true {
            iterations += 1
            let bland = iterations > blandAfter
            let entering = useArtificial ? enteringSymbol(&artificial, bland: bland) : enteringSymbol(&objective, bland: bland)
            if entering < 0 { return }
            // Ratio test over the rows holding the entering symbol.
            var best: Int32 = -1
            var ratio = Double.infinity
            walkColumn(entering) { r, c in
                let b = rowBasic[Int(r)]
                if kind[Int(b)] != .external && c < 0 {
                    let q = -rowConst[Int(r)] / c
                    if q < ratio || (q == ratio && b < rowBasic[Int(best)]) { ratio = q; best = r }
                }
            }
            precondition(best >= 0, "LayoutSolver: internal error: the objective is unbounded")
            pivot(best, entering)
        }
    }

    /// Calls `visit` with each row that holds symbol `s` and its coefficient there, once per
    /// row, walking `s`'s column list and dropping its stale entries (rows that no longer hold
    /// `s`, or repeats) on the way.
    @inline(__always)
    func walkColumn(_ s: Int32, _ visit: (_ row: Int32, _ coefficient: Double) -> Void) {
        stamp &+= 1
        var e = colHead[Int(s)], prev: Int32 = -1
        while e >= 0 {
            let r = entRow[Int(e)]
            let next = entNext[Int(e)]
            var keep = false
            if rowBasic[Int(r)] >= 0 && rowStamp[Int(r)] != stamp {
                rowStamp[Int(r)] = stamp
                let i = find(r, s)
                if i >= 0 { keep = true; visit(r, rowCoefs[Int(r)][i]) }
            }
            if keep { prev = e } else {
                if prev >= 0 { entNext[Int(prev)] = next } else { colHead[Int(s)] = next }
                entNext[Int(e)] = freeEnt; freeEnt = e
            }
            e = next
        }
    }

    /// Empties symbol `s`'s column list (its entries go back to the free list) and calls
    /// `visit` once with each live row it named. (The list is detached first, so `visit` may
    /// add entries to other columns.)
    @inline(__always)
    func drainColumn(_ s: Int32, _ visit: (_ row: Int32) -> Void) {
        stamp &+= 1
        var e = colHead[Int(s)]
        colHead[Int(s)] = -1
        while e >= 0 {
            let next = entNext[Int(e)], r = entRow[Int(e)]
            entNext[Int(e)] = freeEnt; freeEnt = e
            e = next
            if rowBasic[Int(r)] < 0 || rowStamp[Int(r)] == stamp { continue }
            rowStamp[Int(r)] = stamp
            visit(r)
        }
    }

    /// Row `r`'s basic symbol leaves the basis; `entering` takes its place.
    func pivot(_ r: Int32, _ entering: Int32) {
        pivots += 1
        exchange(r, entering)
    }

    /// `pivot` without counting it (also how a marker is moved into the basis to be removed).
    private func exchange(_ r: Int32, _ entering: Int32) {
        let leaving = rowBasic[Int(r)]
        rowOf[Int(leaving)] = -1
        addTerm(r, leaving, -1)
        solveFor(r, entering)
        setBasic(r, entering)
        substitute(entering, r)
    }

    /// The non-dummy symbol with the most negative objective coefficient (ties: the lowest
    /// symbol), or with `bland` the lowest-numbered one with a negative coefficient (Bland's
    /// rule); -1 at the optimum.
    func enteringSymbol(_ d: inout DenseRow, bland: Bool = false) -> Int32 {
        var best: Int32 = -1
        var i = 0
        while i < d.neg.count {
            let s = d.neg[i]
            if d.coef[Int(s)] < 0 && kind[Int(s)] != .dummy && rowOf[Int(s)] < 0 {
                if best < 0 || (bland ? s < best : (d.coef[Int(s)] < d.coef[Int(best)] || (d.coef[Int(s)] == d.coef[Int(best)] && s < best))) { best = s }
                i += 1
            } else {
                d.negListed[Int(s)] = false
                d.neg[i] = d.neg[d.neg.count - 1]
                d.neg.removeLast()
            }
        }
        return best
    }

    /// The dual simplex over the rows made infeasible by a constant change; false when a
    /// negative row has no symbol to enter (the required constraints contradict).
    func dualOptimize() -> Bool {
        while let leaving = infeasible.popLast() {
            let r = rowOf[Int(leaving)]
            if r < 0 || rowConst[Int(r)] >= 0 { continue }
            if rowConst[Int(r)] > -Self.epsilon { rowConst[Int(r)] = 0; continue }
            var entering: Int32 = -1
            var ratio = Double.infinity
            let syms = rowSyms[Int(r)], coefs = rowCoefs[Int(r)]
            for j in syms.indices {
                let s = syms[j], c = coefs[j]
                let k = kind[Int(s)]
                // A free (external) symbol may move either way.
                if (c > 0 && k != .dummy) || (c < 0 && k == .external) {
                    let q = abs(objective.coef[Int(s)] / c)
                    if q < ratio || (q == ratio && s < entering) { ratio = q; entering = s }
                }
            }
            if entering < 0 {
                infeasible.append(leaving)
                return false
            }
            pivot(r, entering)
        }
        return true
    }

    func removeMarkerEffects(_ m: Int32, _ strength: Double) {
        let r = rowOf[Int(m)]
        if r >= 0 {
            objective.constant -= rowConst[Int(r)] * strength
            let syms = rowSyms[Int(r)], coefs = rowCoefs[Int(r)]
            for j in syms.indices { objective.add(syms[j], -coefs[j] * strength) }
        } else {
            objective.add(m, -strength)
        }
    }

    func markerLeavingRow(_ m: Int32) -> Int32 {
        var r1 = Double.infinity, r2 = Double.infinity
        var first: Int32 = -1, second: Int32 = -1, third: Int32 = -1
        walkColumn(m) { r, c in
            let b = rowBasic[Int(r)]
            if kind[Int(b)] == .external {
                third = r
            } else if c < 0 {
                let q = -rowConst[Int(r)] / c
                if q < r1 { r1 = q; first = r }
            } else {
                let q = rowConst[Int(r)] / c
                if q < r2 { r2 = q; second = r }
            }
        }
        return first >= 0 ? first : (second >= 0 ? second : third)
    }

    /// Substitutes marker = marker' + δ/k (the constraint's constant grows by δ) through the
    /// tableau; false when a basic dummy row would leave zero (a redundant required equality
    /// made contradictory).
    func shiftConstant(_ c: Constraint, by delta: Double) -> Bool {
        let info = infos[Int(c.id)]
        let shift = delta / info.markerCoefficient
        let m = info.marker
        var ok = true
        let mr = rowOf[Int(m)]
        if mr >= 0 {
            rowConst[Int(mr)] -= shift
            if kind[Int(m)] == .dummy { ok = abs(rowConst[Int(mr)]) < Self.epsilon }
            else if rowConst[Int(mr)] < 0 { infeasible.append(m) }
            return ok
        }
        let id = Int(c.id)
        while markerColumns.count <= id { markerColumns.append(MarkerColumn()) }
        if markerColumns[id].version != version {
            // Walk the column once (dropping stale entries) and keep it for the next changes.
            var rows = markerColumns[id].rows, coefs = markerColumns[id].coefs
            rows.removeAll(keepingCapacity: true); coefs.removeAll(keepingCapacity: true)
            walkColumn(m) { r, c in rows.append(r); coefs.append(c) }
            markerColumns[id] = MarkerColumn(version: version, rows: rows, coefs: coefs)
        }
        markerColumns[id].rows.withUnsafeBufferPointer { rows in
            markerColumns[id].coefs.withUnsafeBufferPointer { coefs in
                for j in rows.indices {
                    let r = Int(rows[j])
                    rowConst[r] += coefs[j] * shift
                    let b = rowBasic[r]
                    switch kind[Int(b)] {
                    case .external: break
                    case .dummy: if abs(rowConst[r]) >= Self.epsilon { ok = false }
                    default: if rowConst[r] < 0 { infeasible.append(b) }
                    }
                }
            }
        }
        objective.constant += objective.coef[Int(m)] * shift
        return ok
    }
}
