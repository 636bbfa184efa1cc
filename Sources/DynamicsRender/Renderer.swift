import DynamicsEngine
import DynamicsKit
import Foundation

/// Pictures of physics worlds, view trees and animators: an SVG of one moment, or a recording
/// of a run (see `Recording` for its animated SVG and HTML player).
///
/// ```swift
/// let world = World(gravity: Vec2(0, -980))
/// // … bodies …
/// try Renderer.svg(of: world, yUp: true, bodySize: 20)
///     .write(toFile: "world.svg", atomically: true, encoding: .utf8)
///
/// let run = Renderer.record(world: world, yUp: true, bodySize: 20, steps: 300, every: 2)
/// try run.html().write(toFile: "world.html", atomically: true, encoding: .utf8)
/// ```
///
/// (`DynamicsScenes` adds the same for its benchmark scenes: `Renderer.svg(of: scene)`,
/// `Renderer.record(scene:steps:every:)`.)
public enum Renderer {
    /// The world now: static bodies grey, moving bodies coloured (sleeping ones dimmer),
    /// boundaries as red lines, y-up worlds flipped so up is up, fitted to the picture (see
    /// `SceneRegion`; `bodySize` is a typical moving body's size in points). A title line names
    /// the step, time and sleeping bodies. Handles 10 000+ bodies: each distinct body outline is
    /// written once and reused.
    public static func svg(of world: World, yUp: Bool = false, bodySize: Double, dt: Double = 1.0 / 60.0,
                           title: String = "", options: RenderOptions = RenderOptions()) -> String {
        let r = Recorder(world: world, yUp: yUp, bodySize: bodySize, dt: dt, title: title, options: options)
        r.capture()
        return r.recording.svg()
    }

    /// A view tree as it is on screen now (`presentation` values): the picture is `view`'s own
    /// bounds, with its background, each subview's rectangle (corner radius, rotation, scale,
    /// alpha multiplying down the tree), text (font, size, colour, alignment, wrapped to
    /// `numberOfLines`, truncated with "…") and an image placeholder where `imageName` is set.
    /// Hidden views are not drawn. Views are drawn 1 point = 1 pixel (up to 2× to fill
    /// `RenderOptions.maxWidth` × `maxHeight`).
    ///
    /// For a component (a target view holding a background view and a menu or an alert), pass
    /// the target view.
    public static func svg(of view: DynamicView, clock: AnimationClock = .main, options: RenderOptions = RenderOptions()) -> String {
        let r = Recorder(view: view, clock: clock, options: options)
        r.capture()
        return r.recording.svg()
    }

    /// An animator's items inside its reference bounds (dashed outline): items that are
    /// `DynamicView`s with their subviews, other items as their collision outline
    /// (rectangle, ellipse or path) with a tick showing their rotation; collision boundaries as
    /// red lines.
    public static func svg(of animator: DynamicAnimator, options: RenderOptions = RenderOptions()) -> String {
        let r = Recorder(animator: animator, options: options)
        r.capture()
        return r.recording.svg()
    }

    /// Steps `world` `steps` times by `dt`, keeping a frame before the first step, after every
    /// `every`-th step and after the last (so `steps / every + 1` frames, fewer past
    /// `RenderOptions.maxFrames`).
    public static func record(world: World, yUp: Bool = false, bodySize: Double, dt: Double = 1.0 / 60.0,
                              title: String = "", steps: Int, every: Int = 1,
                              options: RenderOptions = RenderOptions()) -> Recording {
        let r = Recorder(world: world, yUp: yUp, bodySize: bodySize, dt: dt, title: title, options: options)
        return record(r, steps: steps, every: every) { world.step(dt: Float(dt)) }
    }

    /// Calls `step` `steps` times, letting `recorder` keep a frame before the first step, after
    /// every `every`-th step and after the last (so `steps / every + 1` frames, fewer past
    /// `RenderOptions.maxFrames`): a recording of whatever `step` advances.
    public static func record(_ recorder: Recorder, steps: Int, every: Int = 1, step: () -> Void) -> Recording {
        precondition(steps >= 0 && every >= 1, "Renderer.record: steps must be ≥ 0 and every ≥ 1")
        // Choose the stride up front so that no frames have to be dropped later.
        let maxFrames = recorder.recording.options.maxFrames
        let stride = max(every, Int((Double(steps) / Double(max(maxFrames - 2, 1))).rounded(.up)))
        recorder.capture(force: true)
        if steps > 0 {
            for i in 1...steps {
                step()
                if i % stride == 0 { recorder.capture(force: true) }
            }
        }
        recorder.capture(force: true)
        return recorder.recording
    }

    /// Advances `clock` for `duration` seconds in frames of `frameDuration`, keeping a frame
    /// at the start and after every frame: a recording of `view`'s tree (animators and view
    /// animations on the clock run as usual).
    public static func record(view: DynamicView, clock: AnimationClock = .main, duration: Double,
                              frameDuration: Double = 1.0 / 30.0, options: RenderOptions = RenderOptions()) -> Recording {
        let r = Recorder(view: view, clock: clock, options: options)
        advance(clock, duration: duration, frameDuration: frameDuration, recorder: r)
        return r.recording
    }

    /// Advances the animator's clock for `duration` seconds in frames of `frameDuration`,
    /// keeping a frame at the start and after every frame.
    public static func record(animator: DynamicAnimator, duration: Double, frameDuration: Double = 1.0 / 30.0,
                              options: RenderOptions = RenderOptions()) -> Recording {
        let r = Recorder(animator: animator, options: options)
        advance(animator.clock, duration: duration, frameDuration: frameDuration, recorder: r)
        return r.recording
    }

    private static func advance(_ clock: AnimationClock, duration: Double, frameDuration: Double, recorder r: Recorder) {
        precondition(duration.isFinite && duration >= 0, "Renderer.record: duration must be finite and not negative")
        precondition(frameDuration.isFinite && frameDuration > 0, "Renderer.record: frameDuration must be positive")
        let frames = Int((duration / frameDuration).rounded(.up))
        r.capture(force: true)
        var left = duration
        for _ in 0..<frames {
            let d = min(frameDuration, left)
            guard d > 1e-12 else { break }
            clock.advance(by: d)
            left -= d
            r.capture()
        }
        r.capture(force: true)
    }
}
