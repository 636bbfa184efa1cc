import DynamicsEngine
import Foundation

/// Which part of a scene's world a picture shows.
public enum SceneRegion: Sendable, Equatable {
    /// The dynamic bodies (over every frame drawn) plus the static geometry near them: static
    /// bodies and boundaries are cut to the dynamic bodies' box grown by a quarter of its larger
    /// side (at least two body sizes). A 200 m ground under a 20 m pyramid does not shrink the
    /// pyramid to a sliver, and a pile's container walls stay in the picture.
    case auto
    /// Every body and boundary.
    case everything
    /// A fixed rectangle in the world's own coordinates (points; y up for y-up scenes).
    case world(CGRect)
}

/// How pictures and recordings look. The defaults suit every scene and component.
public struct RenderOptions: Sendable {
    /// The largest image: the picture is scaled to fit `maxWidth` × `maxHeight` pixels keeping
    /// its aspect ratio (views and animators are drawn at most 2× their point size).
    public var maxWidth: Double = 1200
    public var maxHeight: Double = 900
    /// A line of text above the picture; nil writes a default (scenes: name, size, step, time,
    /// bodies asleep; views and animators: none); "" writes none.
    public var title: String? = nil
    /// Image background; nil leaves it transparent.
    public var background: SVGColor? = SVGColor(red: 250, green: 250, blue: 247)
    /// Scenes: the region shown (see `SceneRegion`).
    public var region: SceneRegion = .auto
    /// Scenes: space around the region, as a fraction of its larger side.
    public var margin: Double = 0.03
    /// Outline width in pixels; nil: about 6 % of a body's size on screen, between 0.15 and 1.2
    /// (scenes), 1 (views).
    public var strokeWidth: Double? = nil
    /// Fill colours of dynamic bodies and plain animator items, chosen by a hash of their index.
    public var palette: [SVGColor] = RenderOptions.defaultPalette
    /// Opacity of a sleeping body (it is drawn dimmer).
    public var sleepingOpacity: Double = 0.4
    /// Static bodies: fill and outline.
    public var staticFill = SVGColor(red: 196, green: 196, blue: 196)
    public var staticStroke = SVGColor(red: 128, green: 128, blue: 128)
    /// Kinematic bodies' fill.
    public var kinematicFill = SVGColor(red: 110, green: 125, blue: 145)
    /// Outlines of dynamic bodies.
    public var bodyStroke = SVGColor(red: 31, green: 41, blue: 55, opacity: 0.6)
    /// Boundaries (scene boundary segments, collision-behavior boundaries).
    public var boundaryColor = SVGColor(red: 200, green: 60, blue: 50)
    /// Recordings: the most frames kept; beyond it every other frame is dropped (and later
    /// captures are taken half as often), so a long run never makes a huge file.
    public var maxFrames: Int = 600

    /// The defaults; change the properties you need.
    public init() {}

    /// Tableau 10 without its grey (which would read as a static body).
    public static let defaultPalette: [SVGColor] = [
        "4e79a7", "f28e2b", "e15759", "76b7b2", "59a14f", "edc948", "b07aa1", "ff9da7", "9c755f", "8cd17d",
    ].map { SVGColor(hex: $0)! }

    /// The palette colour of item `index` (a hash, so neighbours differ).
    func color(forIndex index: Int) -> SVGColor {
        guard !palette.isEmpty else { return SVGColor(red: 78, green: 121, blue: 167) }
        var g = SplitMix64(seed: UInt64(truncatingIfNeeded: index))
        return palette[Int(g.next() % UInt64(palette.count))]
    }
}
