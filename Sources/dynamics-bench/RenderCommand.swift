import ArgumentParser
import BenchSupport
import DynamicsRender
import DynamicsScenes
import Foundation

/// What `render` writes.
enum RenderFormat: String, ExpressibleByArgument, CaseIterable {
    /// A still SVG of one moment.
    case svg
    /// A self-contained HTML page that plays the run.
    case html
    /// An SVG that plays the run by itself (SMIL animation).
    case animatedSVG = "animated-svg"
}

extension DynamicsBench {
    /// `dynamics-bench render <scene> --out FILE [--items N] [--steps S] [--at STEP]
    /// [--format svg|html|animated-svg] [--fps K] [--seed X] [--max-frames F] [--width W] [--height H]`
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draws a scene: an SVG of one moment, or a page or animated SVG that plays its run.",
            discussion: """
                Builds the scene, steps it (1/60 s per step) and writes FILE:
                  svg           the world at step --at (default: the last step, --steps)
                  html          a self-contained page that plays steps 0…--steps: play/pause, frame \
                slider, time, speed (open it with #end or #frame=K to start paused there)
                  animated-svg  an SVG that plays the run by itself in a loop
                The format follows FILE's extension (.svg → svg, .html/.htm → html) unless --format \
                is given. Recordings keep --fps frames per simulated second, at most --max-frames, and take about 18 bytes per moving body per frame (pile 100 over 600 steps at 30 fps: 430 KB); lower --fps or --max-frames for big scenes.

                Static bodies are grey, moving bodies coloured (sleeping ones dimmer), boundaries red; \
                y-up scenes are drawn the right way up. The picture shows the moving bodies and the static \
                geometry near them (a pyramid is not shrunk to fit its 200 m ground).

                Scenes: \(SceneCatalog.names.joined(separator: ", ")). Examples:
                  dynamics-bench render pyramid --items 20 --out pyramid.svg
                  dynamics-bench render pile --items 100 --steps 300 --out pile.html
                --items defaults to the scene's smallest benchmark size.
                Exit status: 0 ok, 2 usage error (unknown scene, bad size or count, unwritable FILE).
                """
        )

        @Option(name: .long, help: "The file to write (.svg or .html).")
        var out: String

        @OptionGroup var choice: SceneChoice

        @Option(name: .long, parsing: .unconditional,
                help: "Steps to run (default: the scene's, 600; for svg: --at when given).")
        var steps: Int?

        @Option(name: .long, parsing: .unconditional, help: "svg only: the step to draw (default: the last step).")
        var at: Int?

        @Option(name: .long, help: "svg, html or animated-svg (default: from FILE's extension).")
        var format: RenderFormat?

        @Option(name: .long, parsing: .unconditional, help: "Recordings: frames kept per simulated second.")
        var fps: Int = 30

        @Option(name: .customLong("max-frames"), parsing: .unconditional, help: "Recordings: the most frames kept.")
        var maxFrames: Int = 600

        @Option(name: .long, parsing: .unconditional, help: "Largest picture width in pixels.")
        var width: Int = 1200

        @Option(name: .long, parsing: .unconditional, help: "Largest picture height in pixels.")
        var height: Int = 900

        func run() throws {
            let (s, size) = try choice.resolve { $0.defaultSizes.first ?? $0.defaultSize }
            let kind = try resolvedFormat()
            if let steps, steps < 0 { throw BenchUsageError("--steps must not be negative (got \(steps))") }
            if let at, at < 0 { throw BenchUsageError("--at must not be negative (got \(at))") }
            if let at, let steps, at > steps {
                throw BenchUsageError("--at \(at) is after the last step (--steps \(steps))")
            }
            if at != nil && kind != .svg { throw BenchUsageError("--at applies to --format svg only") }
            try requirePositive(fps, "--fps")
            if maxFrames < 2 { throw BenchUsageError("--max-frames must be at least 2 (got \(maxFrames))") }
            try requirePositive(width, "--width")
            try requirePositive(height, "--height")
            try checkWritable(out)

            let instance = try s.build(size: size, seed: choice.seed)
            var options = RenderOptions()
            options.maxWidth = Double(width)
            options.maxHeight = Double(height)
            options.maxFrames = maxFrames
            let text: String
            switch kind {
            case .svg:
                instance.run(steps: at ?? steps ?? instance.stepsDefault)
                text = Renderer.svg(of: instance, options: options)
            case .html, .animatedSVG:
                let total = steps ?? instance.stepsDefault
                let every = max(1, Int((1 / (Double(fps) * Double(instance.dt))).rounded()))
                let recording = Renderer.record(scene: instance, steps: total, every: every, options: options)
                text = kind == .html ? recording.html() : recording.animatedSVG()
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: out))
            } catch {
                throw BenchUsageError("cannot write '\(out)': \((error as NSError).localizedDescription)")
            }
            print("wrote \(out): \(kind.rawValue), \(s.name) \(size), step \(instance.stepsTaken), \(text.utf8.count / 1024) KiB")
        }

        /// --format, or the one FILE's extension names.
        func resolvedFormat() throws -> RenderFormat {
            if let format { return format }
            switch URL(fileURLWithPath: out).pathExtension.lowercased() {
            case "svg": return .svg
            case "html", "htm": return .html
            default:
                throw BenchUsageError("cannot tell the format from '\(out)': name it .svg or .html, or give --format svg|html|animated-svg")
            }
        }
    }
}
