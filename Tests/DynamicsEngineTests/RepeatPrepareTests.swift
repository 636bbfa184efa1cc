import Testing
@testable import DynamicsEngine

/// `DYNAMICS_REPEAT_PREPARE` (`StepOptions.repeatPrepare`): a step that prepares its contact
/// constraints again does the work again and ends exactly where the plain step does.
@Suite("Repeated contact preparation")
struct RepeatPrepareTests {
    @Test("repeating the preparation (1.5 extra a step, on 1 and 2 workers) changes no result and is done as often as asked",
          arguments: [1, 2])
    func repeatsChangeNothing(workers: Int) throws {
        func run(repeats: Double) throws -> (state: [UInt32], repeated: Int, steps: Int) {
            let w = try ParallelDeterminismTests.containerWorld(count: 400, mixed: true)
            w.workerCount = workers
            w.options.minWorkForParallel = 0
            // The rows fall for about 18 steps before the first touches the ground; from
            // step 30 every step solves contacts.
            for _ in 0..<30 { w.step(dt: 1.0 / 60.0) }
            w.options.repeatPrepare = repeats
            for _ in 0..<60 { w.step(dt: 1.0 / 60.0) }
            return (ParallelDeterminismTests.state(w), w.counters.repeatedPreparations, w.counters.stepCount)
        }
        let plain = try run(repeats: 0), repeated = try run(repeats: 1.5)
        #expect(plain.repeated == 0)
        #expect(repeated.state == plain.state, "\(workers) workers: the repeated preparation changed the result")
        // 1.5 a step over 60 steps that solve contacts: 90 repeats (one or two a step, in turn).
        #expect(repeated.steps == 90 && repeated.repeated == 90, "\(repeated.repeated) repeats in \(repeated.steps) steps")
    }

    @Test("the environment's value is read once per process and is 0 when unset")
    func environmentDefault() {
        // The test process does not set the variable (the CLI tests set it on child processes).
        #expect(World.repeatPrepareFromEnvironment == 0 && StepOptions().repeatPrepare == 0)
    }
}
