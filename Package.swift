// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DynamicsKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DynamicsEngine", targets: ["DynamicsEngine"]),
        .library(name: "DynamicsKit", targets: ["DynamicsKit"]),
        .library(name: "DynamicsScenes", targets: ["DynamicsScenes"]),
        .library(name: "DynamicsComponents", targets: ["DynamicsComponents"]),
        .library(name: "DynamicsRender", targets: ["DynamicsRender"]),
        .executable(name: "dynamics-bench", targets: ["dynamics-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // package-benchmark (`swift package benchmark`, see Benchmarks/README.md). Only the
        // MallocInterposer trait, which counts mallocs on Swift 6.3 without jemalloc; the
        // default traits also enable a runtime interposer that only ARC metrics need.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1",
                 traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "DynamicsEngine", dependencies: ["DynamicsSolverKernels"]),
        // The contact solver's colour-batch passes in C: eight lanes with AVX2 where the
        // processor has it (chosen at load time), the same results bit for bit either way.
        .target(name: "DynamicsSolverKernels"),
        .target(name: "DynamicsScenes", dependencies: ["DynamicsEngine", "DynamicsComponents"]),
        .target(name: "DynamicsKit", dependencies: ["DynamicsEngine"]),
        .testTarget(name: "DynamicsKitTests", dependencies: ["DynamicsKit"]),
        .target(name: "DynamicsComponents", dependencies: ["DynamicsKit"]),
        .testTarget(name: "DynamicsComponentsTests", dependencies: ["DynamicsComponents"]),
        .target(name: "DynamicsRender", dependencies: ["DynamicsEngine", "DynamicsKit", "DynamicsComponents", "DynamicsScenes"]),
        .testTarget(name: "DynamicsRenderTests", dependencies: ["DynamicsRender", "DynamicsKit", "DynamicsScenes", "DynamicsEngine"]),
        .executableTarget(
            name: "dynamics-bench",
            dependencies: [
                "DynamicsEngine", "DynamicsScenes", "DynamicsRender", "BenchSupport", "CJemalloc", "JemallocConfig",
                "DynamicsFuzzing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "DynamicsEngineTests", dependencies: ["DynamicsEngine", "DynamicsScenes", "DynamicsComponents", "DynamicsSolverKernels", "BenchSupport"]),
        .target(name: "BenchSupport"),
        // The randomized "app life" API fuzzer (`dynamics-bench fuzz-api`, `scripts/fuzz-api`) and the
        // engine fuzzer (`dynamics-bench fuzz`, `scripts/fuzz`).
        .target(name: "DynamicsFuzzing", dependencies: ["DynamicsEngine", "DynamicsKit", "DynamicsComponents"]),
        .testTarget(name: "AppLifeTests", dependencies: ["DynamicsFuzzing", "DynamicsKit", "DynamicsEngine"]),
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // jemalloc's options for dynamics-bench (no thread caches: every allocation is counted).
        .target(name: "JemallocConfig"),
        .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport"]),
        // The package-benchmark suite; run with `swift package benchmark` (Benchmarks/README.md).
        .executableTarget(
            name: "DynamicsBenchmarks",
            dependencies: [
                "DynamicsEngine", "DynamicsScenes", "DynamicsKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DynamicsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
