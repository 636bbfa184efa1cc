import DynamicsEngine
import DynamicsKit
@testable import DynamicsRender
import Foundation
import Testing

/// A tiny world to draw: a static ground and the given dynamic bodies, y up or y down, drawn
/// with a body size of 50 pt and stepped by 1/60 s.
struct TinyWorld {
    let world: World
    let dynamicBodies: [BodyHandle]
    let yUp: Bool

    init(yUp: Bool = true, sleep: Bool = false, groundHalfWidth: Float = 500,
         bodies: [(Vec2, Float, Geometry)]) throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = sleep
        let w = World(gravity: Vec2(0, yUp ? -1000 : 1000), settings: settings)
        let groundY: Float = yUp ? -10 : 10
        try w.createBody(BodyDef(type: .static, position: Vec2(0, groundY)),
                         shapes: [ShapeDef(.box(halfWidth: groundHalfWidth, halfHeight: 10))])
        dynamicBodies = try bodies.map { p, angle, g in
            try w.createBody(BodyDef(type: .dynamic, position: p, angle: angle), shapes: [ShapeDef(g)])
        }
        world = w
        self.yUp = yUp
    }

    /// `count` bodies in rows of 10, 120 pt apart, alternating circles (radius 50) and
    /// 100 pt boxes.
    init(mixed count: Int) throws {
        var bodies: [(Vec2, Float, Geometry)] = []
        for i in 0..<count {
            let p = Vec2(Float(i % 10) * 120 - 540, 60 + Float(i / 10) * 120)
            let g: Geometry = i % 2 == 0 ? .circle(radius: 50) : .box(halfWidth: 50, halfHeight: 50)
            bodies.append((p, 0, g))
        }
        try self.init(bodies: bodies)
    }

    func svg() -> String { Renderer.svg(of: world, yUp: yUp, bodySize: 50) }
    func recorder(options: RenderOptions = RenderOptions()) -> Recorder {
        Recorder(world: world, yUp: yUp, bodySize: 50, options: options)
    }
    func record(steps: Int, every: Int = 1, options: RenderOptions = RenderOptions()) -> Recording {
        Renderer.record(world: world, yUp: yUp, bodySize: 50, steps: steps, every: every, options: options)
    }
    func run(steps: Int) { for _ in 0..<steps { world.step(dt: 1.0 / 60.0) } }
}

/// Applies `translate(tx ty) rotate(deg)` (SVG semantics) to a point.
func applySVG(_ parts: [String: [Double]], _ p: (Double, Double)) -> (Double, Double) {
    let t = parts["translate"] ?? [0, 0]
    let a = (parts["rotate"]?.first ?? 0) * .pi / 180
    let x = p.0 * cos(a) - p.1 * sin(a), y = p.0 * sin(a) + p.1 * cos(a)
    return (x + t[0], y + (t.count > 1 ? t[1] : 0))
}

@Suite("SVG format")
struct FormatTests {
    @Test func numbersAreShortAndDeterministic() {
        #expect(SVGFormat.number(12.5) == "12.5")
        #expect(SVGFormat.number(3) == "3")
        #expect(SVGFormat.number(0.05) == "0.05")
        #expect(SVGFormat.number(-1.239) == "-1.24")
        #expect(SVGFormat.number(-0.001) == "0")
        #expect(SVGFormat.number(100.004) == "100")
        #expect(SVGFormat.number(1.5, decimals: 0) == "2")
        #expect(SVGFormat.number(0.12345, decimals: 4) == "0.1235")
        #expect(SVGFormat.number(.nan) == "0")
        #expect(SVGFormat.fixed(10, decimals: 2) == "10.00")
        #expect(SVGFormat.fixed(-0.004, decimals: 2) == "0.00")
    }

    @Test func textIsEscaped() {
        #expect(SVGFormat.escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }

    @Test func drawingIsWellFormedAndCarriesItsPrimitives() throws {
        var d = Drawing(width: 200, height: 100)
        d.append(.rect(CGRect(x: 10, y: 10, width: 80, height: 40), cornerRadius: 6, style: .filled(.black)))
        d.append(.group([.circle(center: CGPoint(x: 150, y: 50), radius: 20, style: .stroked(.black, width: 2))],
                        placement: Placement(translation: CGPoint(x: 5, y: 0), rotation: -15), opacity: 0.5, name: "g"))
        d.append(.text(TextRun("A & B", at: CGPoint(x: 100, y: 90), anchor: .middle)))
        let root = try XMLNode.parse(d.svg())
        #expect(root["viewBox"] == "0 0 200 100")
        let rects = root.descendants(named: "rect")
        #expect(rects.count == 2)  // background + ours
        #expect(rects[1]["rx"] == "6")
        let g = try #require(root.descendants(named: "g").first)
        #expect(g["transform"] == "translate(5 0) rotate(-15)")
        #expect(g["opacity"] == "0.5")
        let text = try #require(root.descendants(named: "text").first)
        #expect(text.text == "A & B")
        #expect(text["text-anchor"] == "middle")
    }
}

@Suite("World pictures")
struct WorldRenderTests {
    /// The `<use>` elements of the moving bodies.
    func bodies(_ root: XMLNode) throws -> [XMLNode] {
        let tracks = try #require(root.first(id: "tracks"))
        return tracks.descendants(named: "use")
    }

    @Test func threeBodiesAtTheirFlippedPositions() throws {
        let scene = try TinyWorld(bodies: [
            (Vec2(100, 200), 0, .box(halfWidth: 20, halfHeight: 10)),
            (Vec2(-150, 50), 0, .circle(radius: 15)),
            (Vec2(0, 400), 0, .box(halfWidth: 10, halfHeight: 10)),
        ])
        let root = try XMLNode.parse(scene.svg())
        let uses = try bodies(root)
        #expect(uses.count == 3)
        let positions = uses.map { transformParts($0["transform"])["translate"] ?? [] }
        // y up in the world, y down in SVG: y is negated.
        #expect(positions == [[100, -200], [-150, -50], [0, -400]])
        // The ground is drawn once, as a static polygon whose top edge is at y = 0.
        let overlay = try #require(root.first(id: "overlay"))
        let polygons = overlay.descendants(named: "polygon")
        #expect(polygons.count == 1)
        let ys = pointList(polygons[0]["points"]).map(\.1).sorted()
        #expect(ys.first == 0 && ys.last == 20)
        // Every body is inside the picture's viewBox.
        let picture = try #require(root.first(id: "picture"))
        let vb = (picture["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(vb.count == 4)
        for p in positions {
            #expect(p[0] > vb[0] && p[0] < vb[0] + vb[2] && p[1] > vb[1] && p[1] < vb[1] + vb[3])
        }
    }

    @Test func yDownScenesAreNotFlipped() throws {
        let scene = try TinyWorld(yUp: false, bodies: [(Vec2(100, -200), 0, .box(halfWidth: 20, halfHeight: 10))])
        let uses = try bodies(XMLNode.parse(scene.svg()))
        #expect(uses.count == 1)
        #expect(transformParts(uses[0]["transform"])["translate"] == [100, -200])
    }

    /// A rotated dynamic body (a shared outline placed by translate + rotate) lands exactly where
    /// a static body of the same shape and angle does (its vertices placed directly): so the
    /// rotation sign and the flip agree.
    @Test(arguments: [true, false])
    func rotationSignMatchesTheDirectlyPlacedStaticShape(yUp: Bool) throws {
        let angle: Float = 0.5
        let scene = try TinyWorld(yUp: yUp, bodies: [(Vec2(100, 300), angle, .box(halfWidth: 40, halfHeight: 10, center: Vec2(15, 5)))])
        try scene.world.createBody(BodyDef(type: .static, position: Vec2(100, 300), angle: angle),
                                   shapes: [ShapeDef(.box(halfWidth: 40, halfHeight: 10, center: Vec2(15, 5)))])
        let root = try XMLNode.parse(scene.svg())
        let use = try #require(bodies(root).first)
        let parts = transformParts(use["transform"])
        #expect(abs((parts["rotate"]?.first ?? 0) - Double(angle) * 180 / .pi * (yUp ? -1 : 1)) < 0.01)
        let def = try #require(root.first(id: "s0")?.descendants(named: "polygon").first)
        let placed = pointList(def["points"]).map { applySVG(parts, $0) }
        let statics = try #require(root.first(id: "overlay")).descendants(named: "polygon")
        #expect(statics.count == 2)
        let direct = pointList(statics[1]["points"])
        #expect(placed.count == 4 && direct.count == 4)
        for (a, b) in zip(placed, direct) {
            #expect(abs(a.0 - b.0) < 0.05 && abs(a.1 - b.1) < 0.05, "\(a) vs \(b)")
        }
        // Counter-clockwise in a y-up world is counter-clockwise on screen: the box's local +x
        // axis points up-right on screen (y decreasing) when y is up.
        let axis = applySVG(parts, (1, 0)), origin = applySVG(parts, (0, 0))
        #expect((axis.1 - origin.1 < 0) == yUp)
    }

    @Test func sleepingBodiesAreDimmer() throws {
        let scene = try TinyWorld(sleep: true, bodies: [(Vec2(0, 10), 0, .box(halfWidth: 10, halfHeight: 10)),
                                                         (Vec2(300, 2_000), 0, .box(halfWidth: 10, halfHeight: 10))])
        scene.run(steps: 90)
        #expect(!scene.world.isAwake(scene.dynamicBodies[0]))
        #expect(scene.world.isAwake(scene.dynamicBodies[1]))
        let uses = try bodies(XMLNode.parse(scene.svg()))
        #expect(uses.map { $0["opacity"] } == ["0.4", nil])
    }

    @Test func identicalOutlinesAreDefinedOnce() throws {
        let scene = try TinyWorld(mixed: 40)
        let root = try XMLNode.parse(scene.svg())
        #expect(try bodies(root).count == 40)
        // One circle and one box outline, each reused 20 times.
        #expect(root.descendants(named: "defs").first?.children.count == 2)
        #expect(root.descendants(named: "circle").count == 1)
    }

    @Test func boundariesAreLines() throws {
        let scene = try TinyWorld(bodies: [(Vec2(0, 100), 0, .circle(radius: 10))])
        try scene.world.addBoundaryPath([Vec2(-300, 0), Vec2(-300, 300), Vec2(300, 300)], closed: false, group: .default)
        let overlay = try #require(XMLNode.parse(scene.svg()).first(id: "overlay"))
        let lines = overlay.descendants(named: "line")
        #expect(lines.count == 2)
        #expect(lines[1]["y1"] == "-300" && lines[1]["x2"] == "300")
    }

    @Test func pictureIsFittedToTheBodiesNotToAHugeGround() throws {
        let row: [(Vec2, Float, Geometry)] = (0..<4).map { i in
            let box: Geometry = .box(halfWidth: 50, halfHeight: 50)
            return (Vec2(Float(i) * 100 - 150, 50), 0, box)
        }
        let scene = try TinyWorld(groundHalfWidth: 10_000, bodies: row)
        let picture = try #require(XMLNode.parse(scene.svg()).first(id: "picture"))
        let vb = (picture["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        // 4 boxes of 100 pt in a row, a 20 000 pt ground: the picture is about 600 pt wide.
        #expect(vb[2] > 400 && vb[2] < 1_000)
    }
}

@Suite("View pictures")
struct ViewRenderTests {
    func tree() -> (root: DynamicView, child: DynamicView, grandchild: DynamicView) {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        root.backgroundColor = Color(white: 0.9)
        let child = DynamicView(frame: CGRect(x: 60, y: 30, width: 80, height: 40))
        child.name = "child"
        child.backgroundColor = .blue
        child.cornerRadius = 8
        let grandchild = DynamicView(frame: CGRect(x: 10, y: 5, width: 20, height: 10))
        grandchild.name = "grandchild"
        root.addSubview(child)
        child.addSubview(grandchild)
        return (root, child, grandchild)
    }

    func node(named name: String, in root: XMLNode) throws -> XMLNode {
        try #require(root.all.first { $0["data-name"] == name })
    }

    @Test func rotatedViewCarriesItsRotationInDegreesClockwise() throws {
        let (root, child, _) = tree()
        child.transform = CGAffineTransform(rotationAngle: .pi / 6)
        let svg = try XMLNode.parse(Renderer.svg(of: root, clock: AnimationClock()))
        let g = try node(named: "child", in: svg)
        // UIKit's positive angle turns clockwise on screen, as SVG's rotate does.
        #expect(g["transform"] == "translate(100 50) rotate(30)")
        let inner = try #require(g.children.first { $0.name == "g" })
        #expect(inner["transform"] == "translate(-40 -20)")
        let rect = try #require(inner.children.first { $0.name == "rect" })
        #expect(rect["width"] == "80" && rect["height"] == "40" && rect["rx"] == "8" && rect["fill"] == "#0000ff")
        // The picture is the root's own bounds.
        #expect(svg["viewBox"] == "0 0 600 400" || svg.first(id: "picture")?["viewBox"] == "0 0 300 200")
    }

    @Test func alphaMultipliesDownTheTree() throws {
        let (root, child, grandchild) = tree()
        child.alpha = 0.5
        grandchild.alpha = 0.5
        let svg = try XMLNode.parse(Renderer.svg(of: root, clock: AnimationClock()))
        #expect(try node(named: "child", in: svg)["opacity"] == "0.5")
        let g = try node(named: "grandchild", in: svg)
        #expect(g["opacity"] == "0.5")
        #expect(abs(g.effectiveOpacity - 0.25) < 1e-9)
    }

    @Test func hiddenViewsAreInvisibleWithTheirSubviews() throws {
        let (root, child, _) = tree()
        child.isHidden = true
        let svg = try XMLNode.parse(Renderer.svg(of: root, clock: AnimationClock()))
        #expect(try node(named: "grandchild", in: svg).effectiveOpacity == 0)
    }

    @Test func presentationIsDrawnWhileAnimating() throws {
        let clock = AnimationClock()
        let (root, child, _) = tree()
        DynamicView.animate(withDuration: 1, delay: 0, options: .curveLinear, clock: clock, animations: { child.center = CGPoint(x: 200, y: 50) })
        clock.advance(by: 0.5)
        let g = try node(named: "child", in: XMLNode.parse(Renderer.svg(of: root, clock: clock)))
        #expect(g["transform"] == "translate(150 50)")
    }

    @Test func textIsAlignedWrappedAndTruncated() throws {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let label = DynamicView(frame: CGRect(x: 0, y: 0, width: 120, height: 60))
        label.text = "The quick brown fox jumps over the lazy dog again and again"
        label.font = .boldSystemFont(ofSize: 14)
        label.textAlignment = .center
        label.numberOfLines = 2
        label.textColor = .red
        root.addSubview(label)
        let texts = try XMLNode.parse(Renderer.svg(of: root, clock: AnimationClock())).descendants(named: "text")
        #expect(texts.count == 2)
        #expect(texts.allSatisfy { $0["x"] == "60" && $0["text-anchor"] == "middle" && $0["font-weight"] == "bold" })
        #expect(texts.allSatisfy { $0["fill"] == "#ff0000" && $0["font-size"] == "14" })
        #expect(texts[1].text.hasSuffix("…"))
        #expect(texts.allSatisfy { TextLayout.width(of: $0.text, fontSize: 14, bold: true) <= 120 })
        // Two lines centred on the middle (y = 30) of the label.
        let ys = texts.compactMap { Double($0["y"] ?? "") }
        #expect(ys[0] < 30 && ys[1] > 30)
    }

    @Test func singleLineTextIsTruncatedNotWrapped() {
        let lines = TextLayout.lines("a fairly long single line of text", width: 80, height: 100, fontSize: 12, numberOfLines: 1)
        #expect(lines.count == 1)
        #expect(lines[0].hasSuffix("…"))
        #expect(TextLayout.lines("fits", width: 80, height: 100, fontSize: 12, numberOfLines: 1) == ["fits"])
        #expect(TextLayout.lines("one\ntwo\nthree", width: 80, height: 100, fontSize: 12, numberOfLines: 0) == ["one", "two", "three"])
    }

    @Test func imagePlaceholderSitsLeftOfTheText() throws {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 200, height: 50))
        root.imageName = "star"
        root.text = "Favourites"
        let svg = try XMLNode.parse(Renderer.svg(of: root, clock: AnimationClock()))
        let image = try #require(svg.all.first { $0["data-name"] == "image:star" })
        let frame = try #require(image.descendants(named: "rect").first)
        let text = try #require(svg.descendants(named: "text").first)
        let right = (Double(frame["x"] ?? "") ?? 0) + (Double(frame["width"] ?? "") ?? 0)
        #expect(Double(text["x"] ?? "") ?? 0 > right)
    }
}

/// An item that is not a view.
final class Token: DynamicItem {
    var center: CGPoint
    var bounds: CGRect
    var transform: CGAffineTransform = .identity
    var collisionBoundsType: DynamicItemCollisionBoundsType
    init(center: CGPoint, size: CGSize, type: DynamicItemCollisionBoundsType = .rectangle) {
        self.center = center; bounds = CGRect(origin: .zero, size: size); collisionBoundsType = type
    }
}

@Suite("Animator pictures")
struct AnimatorRenderTests {
    @Test func itemsBoundariesAndReferenceBounds() throws {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 300), clock: clock)
        let token = Token(center: CGPoint(x: 100, y: 80), size: CGSize(width: 40, height: 20))
        let ball = Token(center: CGPoint(x: 200, y: 80), size: CGSize(width: 30, height: 30), type: .ellipse)
        let view = DynamicView(frame: CGRect(x: 250, y: 20, width: 60, height: 40))
        view.name = "card"
        let label = DynamicView(frame: CGRect(x: 0, y: 0, width: 60, height: 20))
        label.name = "title"
        view.addSubview(label)
        let collision = CollisionBehavior(items: [token, ball, view])
        collision.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 250), to: CGPoint(x: 400, y: 250))
        animator.addBehavior(collision)
        let svg = try XMLNode.parse(Renderer.svg(of: animator))
        #expect(svg.first(id: "picture")?["viewBox"] == "0 0 400 300")
        let floor = try #require(svg.all.first { $0["data-name"] == "floor" })
        #expect(pointList(floor.descendants(named: "polyline").first?["points"]).map { [$0.0, $0.1] } == [[0, 250], [400, 250]])
        let tracks = try #require(svg.first(id: "tracks"))
        let groups = tracks.children
        #expect(groups.count == 3)
        #expect(groups[0]["transform"] == "translate(100 80)")
        #expect(groups[0].descendants(named: "rect").first?["width"] == "40")
        #expect(groups[1].descendants(named: "ellipse").count == 1)
        #expect(groups[2]["data-name"] == "card")
        // The label is drawn inside the card, not as a separate item.
        #expect(groups[2].all.contains { $0["data-name"] == "title" })
    }
}

@Suite("Recordings")
struct RecordingTests {
    @Test func nFramesGiveNKeyTimesAndNValues() throws {
        let scene = try TinyWorld(bodies: [(Vec2(0, 300), 0.3, .box(halfWidth: 20, halfHeight: 10)),
                                           (Vec2(100, 500), 0, .circle(radius: 10))])
        let rec = scene.record(steps: 20, every: 2)
        #expect(rec.frameCount == 11)
        #expect(rec.times.first == 0 && abs((rec.times.last ?? 0) - 20.0 / 60.0) < 1e-6)
        let svg = try XMLNode.parse(rec.animatedSVG())
        let animations = svg.descendants(named: "animateTransform")
        // Both bodies fall: each moves and turns or at least moves.
        #expect(animations.count >= 2)
        for a in animations {
            let keys = (a["keyTimes"] ?? "").split(separator: ";").compactMap { Double($0) }
            #expect(keys.count == 11)
            #expect(keys.first == 0 && keys.last == 1)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
            #expect((a["values"] ?? "").split(separator: ";").count == 11)
            #expect(a["repeatCount"] == "indefinite")
        }
        // The first translate value is where the body started (flipped).
        let first = try #require(animations.first { $0["type"] == "translate" })
        #expect(first["values"]?.split(separator: ";").first == "0 -300")
        // The still of the last frame puts the body where the world has it now.
        let p = scene.world.position(scene.dynamicBodies[0])
        let last = try #require(XMLNode.parse(rec.svg()).first(id: "t0"))
        let t = transformParts(last["transform"])["translate"] ?? []
        #expect(abs(t[0] - Double(p.x)) < 0.01 && abs(t[1] + Double(p.y)) < 0.01)
    }

    @Test func maxFramesDecimates() throws {
        let scene = try TinyWorld(bodies: [(Vec2(0, 300), 0, .box(halfWidth: 20, halfHeight: 10))])
        var options = RenderOptions()
        options.maxFrames = 10
        let r = scene.recorder(options: options)
        for _ in 0..<100 { r.capture(); scene.run(steps: 1) }
        let rec = r.recording
        #expect(rec.frameCount <= 10 && rec.frameCount >= 5)
        #expect(rec.times.first == 0)
        #expect(zip(rec.times, rec.times.dropFirst()).allSatisfy { $0 < $1 })
        // Frames stay evenly spaced after dropping.
        let gaps = Set(zip(rec.times, rec.times.dropFirst()).map { SVGFormat.number($1 - $0, decimals: 4) })
        #expect(gaps.count == 1)
        // A long record(world:) keeps at most maxFrames, including the last step.
        let long = try TinyWorld(bodies: [(Vec2(0, 300), 0, .circle(radius: 5))]).record(steps: 50, options: options)
        #expect(long.frameCount <= 10)
        #expect(abs((long.times.last ?? 0) - 50.0 / 60.0) < 1e-6)
    }

    @Test func htmlIsSelfContainedAndHoldsEveryFrame() throws {
        let rec = try TinyWorld(mixed: 20).record(steps: 12, every: 3)
        #expect(rec.frameCount == 5)
        let html = rec.html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // No network: no scripts, styles or images fetched from anywhere.
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("href=\"http"))
        let start = try #require(html.range(of: "const REC = "))
        let end = try #require(html.range(of: ";\n", range: start.upperBound..<html.endIndex))
        let json = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any]
        let data = try #require(json)
        #expect((data["times"] as? [Double])?.count == 5)
        let moving = try #require(data["mv"] as? [Int])
        #expect(moving.count == 20)
        let frames = try #require(data["p"] as? [[Int]])
        #expect(frames.count == 5)
        #expect(frames.allSatisfy { $0.count == 3 * moving.count })
        // The embedded SVG (between the stage div and the script) is well-formed.
        let svgStart = try #require(html.range(of: "<svg "))
        let svgEnd = try #require(html.range(of: "</div>\n<script>"))
        _ = try XMLNode.parse(String(html[svgStart.lowerBound..<svgEnd.lowerBound]))
    }

    @Test func viewRecordingAnimatesOpacityAndColour() throws {
        let clock = AnimationClock()
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let shade = DynamicView(frame: root.bounds)
        shade.name = "shade"
        shade.backgroundColor = .black
        shade.alpha = 0
        root.addSubview(shade)
        DynamicView.animate(withDuration: 0.5, delay: 0, options: .curveLinear, clock: clock, animations: {
            shade.alpha = 0.5
            shade.backgroundColor = .red
        })
        let rec = Renderer.record(view: root, clock: clock, duration: 0.5, frameDuration: 0.1)
        #expect(rec.frameCount == 6)
        let svg = try XMLNode.parse(rec.animatedSVG())
        let g = try #require(svg.all.first { $0["data-name"] == "shade" })
        let fade = try #require(g.children.first { $0.name == "animate" && $0["attributeName"] == "opacity" })
        #expect(fade["values"] == "0;0.1;0.2;0.3;0.4;0.5")
        let fill = try #require(svg.all.first { $0.name == "animate" && $0["attributeName"] == "fill" })
        #expect(fill["values"]?.hasPrefix("#000000;") == true && fill["values"]?.hasSuffix(";#ff0000") == true)
        // The root does not move: no transform animation at all.
        #expect(svg.descendants(named: "animateTransform").isEmpty)
    }

    @Test func viewsAddedDuringARecordingAppearFromThen() throws {
        let clock = AnimationClock()
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let r = Recorder(view: root, clock: clock)
        r.capture()
        let late = DynamicView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        late.name = "late"
        root.addSubview(late)
        clock.advance(by: 0.1)
        r.capture()
        let svg = try XMLNode.parse(r.recording.animatedSVG())
        let g = try #require(svg.all.first { $0["data-name"] == "late" })
        let fade = try #require(g.children.first { $0.name == "animate" && $0["attributeName"] == "opacity" })
        #expect(fade["values"] == "0;1")
    }

    @Test func everyOutputIsWellFormed() throws {
        let rec = try TinyWorld(mixed: 32).record(steps: 6, every: 2)
        _ = try XMLNode.parse(rec.svg())
        _ = try XMLNode.parse(rec.svg(frame: 0))
        _ = try XMLNode.parse(rec.animatedSVG())
        let uses = try XMLNode.parse(rec.svg()).descendants(named: "use")
        #expect(uses.count == 32)
    }
}

@Suite("World inspection")
struct InspectionTests {
    @Test func shapesComeBackInTheBodyFrame() throws {
        let world = World()
        let h = try world.createBody(BodyDef(type: .dynamic, position: Vec2(50, 60), angle: 1),
                                     shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: 5)), ShapeDef(.circle(radius: 3, center: Vec2(0, 7)))])
        let shapes = world.shapes(of: h)
        #expect(world.shapeCount(of: h) == 2)
        #expect(shapes.count == 2)
        guard case let .polygon(pts) = shapes[0] else { Issue.record("a box comes back as a polygon"); return }
        #expect(Set(pts.map { [$0.x, $0.y] }) == [[-10, -5], [10, -5], [10, 5], [-10, 5]])
        #expect(shapes[1] == .circle(radius: 3, center: Vec2(0, 7)))
    }

    @Test func boundariesInCreationOrder() throws {
        let world = World()
        #expect(world.boundaries.isEmpty)
        let path = try world.addBoundaryPath([Vec2(0, 0), Vec2(10, 0), Vec2(10, 10)], closed: true, group: .default)
        #expect(world.boundaries == path)
        #expect(world.boundarySegments.count == 3)
        #expect(world.boundarySegments[2].a == Vec2(10, 10) && world.boundarySegments[2].b == Vec2(0, 0))
        world.removeBoundary(path[1])
        #expect(world.boundaries == [path[0], path[2]])
        // Boundaries are not bodies.
        #expect(world.bodies.isEmpty)
    }
}
