import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The engine-free half of `dynamics-bench soak`: the sampling loop, the flatness rule, the
// samples file and the plot. The world being soaked comes in as closures, so the CLI (jemalloc
// figures) and the test slice (glibc figures, in a child process) share all of it.

/// Memory figures of the process at one moment (bytes).
public struct SoakMemory: Sendable, Equatable {
    /// Live heap: bytes the program has allocated and not freed (jemalloc `stats.allocated`).
    public var allocated: UInt64
    /// Resident memory the allocator holds (jemalloc `stats.resident`), or the process's
    /// resident set where the allocator cannot say.
    public var resident: UInt64
    public init(allocated: UInt64, resident: UInt64) { self.allocated = allocated; self.resident = resident }
}

/// What the soaked world holds at one moment.
public struct SoakCounts: Sendable, Equatable {
    public var bodies: Int
    public var contacts: Int
    public var replaced: Int
    public init(bodies: Int, contacts: Int, replaced: Int) { self.bodies = bodies; self.contacts = contacts; self.replaced = replaced }
}

/// One sample of a soak run, taken after `step` steps.
public struct SoakSample: Codable, Sendable, Equatable {
    /// Steps taken when the sample was taken.
    public var step: Int
    /// Simulated time (s).
    public var simulatedSeconds: Double
    /// Wall-clock time since the first step (s).
    public var wallSeconds: Double
    /// Live heap (bytes).
    public var allocatedBytes: UInt64
    /// Resident memory (bytes).
    public var residentBytes: UInt64
    /// Steps per wall-clock second over the steps since the previous sample.
    public var stepsPerSecond: Double
    /// Steps per second of the process's CPU time over the same steps: unlike the wall-clock
    /// figure it does not drop when other programs take the cores.
    public var stepsPerCPUSecond: Double
    /// Dynamic bodies, contacts (pairs whose boxes overlap) and bodies replaced so far.
    public var bodies: Int
    public var contacts: Int
    public var replaced: Int

    public init(step: Int, simulatedSeconds: Double, wallSeconds: Double, allocatedBytes: UInt64, residentBytes: UInt64,
                stepsPerSecond: Double, stepsPerCPUSecond: Double, bodies: Int, contacts: Int, replaced: Int) {
        self.step = step; self.simulatedSeconds = simulatedSeconds; self.wallSeconds = wallSeconds
        self.allocatedBytes = allocatedBytes; self.residentBytes = residentBytes
        self.stepsPerSecond = stepsPerSecond; self.stepsPerCPUSecond = stepsPerCPUSecond
        self.bodies = bodies; self.contacts = contacts; self.replaced = replaced
    }

    enum CodingKeys: String, CodingKey {
        case step, bodies, contacts, replaced
        case simulatedSeconds = "simulated_s", wallSeconds = "wall_s"
        case allocatedBytes = "allocated_bytes", residentBytes = "resident_bytes"
        case stepsPerSecond = "steps_per_s", stepsPerCPUSecond = "steps_per_cpu_s"
    }

    /// The CSV header matching `csvLine`.
    public static let csvHeader = "step,simulated_s,wall_s,allocated_bytes,resident_bytes,steps_per_s,steps_per_cpu_s,bodies,contacts,replaced"

    /// The sample as one CSV line (no newline).
    public var csvLine: String {
        String(format: "%d,%.4f,%.3f,%llu,%llu,%.2f,%.2f,%d,%d,%d", step, simulatedSeconds, wallSeconds,
               allocatedBytes, residentBytes, stepsPerSecond, stepsPerCPUSecond, bodies, contacts, replaced)
    }
}

/// The soak loop: steps a world, checks it after every step and samples memory and speed.
public enum SoakLoop {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// Every sample, in order.
        public var samples: [SoakSample]
        /// Steps taken.
        public var steps: Int
        /// The first failed check: the step after which it failed and its message (the run stops there).
        public var problem: (step: Int, message: String)?
        /// Wall-clock seconds of the whole run.
        public var wallSeconds: Double
    }

    /// CPU time of the whole process (s).
    public static func processCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// Runs `steps` steps: `step()` then `check()` (a message ends the run), and a sample of
    /// `memory()` and `counts()` after every `sampleEvery` steps and after the last step.
    /// Speed is measured per sample interval, over the steps and checks only (not the sampling).
    public static func run(steps: Int, sampleEvery: Int, dt: Double,
                           step: () -> Void, check: () -> String?,
                           memory: () -> SoakMemory, counts: () -> SoakCounts,
                           onSample: (SoakSample) -> Void = { _ in }) -> Outcome {
        precondition(steps >= 1 && sampleEvery >= 1, "SoakLoop.run: steps and sampleEvery must be positive")
        let clock = ContinuousClock()
        let start = clock.now
        var windowStart = start, cpuStart = processCPUSeconds(), windowSteps = 0
        var samples: [SoakSample] = []
        samples.reserveCapacity(steps / sampleEvery + 2)
        var problem: (step: Int, message: String)?
        var taken = 0
        for s in 1...steps {
            step()
            taken = s
            windowSteps += 1
            if let message = check() { problem = (s, message) }
            if s % sampleEvery == 0 || s == steps || problem != nil {
                let now = clock.now, cpu = processCPUSeconds()
                let wall = (now - windowStart).seconds, cpuTime = cpu - cpuStart
                let m = memory(), c = counts()
                let sample = SoakSample(
                    step: s, simulatedSeconds: Double(s) * dt, wallSeconds: (now - start).seconds,
                    allocatedBytes: m.allocated, residentBytes: m.resident,
                    stepsPerSecond: wall > 0 ? Double(windowSteps) / wall : 0,
                    stepsPerCPUSecond: cpuTime > 0 ? Double(windowSteps) / cpuTime : 0,
                    bodies: c.bodies, contacts: c.contacts, replaced: c.replaced)
                samples.append(sample)
                onSample(sample)
                windowSteps = 0
                windowStart = clock.now
                cpuStart = processCPUSeconds()
            }
            if problem != nil { break }
        }
        return Outcome(samples: samples, steps: taken, problem: problem, wallSeconds: (clock.now - start).seconds)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// The flatness rule of a soak run and its tolerances (docs/benchmarking.md, "Soak run").
///
/// Only samples taken after `warmupSteps` count. With `n` of them and `q = max(2, n / 4)`,
/// the first window is their first `q`, the last window their last `q`.
///
/// - Memory (heap and resident, each on its own): the allowance is `memoryTolerance` × the
///   median of the samples, but at least `memoryFloorBytes`. Two checks, both must hold:
///   the growth of a least-squares line through the samples over their span (slope × steps
///   from the first to the last) is within the allowance, and the largest value of the last
///   window exceeds the largest of the first window by no more than the allowance. Memory
///   that goes down always passes.
/// - Speed (steps per CPU second, unless `judgeWallClock`): the median of the last window is
///   at least (1 − `speedTolerance`) × the median of the first window.
/// - At least `minimumSamples` samples after warm-up, or the run cannot be judged (a failure).
public struct SoakRule: Codable, Sendable, Equatable {
    /// Steps before the first sample that counts.
    public var warmupSteps: Int
    /// Memory growth allowed after warm-up, as a fraction of the median (0.05 = 5 %).
    public var memoryTolerance: Double = 0.05
    /// Memory growth always allowed (bytes): small heaps move by more than 5 % without leaking.
    public var memoryFloorBytes: UInt64 = 512 << 10
    /// Slowdown allowed from the first window to the last (0.25 = 25 %).
    public var speedTolerance: Double = 0.25
    /// Judge speed by wall-clock steps/s instead of steps per CPU second.
    public var judgeWallClock = false
    /// Whether speed is judged at all (the test slice does not time anything).
    public var judgeSpeed = true
    /// Samples needed after warm-up.
    public static let minimumSamples = 8

    public init(warmupSteps: Int) { self.warmupSteps = warmupSteps }

    enum CodingKeys: String, CodingKey {
        case warmupSteps = "warmup_steps", memoryTolerance = "memory_tolerance", memoryFloorBytes = "memory_floor_bytes"
        case speedTolerance = "speed_tolerance", judgeWallClock = "judge_wall_clock", judgeSpeed = "judge_speed"
    }
}

/// One check of the rule: what was measured, what was allowed, and whether it held.
public struct SoakCheck: Codable, Sendable, Equatable {
    public var name: String
    public var measured: String
    public var limit: String
    public var passed: Bool

    public init(name: String, measured: String, limit: String, passed: Bool) {
        self.name = name; self.measured = measured; self.limit = limit; self.passed = passed
    }
}

/// The judgement of a run's samples under a `SoakRule`.
public struct SoakVerdict: Codable, Sendable, Equatable {
    /// Every check, in a fixed order.
    public var checks: [SoakCheck]

    /// A verdict made of these checks (`judge` makes them from samples).
    public init(checks: [SoakCheck]) { self.checks = checks }
    /// True when every check held.
    public var passed: Bool { checks.allSatisfy(\.passed) }
    /// The checks that did not hold.
    public var failures: [SoakCheck] { checks.filter { !$0.passed } }

    /// Judges `samples` (in step order) by `rule`.
    public static func judge(_ samples: [SoakSample], rule: SoakRule) -> SoakVerdict {
        let post = samples.filter { $0.step > rule.warmupSteps }
        guard post.count >= SoakRule.minimumSamples else {
            return SoakVerdict(checks: [SoakCheck(name: "samples after warm-up", measured: "\(post.count)",
                                                  limit: "≥ \(SoakRule.minimumSamples)", passed: false)])
        }
        let q = max(2, post.count / 4)
        var checks: [SoakCheck] = []
        for (name, values) in [("heap", post.map { Double($0.allocatedBytes) }), ("resident", post.map { Double($0.residentBytes) })] {
            let allowance = max(rule.memoryTolerance * median(values), Double(rule.memoryFloorBytes))
            let span = Double(post.last!.step - post.first!.step)
            let drift = slope(x: post.map { Double($0.step) }, y: values) * span
            let limit = "≤ \(mib(allowance))"
            checks.append(SoakCheck(name: "\(name) trend after warm-up", measured: signedMiB(drift), limit: limit,
                                    passed: drift.isFinite && drift <= allowance))
            let growth = values.suffix(q).max()! - values.prefix(q).max()!
            checks.append(SoakCheck(name: "\(name) last window − first window (max)", measured: signedMiB(growth), limit: limit,
                                    passed: growth.isFinite && growth <= allowance))
        }
        if rule.judgeSpeed {
            let speeds = post.map { rule.judgeWallClock ? $0.stepsPerSecond : $0.stepsPerCPUSecond }
            let first = median(Array(speeds.prefix(q))), last = median(Array(speeds.suffix(q)))
            let ratio = first > 0 ? last / first : .nan
            checks.append(SoakCheck(
                name: "steps/s\(rule.judgeWallClock ? "" : " (CPU)") last window ÷ first window (medians)",
                measured: String(format: "%.3f (%.0f → %.0f)", ratio, first, last),
                limit: String(format: "≥ %.2f", 1 - rule.speedTolerance),
                passed: ratio.isFinite && ratio >= 1 - rule.speedTolerance))
        }
        return SoakVerdict(checks: checks)
    }

    /// The median (the mean of the middle two for an even count); NaN for none.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// The least-squares slope of y against x (0 when x does not vary).
    public static func slope(x: [Double], y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (a, b) in zip(x, y) { sxy += (a - mx) * (b - my); sxx += (a - mx) * (a - mx) }
        return sxx > 0 ? sxy / sxx : 0
    }

    static func mib(_ bytes: Double) -> String { String(format: "%.2f MiB", bytes / 1_048_576) }
    static func signedMiB(_ bytes: Double) -> String { String(format: "%+.2f MiB", bytes / 1_048_576) }
}

/// The samples file of `dynamics-bench soak --out FILE.json`.
public struct SoakFile: Codable, Sendable {
    public var format = "dynamics-bench-soak"
    public var version = 1
    public var date: String
    public var command: String
    public var gitCommit: String?
    public var items: Int
    public var steps: Int
    public var stepsRun: Int
    public var churnPerSecond: Double
    public var seed: String
    public var workers: Int
    public var memorySource: String
    public var rule: SoakRule
    public var verdict: SoakVerdict
    /// Non-finite state or an escape: the step and message; nil when none.
    public var problem: String?
    public var passed: Bool
    public var samples: [SoakSample]

    public init(date: String, command: String, gitCommit: String?, items: Int, steps: Int, stepsRun: Int,
                churnPerSecond: Double, seed: String, workers: Int, memorySource: String, rule: SoakRule,
                verdict: SoakVerdict, problem: String?, samples: [SoakSample]) {
        self.date = date; self.command = command; self.gitCommit = gitCommit; self.items = items
        self.steps = steps; self.stepsRun = stepsRun; self.churnPerSecond = churnPerSecond; self.seed = seed
        self.workers = workers; self.memorySource = memorySource; self.rule = rule; self.verdict = verdict
        self.problem = problem; self.passed = verdict.passed && problem == nil; self.samples = samples
    }

    enum CodingKeys: String, CodingKey {
        case format, version, date, command, items, steps, seed, workers, rule, verdict, problem, passed, samples
        case gitCommit = "git_commit", stepsRun = "steps_run", churnPerSecond = "churn_per_second", memorySource = "memory_source"
    }

    /// Pretty JSON with sorted keys.
    public func jsonData() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try e.encode(self)
    }

    /// The samples as CSV: a header and one line per sample.
    public static func csv(_ samples: [SoakSample]) -> String {
        ([SoakSample.csvHeader] + samples.map(\.csvLine)).joined(separator: "\n") + "\n"
    }
}

/// An SVG chart of a soak run: memory (heap and resident, MiB) above, steps/s (CPU and wall
/// clock) below, both against steps, with the warm-up shaded.
public enum SoakPlot {
    /// The whole SVG document.
    public static func svg(_ samples: [SoakSample], warmupSteps: Int, title: String, subtitle: String = "") -> String {
        let width = 900.0, left = 70.0, right = 860.0
        var out = ##"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="620" font-family="sans-serif" font-size="12">"## + "\n"
        out += ##"<rect width="900" height="620" fill="white"/>"## + "\n"
        out += ##"<text x="\##(width / 2)" y="22" text-anchor="middle" font-size="15">\##(escape(title))</text>"## + "\n"
        if !subtitle.isEmpty { out += ##"<text x="\##(width / 2)" y="38" text-anchor="middle" fill="#555">\##(escape(subtitle))</text>"## + "\n" }
        let maxStep = Double(max(1, samples.last?.step ?? 1))
        let mib = 1_048_576.0
        out += panel(samples, top: 70, bottom: 300, left: left, right: right, maxStep: maxStep, warmup: Double(warmupSteps),
                     yLabel: "memory (MiB)", series: [
                        ("heap (allocated)", "#1f77b4", samples.map { Double($0.allocatedBytes) / mib }),
                        ("resident", "#d62728", samples.map { Double($0.residentBytes) / mib }),
                     ])
        out += panel(samples, top: 350, bottom: 580, left: left, right: right, maxStep: maxStep, warmup: Double(warmupSteps),
                     yLabel: "steps/s", series: [
                        ("steps per CPU second", "#2ca02c", samples.map(\.stepsPerCPUSecond)),
                        ("steps per wall-clock second", "#7f7f7f", samples.map(\.stepsPerSecond)),
                     ])
        out += ##"<text x="\##((left + right) / 2)" y="612" text-anchor="middle">steps</text>"## + "\n"
        out += "</svg>\n"
        return out
    }

    static func panel(_ samples: [SoakSample], top: Double, bottom: Double, left: Double, right: Double, maxStep: Double,
                      warmup: Double, yLabel: String, series: [(String, String, [Double])]) -> String {
        var out = ""
        let all = series.flatMap(\.2).filter(\.isFinite)
        let (ticks, yMax) = niceTicks(max: all.max() ?? 1)
        func x(_ step: Double) -> Double { left + (right - left) * step / maxStep }
        func y(_ v: Double) -> Double { bottom - (bottom - top) * v / yMax }
        if warmup > 0 {
            out += ##"<rect x="\##(f(left))" y="\##(f(top))" width="\##(f(x(min(warmup, maxStep)) - left))" height="\##(f(bottom - top))" fill="#eee"/>"## + "\n"
            out += ##"<text x="\##(f(left + 4))" y="\##(f(bottom - 6))" fill="#777">warm-up</text>"## + "\n"
        }
        for t in ticks {
            out += ##"<line x1="\##(f(left - 4))" y1="\##(f(y(t)))" x2="\##(f(right))" y2="\##(f(y(t)))" stroke="#ddd"/>"## + "\n"
            out += ##"<text x="\##(f(left - 6))" y="\##(f(y(t) + 4))" text-anchor="end">\##(label(t))</text>"## + "\n"
        }
        let (xTicks, _) = niceTicks(max: maxStep)
        for t in xTicks where t <= maxStep {
            out += ##"<line x1="\##(f(x(t)))" y1="\##(f(bottom))" x2="\##(f(x(t)))" y2="\##(f(bottom + 4))" stroke="black"/>"## + "\n"
            out += ##"<text x="\##(f(x(t)))" y="\##(f(bottom + 17))" text-anchor="middle">\##(label(t))</text>"## + "\n"
        }
        out += ##"<line x1="\##(f(left))" y1="\##(f(top))" x2="\##(f(left))" y2="\##(f(bottom))" stroke="black"/>"## + "\n"
        out += ##"<line x1="\##(f(left))" y1="\##(f(bottom))" x2="\##(f(right))" y2="\##(f(bottom))" stroke="black"/>"## + "\n"
        let mid = (top + bottom) / 2
        out += ##"<text x="18" y="\##(f(mid))" transform="rotate(-90 18 \##(f(mid)))" text-anchor="middle">\##(escape(yLabel))</text>"## + "\n"
        for (k, (name, colour, values)) in series.enumerated() {
            let points = zip(samples, values).filter { $0.1.isFinite }.map { "\(f(x(Double($0.0.step)))),\(f(y($0.1)))" }
            out += ##"<polyline fill="none" stroke="\##(colour)" stroke-width="1.5" points="\##(points.joined(separator: " "))"/>"## + "\n"
            // The legend in a row above the panel, clear of the lines.
            out += ##"<text x="\##(f(left + 230 * Double(k)))" y="\##(f(top - 8))" fill="\##(colour)">— \##(escape(name))</text>"## + "\n"
        }
        return out
    }

    /// Ticks from 0 to at least `max` at a 1, 2 or 5 × 10ⁿ spacing, about five of them.
    static func niceTicks(max value: Double) -> ([Double], Double) {
        let top = value > 0 && value.isFinite ? value : 1
        let raw = top / 5, p = pow(10, floor(log10(raw)))
        let spacing = [1.0, 2, 5, 10].map { $0 * p }.first { $0 >= raw } ?? 10 * p
        let count = Int(ceil(top / spacing))
        return ((0...count).map { Double($0) * spacing }, Double(count) * spacing)
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func label(_ v: Double) -> String {
        if v >= 1_000_000, v.truncatingRemainder(dividingBy: 100_000) == 0 { return String(format: "%gM", v / 1_000_000) }
        if v >= 1_000, v.truncatingRemainder(dividingBy: 1_000) == 0 { return String(format: "%gk", v / 1_000) }
        return String(format: "%g", v)
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
