import DynamicsScenes
import Foundation

/// What one run does.
struct RunOptions {
    var size: Int
    var steps: Int
    var threads: Int
    var seed: UInt64
    var warmup: Int
}

/// One run's result; the JSON keys are snake_case and sorted.
struct BenchResult: Encodable {
    var scene: String
    var items: Int
    var bodies: Int
    var staticBodies: Int
    var steps: Int
    var warmup: Int
    var threads: Int
    var seed: UInt64
    var subSteps: Int
    var sleepEnabled: Bool
    var stepsPerSecond: Double
    var msPerStep: Double
    var stepSeconds: Double
    var buildSeconds: Double
    var escaped: Int
    var kineticEnergy: Double
    var maxHeight: Double
    var avgHeight: Double
    var initialMaxHeight: Double
    var touchingContacts: Int
    var contacts: Int
    var checks: [String: Bool]
    var metrics: [String: Double]
    var passed: Bool
    var failures: [String]

    enum CodingKeys: String, CodingKey {
        case scene, items, bodies, steps, warmup, threads, seed, escaped, contacts, checks, metrics, passed, failures
        case staticBodies = "static_bodies", subSteps = "sub_steps", sleepEnabled = "sleep_enabled"
        case stepsPerSecond = "steps_per_second", msPerStep = "ms_per_step", stepSeconds = "step_seconds"
        case buildSeconds = "build_seconds", kineticEnergy = "kinetic_energy", maxHeight = "max_height"
        case avgHeight = "avg_height", initialMaxHeight = "initial_max_height"
        case touchingContacts = "touching_contacts"
    }

    /// One line of JSON with sorted keys.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// Builds, warms up and times a scene.
enum BenchRunner {
    static func run(_ scene: any BenchmarkScene, _ o: RunOptions) throws -> BenchResult {
        let clock = ContinuousClock()
        let buildStart = clock.now
        let instance = try scene.build(size: o.size, seed: o.seed)
        let buildTime = clock.now - buildStart

        instance.world.workerCount = o.threads
        instance.run(steps: o.warmup)

        let start = clock.now
        for _ in 0..<o.steps { instance.step() }
        let stepTime = clock.now - start

        let report = instance.sanity()
        let seconds = stepTime.seconds
        return BenchResult(
            scene: scene.name, items: o.size, bodies: report.bodies, staticBodies: report.staticBodies,
            steps: o.steps, warmup: o.warmup, threads: o.threads, seed: o.seed,
            subSteps: instance.world.settings.subSteps, sleepEnabled: instance.world.settings.isSleepEnabled,
            stepsPerSecond: seconds > 0 ? Double(o.steps) / seconds : .infinity,
            msPerStep: seconds * 1000 / Double(o.steps), stepSeconds: seconds,
            buildSeconds: buildTime.seconds, escaped: report.escaped, kineticEnergy: report.kineticEnergy,
            maxHeight: report.maxHeight, avgHeight: report.averageHeight,
            initialMaxHeight: report.initialMaxHeight, touchingContacts: report.touchingContacts,
            contacts: report.contacts, checks: report.checks, metrics: report.metrics,
            passed: report.passed, failures: report.failures)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
