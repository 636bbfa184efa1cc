import Testing
import DynamicsScenes

/// `AlternatingScaling` (`dynamics-bench scaling`): the block schedule and its arithmetic on a
/// scripted clock, and a real scene stepped at alternating counts.
@Suite("Worker counts compared step by step")
struct AlternatingScalingTests {
    @Test("blocks rotate through the counts round by round; each block's first step is left out; speed-ups against the first count")
    func scheduleAndArithmetic() {
        var time = 0.0, workers = 0, sequence: [Int] = [], stepInBlock = 0
        // A step takes 12 ms on 1 worker, 7.5 on 2, 5 on 3; a block's first one 100 ms more.
        let results = AlternatingScaling.measure(
            workers: [1, 2, 3], blocks: 7, blockSteps: 4,
            setWorkers: { workers = $0; sequence.append($0); stepInBlock = 0 },
            step: {
                time += [1: 0.012, 2: 0.0075, 3: 0.005][workers]! + (stepInBlock == 0 ? 0.1 : 0)
                stepInBlock += 1
            },
            now: { time })
        #expect(sequence == [1, 2, 3, 2, 3, 1, 3])
        #expect(results.map(\.workers) == [1, 2, 3])
        #expect(results.map(\.steps) == [6, 6, 9], "3 steps counted a block")
        #expect(abs(results[0].meanMicroseconds - 12_000) < 1e-6 && abs(results[1].medianMicroseconds - 7_500) < 1e-6)
        #expect(abs(results[1].speedUp - 1.6) < 1e-12 && abs(results[2].speedUp - 2.4) < 1e-12 && results[0].speedUp == 1)
    }

    @Test("a component scene stepped at 1 and 2 workers taking turns ends bit for bit as at 1 worker throughout")
    func sceneUnchanged() throws {
        let alternating = try SceneCatalog.scene(named: "alerts").build(size: 80, seed: 0)
        let one = try SceneCatalog.scene(named: "alerts").build(size: 80, seed: 0)
        var t = 0.0
        let r = AlternatingScaling.measure(workers: [1, 2], blocks: 12, blockSteps: 25,
                                           setWorkers: { alternating.workerCount = $0 }, step: { alternating.step() },
                                           now: { t += 1; return t })
        for _ in 0..<300 { one.step() }
        #expect(r.map(\.steps) == [144, 144])
        #expect(alternating.driver?.itemCenters() == one.driver?.itemCenters())
        #expect(alternating.driver?.kineticEnergy == one.driver?.kineticEnergy)
        #expect(alternating.sanity().passed)
    }
}
