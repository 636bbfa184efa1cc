import BenchSupport
import DynamicsEngine
import DynamicsScenes
import Foundation

/// What one configuration's measurement does.
struct RunOptions {
    var size: Int
    var steps: Int
    var threads: Int
    var seed: UInt64
    var warmup: Int
    var repeats: Int
    /// `WorldSettings.isContinuousEnabled` for the scene's world (`--no-continuous`).
    var continuous = true
    /// `WorldSettings.isSleepEnabled` turned on for the scene's world (`--sleep`).
    var sleep = false
    /// Boxes added asleep beside the scene (`--sleeping`).
    var sleepingBodies = 0
    /// Rolling resistance for every dynamic shape of a metre scene (`--rolling-resistance`; 0: none).
    var rollingResistance: Float = 0
    /// Time the step's phases (`--profile`).
    var profile = false
    /// Checkpoints to write, or one to resume from; and whether to report the state digest.
    var checkpoints: CheckpointPlan? = nil
}

/// Builds, warms up and times a scene `repeats` times (a fresh build each time, so every
/// repeat measures the same work), and reads jemalloc's counters around the timed steps.
enum BenchRunner {
    /// - Parameter inspect: called with each repeat's scene and its sanity report right after
    ///   its timed steps (outside the timed window), e.g. for the speeds `peers` reports.
    /// - Parameter configure: called with each repeat's scene right after it is built (outside
    ///   the timed window), e.g. to turn sleeping on for `peers --sleep`.
    static func run(_ scene: any BenchmarkScene, _ o: RunOptions, allocator: String,
                    progress: ProgressBar, configure: ((SceneInstance) -> Void)? = nil,
                    inspect: ((SceneInstance, SanityReport) -> Void)? = nil) throws -> BenchRecord {
        let clock = ContinuousClock()
        guard let threadAllocated = Jemalloc.threadCounter("thread.allocatedp") else {
            throw EnvironmentError("jemalloc: thread.allocatedp is unavailable")
        }
        var rates: [Double] = [], cpuRates: [Double] = [], builds: [Double] = [], stepSeconds: [Double] = []
        var box2dMilliseconds: Double?
        var threadBytesPerStep = 0.0, processAllocsPerStep = 0.0, processDelta = Int.min
        var residentPeak: UInt64 = 0, heapBytes = 0
        var contactsPerStep = 0.0
        var lastReport: SanityReport?
        var failures: [String] = []
        var subSteps = 0, sleepEnabled = false
        var awakeBodies: Int?, secondsToRest: Double?, penetrationAtRest: Double?, joints: Int?
        var phaseMicroseconds: [String: Double]?
        var allocsPerToggle: Double?, allocsBetweenToggles: Double?, togglesPerStep: Double?
        var digest: String?, resumedFrom: Int?
        var timedSteps = o.steps

        for _ in 0..<o.repeats {
            do {
                let heapBefore = Jemalloc.snapshot().allocated
                let buildStart = clock.now
                let instance = try scene.build(size: o.size, seed: o.seed)
                builds.append((clock.now - buildStart).seconds)
                residentPeak = max(residentPeak, Jemalloc.snapshot().resident)

                instance.workerCount = o.threads
                if !o.continuous { instance.world.settings.isContinuousEnabled = false }
                if o.sleep {
                    if let d = instance.driver { d.stopChangingAfterFirstCycle() } else { instance.world.settings.isSleepEnabled = true }
                }
                if o.rollingResistance > 0 { try giveRollingResistance(o.rollingResistance, to: instance, scene: scene.name) }
                if o.sleepingBodies > 0 {
                    guard instance.driver == nil else { throw BenchUsageError("--sleeping: '\(scene.name)' is made of animators, not an engine world") }
                    try SleepingBlock.add(count: o.sleepingBodies, to: instance)
                }
                configure?(instance)
                // A resumed run skips the steps its checkpoint already took (warm-up first).
                var warmup = o.warmup
                if let plan = o.checkpoints {
                    try plan.check(instance)
                    try plan.resumeIfAsked(instance)
                    let start = instance.stepsTaken
                    if plan.resume != nil {
                        resumedFrom = start
                        guard start < o.warmup + o.steps else {
                            throw BenchUsageError("the checkpoint is at step \(start), not before the run's end (\(o.warmup) warm-up + \(o.steps) steps)")
                        }
                        warmup = max(0, o.warmup - start)
                        timedSteps = o.steps - max(0, start - o.warmup)
                        for _ in 0..<min(start, o.warmup + o.steps) { progress.advance() }
                    }
                }
                // The first step after which no body was awake (outside the timed window).
                var restStep: Int?, restPenetration: Double?
                var stepsTaken = instance.stepsTaken
                @inline(__always) func noteRest() {
                    stepsTaken += 1
                    if restStep == nil && (instance.driver == nil || o.sleep) && instance.isAtRest {
                        restStep = stepsTaken
                        if instance.driver == nil { restPenetration = Double(instance.world.deepestTouchingPenetration) }
                    }
                }
                for _ in 0..<warmup {
                    instance.step(); progress.advance()
                    noteRest()
                    try o.checkpoints?.afterStep(instance)
                }
                residentPeak = max(residentPeak, Jemalloc.snapshot().resident)

                // The timed window: only stepping, a contact count and the clock inside.
                var elapsed = Duration.zero, firstStep = Duration.zero
                var touching = 0
                let profiling = o.profile && instance.driver == nil
                if profiling { instance.world.isProfiling = true }
                let profileBefore = instance.world.profile
                let before = Jemalloc.snapshot()
                let threadBefore = threadAllocated.pointee
                let cpuBefore = processCPUSeconds()
                var checkpointCPU = 0.0
                for k in 0..<timedSteps {
                    let t0 = clock.now
                    instance.step()
                    let dt = clock.now - t0
                    elapsed += dt
                    if k == 0 { firstStep = dt }
                    touching += instance.touchingContactCount
                    noteRest()
                    progress.advance()
                    // (Outside the timed window; its allocations do count in the step's.)
                    if let plan = o.checkpoints {
                        // Nor does its CPU time count in cpu_steps_per_second.
                        let c0 = processCPUSeconds()
                        try plan.afterStep(instance)
                        checkpointCPU += processCPUSeconds() - c0
                    }
                }
                let cpuAfter = processCPUSeconds()
                let threadAfter = threadAllocated.pointee
                let after = Jemalloc.snapshot()
                let cpuSeconds = cpuAfter - cpuBefore - checkpointCPU
                cpuRates.append(cpuSeconds > 0 ? Double(timedSteps) / cpuSeconds : .infinity)

                let seconds = elapsed.seconds
                stepSeconds.append(seconds)
                // Box2D's figure leaves each repeat's first timed step out.
                let afterFirst = (elapsed - firstStep).seconds * 1000
                box2dMilliseconds = min(box2dMilliseconds ?? afterFirst, afterFirst)
                rates.append(seconds > 0 ? Double(timedSteps) / seconds : .infinity)
                threadBytesPerStep = max(threadBytesPerStep, Double(threadAfter &- threadBefore) / Double(timedSteps))
                processAllocsPerStep = max(processAllocsPerStep, Double(after.requests &- before.requests) / Double(timedSteps))
                processDelta = max(processDelta, Int(Int64(bitPattern: after.allocated &- before.allocated)))
                residentPeak = max(residentPeak, after.resident)
                heapBytes = Int(Int64(bitPattern: after.allocated &- heapBefore))
                contactsPerStep = Double(touching) / Double(timedSteps)

                if profiling {
                    instance.world.isProfiling = false
                    let after = instance.world.profile.phases, start = profileBefore.phases
                    var phases: [String: Double] = [:]
                    for (k, (name, seconds)) in after.enumerated() {
                        phases[name] = (seconds - start[k].1) / Double(timedSteps) * 1e6
                    }
                    phaseMicroseconds = phases
                }
                let report = instance.sanity()
                awakeBodies = report.awakeBodies
                if instance.driver == nil { joints = instance.world.jointCount }
                secondsToRest = restStep.map { Double($0) / 60 }
                penetrationAtRest = restPenetration
                inspect?(instance, report)
                for f in report.failures where !failures.contains(f) { failures.append(f) }
                lastReport = report
                // Component scenes: after the judged run, one more toggle cycle (120 steps, every
                // menu and alert toggles at least once) with the toggles and the rest of each
                // step counted apart. Untimed; it does not change the report above.
                if instance.driver != nil {
                    var toggles = 0, toggleAllocs: UInt64 = 0, otherAllocs: UInt64 = 0
                    let cycle = 120
                    for _ in 0..<cycle {
                        let a = Jemalloc.snapshot().requests
                        toggles += instance.makeToggles()
                        let b = Jemalloc.snapshot().requests
                        instance.advance()
                        let c = Jemalloc.snapshot().requests
                        toggleAllocs &+= b &- a
                        otherAllocs &+= c &- b
                    }
                    if toggles > 0 {
                        allocsPerToggle = max(allocsPerToggle ?? 0, Double(toggleAllocs) / Double(toggles))
                        togglesPerStep = Double(toggles) / Double(cycle)
                        allocsBetweenToggles = max(allocsBetweenToggles ?? 0, Double(otherAllocs) / Double(cycle))
                    }
                }
                if let plan = o.checkpoints, plan.reportsDigest, instance.driver == nil {
                    digest = instance.world.stateDigest().hex16
                }
                subSteps = instance.world.settings.subSteps
                // (Animator scenes always sleep as DynamicsKit does; for them the flag says
                // that the scene was left to come to rest.)
                sleepEnabled = instance.driver == nil ? instance.world.settings.isSleepEnabled : o.sleep
            }
        }
        guard let report = lastReport else { throw BenchUsageError("--repeat must be at least 1") }

        let med = median(rates)
        var r = BenchRecord(scene: scene.name, items: o.size, threads: o.threads, stepsPerSecond: med)
        r.bodies = report.bodies; r.staticBodies = report.staticBodies; r.joints = joints
        r.steps = timedSteps; r.warmup = o.warmup
        r.stateDigest = digest; r.resumedFromStep = resumedFrom; r.seed = o.seed; r.repeats = o.repeats
        r.subSteps = subSteps; r.sleepEnabled = sleepEnabled
        // (Through its shortest decimal form, so that 0.05 reads back as 0.05.)
        if o.rollingResistance > 0 { r.rollingResistance = Double("\(o.rollingResistance)") }
        r.awakeBodies = awakeBodies
        r.phaseMicroseconds = phaseMicroseconds
        if sleepEnabled && awakeBodies != nil { r.secondsToRest = RestTime(seconds: secondsToRest); r.penetrationAtRest = penetrationAtRest }
        r.msPerStep = med.isFinite && med > 0 ? 1000 / med : 0
        r.stepSeconds = median(stepSeconds); r.buildSeconds = median(builds)
        r.escaped = report.escaped; r.kineticEnergy = report.kineticEnergy
        r.maxHeight = report.maxHeight; r.avgHeight = report.averageHeight
        r.initialMaxHeight = report.initialMaxHeight; r.touchingContacts = report.touchingContacts
        r.contacts = report.contacts; r.checks = report.checks; r.metrics = report.metrics
        r.passed = failures.isEmpty; r.failures = failures
        r.stepsPerSecondMedian = med; r.stepsPerSecondMin = rates.min(); r.stepsPerSecondMax = rates.max()
        r.stepsPerSecondRuns = rates
        r.contactsPerStep = contactsPerStep
        r.box2dMilliseconds = box2dMilliseconds
        r.allocator = allocator
        if World.repeatPrepareFromEnvironment > 0 { r.repeatPrepare = World.repeatPrepareFromEnvironment }
        r.cpuStepsPerSecond = median(cpuRates)
        r.heapBytes = heapBytes
        r.heapBytesPerBody = report.bodies > 0 ? Double(heapBytes) / Double(report.bodies) : nil
        r.residentPeakBytes = Int(residentPeak)
        r.maxRssBytes = maxResidentSetBytes()
        r.threadAllocBytesPerStep = threadBytesPerStep
        r.processAllocsPerStep = processAllocsPerStep
        r.processAllocatedDeltaBytes = processDelta
        r.allocsPerToggle = allocsPerToggle
        r.allocsPerStepBetweenToggles = allocsBetweenToggles
        r.togglesPerStep = togglesPerStep
        return r
    }
}

/// CPU time of the whole process so far (all threads: CLOCK_PROCESS_CPUTIME_ID), in seconds.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}

extension BenchRunner {
    /// The scenes whose shapes all have the metre scenes' material (`SceneUnits.material`), so
    /// that `--rolling-resistance` can give theirs the coefficient and change nothing else.
    static let metreScenes: Set<String> = ["pile", "pyramid", "mix"]

    /// Gives every dynamic body of a metre scene the scenes' material with rolling resistance
    /// `c` (the static ones keep none; a contact takes the larger coefficient of its two shapes).
    static func giveRollingResistance(_ c: Float, to instance: SceneInstance, scene: String) throws {
        guard metreScenes.contains(scene), instance.driver == nil else {
            throw BenchUsageError("--rolling-resistance applies to \(metreScenes.sorted().joined(separator: ", ")), whose shapes share one material; not to '\(scene)'")
        }
        var m = SceneUnits.material
        m.rollingResistance = c
        for b in instance.dynamicBodies { instance.world.setMaterial(b, m) }
    }
}
