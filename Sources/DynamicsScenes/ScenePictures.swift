import DynamicsRender

// Pictures of scenes: DynamicsRender draws engine worlds, view trees and animators; these pick
// what a scene instance shows (its world, or its driver's `picture`) and step it.

extension Recorder {
    /// Records a scene instance: its world (flipped when the scene is y-up, fitted around its
    /// body size; time `stepsTaken × dt`), or for a scene made of animators
    /// (`SceneInstance.driver`) its `picture`: a component's screen or an animator's items.
    /// The title defaults to the scene's name and size.
    public convenience init(scene: SceneInstance, options: RenderOptions = RenderOptions()) {
        var o = options
        if o.title == nil { o.title = "\(scene.name) \(scene.size)" }
        switch scene.driver?.picture {
        case .view(let v, let clock)?: self.init(view: v, clock: clock, options: o)
        case .animator(let a)?: self.init(animator: a, options: o)
        case nil:
            self.init(world: scene.world, yUp: scene.frame.yUp, bodySize: Double(scene.frame.bodySize),
                      dt: Double(scene.dt), options: o)
        }
    }
}

extension Renderer {
    /// The scene now (see `Recorder.init(scene:options:)` for what is drawn, and
    /// `svg(of:yUp:bodySize:dt:title:options:)` for how a world looks).
    ///
    /// ```swift
    /// let scene = try SceneCatalog.scene(named: "pyramid").build(size: 20, seed: 0)
    /// scene.run(steps: 600)
    /// try Renderer.svg(of: scene).write(toFile: "pyramid.svg", atomically: true, encoding: .utf8)
    /// ```
    public static func svg(of scene: SceneInstance, options: RenderOptions = RenderOptions()) -> String {
        let r = Recorder(scene: scene, options: options)
        r.capture()
        return r.recording.svg()
    }

    /// Steps `scene` `steps` times, keeping a frame before the first step, after every
    /// `every`-th step and after the last (so `steps / every + 1` frames, fewer past
    /// `RenderOptions.maxFrames`).
    public static func record(scene: SceneInstance, steps: Int, every: Int = 1,
                              options: RenderOptions = RenderOptions()) -> Recording {
        record(Recorder(scene: scene, options: options), steps: steps, every: every) { scene.step() }
    }
}
