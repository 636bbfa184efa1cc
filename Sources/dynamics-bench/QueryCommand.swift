import ArgumentParser
import BenchSupport
import DynamicsEngine
import DynamicsScenes
import Foundation

extension DynamicsBench {
    /// `dynamics-bench query <scene> [--items N] [--boxes B] [--rays R] …`: times the world
    /// queries (`World.bodies(overlapping:)`, `World.rayCast(from:translation:)`) in a built,
    /// settled scene.
    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Times World.bodies(overlapping:) and World.rayCast in a scene (e.g. query pile: a pile of 100 000 bodies).",
            discussion: """
                Builds the scene (--items: 100 000 or the scene's largest size), steps it --settle steps, then per round: one more step (the \
                world moved, so the first query after it pays for any refresh), the first box \
                query alone ("first"), --boxes box queries of small rectangles (one body size, \
                uniform over the scene's bounds) and --rays ray casts (random direction, \
                --ray-length body sizes, from uniform points). Times are medians over the rounds \
                in microseconds per query; "hits" sums the bodies found and the rays that hit \
                (the same in every round and build for the same arguments, so two builds can be \
                compared). Build in release: swift build -c release --product dynamics-bench.
                """)

        @OptionGroup var choice: SceneChoice
        @Option(name: .long, help: "Steps before the rounds.")
        var settle = 120
        @Option(name: .long, help: "Box queries per round.")
        var boxes = 10_000
        @Option(name: .long, help: "Ray casts per round.")
        var rays = 10_000
        @Option(name: .long, help: "Ray length in body sizes.")
        var rayLength: Float = 20
        @Option(name: .long, help: "Rounds (medians are reported).")
        var rounds = 5
        @Option(name: .long, help: "Worker threads for the steps.")
        var threads = 2

        func run() throws {
            let (s, items) = try choice.resolve { min(100_000, $0.maximumSize) }
            try requirePositive(rounds, "--rounds")
            try requirePositive(threads, "--threads")
            guard settle >= 0, boxes >= 0, rays >= 0 else { throw BenchUsageError("query: --settle, --boxes and --rays must not be negative") }
            guard rayLength.isFinite && rayLength > 0 else { throw BenchUsageError("query: --ray-length must be positive") }
            let instance = try s.build(size: items, seed: choice.seed)
            guard instance.driver == nil else { throw BenchUsageError("scene '\(s.name)' is not one engine world") }
            instance.workerCount = threads
            instance.run(steps: settle)
            let world = instance.world, frame = instance.frame
            let clock = ContinuousClock()
            var first: [Double] = [], boxTimes: [Double] = [], rayTimes: [Double] = []
            var hits = 0
            for _ in 0..<rounds {
                instance.run(steps: 1)
                var rng = SplitMix64(seed: choice.seed)
                let size = frame.bodySize
                func point() -> Vec2 {
                    Vec2(Float.random(in: frame.boundsMin.x...frame.boundsMax.x, using: &rng),
                         Float.random(in: frame.boundsMin.y...frame.boundsMax.y, using: &rng))
                }
                let queryBoxes = (0..<max(boxes, 1)).map { _ in
                    let p = point()
                    return AABB(lower: p, upper: p + Vec2(size, size))
                }
                let queryRays = (0..<rays).map { _ -> (Vec2, Vec2) in
                    let a = Float.random(in: 0..<(2 * .pi), using: &rng)
                    return (point(), Vec2(cos(a), sin(a)) * (rayLength * size))
                }
                var found = 0
                var t0 = clock.now
                found += world.bodies(overlapping: queryBoxes[0]).count
                first.append((clock.now - t0).seconds * 1e6)
                t0 = clock.now
                for b in queryBoxes.prefix(boxes) { found += world.bodies(overlapping: b).count }
                boxTimes.append((clock.now - t0).seconds * 1e6 / Double(max(boxes, 1)))
                t0 = clock.now
                for (o, d) in queryRays where world.rayCast(from: o, translation: d) != nil { found += 1 }
                rayTimes.append((clock.now - t0).seconds * 1e6 / Double(max(rays, 1)))
                hits = found
            }
            func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
            print("scene \(s.name) \(items) bodies, \(world.bodyCount) in the world, after \(settle) steps; \(rounds) rounds (medians):")
            print(String(format: "  first box query after a step  %10.1f µs", median(first)))
            print(String(format: "  box query (%d)            %10.2f µs each", boxes, median(boxTimes)))
            print(String(format: "  ray cast (%d, %.0f sizes)  %10.2f µs each", rays, rayLength, median(rayTimes)))
            print("  hits (last round): \(hits)")
        }
    }
}
