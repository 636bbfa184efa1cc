import DynamicsEngine
import Foundation

/// Physical properties and velocities of its items (UIKit's `UIDynamicItemBehavior`).
///
/// Every item starts with these defaults: elasticity 0.2, friction 0.2, density 1,
/// resistance 0 (see `resistance`), angular resistance 0.1, rotation allowed; only the properties set on a
/// behavior override them, the later behavior in the hierarchy winning. Pairs combine
/// elasticity with max(a, b) and friction with √(a·b).
open class DynamicItemBehavior: ItemListBehavior {
    var overrides = ItemOverrides()
    /// Velocities added before the behavior is in an animator, applied when it joins.
    private var pendingLinear: [(any DynamicItem, CGPoint)] = []
    private var pendingAngular: [(any DynamicItem, CGFloat)] = []

    /// A behavior for `items` that sets nothing yet: the items keep the defaults until a
    /// property is set.
    public override init(items: [any DynamicItem] = []) {
        super.init(items: items)
    }

    private func changed() { dynamicAnimator?.itemPropertiesChanged() }

    /// The items' properties as far as this behavior goes: the defaults, with what it set.
    private var effective: ItemProperties {
        var p = ItemProperties.defaults
        overrides.apply(to: &p)
        return p
    }

    /// Sets one property (`key` of the overrides) and has the animator apply it.
    private func override<V>(_ key: WritableKeyPath<ItemOverrides, V?>, _ value: V) {
        overrides[keyPath: key] = value
        changed()
    }

    /// `v`, checked finite and at least `min`.
    private static func checked(_ v: CGFloat, _ name: String, min: CGFloat = 0) -> CGFloat {
        precondition(v.isFinite && v >= min, "DynamicItemBehavior.\(name) must be finite and ≥ \(min) (got \(v))")
        return v
    }

    /// Restitution, 0 … 1 (higher bounces more).
    public var elasticity: CGFloat {
        get { effective.elasticity }
        set { override(\.elasticity, Self.checked(newValue, "elasticity")) }
    }
    /// Friction coefficient (≥ 0); default 0.2.
    public var friction: CGFloat {
        get { effective.friction }
        set { override(\.friction, Self.checked(newValue, "friction")) }
    }
    /// Mass per area: a 100 × 100 pt item of density 1 has mass 1.
    public var density: CGFloat {
        get { effective.density }
        set {
            precondition(newValue.isFinite && newValue > 0, "DynamicItemBehavior.density must be finite and > 0 (got \(newValue))")
            override(\.density, newValue)
        }
    }
    /// Linear damping (1/s). Default 0 (UIKit's documented default; with 0.1 a free fall would
    /// lose 3 % in one second).
    public var resistance: CGFloat {
        get { effective.resistance }
        set { override(\.resistance, Self.checked(newValue, "resistance")) }
    }
    /// Angular damping (1/s); default 0.1.
    public var angularResistance: CGFloat {
        get { effective.angularResistance }
        set { override(\.angularResistance, Self.checked(newValue, "angularResistance")) }
    }
    /// Electric charge, felt by electric and magnetic fields.
    public var charge: CGFloat {
        get { effective.charge }
        set { override(\.charge, Self.checked(newValue, "charge", min: -.greatestFiniteMagnitude)) }
    }
    /// Anchored items take part in collisions but never move.
    public var isAnchored: Bool {
        get { effective.isAnchored }
        set { override(\.isAnchored, newValue) }
    }
    /// Whether the items may turn (default true); false fixes their rotation.
    public var allowsRotation: Bool {
        get { effective.allowsRotation }
        set { override(\.allowsRotation, newValue) }
    }

    private func holds(_ item: any DynamicItem) -> Bool { items.contains { $0 === item } }

    /// Adds to the item's velocity (pt/s). Ignored for items not in this behavior.
    public func addLinearVelocity(_ velocity: CGPoint, for item: any DynamicItem) {
        precondition(velocity.x.isFinite && velocity.y.isFinite, "addLinearVelocity(_:for:): velocity must be finite")
        guard holds(item) else { return }
        guard let animator = dynamicAnimator, let h = animator.body(for: item) else { pendingLinear.append((item, velocity)); return }
        animator.world.setLinearVelocity(h, animator.world.linearVelocity(h) + velocity.vec)
        animator.resume()
    }

    /// The item's velocity (pt/s); zero for items not in this behavior.
    public func linearVelocity(for item: any DynamicItem) -> CGPoint {
        guard holds(item), let animator = dynamicAnimator, let h = animator.body(for: item) else { return .zero }
        return CGPoint(animator.world.linearVelocity(h))
    }

    /// Adds to the item's angular velocity (rad/s). Ignored for items not in this behavior.
    public func addAngularVelocity(_ velocity: CGFloat, for item: any DynamicItem) {
        precondition(velocity.isFinite, "addAngularVelocity(_:for:): velocity must be finite")
        guard holds(item) else { return }
        guard let animator = dynamicAnimator, let h = animator.body(for: item) else { pendingAngular.append((item, velocity)); return }
        animator.world.setAngularVelocity(h, animator.world.angularVelocity(h) + Float(velocity))
        animator.resume()
    }

    /// The item's angular velocity (rad/s, positive clockwise on screen); zero for items not in
    /// this behavior.
    public func angularVelocity(for item: any DynamicItem) -> CGFloat {
        guard holds(item), let animator = dynamicAnimator, let h = animator.body(for: item) else { return 0 }
        return CGFloat(animator.world.angularVelocity(h))
    }

    override func contribute(to state: inout CompiledState) { state.override(overrides, for: bodies) }

    override func attach(to animator: AnimatorCore) {
        let linear = pendingLinear, angular = pendingAngular
        pendingLinear = []; pendingAngular = []
        animator.itemPropertiesChanged()
        for (item, v) in linear { addLinearVelocity(v, for: item) }
        for (item, w) in angular { addAngularVelocity(w, for: item) }
    }
}
