import Foundation

/// A recorded run (or one moment): what was drawn and where everything was in each frame.
///
/// A recording is plain data, independent of the scene, animator or views it came from (make
/// one with `Recorder` or `Renderer.record…`). It stores each moving object — a body, an
/// animator item, a view — once as a *track* (its drawing in its own coordinates) plus, per
/// frame, four numbers (position, rotation, opacity; views also scale and colour), so a long run
/// costs kilobytes, not a copy of the SVG per frame. The static world (static bodies,
/// boundaries) is kept as a few *overlay* states that frames point at.
///
/// Output: `svg(frame:)` one frame as a still SVG, `animatedSVG()` the run as an SVG that
/// plays itself (SMIL `animateTransform` / `animate` with `values` and `keyTimes`), `html()` a
/// self-contained page (inline SVG and script, nothing fetched) with play/pause, a frame slider
/// and the time.
///
/// Coordinates are the source's: points, y down on screen. A y-up scene is stored with y
/// negated (and rotations negated), so up is up in every picture.
public struct Recording: Sendable {
    /// One moving object.
    struct Track: Sendable {
        enum Kind: Sendable {
            /// A scene body: a `<use>` of shared definition `def`.
            case shape(def: Int, fill: SVGColor)
            /// A view: its background rectangle (colour per frame) and content, its subviews
            /// nested inside.
            case view(size: CGSize, cornerRadius: Double, content: String)
            /// An animator item that is not a view: its outline, centred on its origin.
            case item(content: String)
        }
        var kind: Kind
        /// Index of the enclosing track, or -1.
        var parent: Int
        var name: String
        /// Distance from its origin to its farthest point (fits the picture to scene bodies).
        var radius: Double
        /// Per frame: x, y, rotation (degrees, clockwise on screen), opacity.
        var values: [Float] = []
        /// Per frame: scale x, scale y (views and items only).
        var scales: [Float] = []
        /// Per frame: background colour as `0xRRGGBBAA` (views only).
        var fills: [UInt32] = []
    }

    /// The static part of a frame.
    struct Overlay: Sendable, Equatable {
        /// Static bodies (polygons and circles; fill and stroke come from the enclosing group).
        var statics: String = ""
        /// Lines: boundaries, reference bounds (stroke from the enclosing group unless given).
        var lines: String = ""
        /// Bounding boxes of the static pieces (for fitting the picture).
        var boxes: [CGRect] = []
    }

    /// How the picture's user-coordinate rectangle is chosen.
    enum Layout: Sendable {
        /// A fixed rectangle (views: their bounds; animators: the reference bounds).
        case fixed(CGRect)
        /// Fitted to the frames drawn (scenes). `region` is already in stored coordinates.
        case fit(region: SceneRegion, bodySize: Double)
    }

    var tracks: [Track] = []
    /// Shared body outlines, referenced by `Track.Kind.shape`.
    var defs: [String] = []
    var overlays: [Overlay] = []
    var overlayOfFrame: [Int32] = []
    var layout: Layout
    var options: RenderOptions
    /// Whether frames carry scale and colour (view and animator recordings).
    var hasViewData: Bool

    /// A line above the picture ("" for none).
    public var title: String
    /// The time of each frame (seconds of the source's clock).
    public private(set) var times: [Double] = []
    /// A short description of each frame (e.g. "step 600 · t = 10.00 s · 12 asleep").
    public private(set) var captions: [String] = []

    /// Number of frames recorded.
    public var frameCount: Int { times.count }
    /// Number of moving objects (bodies, items, views).
    public var trackCount: Int { tracks.count }

    init(layout: Layout, options: RenderOptions, title: String, hasViewData: Bool) {
        self.layout = layout; self.options = options; self.title = title; self.hasViewData = hasViewData
    }

    // MARK: Building (used by `Recorder`)

    mutating func addTrack(_ track: Track) -> Int {
        var t = track
        // Frames before the track existed: invisible.
        t.values = Array(repeating: 0, count: frameCount * 4)
        if hasViewData {
            t.scales = Array(repeating: 1, count: frameCount * 2)
            t.fills = Array(repeating: 0, count: frameCount)
        }
        tracks.append(t)
        return tracks.count - 1
    }

    mutating func addDef(_ markup: String) -> Int {
        defs.append(markup)
        return defs.count - 1
    }

    /// Starts a frame: callers then append every track's values (`setFrameValues`).
    mutating func appendFrame(time: Double, caption: String, overlay: Overlay) {
        times.append(time)
        captions.append(caption)
        if let last = overlayOfFrame.last, overlays[Int(last)] == overlay {
            overlayOfFrame.append(last)
        } else if let i = overlays.firstIndex(of: overlay) {
            overlayOfFrame.append(Int32(i))
        } else {
            overlays.append(overlay)
            overlayOfFrame.append(Int32(overlays.count - 1))
        }
    }

    /// Keeps every other frame (the first, the third, …).
    mutating func dropOddFrames() {
        func keepEven<T>(_ a: [T], stride: Int) -> [T] {
            var out: [T] = []
            out.reserveCapacity(a.count / 2 + stride)
            var f = 0
            while f * stride < a.count {
                out.append(contentsOf: a[(f * stride)..<(f * stride + stride)])
                f += 2
            }
            return out
        }
        times = keepEven(times, stride: 1)
        captions = keepEven(captions, stride: 1)
        overlayOfFrame = keepEven(overlayOfFrame, stride: 1)
        for i in tracks.indices {
            tracks[i].values = keepEven(tracks[i].values, stride: 4)
            if hasViewData {
                tracks[i].scales = keepEven(tracks[i].scales, stride: 2)
                tracks[i].fills = keepEven(tracks[i].fills, stride: 1)
            }
        }
    }

    // MARK: Reading

    /// Position, rotation (degrees, clockwise on screen) and opacity of track `t` in frame `f`.
    func state(_ t: Int, _ f: Int) -> (x: Double, y: Double, rotation: Double, opacity: Double) {
        let v = tracks[t].values
        return (Double(v[4 * f]), Double(v[4 * f + 1]), Double(v[4 * f + 2]), Double(v[4 * f + 3]))
    }

    func scale(_ t: Int, _ f: Int) -> (Double, Double) {
        guard hasViewData else { return (1, 1) }
        return (Double(tracks[t].scales[2 * f]), Double(tracks[t].scales[2 * f + 1]))
    }

    func placement(_ t: Int, _ f: Int) -> Placement {
        let s = state(t, f)
        let (sx, sy) = scale(t, f)
        return Placement(translation: CGPoint(x: s.x, y: s.y), rotation: s.rotation, scaleX: sx, scaleY: sy)
    }

    /// The frame shown at `time` (the last one not after it).
    public func frameIndex(at time: Double) -> Int {
        guard !times.isEmpty else { return 0 }
        var lo = 0, hi = times.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if times[mid] <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

// MARK: - Picture geometry

extension Recording {
    /// Where the picture sits: user rectangle, pixel size, title band and outline width.
    struct Frame {
        var viewBox: CGRect
        var width, height, band: Double
        /// Pixels per user unit.
        var scale: Double
        /// Outline width in user units.
        var stroke: Double
    }

    func pictureFrame(frames: [Int]) -> Frame {
        var region: CGRect
        var bodySize = 0.0
        switch layout {
        case .fixed(let r):
            region = r
        case let .fit(mode, size):
            bodySize = size
            region = fittedRegion(frames: frames, mode: mode, bodySize: size)
            let m = options.margin * max(Double(region.width), Double(region.height))
            region = region.insetBy(dx: -m, dy: -m)
        }
        if !(region.width > 0) || !(region.height > 0) || !region.origin.x.isFinite || !region.origin.y.isFinite {
            region = CGRect(x: region.origin.x.isFinite ? region.origin.x : 0, y: region.origin.y.isFinite ? region.origin.y : 0,
                            width: max(Double(region.width.isFinite ? region.width : 0), 1),
                            height: max(Double(region.height.isFinite ? region.height : 0), 1))
        }
        var scale = min(options.maxWidth / Double(region.width), options.maxHeight / Double(region.height))
        if case .fixed = layout { scale = min(scale, 2) }
        let width = (Double(region.width) * scale).rounded()
        let height = (Double(region.height) * scale).rounded()
        let px: Double
        if let w = options.strokeWidth {
            px = w
        } else if case .fit = layout {
            px = min(max(0.06 * bodySize * scale, 0.15), 1.2)
        } else {
            px = 1
        }
        let band = title.isEmpty ? 0.0 : 26
        return Frame(viewBox: region, width: max(width, 1), height: max(height, 1), band: band, scale: scale,
                     stroke: px / scale)
    }

    /// The scene region over `frames` (before the margin).
    private func fittedRegion(frames: [Int], mode: SceneRegion, bodySize: Double) -> CGRect {
        if case .world(let r) = mode { return r }
        var dynamic = CGRect.null
        for t in tracks.indices where tracks[t].parent < 0 {
            let r = tracks[t].radius
            for f in frames {
                let s = state(t, f)
                guard s.opacity > 0, s.x.isFinite, s.y.isFinite else { continue }
                dynamic = dynamic.union(CGRect(x: s.x - r, y: s.y - r, width: 2 * r, height: 2 * r))
            }
        }
        var staticBoxes: [CGRect] = []
        var seen = Set<Int32>()
        for f in frames where seen.insert(overlayOfFrame[f]).inserted {
            staticBoxes += overlays[Int(overlayOfFrame[f])].boxes
        }
        if dynamic.isNull || mode == .everything {
            var all = dynamic
            for b in staticBoxes { all = all.union(b) }
            return all.isNull ? CGRect(x: 0, y: 0, width: 100, height: 100) : all
        }
        let grow = max(0.25 * max(Double(dynamic.width), Double(dynamic.height)), 2 * bodySize)
        let near = dynamic.insetBy(dx: -grow, dy: -grow)
        var region = dynamic
        for b in staticBoxes {
            let c = b.intersection(near)
            if !c.isNull { region = region.union(c) }
        }
        return region
    }
}

// MARK: - SVG

extension Recording {
    /// One frame as a still SVG (default: the last frame).
    public func svg(frame: Int? = nil) -> String {
        guard frameCount > 0 else { return emptySVG() }
        let f = min(max(frame ?? frameCount - 1, 0), frameCount - 1)
        let geometry = pictureFrame(frames: [f])
        var caption = title
        if !captions[f].isEmpty && !title.isEmpty { caption += " · " + captions[f] }
        return document(geometry, caption: caption, frame: f, animation: nil)
    }

    /// The whole run as an SVG that plays itself in a loop (SMIL animation: every track gets
    /// `<animateTransform>` / `<animate>` elements with one value and one key time per frame;
    /// objects that do not change get none). With one frame it equals `svg(frame: 0)`.
    public func animatedSVG() -> String {
        guard frameCount > 1 else { return svg(frame: 0) }
        let all = Array(0..<frameCount)
        let geometry = pictureFrame(frames: all)
        let duration = times[frameCount - 1] - times[0]
        guard duration > 0 else { return svg(frame: frameCount - 1) }
        var keyTimes = ""
        keyTimes.reserveCapacity(frameCount * 7)
        for (i, t) in times.enumerated() {
            if i > 0 { keyTimes += ";" }
            let k = i == frameCount - 1 ? 1 : min(max((t - times[0]) / duration, 0), 1)
            SVGFormat.appendNumber(k, decimals: 4, to: &keyTimes)
        }
        let a = Animation(keyTimes: keyTimes, duration: duration, frames: all)
        var caption = title
        if !title.isEmpty { caption += " · " + SVGFormat.fixed(duration) + " s, looping" }
        return document(geometry, caption: caption, frame: 0, animation: a)
    }

    /// Shared timing of the SMIL animations.
    struct Animation {
        var keyTimes: String
        var duration: Double
        var frames: [Int]

        /// ` keyTimes="…" dur="…s" repeatCount="indefinite"` (and calcMode).
        func timing(discrete: Bool = false) -> String {
            var s = " keyTimes=\"" + keyTimes + "\" dur=\""
            SVGFormat.appendNumber(duration, decimals: 3, to: &s)
            s += "s\" repeatCount=\"indefinite\""
            if discrete { s += " calcMode=\"discrete\"" }
            return s
        }
    }

    private func emptySVG() -> String {
        var s = ""
        SVGDocument.open(&s, width: 1, height: 1, viewBox: CGRect(x: 0, y: 0, width: 1, height: 1))
        s += "</svg>\n"
        return s
    }

    /// The children of each track, and the top-level tracks, in track order.
    func hierarchy() -> (roots: [Int], children: [[Int]]) {
        var children = Array(repeating: [Int](), count: tracks.count)
        var roots: [Int] = []
        for (i, t) in tracks.enumerated() {
            if t.parent >= 0 { children[t.parent].append(i) } else { roots.append(i) }
        }
        return (roots, children)
    }

    /// The SVG document: a title band and the picture (a nested `<svg>` whose viewBox is the
    /// region in the recording's coordinates).
    func document(_ g: Frame, caption: String, frame f: Int, animation: Animation?, ids: Bool = true) -> String {
        var s = ""
        var estimate = 2_000 + defs.reduce(0) { $0 + $1.utf8.count }
        estimate += tracks.count * (hasViewData ? 300 : 90) * (animation.map { $0.frames.count / 4 + 1 } ?? 1)
        s.reserveCapacity(estimate)
        let totalHeight = g.height + g.band
        // A narrow picture (a tall pile) is widened so that the caption fits; the picture is
        // centred.
        let captionWidth = g.band > 0 ? (TextLayout.width(of: caption, fontSize: 13) + 24).rounded(.up) : 0
        let totalWidth = max(g.width, captionWidth)
        SVGDocument.open(&s, width: totalWidth, height: totalHeight,
                         viewBox: CGRect(x: 0, y: 0, width: totalWidth, height: totalHeight))
        if let bg = options.background {
            s += "<rect width=\"100%\" height=\"100%\""
            ShapeStyle.filled(bg).write(into: &s)
            s += "/>\n"
        }
        if g.band > 0 {
            s += "<text id=\"caption\" x=\"8\" y=\"18\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\" fill=\"#333333\" xml:space=\"preserve\">"
            s += SVGFormat.escape(caption)
            s += "</text>\n"
        }
        s += "<svg id=\"picture\" x=\""; SVGFormat.appendNumber(((totalWidth - g.width) / 2).rounded(), to: &s)
        s += "\" y=\""; SVGFormat.appendNumber(g.band, to: &s)
        s += "\" width=\""; SVGFormat.appendNumber(g.width, to: &s)
        s += "\" height=\""; SVGFormat.appendNumber(g.height, to: &s)
        s += "\" viewBox=\""; SVGDocument.writeViewBox(g.viewBox, into: &s)
        s += "\" preserveAspectRatio=\"xMidYMid meet\">\n"
        if !defs.isEmpty {
            s += "<defs>\n"
            for (i, d) in defs.enumerated() {
                s += "<g id=\"s\(i)\">"; s += d; s += "</g>\n"
            }
            s += "</defs>\n"
        }
        writeOverlays(g, frame: f, animation: animation, into: &s)
        s += "<g id=\"tracks\""
        if defs.isEmpty == false {
            ShapeStyle(stroke: .color(options.bodyStroke), strokeWidth: g.stroke).write(into: &s)
            s += " stroke-linejoin=\"round\""
        }
        s += ">\n"
        let (roots, children) = hierarchy()
        for t in roots { writeTrack(t, frame: f, children: children, animation: animation, geometry: g, into: &s) }
        s += "</g>\n</svg>\n</svg>\n"
        return s
    }

    /// The markup of overlay `k` with its styling groups.
    func overlayMarkup(_ k: Int, _ g: Frame) -> String {
        let o = overlays[k]
        var s = ""
        if !o.statics.isEmpty {
            s += "<g class=\"static\""
            ShapeStyle(fill: .color(options.staticFill), stroke: .color(options.staticStroke), strokeWidth: g.stroke).write(into: &s)
            s += ">"; s += o.statics; s += "</g>"
        }
        if !o.lines.isEmpty {
            s += "<g class=\"lines\" fill=\"none\""
            ShapeStyle(stroke: .color(options.boundaryColor), strokeWidth: max(2 * g.stroke, 1.5 / g.scale)).write(into: &s)
            s += " stroke-linecap=\"round\">"; s += o.lines; s += "</g>"
        }
        return s
    }

    private func writeOverlays(_ g: Frame, frame f: Int, animation: Animation?, into s: inout String) {
        guard let a = animation else {
            s += "<g id=\"overlay\">"; s += overlayMarkup(Int(overlayOfFrame[f]), g); s += "</g>\n"
            return
        }
        let used = Array(Set(a.frames.map { overlayOfFrame[$0] })).sorted()
        if used.count == 1 {
            s += "<g id=\"overlay\">"; s += overlayMarkup(Int(used[0]), g); s += "</g>\n"
            return
        }
        // Several static states: each is shown only in its frames (discrete display switch).
        s += "<g id=\"overlay\">\n"
        for k in used {
            let visible = { (fr: Int) in self.overlayOfFrame[fr] == k }
            s += "<g data-overlay=\"\(k)\" display=\"\(visible(a.frames[0]) ? "inline" : "none")\">"
            s += "<animate attributeName=\"display\" values=\""
            for (i, fr) in a.frames.enumerated() { if i > 0 { s += ";" }; s += visible(fr) ? "inline" : "none" }
            s += "\""; s += a.timing(discrete: true); s += "/>"
            s += overlayMarkup(Int(k), g)
            s += "</g>\n"
        }
        s += "</g>\n"
    }

    /// True when a value of track `t` differs between the frames (`component` of `stride`).
    private func varies(_ array: [Float], stride: Int, component: Int, frames: [Int], tolerance: Float) -> Bool {
        guard let f0 = frames.first else { return false }
        let v0 = array[f0 * stride + component]
        for f in frames where abs(array[f * stride + component] - v0) > tolerance { return true }
        return false
    }

    private func writeTrack(_ t: Int, frame f: Int, children: [[Int]], animation: Animation?, geometry g: Frame,
                            into s: inout String) {
        let track = tracks[t]
        let st = state(t, f)
        let place = placement(t, f)
        func openAttributes() {
            s += " id=\"t\(t)\""
            if !track.name.isEmpty { s += " data-name=\""; s += SVGFormat.escape(track.name); s += "\"" }
            if !place.isIdentity { s += " transform=\""; place.write(into: &s); s += "\"" }
            if st.opacity < 1 { s += " opacity=\""; SVGFormat.appendNumber(max(st.opacity, 0), decimals: 3, to: &s); s += "\"" }
        }
        switch track.kind {
        case let .shape(def, fill):
            s += "<use"; openAttributes()
            s += " xlink:href=\"#s\(def)\""
            ShapeStyle(fill: .color(fill)).write(into: &s)
            if let a = animation, writeAnimations(t, a, probeOnly: true, into: &s) {
                s += ">"; _ = writeAnimations(t, a, probeOnly: false, into: &s); s += "</use>\n"
            } else {
                s += "/>\n"
            }
        case let .view(size, radius, content):
            s += "<g"; openAttributes(); s += ">"
            if let a = animation { _ = writeAnimations(t, a, probeOnly: false, into: &s) }
            let w = Double(size.width), h = Double(size.height)
            s += "<g transform=\"translate("; SVGFormat.appendNumber(-w / 2, to: &s); s += " "
            SVGFormat.appendNumber(-h / 2, to: &s); s += ")\">"
            let fill = SVGColor(packed: track.fills[f])
            s += "<rect id=\"t\(t)r\" width=\""; SVGFormat.appendNumber(w, to: &s)
            s += "\" height=\""; SVGFormat.appendNumber(h, to: &s); s += "\""
            if radius > 0 { s += " rx=\""; SVGFormat.appendNumber(min(radius, min(w, h) / 2), to: &s); s += "\"" }
            s += " fill=\""; s += fill.hex; s += "\" fill-opacity=\""
            SVGFormat.appendNumber(fill.opacity, decimals: 3, to: &s); s += "\" stroke=\"none\""
            if let a = animation, a.frames.contains(where: { track.fills[$0] != track.fills[a.frames[0]] }) {
                s += ">"
                s += "<animate attributeName=\"fill\" values=\""
                for (i, fr) in a.frames.enumerated() { if i > 0 { s += ";" }; s += SVGColor(packed: track.fills[fr]).hex }
                s += "\""; s += a.timing(); s += "/>"
                s += "<animate attributeName=\"fill-opacity\" values=\""
                for (i, fr) in a.frames.enumerated() {
                    if i > 0 { s += ";" }
                    SVGFormat.appendNumber(SVGColor(packed: track.fills[fr]).opacity, decimals: 3, to: &s)
                }
                s += "\""; s += a.timing(); s += "/></rect>"
            } else {
                s += "/>"
            }
            s += content
            if !children[t].isEmpty { s += "\n" }
            for c in children[t] { writeTrack(c, frame: f, children: children, animation: animation, geometry: g, into: &s) }
            s += "</g></g>\n"
        case let .item(content):
            s += "<g"; openAttributes(); s += ">"
            if let a = animation { _ = writeAnimations(t, a, probeOnly: false, into: &s) }
            s += content
            for c in children[t] { writeTrack(c, frame: f, children: children, animation: animation, geometry: g, into: &s) }
            s += "</g>\n"
        }
    }

    /// Writes the SMIL elements of track `t` (transform, opacity); with `probeOnly` writes
    /// nothing and tells whether there is anything to write.
    private func writeAnimations(_ t: Int, _ a: Animation, probeOnly: Bool, into s: inout String) -> Bool {
        let v = tracks[t].values
        let moves = varies(v, stride: 4, component: 0, frames: a.frames, tolerance: 0.004)
            || varies(v, stride: 4, component: 1, frames: a.frames, tolerance: 0.004)
        let turns = varies(v, stride: 4, component: 2, frames: a.frames, tolerance: 0.004)
        let fades = varies(v, stride: 4, component: 3, frames: a.frames, tolerance: 0.0004)
        let scales = hasViewData && (varies(tracks[t].scales, stride: 2, component: 0, frames: a.frames, tolerance: 0.00004)
            || varies(tracks[t].scales, stride: 2, component: 1, frames: a.frames, tolerance: 0.00004))
        let transforms = moves || turns || scales
        if probeOnly { return transforms || fades }
        if transforms {
            // translate replaces the base transform; rotate and scale are added after it, so the
            // result is translate · rotate · scale, as in the still picture.
            s += "<animateTransform attributeName=\"transform\" type=\"translate\" values=\""
            for (i, f) in a.frames.enumerated() {
                if i > 0 { s += ";" }
                SVGFormat.appendNumber(v[4 * f], to: &s); s += " "; SVGFormat.appendNumber(v[4 * f + 1], to: &s)
            }
            s += "\""; s += a.timing(); s += "/>"
            let r0 = v[4 * a.frames[0] + 2]
            if turns || SVGFormat.number(Double(r0)) != "0" {
                s += "<animateTransform attributeName=\"transform\" type=\"rotate\" additive=\"sum\" values=\""
                for (i, f) in a.frames.enumerated() { if i > 0 { s += ";" }; SVGFormat.appendNumber(v[4 * f + 2], to: &s) }
                s += "\""; s += a.timing(); s += "/>"
            }
            if hasViewData {
                let sc = tracks[t].scales
                let f0 = a.frames[0]
                if scales || abs(sc[2 * f0] - 1) > 0.00004 || abs(sc[2 * f0 + 1] - 1) > 0.00004 {
                    s += "<animateTransform attributeName=\"transform\" type=\"scale\" additive=\"sum\" values=\""
                    for (i, f) in a.frames.enumerated() {
                        if i > 0 { s += ";" }
                        SVGFormat.appendNumber(sc[2 * f], decimals: 4, to: &s); s += " "
                        SVGFormat.appendNumber(sc[2 * f + 1], decimals: 4, to: &s)
                    }
                    s += "\""; s += a.timing(); s += "/>"
                }
            }
        }
        if fades {
            s += "<animate attributeName=\"opacity\" values=\""
            for (i, f) in a.frames.enumerated() { if i > 0 { s += ";" }; SVGFormat.appendNumber(max(v[4 * f + 3], 0), decimals: 3, to: &s) }
            s += "\""; s += a.timing(); s += "/>"
        }
        return true
    }
}
