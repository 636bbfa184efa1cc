import DynamicsEngine

/// One benchmark scene as a value: its name, its line in `dynamics-bench list`, its sizes and
/// step count, and the function that builds it. Every scene of `SceneCatalog.all` is one
/// descriptor (`Scenes/*.swift`); the size checks and the bookkeeping every instance shares
/// (name, size, seed, steps) live here once.
public struct SceneDescriptor: BenchmarkScene {
    /// What a builder is given: the size (already checked against `maximumSize`) and seed it
    /// builds for, and `instance(…)` to wrap its world or driver.
    public struct Request: Sendable {
        /// The scene being built.
        public let scene: SceneDescriptor
        /// The size parameter, in `1...scene.maximumSize`.
        public let size: Int
        /// The seed (deterministic scenes ignore it).
        public let seed: UInt64

        /// The instance of a scene built on one engine world; name, size, seed and default
        /// steps come from the request. Create every body first (see `SceneInstance.init`).
        public func instance(world: World, dynamicBodies: [BodyHandle], staticBodyCount: Int, frame: SceneFrame,
                             judge: SceneInstance.Judge? = nil, beforeStep: SceneInstance.BeforeStep? = nil,
                             bodyList: (() -> [BodyHandle])? = nil) -> SceneInstance {
            SceneInstance(name: scene.name, size: size, seed: seed, world: world, dynamicBodies: dynamicBodies,
                          staticBodyCount: staticBodyCount, frame: frame, stepsDefault: scene.stepsDefault,
                          judge: judge, beforeStep: beforeStep, bodyList: bodyList)
        }

        /// The instance of a scene that steps through `driver`.
        public func instance(driver: any SceneDriver, frame: SceneFrame) -> SceneInstance {
            SceneInstance(name: scene.name, size: size, seed: seed, driver: driver, frame: frame,
                          stepsDefault: scene.stepsDefault)
        }
    }

    /// Builds an instance for a request.
    public typealias Builder = @Sendable (Request) throws -> SceneInstance

    public let name: String
    public let summary: String
    public let sizeMeaning: String
    public let defaultSizes: [Int]
    public let defaultSize: Int
    public let maximumSize: Int
    public let stepsDefault: Int
    private let builder: Builder

    /// A scene named `name` (lowercase, unique in the catalog) that `builder` builds.
    ///
    /// - Parameters:
    ///   - sizes: the sizes the benchmark reports, smallest first, and the headline one.
    ///   - steps: steps a benchmark run takes unless told otherwise (600 = 10 s).
    ///   - maximumSize: the largest size `build` accepts.
    public init(name: String, summary: String, sizeMeaning: String,
                sizes defaultSizes: [Int], defaultSize: Int, steps: Int = 600, maximumSize: Int = 1_000_000,
                builder: @escaping Builder) {
        self.name = name; self.summary = summary; self.sizeMeaning = sizeMeaning
        self.defaultSizes = defaultSizes; self.defaultSize = defaultSize
        self.stepsDefault = steps; self.maximumSize = maximumSize; self.builder = builder
    }

    /// Checks the size (`SceneError.invalidSize`), then builds.
    public func build(size: Int, seed: UInt64) throws -> SceneInstance {
        try validate(size: size)
        return try builder(Request(scene: self, size: size, seed: seed))
    }
}
