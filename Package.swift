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
    ],
    targets: [
        .target(name: "DynamicsEngine"),
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
                "DynamicsEngine", "DynamicsScenes", "DynamicsRender", "BenchSupport", "CJemalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "DynamicsEngineTests", dependencies: ["DynamicsEngine", "DynamicsScenes", "DynamicsComponents"]),
        .target(name: "BenchSupport"),
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport"]),
    ]
)
