import Foundation

/// A confidence sequence for the median of a stream of independent measurements: bounds that
/// hold at every sample size at once, so a procedure may look after every new value and stop
/// whenever it likes without raising its error rate.
///
/// It is the sign-test confidence sequence of Darling and Robbins ("Confidence sequences for
/// mean, variance, and median", PNAS 58(1), 1967), with the beta-binomial mixture of Howard and
/// Ramdas ("Sequential estimation of quantiles with applications to A/B-testing and
/// best-arm identification", Bernoulli 28(3), 2022). For a value `t` above the median, each
/// new measurement lands above `t` with probability at most ½, whatever its distribution
/// (it may differ from one measurement to the next). With `a` of `n` measurements above
/// `t`, the likelihood ratio of "above with probability p" against "½" is
/// (2p)^a (2(1 − p))^(n − a); averaged over p uniform on [½, 1] it is the **evidence**
///
///     M(a, n) = 2 ∫_{½}^{1} (2p)^a (2(1 − p))^(n − a) dp
///             = Σ_{i ≤ a} C(n + 1, i) / ((n + 1) · C(n, a)),
///
/// a nonnegative supermartingale with M = 1 before the first measurement. By Ville's
/// inequality it ever reaches 1/α with probability at most α: "the median is above t" is
/// claimed, at any round, only when M(a, n) ≥ 1/α, and then wrongly with probability at most
/// α over the whole stream. The claim needs at least `requiredCount(n, level: α)`
/// measurements above t, so the lower bound at round n is the `requiredCount`-th largest
/// measurement; the upper bound mirrors it.
public enum MedianConfidenceSequence {
    /// ln M(a, n): the log of the evidence that the median is below a value with `count`
    /// (= a) of `trials` (= n) measurements above it. 0 for n = 0.
    public static func logEvidence(count a: Int, trials n: Int) -> Double {
        precondition(n >= 0 && a >= 0 && a <= n, "MedianConfidenceSequence.logEvidence: need 0 ≤ count ≤ trials")
        if n == 0 { return 0 }
        // ln Σ_{i ≤ a} C(n + 1, i), summed from the largest term down (log-sum-exp).
        let top = logChoose(n + 1, a)
        var sum = 0.0
        for i in 0...a { sum += exp(logChoose(n + 1, i) - top) }
        return top + log(sum) - log(Double(n + 1)) - logChoose(n, a)
    }

    /// The fewest of `trials` measurements that must lie above a value for the evidence to
    /// reach 1/`alpha` (it then does for every larger count); nil when even all of them do not.
    public static func requiredCount(trials n: Int, level alpha: Double) -> Int? {
        precondition(alpha > 0 && alpha < 1, "MedianConfidenceSequence.requiredCount: the level must be in (0, 1)")
        let goal = log(1 / alpha)
        var best: Int?
        var a = n
        while a >= 0 && logEvidence(count: a, trials: n) >= goal { best = a; a -= 1 }
        return best
    }

    /// The lower bound at level `alpha`: the `requiredCount`-th largest value, or −∞ when
    /// there are too few values for any bound. "The median is above t" is claimed for every
    /// t below it.
    public static func lowerBound(_ values: [Double], level alpha: Double) -> Double {
        guard let k = requiredCount(trials: values.count, level: alpha) else { return -.infinity }
        return values.sorted(by: >)[k - 1]
    }

    /// The upper bound at level `alpha`: the `requiredCount`-th smallest value, or +∞.
    public static func upperBound(_ values: [Double], level alpha: Double) -> Double {
        guard let k = requiredCount(trials: values.count, level: alpha) else { return .infinity }
        return values.sorted()[k - 1]
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}
