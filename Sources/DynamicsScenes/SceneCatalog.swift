/// The registry of benchmark scenes, in the order the CLI lists them.
public enum SceneCatalog {
    /// Every scene (each a `SceneDescriptor`). Adding a scene = one new file plus one entry here.
    public static let all: [any BenchmarkScene] = [
        PileAndMixScenes.pile,
        PyramidScene.descriptor,
        PileAndMixScenes.mix,
        IslandsScene.descriptor,
        ComponentScenes.menus,
        ComponentScenes.alerts,
        ComponentScenes.dashboard,
        SpringsScene.descriptor,
        AnimatorsScene.descriptor,
        // Box2D's benchmark app (benchmark/main.c): the scenes of v3.1.1's, `spinner` as v3.2
        // defines it, the three scenes v3.2 adds, and v3.1.1's `spinner` as `spinner_v31`;
        // then our `chains`.
        PyramidScene.large,
        ManyPyramidsScene.descriptor,
        JointGridScene.descriptor,
        RainScene.descriptor,
        SmashScene.descriptor,
        SpinnerScene.descriptor,
        TumblerScene.descriptor,
        WasherScene.descriptor,
        CompoundsScene.descriptor,
        JunkyardScene.descriptor,
        SpinnerV31Scene.descriptor,
        ChainsScene.descriptor,
        JointSheetsScene.descriptor,
    ]

    /// The names of all scenes, in catalog order.
    public static var names: [String] { all.map(\.name) }

    /// The scene with this name (case-insensitive), or `nil`.
    public static func named(_ name: String) -> (any BenchmarkScene)? {
        let key = name.lowercased()
        return all.first { $0.name == key }
    }

    /// The scene with this name; throws `SceneError.unknownScene` when there is none.
    public static func scene(named name: String) throws -> any BenchmarkScene {
        guard let scene = named(name) else { throw SceneError.unknownScene(name) }
        return scene
    }

    /// The default suite of the CLI: each scene at a small, quick size.
    public static let defaultSuite: [(scene: String, size: Int)] = [
        ("pile", 1_000), ("pyramid", 20), ("mix", 1_000),
    ]
}
