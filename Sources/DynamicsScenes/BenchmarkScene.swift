import DynamicsEngine

/// A named, deterministic benchmark scene.
///
/// Every scene is defined once here and used by the `dynamics-bench` CLI, the benchmark suite
/// and the tests, so all of them measure the same work (docs/benchmarking.md).
///
/// Every scene of the catalog is a `SceneDescriptor`. To add a scene: write one file under
/// `Scenes/` with its descriptor (name, sizes, steps and a builder) and list it in
/// `SceneCatalog.all`.
public protocol BenchmarkScene: Sendable {
    /// The scene's name on the command line (`pile`, `pyramid`, …); lowercase, unique.
    var name: String { get }
    /// One line describing the scene.
    var summary: String { get }
    /// What the size parameter (`--items`) counts, e.g. "boxes" or "boxes on the base row".
    var sizeMeaning: String { get }
    /// The sizes the benchmark reports, smallest first; `defaultSize` is the headline.
    var defaultSizes: [Int] { get }
    /// The size used when none is given.
    var defaultSize: Int { get }
    /// The largest size `build` accepts (guards against absurd allocations).
    var maximumSize: Int { get }
    /// Steps a benchmark run takes unless told otherwise (600 = 10 s of simulated time).
    var stepsDefault: Int { get }
    /// Builds a fresh instance of the scene.
    ///
    /// - Parameters:
    ///   - size: the size parameter (see `sizeMeaning`); must be in `1...maximumSize`.
    ///   - seed: seed for scenes that place things at random; deterministic scenes ignore it.
    /// - Throws: `SceneError.invalidSize` for a size out of range; engine errors if the world
    ///   refuses a body (a bug).
    func build(size: Int, seed: UInt64) throws -> SceneInstance
}

extension BenchmarkScene {
    public var stepsDefault: Int { 600 }
    public var maximumSize: Int { 1_000_000 }

    /// Throws `SceneError.invalidSize` unless `1 <= size <= maximumSize`.
    public func validate(size: Int) throws {
        guard size >= 1, size <= maximumSize else {
            throw SceneError.invalidSize(scene: name, size: size, maximum: maximumSize)
        }
    }
}

/// Errors raised when a scene cannot be built.
public enum SceneError: Error, Equatable, CustomStringConvertible {
    /// The size parameter is zero, negative or larger than the scene allows.
    case invalidSize(scene: String, size: Int, maximum: Int)
    /// No scene has this name.
    case unknownScene(String)

    public var description: String {
        switch self {
        case let .invalidSize(scene, size, maximum):
            return "scene '\(scene)': size must be between 1 and \(maximum) (got \(size))"
        case let .unknownScene(name):
            return "unknown scene '\(name)' (known: \(SceneCatalog.names.joined(separator: ", ")))"
        }
    }
}
