import DynamicsEngine
import Foundation

/// Several items that move as one rigid body (UIKit's `UIDynamicItemGroup`). Its bounds enclose
/// its members and its centre is the bounds' centre. Use the group, not its members, in
/// behaviors; when the animator moves the group, the members follow, keeping their layout.
/// Groups cannot nest, and the members cannot change after creation.
public final class DynamicItemGroup: DynamicItem {
    /// The members, in the order given.
    public let items: [any DynamicItem]
    /// Each member's centre relative to the group's centre, and its own rotation, at creation.
    let offsets: [CGPoint]
    let angles: [CGFloat]
    private var angle: CGFloat = 0
    public var bounds: CGRect
    /// The animator whose behaviors hold this group, set when it joins and leaves one.
    weak var holdingAnimator: DynamicAnimator?
    /// The group's centre (the centre of its bounds at creation); setting it moves every
    /// member with it.
    public var center: CGPoint {
        didSet { layOut() }
    }
    public var transform: CGAffineTransform {
        get { CGAffineTransform(rotationAngle: angle) }
        set { angle = newValue.rotationAngle; layOut() }
    }

    /// A group of `items` (at least one, no group among them), laid out as they are now.
    public init(items: [any DynamicItem]) {
        precondition(!items.isEmpty, "DynamicItemGroup needs at least one item")
        precondition(!items.contains { $0 is DynamicItemGroup }, "DynamicItemGroup: groups cannot nest")
        self.items = items
        var lo = CGPoint(x: CGFloat.infinity, y: .infinity), hi = CGPoint(x: -CGFloat.infinity, y: -.infinity)
        for item in items {
            let s = item.bounds.size
            lo.x = min(lo.x, item.center.x - s.width / 2); lo.y = min(lo.y, item.center.y - s.height / 2)
            hi.x = max(hi.x, item.center.x + s.width / 2); hi.y = max(hi.y, item.center.y + s.height / 2)
        }
        let c = CGPoint(x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2)
        center = c
        bounds = CGRect(x: 0, y: 0, width: hi.x - lo.x, height: hi.y - lo.y)
        offsets = items.map { CGPoint(x: $0.center.x - c.x, y: $0.center.y - c.y) }
        angles = items.map { $0.transform.rotationAngle }
    }

    /// Places every member from the group's centre and rotation.
    private func layOut() {
        let c = cos(angle), s = sin(angle)
        for (k, item) in items.enumerated() {
            let o = offsets[k]
            item.center = CGPoint(x: center.x + c * o.x - s * o.y, y: center.y + s * o.x + c * o.y)
            let target = angles[k] + angle, current = item.transform.rotationAngle
            if target != current { item.transform = item.transform.rotated(by: target - current) }
        }
    }

    /// The members' collision shapes in the group's frame.
    func shapes(material: Material) throws -> [ShapeDef] {
        try items.enumerated().map { k, item in
            let o = Vec2(Float(offsets[k].x), Float(offsets[k].y))
            let a = Float(angles[k])
            let hw = Float(item.bounds.width / 2), hh = Float(item.bounds.height / 2)
            let q = Rot(angle: a)
            let geometry: Geometry
            switch item.collisionBoundsType {
            case .rectangle: geometry = .box(halfWidth: hw, halfHeight: hh, center: o, angle: a)
            case .ellipse:
                if hw == hh { geometry = .circle(radius: hw, center: o) }
                else if case let .polygon(p) = Geometry.ellipse(halfWidth: hw, halfHeight: hh) { geometry = .polygon(p.map { o + q.rotate($0) }) }
                else { geometry = .circle(radius: hw, center: o) }
            case .path: geometry = .polygon(try DynamicAnimator.pathPolygon(item.collisionBoundingPath).map { o + q.rotate($0) })
            }
            return ShapeDef(geometry, material: material)
        }
    }
}
