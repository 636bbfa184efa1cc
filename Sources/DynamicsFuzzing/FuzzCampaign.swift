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

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
