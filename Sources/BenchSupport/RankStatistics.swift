import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum test) of two independent samples.
///
/// `U` counts the pairs `(x[i], y[j])` with `y[j] > x[i]`, ties counting one half, so it runs
/// from 0 (every y below every x) to `x.count * y.count` (every y above every x). The p-value
/// is exact (the permutation distribution of `U`, counted by the usual recurrence) when there
/// are no ties and each sample has at most `exactLimit` values, and otherwise from the normal
/// approximation with the tie-corrected variance and a continuity correction.
public struct MannWhitney: Sendable, Equatable {
    /// Number of pairs with y above x (ties count ½).
    public let u: Double
    public let xCount: Int
    public let yCount: Int
    /// P(U ≤ u) under the null hypothesis (y tends to be smaller than x: lower tail).
    public let lowerTail: Double
    /// P(U ≥ u) under the null hypothesis (y tends to be larger than x: upper tail).
    public let upperTail: Double
    /// True when the p-values come from the exact distribution, false for the normal approximation.
    public let exact: Bool

    /// Largest sample size for which the exact distribution is used.
    public static let exactLimit = 50

    /// The two-sided p-value: twice the smaller tail, at most 1.
    public var twoSided: Double { min(1, 2 * min(lowerTail, upperTail)) }

    /// Tests `x` against `y`. Both samples must be non-empty and free of NaN (a precondition).
    public init(_ x: [Double], _ y: [Double]) {
        precondition(!x.isEmpty && !y.isEmpty, "MannWhitney: both samples must be non-empty")
        precondition(!x.contains(where: \.isNaN) && !y.contains(where: \.isNaN), "MannWhitney: NaN in a sample")
        let m = x.count, n = y.count
        var count = 0.0
        for a in x { for b in y { count += b > a ? 1 : (b == a ? 0.5 : 0) } }
        u = count; xCount = m; yCount = n

        // Ranks of the pooled sample (average ranks for ties) give the tie groups.
        let pooled = (x + y).sorted()
        var tieTerm = 0.0   // Σ (t³ − t) over tie groups
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1] == pooled[i] { j += 1 }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }

        if tieTerm == 0 && m <= Self.exactLimit && n <= Self.exactLimit {
            let dist = Self.distribution(m, n)
            let total = dist.reduce(0, +)
            let k = Int(count)   // an integer without ties
            lowerTail = dist[0...k].reduce(0, +) / total
            upperTail = dist[k...].reduce(0, +) / total
            exact = true
        } else {
            let mm = Double(m), nn = Double(n), nTotal = mm + nn
            let mean = mm * nn / 2
            let variance = mm * nn / 12 * ((nTotal + 1) - tieTerm / (nTotal * (nTotal - 1)))
            if variance <= 0 {
                // Every value tied: no evidence either way.
                lowerTail = 1; upperTail = 1
            } else {
                let sd = variance.squareRoot()
                lowerTail = min(1, Self.normalCDF((count - mean + 0.5) / sd))
                upperTail = min(1, Self.normalCDF(-(count - mean - 0.5) / sd))
            }
            exact = false
        }
    }

    /// The number of arrangements of `m` x-values and `n` y-values (no ties) giving each
    /// U = 0 … m·n: `result[u]`. The counts sum to C(m + n, m). Doubles: exact up to 2⁵³, and
    /// within rounding beyond (C(100, 50) ≈ 1e29), which does not matter for p-values.
    public static func distribution(_ m: Int, _ n: Int) -> [Double] {
        precondition(m >= 0 && n >= 0, "MannWhitney.distribution: negative sample size")
        // f[a][b][u]: arrangements of a x's and b y's with U = u. Recurrence on the largest
        // value: a y there adds a (it is above every x): f(a, b, u) = f(a, b−1, u−a) + f(a−1, b, u).
        var previous = [[Double]](repeating: [1], count: n + 1)   // a = 0: U is 0
        if m == 0 { return previous[n] }
        for a in 1...m {
            var current = [[Double]](repeating: [], count: n + 1)
            current[0] = [1]
            if n > 0 {
                for b in 1...n {
                    var f = [Double](repeating: 0, count: a * b + 1)
                    for (u, c) in previous[b].enumerated() { f[u] += c }          // x is the largest
                    for (u, c) in current[b - 1].enumerated() { f[u + a] += c }   // y is the largest
                    current[b] = f
                }
            }
            previous = current
        }
        return previous[n]
    }

    /// The lower critical value of the exact two-sided test at level `alpha`: the largest `k`
    /// with P(U ≤ k) ≤ alpha / 2, or nil when even U = 0 is more likely than that (the samples
    /// are too small to reach the level). The printed tables of Mann–Whitney critical values
    /// list this number.
    public static func criticalValue(_ m: Int, _ n: Int, alpha: Double) -> Int? {
        let dist = distribution(m, n)
        let total = dist.reduce(0, +)
        var cumulative = 0.0
        var best: Int?
        for (u, c) in dist.enumerated() {
            cumulative += c
            if cumulative / total <= alpha / 2 { best = u } else { break }
        }
        return best
    }

    /// The standard normal distribution function Φ(z) (via erfc, accurate in the tails).
    public static func normalCDF(_ z: Double) -> Double {
        0.5 * erfc(-z / 2.0.squareRoot())
    }

    /// The standard normal quantile Φ⁻¹(p) for 0 < p < 1 (Acklam's rational approximation,
    /// refined by one Newton step; absolute error below 1e-9).
    public static func normalQuantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "normalQuantile: p must be in (0, 1)")
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
                (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        // One Newton step on Φ(x) − p.
        let e = normalCDF(x) - p
        x -= e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        return x
    }
}

/// The Hodges–Lehmann estimate of the shift between two samples and its distribution-free
/// confidence interval (Moses): the median, and two order statistics, of the `m·n` pairwise
/// differences `y[j] − x[i]`. The interval's rank comes from the Mann–Whitney distribution
/// (exact for samples of at most `MannWhitney.exactLimit`, else its normal approximation), so
/// its coverage is at least the stated level for continuous data.
public struct HodgesLehmann: Sendable, Equatable {
    /// Median of the pairwise differences y − x.
    public let estimate: Double
    /// The confidence interval's bounds.
    public let lower, upper: Double
    /// The interval is [d₍k₎, d₍mn+1−k₎] of the sorted differences (1-based); k = 0 means the
    /// samples are too small for the level and the interval is unbounded.
    public let rank: Int

    /// - Parameter level: the confidence level, e.g. 0.95.
    public init(_ x: [Double], _ y: [Double], level: Double = 0.95) {
        precondition(!x.isEmpty && !y.isEmpty, "HodgesLehmann: both samples must be non-empty")
        precondition(level > 0 && level < 1, "HodgesLehmann: level must be in (0, 1)")
        var d: [Double] = []
        d.reserveCapacity(x.count * y.count)
        for a in x { for b in y { d.append(b - a) } }
        d.sort()
        estimate = median(d)
        let m = x.count, n = y.count, alpha = 1 - level
        var k: Int
        if m <= MannWhitney.exactLimit && n <= MannWhitney.exactLimit {
            // P(U ≤ k − 1) ≤ α/2 ⇒ the interval [d₍k₎, d₍mn+1−k₎] covers with ≥ 1 − α.
            k = (MannWhitney.criticalValue(m, n, alpha: alpha) ?? -1) + 1
        } else {
            let mm = Double(m), nn = Double(n)
            let z = MannWhitney.normalQuantile(1 - alpha / 2)
            k = Int((mm * nn / 2 - z * (mm * nn * (mm + nn + 1) / 12).squareRoot()).rounded(.down))
        }
        k = max(0, min(k, d.count / 2))
        rank = k
        if k == 0 {
            lower = -.infinity; upper = .infinity
        } else {
            lower = d[k - 1]; upper = d[d.count - k]
        }
    }
}
