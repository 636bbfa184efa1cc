import DynamicsEngine
import Foundation

/// The physical properties of an item's body, with UIKit's real defaults. A
/// `DynamicItemBehavior` overrides only the properties it set explicitly; when two behaviors
/// set the same property, the later one in the hierarchy wins; removing the behavior restores
/// the defaults.
struct ItemProperties: Equatable {
    var elasticity: CGFloat = 0.2, friction: CGFloat = 0.2
    var density: CGFloat = 1
    /// 0, as documented for UIKit and as Box2D bodies start: the spec's 0.1 would make a free
    /// fall lose 3 % in one second, against the recipe "falls 500 pt in 1 s (± 2 %)".
    var resistance: CGFloat = 0, angularResistance: CGFloat = 0.1
    var charge: CGFloat = 0
    var isAnchored = false
    var allowsRotation = true

    static let defaults = ItemProperties()

    /// Resistance is UIKit's linear damping; UIKit's scale is per second like the engine's.
    func apply(to world: World, body: BodyHandle) {
        world.setMaterial(body, Material(density: Float(density), friction: Float(friction), restitution: Float(elasticity)))
        world.setDamping(body, linear: Float(resistance), angular: Float(angularResistance))
        world.setCharge(body, Float(charge))
        world.setFixedRotation(body, !allowsRotation)
        world.setType(body, isAnchored ? .static : .dynamic)
    }
}

/// The properties a behavior set explicitly (nil = not set, keep what is below).
struct ItemOverrides {
    var elasticity: CGFloat?
    var friction: CGFloat?
    var density: CGFloat?
    var resistance: CGFloat?
    var angularResistance: CGFloat?
    var charge: CGFloat?
    var isAnchored: Bool?
    var allowsRotation: Bool?

    func apply(to p: inout ItemProperties) {
        if let v = elasticity { p.elasticity = v }
        if let v = friction { p.friction = v }
        if let v = density { p.density = v }
        if let v = resistance { p.resistance = v }
        if let v = angularResistance { p.angularResistance = v }
        if let v = charge { p.charge = v }
        if let v = isAnchored { p.isAnchored = v }
        if let v = allowsRotation { p.allowsRotation = v }
    }
}
