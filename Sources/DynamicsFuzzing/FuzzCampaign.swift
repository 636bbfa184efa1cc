import DynamicsEngine

/// The loop both fuzzers run (`AppLifeFuzzer.run`, `EngineFuzzer.run`): case after case
/// (sequences, worlds) until `count` cases are done — 2 000 when neither a count nor `minutes`
/// is given — or `minutes` have passed, or a case says to stop; a progress line through `log`
/// about every `progressInterval` seconds.
enum FuzzCampaign {
    /// Runs the cases and returns the seconds it took.
    ///
    /// - Parameters:
    ///   - runCase: runs case `index` with the log for its calls (nil unless `verbose`);
    ///     returns false to stop the run after it.
    ///   - progress: the progress line after `seconds`.
    static func run(count: Int?, minutes: Double?, verbose: Bool, progressInterval: Double,
                    log: (@Sendable (String) -> Void)?,
                    runCase: (_ index: Int, _ log: ((String) -> Void)?) -> Bool,
                    progress: (_ seconds: Double) -> String) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var lastProgress = start
        let limit = minutes.map { Duration.milliseconds(Int64($0 * 60_000)) }
        let caseLog: ((String) -> Void)? = verbose ? log.map { l in { l($0) } } : nil
        var index = 0
        while true {
            if let count, index >= count { break }
            if let limit, clock.now - start >= limit { break }
            if count == nil && limit == nil && index >= 2_000 { break }
            let goOn = runCase(index, caseLog)
            index += 1
            if !goOn { break }
            if let log, (clock.now - lastProgress) >= .milliseconds(Int64(progressInterval * 1000)) {
                lastProgress = clock.now
                log(progress(seconds(clock.now - start)))
            }
        }
        return seconds(clock.now - start)
    }

    /// Case `index`'s own seed in a run seeded with `run` (`multiplier`: the fuzzer's own odd
    /// constant, so that the fuzzers' cases differ for the same run seed).
    static func caseSeed(run: UInt64, index: Int, multiplier: UInt64) -> UInt64 {
        var s = SplitMix64(seed: run ^ (UInt64(truncatingIfNeeded: index) &* multiplier))
        _ = s.next()
        return s.next()
    }

    /// The shell command that replays one case alone, printing every call: `script` with the
    /// case's seed (and `flags`, which say what kind of case it is), and `option value` when
    /// `value` is not the default.
    static func replayCommand(script: String, seed: UInt64, flags: String = "", option: String, value: Int,
                              default defaultValue: Int) -> String {
        var c = "./scripts/\(script) --replay \(hex(seed))\(flags.isEmpty ? "" : " " + flags) --verbose"
        if value != defaultValue { c += " \(option) \(value)" }
        return c
    }

    /// Adds a finished case's `violations` to the run's, counting the case in `failing` when
    /// it has any; returns whether the run goes on (fewer than `maxFailing` failing cases).
    static func record<V>(_ violations: [V], into all: inout [V], failing: inout Int, maxFailing: Int?) -> Bool {
        guard !violations.isEmpty else { return true }
        failing += 1
        all += violations
        return maxFailing.map { failing < $0 } ?? true
    }

    /// The first violation of each kind, in the order first seen.
    static func firstOfEachKind<V>(_ violations: [V], kind: (V) -> String) -> [V] {
        var seen = Set<String>()
        return violations.filter { seen.insert(kind($0)).inserted }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
