import DynamicsEngine
import Testing
@testable import DynamicsLayout

@Suite struct LayoutSolverTests {
    typealias S = LayoutSolver

    @Test func requiredEqualitiesSolveExactly() throws {
        let s = S()
        let x = s.addVariable(), y = s.addVariable()
        try s.addConstraint([(x, 1), (y, 1)], constant: -10, relation: .equal)   // x + y = 10
        try s.addConstraint([(x, 1)], constant: -3, relation: .equal)            // x = 3
        #expect(abs(s.value(of: x) - 3) < 1e-9)
        #expect(abs(s.value(of: y) - 7) < 1e-9)
    }

    @Test func strongerWeightWinsAndRemovalRestoresTheWeaker() throws {
        let s = S()
        let x = s.addVariable()
        try s.addConstraint([(x, 1)], constant: -10, relation: .equal, strength: 1)
        let strong = try s.addConstraint([(x, 1)], constant: -20, relation: .equal, strength: 10)
        #expect(abs(s.value(of: x) - 20) < 1e-9)
        s.removeConstraint(strong)
        #expect(abs(s.value(of: x) - 10) < 1e-9)
        #expect(s.constraintCount == 1)
    }

    @Test func inequalitiesBoundOptionalGoals() throws {
        let s = S()
        let x = s.addVariable(), w = s.addVariable()
        try s.addConstraint([(x, 1)], constant: -5, relation: .greaterThanOrEqual)        // x ≥ 5
        try s.addConstraint([(x, 1)], constant: 0, relation: .equal, strength: 1)         // x = 0 weak
        #expect(abs(s.value(of: x) - 5) < 1e-9)
        // x + w ≤ 100, w = 200 weak: w = 95.
        try s.addConstraint([(x, 1), (w, 1)], constant: -100, relation: .lessThanOrEqual)
        try s.addConstraint([(w, 1)], constant: -200, relation: .equal, strength: 2)
        #expect(abs(s.value(of: w) - 95) < 1e-9)
        #expect(abs(s.value(of: x) - 5) < 1e-9)
    }

    @Test func editVariablesResolveIncrementally() throws {
        let s = S()
        let left = s.addVariable(), width = s.addVariable(), right = s.addVariable(), container = s.addVariable()
        // right = left + width; left = 8; right + 8 = container; width ≥ 0; width = 40 weak.
        try s.addConstraint([(right, 1), (left, -1), (width, -1)], constant: 0, relation: .equal)
        try s.addConstraint([(left, 1)], constant: -8, relation: .equal)
        try s.addConstraint([(right, 1), (container, -1)], constant: 8, relation: .lessThanOrEqual)
        try s.addConstraint([(width, 1)], constant: 0, relation: .greaterThanOrEqual)
        try s.addConstraint([(width, 1)], constant: -40, relation: .equal, strength: 1)
        s.addEditVariable(container, strength: 1000)
        s.suggestValue(100, for: container)
        #expect(abs(s.value(of: width) - 40) < 1e-9)
        s.suggestValue(30, for: container)          // too narrow: width = 30 - 16
        #expect(abs(s.value(of: width) - 14) < 1e-9)
        #expect(abs(s.value(of: right) - 22) < 1e-9)
        let rows = s.rowCount
        s.suggestValue(10, for: container)          // width would go negative: the edit gives way
        #expect(abs(s.value(of: width)) < 1e-9)
        #expect(abs(s.value(of: container) - 16) < 1e-9)
        #expect(s.rowCount == rows)                 // same tableau, no rebuild
        s.suggestValue(500, for: container)
        #expect(abs(s.value(of: width) - 40) < 1e-9)
        #expect(s.pivotCount > 0 && s.pivotCount < 50)
    }

    @Test func contradictingRequiredConstraintsThrowAndLeaveTheSolution() throws {
        let s = S()
        let x = s.addVariable(), y = s.addVariable()
        try s.addConstraint([(x, 1)], constant: -1, relation: .equal)
        #expect(throws: S.Failure.unsatisfiable) { try s.addConstraint([(x, 1)], constant: -2, relation: .equal) }
        try s.addConstraint([(y, 1)], constant: -10, relation: .greaterThanOrEqual)
        #expect(throws: S.Failure.unsatisfiable) { try s.addConstraint([(y, 1)], constant: -5, relation: .lessThanOrEqual) }
        // Through the artificial-variable path: y - x ≥ 9 and x + y ≤ 10 with x = 1 fixed.
        #expect(throws: S.Failure.unsatisfiable) { try s.addConstraint([(x, 1), (y, 1)], constant: -10, relation: .lessThanOrEqual) }
        #expect(abs(s.value(of: x) - 1) < 1e-9)
        #expect(s.value(of: y) >= 10 - 1e-9)
        #expect(s.constraintCount == 2)
        // Redundant required equalities are fine.
        try s.addConstraint([(x, 2)], constant: -2, relation: .equal)
        try s.addConstraint([(y, 1)], constant: -12, relation: .equal, strength: 1)
        #expect(abs(s.value(of: y) - 12) < 1e-9)
    }

    @Test func changingAConstantReSolvesAndAContradictionKeepsTheOld() throws {
        let s = S()
        let a = s.addVariable(), b = s.addVariable()
        let ca = try s.addConstraint([(a, 1)], constant: -10, relation: .equal)            // a = 10
        try s.addConstraint([(b, 1), (a, -1)], constant: -5, relation: .greaterThanOrEqual) // b ≥ a + 5
        let cb = try s.addConstraint([(b, 1)], constant: -30, relation: .lessThanOrEqual)  // b ≤ 30
        try s.addConstraint([(b, 1)], constant: 0, relation: .equal, strength: 1)
        #expect(abs(s.value(of: b) - 15) < 1e-9)
        try s.setConstant(-20, of: ca)
        #expect(abs(s.value(of: a) - 20) < 1e-9 && abs(s.value(of: b) - 25) < 1e-9)
        #expect(throws: S.Failure.unsatisfiable) { try s.setConstant(-26, of: ca) }     // a = 26 needs b ≥ 31
        #expect(abs(s.value(of: a) - 20) < 1e-9 && abs(s.value(of: b) - 25) < 1e-9)
        #expect(s.constant(of: ca) == -20)
        try s.setConstant(-40, of: cb)
        try s.setConstant(-26, of: ca)
        #expect(abs(s.value(of: b) - 31) < 1e-9)
    }

    /// Incremental changes (constants, removals) end at an optimum as good as a solver built
    /// from scratch on the final system. Fixed seeds; a failure prints the seed.
    @Test(arguments: Array(1...48) as [UInt64])
    func incrementalMatchesFromScratch(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let n = 6
        struct C { var terms: [(Int, Double)]; var constant: Double; var relation: S.Relation; var strength: Double }
        var cs: [C] = []
        // A required chain keeps everything bounded: 0 ≤ x_i ≤ 100.
        for i in 0..<n {
            cs.append(C(terms: [(i, 1)], constant: 0, relation: .greaterThanOrEqual, strength: S.required))
            cs.append(C(terms: [(i, 1)], constant: -100, relation: .lessThanOrEqual, strength: S.required))
        }
        for _ in 0..<14 {
            let i = Int(rng.next() % UInt64(n)), j = Int(rng.next() % UInt64(n))
            let rel: S.Relation = [.equal, .lessThanOrEqual, .greaterThanOrEqual][Int(rng.next() % 3)]
            let strength = [1.0, 3.0, 10.0, 37.0, S.required][Int(rng.next() % 5)]
            let terms: [(Int, Double)] = i == j ? [(i, 1)] : [(i, 1), (j, -Double(rng.next() % 3 + 1))]
            cs.append(C(terms: terms, constant: -Double(rng.next() % 60), relation: rel, strength: strength))
        }
        func cost(_ s: S, _ vars: [S.Variable], _ list: [C]) -> Double {
            var total = 0.0
            for c in list {
                var v = c.constant
                for (i, k) in c.terms { v += k * s.value(of: vars[i]) }
                let viol: Double
                switch c.relation {
                case .equal: viol = abs(v)
                case .lessThanOrEqual: viol = max(0, v)
                case .greaterThanOrEqual: viol = max(0, -v)
                }
                if c.strength.isInfinite { #expect(viol < 1e-6, "seed \(seed): a required constraint is violated by \(viol)") }
                else { total += c.strength * viol }
            }
            return total
        }
        let inc = S()
        let iv = (0..<n).map { _ in inc.addVariable() }
        var handles: [S.Constraint?] = []
        var kept: [C] = []
        for c in cs {
            if let h = try? inc.addConstraint(c.terms.map { (iv[$0.0], $0.1) }, constant: c.constant, relation: c.relation, strength: c.strength) {
                handles.append(h); kept.append(c)
            }
        }
        // An edit variable on x0 (weight 5), suggested along the way.
        inc.addEditVariable(iv[0], strength: 5)
        var suggested = 0.0
        // Changes: constants moved, a few constraints removed, suggestions.
        for step in 0..<30 {
            if step % 5 == 2 {
                suggested = Double(rng.next() % 120) - 10
                inc.suggestValue(suggested, for: iv[0])
                continue
            }
            let k = Int(rng.next() % UInt64(kept.count))
            guard let h = handles[k] else { continue }
            if step % 7 == 6 {
                inc.removeConstraint(h); handles[k] = nil
            } else {
                let nc = -Double(rng.next() % 80)
                if (try? inc.setConstant(nc, of: h)) != nil { kept[k].constant = nc }
            }
        }
        let final = kept.indices.filter { handles[$0] != nil }.map { kept[$0] }
            + [C(terms: [(0, 1)], constant: -suggested, relation: .equal, strength: 5)]
        let fresh = S()
        let fv = (0..<n).map { _ in fresh.addVariable() }
        for c in final {
            try fresh.addConstraint(c.terms.map { (fv[$0.0], $0.1) }, constant: c.constant, relation: c.relation, strength: c.strength)
        }
        let a = cost(inc, iv, final), b = cost(fresh, fv, final)
        #expect(abs(a - b) < 1e-6 * max(1, b), "seed \(seed): incremental optimum \(a) vs from scratch \(b); replay: swift test --filter 'incrementalMatchesFromScratch'")
    }
}

