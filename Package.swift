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
        .library(name: "DynamicsLayout", targets: ["DynamicsLayout"]),
        // No product for dynamics-bench (nor for BenchSupport, DynamicsFuzzing or the benchmark
        // suite): a package that depends on this one resolves only the packages its products
        // need, so a program using the libraries above fetches neither swift-argument-parser
        // nor package-benchmark. In this package `swift run dynamics-bench` and
        // `swift build --product dynamics-bench` still work: SwiftPM makes a product of every
        // executable target of the root package.
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
        // The benchmark scenes, and their pictures (ScenePictures.swift: a scene's world or its
        // driver's views, drawn by DynamicsRender).
        .target(name: "DynamicsScenes", dependencies: ["DynamicsEngine", "DynamicsKit", "DynamicsComponents", "DynamicsRender", "DynamicsLayout"]),
        .testTarget(name: "DynamicsScenesTests",
                    dependencies: ["DynamicsScenes", "DynamicsEngine", "DynamicsKit", "DynamicsComponents", "DynamicsRender",
                                   "BenchSupport", "DynamicsLayout"]),
        .target(name: "DynamicsKit", dependencies: ["DynamicsEngine"]),
        .testTarget(name: "DynamicsKitTests", dependencies: ["DynamicsKit", "DynamicsEngine"]),
        .target(name: "DynamicsComponents", dependencies: ["DynamicsKit"]),
        // Auto Layout for DynamicView: constraints, the visual format language and an
        // incremental Cassowary solver.
        .target(name: "DynamicsLayout", dependencies: ["DynamicsKit"]),
        .testTarget(name: "DynamicsLayoutTests", dependencies: ["DynamicsLayout", "DynamicsKit", "DynamicsEngine"]),
        .testTarget(name: "DynamicsComponentsTests", dependencies: ["DynamicsComponents", "DynamicsKit", "DynamicsEngine"]),
        // Pictures of engine worlds and of DynamicsKit views and animators.
        .target(name: "DynamicsRender", dependencies: ["DynamicsEngine", "DynamicsKit"]),
        .testTarget(name: "DynamicsRenderTests", dependencies: ["DynamicsRender", "DynamicsKit", "DynamicsEngine"]),
        .executableTarget(
            name: "dynamics-bench",
            dependencies: [
                "DynamicsEngine", "DynamicsScenes", "DynamicsRender", "BenchSupport", "CJemalloc", "JemallocConfig",
                "DynamicsFuzzing", "DynamicsLayout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "DynamicsEngineTests", dependencies: ["DynamicsEngine", "DynamicsSolverKernels"]),
        .target(name: "BenchSupport"),
        // The randomized "app life" API fuzzer (`dynamics-bench fuzz-api`, `scripts/fuzz-api`) and the
        // engine fuzzer (`dynamics-bench fuzz`, `scripts/fuzz`).
        .target(name: "DynamicsFuzzing", dependencies: ["DynamicsEngine", "DynamicsKit"]),
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
