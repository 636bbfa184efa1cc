import DynamicsEngine
import DynamicsKit
import Foundation

/// Captures frames of a physics world, a view tree or an animator into a `Recording`.
///
/// Make one recorder per run, call `capture()` whenever a frame should be kept (e.g. after every
/// k-th step), then read `recording`. A capture reads positions, rotations, opacity (and, for
/// views, scale and colour) — nothing is drawn until the recording is written. Past
/// `RenderOptions.maxFrames` frames every other frame is dropped and later captures are kept
/// half as often, so memory and file size stay bounded however long the run.
///
/// What is tracked:
/// - a world: every non-static body (bodies created later join when first seen); static bodies
///   and boundaries are drawn as they are at each capture (y-up worlds are flipped so up is up);
/// - a view: the view's tree (the view fills the picture; subviews added later join, removed
///   ones disappear). A view's size, text, font and image are taken when it is first seen;
///   centre, transform, alpha, hidden and background colour are read at every capture, from
///   `presentation` (what is on screen while view animations run);
/// - an animator: its items (views with their subviews, other items as their collision
///   outline), inside its reference bounds, plus its collision boundaries.
///
/// Not thread-safe; use it on the thread that steps what it records.
public final class Recorder {
    /// The frames captured so far.
    public private(set) var recording: Recording
    private let source: Source
    private var calls = 0
    private var keepEvery = 1

    private enum Source {
        case world(WorldCapture, dt: Double)
        case views(ViewCapture)
    }

    /// Records a physics world. Time is `world.stepCount × dt`.
    ///
    /// - Parameters:
    ///   - yUp: true when the world's y axis points up (the picture is flipped so that up is up).
    ///   - bodySize: the typical size of a moving body (pt), which `SceneRegion.auto` uses to
    ///     fit the picture.
    ///   - dt: the time step the world is stepped with (s).
    ///   - title: the title line unless `options.title` is set.
    public init(world: World, yUp: Bool = false, bodySize: Double, dt: Double = 1.0 / 60.0, title: String = "",
                options: RenderOptions = RenderOptions()) {
        var region = options.region
        if case .world(let r) = region, yUp {
            region = .world(CGRect(x: r.minX, y: -r.maxY, width: r.width, height: r.height))
        }
        recording = Recording(layout: .fit(region: region, bodySize: bodySize), options: options,
                              title: options.title ?? title, hasViewData: false)
        source = .world(WorldCapture(world: world, flip: yUp), dt: dt)
    }

    /// Records a view tree: the picture is the view's own bounds (its position, rotation and
    /// alpha in a superview do not move the picture; its alpha and colour do show). Time is
    /// `clock.time`.
    public init(view: DynamicView, clock: AnimationClock = .main, options: RenderOptions = RenderOptions()) {
        let size = view.presentation.size
        recording = Recording(layout: .fixed(CGRect(origin: .zero, size: size)), options: options,
                              title: options.title ?? "", hasViewData: true)
        source = .views(ViewCapture(root: view, animator: nil, clock: clock))
    }

    /// Records an animator's items inside its reference bounds. Time is the animator's
    /// `clock.time`.
    public init(animator: DynamicAnimator, options: RenderOptions = RenderOptions()) {
        recording = Recording(layout: .fixed(animator.referenceBounds), options: options,
                              title: options.title ?? "", hasViewData: true)
        source = .views(ViewCapture(root: nil, animator: animator, clock: animator.clock))
    }

    /// Keeps a frame of the current state, unless decimation (see `RenderOptions.maxFrames`)
    /// skips this call. `force` keeps it regardless (e.g. the final state), but never twice for
    /// the same time.
    ///
    /// - Parameter time: the frame's time; nil uses the source's clock.
    public func capture(time: Double? = nil, force: Bool = false) {
        defer { calls += 1 }
        if !force && calls % keepEvery != 0 { return }
        switch source {
        case .world(let c, let dt):
            let t = time ?? Double(c.world.stepCount) * dt
            if force, let last = recording.times.last, last == t { return }
            c.capture(into: &recording, time: t)
        case .views(let c):
            let t = time ?? c.clock.time
            if force, let last = recording.times.last, last == t { return }
            c.capture(into: &recording, time: t)
        }
        if recording.frameCount > max(recording.options.maxFrames, 2) {
            recording.dropOddFrames()
            keepEvery *= 2
        }
    }
}

// MARK: - Worlds

/// Reads a world into tracks (moving bodies) and overlays (static bodies, boundaries).
final class WorldCapture {
    let world: World
    let flip: Bool
    private var handles: [BodyHandle] = []
    private var known = Set<BodyHandle>()
    private var defIndex: [String: Int] = [:]
    private var lastAngles: [Float] = []
    private var lastBodyCount = -1
    private var lastStaticKey: [Float] = []
    private var lastOverlay = Recording.Overlay()
    private var statics: [BodyHandle] = []

    init(world: World, flip: Bool) {
        self.world = world
        self.flip = flip
    }

    /// World point → stored coordinates (y negated for y-up worlds).
    @inline(__always) private func map(_ p: Vec2) -> CGPoint {
        CGPoint(x: Double(p.x), y: Double(flip ? -p.y : p.y))
    }

    func capture(into rec: inout Recording, time: Double) {
        if world.bodyCount != lastBodyCount { discoverBodies(into: &rec) }
        let overlay = staticOverlay()
        var asleep = 0, visible = 0
        let toDegrees: Float = (flip ? -180 : 180) / Float.pi
        for (t, h) in handles.enumerated() {
            var x: Float = 0, y: Float = 0, deg = lastAngles[t], alpha: Float = 0
            let v = rec.tracks[t].values
            if v.count >= 4 { x = v[v.count - 4]; y = v[v.count - 3] }
            if world.isValid(h) {
                let xf = world.transform(h)
                if xf.p.isFinite && xf.q.c.isFinite && xf.q.s.isFinite {
                    x = xf.p.x; y = flip ? -xf.p.y : xf.p.y
                    let d = xf.q.angle * toDegrees
                    deg = d + 360 * ((lastAngles[t] - d) / 360).rounded()
                    lastAngles[t] = deg
                    if world.isAwake(h) || world.type(h) != .dynamic {
                        alpha = 1
                    } else {
                        alpha = Float(rec.options.sleepingOpacity); asleep += 1
                    }
                    visible += 1
                }
            }
            rec.tracks[t].values.append(contentsOf: [x, y, deg, alpha])
        }
        var caption = "step \(world.stepCount) · t = \(SVGFormat.fixed(time)) s · \(visible) bodies"
        if asleep > 0 { caption += " (\(asleep) asleep)" }
        rec.appendFrame(time: time, caption: caption, overlay: overlay)
    }

    /// Adds a track for every moving body not seen before; refreshes the static list.
    private func discoverBodies(into rec: inout Recording) {
        lastBodyCount = world.bodyCount
        statics.removeAll(keepingCapacity: true)
        for h in world.bodies {
            if world.type(h) == .static { statics.append(h); continue }
            guard known.insert(h).inserted else { continue }
            let (markup, radius) = localMarkup(world.shapes(of: h))
            let def: Int
            if let d = defIndex[markup] {
                def = d
            } else {
                def = rec.addDef(markup)
                defIndex[markup] = def
            }
            let fill = world.type(h) == .kinematic ? rec.options.kinematicFill : rec.options.color(forIndex: handles.count)
            _ = rec.addTrack(Recording.Track(kind: .shape(def: def, fill: fill), parent: -1, name: "", radius: radius))
            handles.append(h)
            lastAngles.append(0)
        }
    }

    /// A body's shapes in its own frame (y flipped for y-up worlds), and its reach.
    private func localMarkup(_ shapes: [Geometry]) -> (String, Double) {
        var s = ""
        var reach = 0.0
        for g in shapes {
            switch g {
            case .polygon, .capsule, .roundedPolygon:
                let p = Self.outline(g).map { map($0) }
                for q in p { reach = max(reach, hypot(Double(q.x), Double(q.y))) }
                Drawing.Element.polygon(p, style: ShapeStyle()).write(into: &s)
            case let .box(hx, hy, c, a):
                let r = Rot(angle: a)
                let p = [Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)].map { map(c + r.rotate($0)) }
                for q in p { reach = max(reach, hypot(Double(q.x), Double(q.y))) }
                Drawing.Element.polygon(p, style: ShapeStyle()).write(into: &s)
            case let .circle(r, c):
                let cc = map(c)
                reach = max(reach, hypot(Double(cc.x), Double(cc.y)) + Double(r))
                Drawing.Element.circle(center: cc, radius: Double(r), style: ShapeStyle()).write(into: &s)
                // A radius along the body's x axis shows its rotation.
                Drawing.Element.line(cc, CGPoint(x: cc.x + CGFloat(r), y: cc.y), style: ShapeStyle()).write(into: &s)
            case let .segment(a, b):
                let (pa, pb) = (map(a), map(b))
                reach = max(reach, hypot(Double(pa.x), Double(pa.y)), hypot(Double(pb.x), Double(pb.y)))
                Drawing.Element.line(pa, pb, style: ShapeStyle()).write(into: &s)
            }
        }
        return (s, reach)
    }

    /// The outline of a polygon, capsule or rounded polygon (in its body's frame): a polygon's
    /// vertices; for a rounded one, the arcs around each core vertex (a point every 15° or
    /// less), joined by the edges pushed out by the radius.
    static func outline(_ g: Geometry) -> [Vec2] {
        let core: [Vec2], r: Float
        switch g {
        case let .polygon(pts): return pts
        case let .capsule(a, b, radius): core = [a, b]; r = radius
        case let .roundedPolygon(pts, radius): core = pts; r = radius
        default: return []
        }
        let n = core.count
        func normal(_ i: Int) -> Vec2 {
            let e = core[(i + 1) % n] - core[i]
            let l = (e.x * e.x + e.y * e.y).squareRoot()
            return l > 0 ? Vec2(e.y / l, -e.x / l) : Vec2(0, 1)
        }
        var out: [Vec2] = []
        for i in 0..<n {
            let from = normal((i + n - 1) % n), to = normal(i)
            let turn = abs(atan2f(from.x * to.y - from.y * to.x, from.x * to.x + from.y * to.y))
            let steps = max(1, Int((turn / (Float.pi / 12)).rounded(.up)))
            for k in 0...steps {
                let q = Rot(angle: turn * Float(k) / Float(steps))
                out.append(core[i] + r * q.rotate(from))
            }
        }
        return out
    }

    /// The static world now: rebuilt only when a static body or a boundary changed.
    private func staticOverlay() -> Recording.Overlay {
        let segments = world.boundarySegments
        var key: [Float] = []
        key.reserveCapacity(statics.count * 6 + segments.count * 4 + 1)
        key.append(Float(statics.count))
        for h in statics {
            guard world.isValid(h) else { key.append(-1); continue }
            let xf = world.transform(h)
            key.append(contentsOf: [Float(h.index), Float(h.generation), xf.p.x, xf.p.y, xf.q.c, xf.q.s])
        }
        for (a, b) in segments { key.append(contentsOf: [a.x, a.y, b.x, b.y]) }
        if key == lastStaticKey { return lastOverlay }
        lastStaticKey = key

        var o = Recording.Overlay()
        for h in statics where world.isValid(h) && world.type(h) == .static {
            let xf = world.transform(h)
            for g in world.shapes(of: h) {
                switch g {
                case .polygon, .capsule, .roundedPolygon:
                    let p = Self.outline(g).map { map(xf.apply($0)) }
                    Drawing.Element.polygon(p, style: ShapeStyle()).write(into: &o.statics)
                    o.boxes.append(bounds(p))
                case let .box(hx, hy, c, a):
                    let r = Rot(angle: a)
                    let p = [Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)].map { map(xf.apply(c + r.rotate($0))) }
                    Drawing.Element.polygon(p, style: ShapeStyle()).write(into: &o.statics)
                    o.boxes.append(bounds(p))
                case let .circle(r, c):
                    let cc = map(xf.apply(c))
                    Drawing.Element.circle(center: cc, radius: Double(r), style: ShapeStyle()).write(into: &o.statics)
                    o.boxes.append(CGRect(x: cc.x - CGFloat(r), y: cc.y - CGFloat(r), width: 2 * CGFloat(r), height: 2 * CGFloat(r)))
                case let .segment(a, b):
                    let p = [map(xf.apply(a)), map(xf.apply(b))]
                    Drawing.Element.line(p[0], p[1], style: ShapeStyle()).write(into: &o.lines)
                    o.boxes.append(bounds(p))
                }
            }
        }
        for (a, b) in segments {
            let p = [map(a), map(b)]
            Drawing.Element.line(p[0], p[1], style: ShapeStyle()).write(into: &o.lines)
            o.boxes.append(bounds(p))
        }
        lastOverlay = o
        return o
    }

    private func bounds(_ p: [CGPoint]) -> CGRect {
        var lo = p[0], hi = p[0]
        for q in p {
            lo.x = min(lo.x, q.x); lo.y = min(lo.y, q.y)
            hi.x = max(hi.x, q.x); hi.y = max(hi.y, q.y)
        }
        return CGRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}

// MARK: - Views and animators

/// Reads a view tree, or an animator's items, into tracks.
final class ViewCapture {
    private enum Entry {
        /// `pinned`: the root of a view picture, drawn at its own bounds.
        case view(DynamicView, pinned: Bool)
        case item(any DynamicItem)
    }

    let root: DynamicView?
    let animator: DynamicAnimator?
    let clock: AnimationClock
    private var entries: [Entry] = []
    private var tracked: [ObjectIdentifier: Int] = [:]
    /// Animator items seen so far, in order (an item that leaves the animator is still drawn).
    private var items: [any DynamicItem] = []
    private var lastAngles: [Float] = []

    init(root: DynamicView?, animator: DynamicAnimator?, clock: AnimationClock) {
        self.root = root; self.animator = animator; self.clock = clock
    }

    func capture(into rec: inout Recording, time: Double) {
        var visited = Set<Int>()
        if let root {
            walk(root, parent: -1, pinned: true, into: &rec, visited: &visited)
        } else if let animator {
            for item in animator.items where !items.contains(where: { $0 === item }) { items.append(item) }
            let itemViews = Set(items.compactMap { ($0 as? DynamicView).map(ObjectIdentifier.init) })
            for item in items {
                if let v = item as? DynamicView {
                    // A view inside another item view is drawn with that view's tree.
                    var a = v.superview, inside = false
                    while let s = a { if itemViews.contains(ObjectIdentifier(s)) { inside = true; break }; a = s.superview }
                    if !inside { walk(v, parent: -1, pinned: false, into: &rec, visited: &visited) }
                } else {
                    let id = ObjectIdentifier(item)
                    let t = tracked[id] ?? addItemTrack(item, into: &rec)
                    visited.insert(t)
                }
            }
        }
        for (t, e) in entries.enumerated() {
            var x: Float = 0, y: Float = 0, deg = lastAngles[t], sx: Float = 1, sy: Float = 1, alpha: Float = 0
            var fill: UInt32 = 0
            let v = rec.tracks[t].values
            if v.count >= 4 { x = v[v.count - 4]; y = v[v.count - 3] }
            switch e {
            case let .view(view, pinned):
                let p = view.presentation
                fill = SVGColor(p.backgroundColor).packed
                if pinned {
                    guard case let .view(size, _, _) = rec.tracks[t].kind else { break }
                    x = Float(size.width / 2); y = Float(size.height / 2); deg = 0
                    alpha = view.isHidden ? 0 : Float(p.alpha)
                } else if visited.contains(t) {
                    let m = p.transform
                    // (A scrolled superview — a collection view — shows its content from its
                    // bounds origin: the subview moves the other way.)
                    let shift = view.superview?.bounds.origin ?? .zero
                    x = Float(p.center.x + m.tx - shift.x); y = Float(p.center.y + m.ty - shift.y)
                    (deg, sx, sy) = decompose(m, track: t)
                    alpha = view.isHidden ? 0 : Float(p.alpha)
                }
            case let .item(item):
                let m = item.transform
                x = Float(item.center.x + m.tx); y = Float(item.center.y + m.ty)
                (deg, sx, sy) = decompose(m, track: t)
                alpha = 1
            }
            if !(x.isFinite && y.isFinite && deg.isFinite && sx.isFinite && sy.isFinite && alpha.isFinite) {
                x = 0; y = 0; deg = 0; sx = 1; sy = 1; alpha = 0
            }
            rec.tracks[t].values.append(contentsOf: [x, y, deg, min(max(alpha, 0), 1)])
            rec.tracks[t].scales.append(contentsOf: [sx, sy])
            rec.tracks[t].fills.append(fill)
        }
        rec.appendFrame(time: time, caption: "t = \(SVGFormat.fixed(time)) s", overlay: animatorOverlay(rec.options))
    }

    /// Rotation (degrees, unwrapped against the track's last) and scale of a transform.
    private func decompose(_ m: CGAffineTransform, track t: Int) -> (Float, Float, Float) {
        let sx = (m.a * m.a + m.b * m.b).squareRoot()
        let det = m.a * m.d - m.b * m.c
        let sy = sx > 0 ? det / sx : (m.c * m.c + m.d * m.d).squareRoot()
        let d = Float(atan2(m.b, m.a) * 180 / .pi)
        let deg = d + 360 * ((lastAngles[t] - d) / 360).rounded()
        if deg.isFinite { lastAngles[t] = deg }
        return (deg, Float(sx), Float(sy))
    }

    /// Visits a view and its subviews (pre-order), adding tracks for views not seen before.
    private func walk(_ view: DynamicView, parent: Int, pinned: Bool, into rec: inout Recording, visited: inout Set<Int>) {
        let id = ObjectIdentifier(view)
        let t: Int
        if let known = tracked[id] {
            t = known
        } else {
            let size = view.presentation.size
            let content = ViewContent.elements(for: view, size: size).reduce(into: "") { $1.write(into: &$0) }
            t = rec.addTrack(Recording.Track(kind: .view(size: size, cornerRadius: Double(view.cornerRadius), content: content),
                                             parent: parent, name: view.name, radius: 0))
            entries.append(.view(view, pinned: pinned))
            lastAngles.append(0)
            tracked[id] = t
        }
        visited.insert(t)
        for sub in view.subviews { walk(sub, parent: t, pinned: false, into: &rec, visited: &visited) }
    }

    /// A track for an animator item that is not a view: its collision outline.
    private func addItemTrack(_ item: any DynamicItem, into rec: inout Recording) -> Int {
        let size = item.bounds.size
        let w = Double(size.width), h = Double(size.height)
        let color = rec.options.color(forIndex: items.firstIndex { $0 === item } ?? 0)
        var fill = color
        fill.opacity = 0.35
        let style = ShapeStyle(fill: .color(fill), stroke: .color(color), strokeWidth: 1.5)
        let element: Drawing.Element
        switch item.collisionBoundsType {
        case .rectangle: element = .rect(CGRect(x: -w / 2, y: -h / 2, width: w, height: h), cornerRadius: 0, style: style)
        case .ellipse: element = .ellipse(center: .zero, radiusX: w / 2, radiusY: h / 2, style: style)
        case .path: element = .polygon(item.collisionBoundingPath, style: style)
        }
        var content = ""
        element.write(into: &content)
        // A tick along the item's x axis shows its rotation.
        Drawing.Element.line(.zero, CGPoint(x: w / 4, y: 0), style: .stroked(color, width: 1.5)).write(into: &content)
        let t = rec.addTrack(Recording.Track(kind: .item(content: content), parent: -1, name: String(describing: type(of: item)), radius: 0))
        entries.append(.item(item))
        lastAngles.append(0)
        tracked[ObjectIdentifier(item)] = t
        return t
    }

    /// The animator's reference bounds (dashed) and its collision behaviors' boundaries.
    private func animatorOverlay(_ options: RenderOptions) -> Recording.Overlay {
        var o = Recording.Overlay()
        guard let animator else { return o }
        let rb = animator.referenceBounds
        Drawing.Element.rect(rb, cornerRadius: 0, style: ShapeStyle(fill: .none, stroke: .color(SVGColor(red: 150, green: 155, blue: 165)),
                                                                    strokeWidth: 1, dash: [6, 4])).write(into: &o.lines)
        var behaviors: [DynamicBehavior] = []
        func flatten(_ b: DynamicBehavior) { behaviors.append(b); b.childBehaviors.forEach(flatten) }
        animator.behaviors.forEach(flatten)
        for case let c as CollisionBehavior in behaviors {
            if c.translatesReferenceBoundsIntoBoundary {
                Drawing.Element.rect(rb, cornerRadius: 0, style: ShapeStyle()).write(into: &o.lines)
            }
            for id in c.boundaryIdentifiers ?? [] {
                guard let pts = c.boundary(withIdentifier: id), pts.count >= 2 else { continue }
                Drawing.Element.group([.title(id), .polyline(pts, style: ShapeStyle())], placement: .identity, opacity: 1, name: id)
                    .write(into: &o.lines)
            }
        }
        return o
    }
}
