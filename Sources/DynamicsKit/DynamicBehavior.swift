import DynamicsEngine

/// The base of every behavior (UIKit's `UIDynamicBehavior`). Subclass it to make composites
/// of child behaviors, or give it an `action` that runs after every animator tick.
///
/// Behaviors are compiled into engine data when they join an animator and when their
/// properties change; the animator does not consult them per body per step.
open class DynamicBehavior {
    /// Children, in the order they were added.
    public private(set) var childBehaviors: [DynamicBehavior] = []
    /// Runs after every tick of the animator (after collisions are reported), children included.
    /// (Set during a tick's actions, it first runs on the next tick.)
    open var action: (() -> Void)? {
        didSet { if (oldValue == nil) != (action == nil) { dynamicAnimator?.tickListsChanged() } }
    }
    /// The animator this behavior (or its top-level ancestor) belongs to.
    public internal(set) weak var dynamicAnimator: DynamicAnimator?
    /// The parent behavior, if this is a child.
    public internal(set) weak var parent: DynamicBehavior?

    /// An empty behavior: add children or set `action`.
    public init() {}

    /// Adds a child; adding the same child twice is ignored. A behavior that already has
    /// another parent is a programmer error.
    open func addChildBehavior(_ behavior: DynamicBehavior) {
        if childBehaviors.contains(where: { $0 === behavior }) { return }
        precondition(behavior.parent == nil && behavior.dynamicAnimator == nil,
                     "addChildBehavior: the behavior already belongs to another parent or animator")
        precondition(behavior !== self && !isDescendant(of: behavior), "addChildBehavior: a behavior cannot contain itself")
        childBehaviors.append(behavior)
        behavior.parent = self
        if let animator = dynamicAnimator { animator.behaviorDidJoin(behavior) }
    }

    /// Removes a child (no effect if it is not one).
    open func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard let i = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        childBehaviors.remove(at: i)
        if let animator = dynamicAnimator {
            animator.behaviorWillLeave(behavior)
            animator.deliverContactCallsIfIdle()
        }
        behavior.parent = nil
    }

    /// Called just before the behavior joins (`animator`) or leaves (`nil`) an animator.
    open func willMove(to dynamicAnimator: DynamicAnimator?) {}

    func isDescendant(of other: DynamicBehavior) -> Bool {
        var p = parent
        while let q = p { if q === other { return true }; p = q.parent }
        return false
    }

    /// This behavior and all its descendants, depth first, parent before children.
    func flattened(into out: inout [DynamicBehavior]) {
        out.append(self)
        for c in childBehaviors { c.flattened(into: &out) }
    }

    // MARK: Compilation hooks (overridden by the concrete behaviors)

    /// The items this behavior acts on.
    var dynamicItems: [any DynamicItem] { [] }
    /// Calls `body` with each of `dynamicItems`, in order, without building the list (which,
    /// for a snap behavior's one item, would be an array each time it joins or leaves an
    /// animator).
    func forEachItem(_ body: (any DynamicItem) -> Void) {
        for item in dynamicItems { body(item) }
    }
    /// The bodies of `dynamicItems`, in the same order, while the behavior is in an animator
    /// (empty otherwise). The animator fills it when the behavior joins and keeps it in step
    /// as items join or leave the behavior (an item's body lives as long as some behavior of
    /// the animator holds the item), so compiling and ticking look no body up by item.
    final var bodies = BodyList()
    /// Adds what this behavior does to its animator's compiled state: gravity or properties
    /// for its `bodies`, forces applied every tick, contact reports. The animator calls it for
    /// every behavior of its hierarchy (parent before children, in insertion order) whenever
    /// it recompiles: a behavior joined or left, an item list, a compiled property or an
    /// action changed. The base contributes nothing (the animator itself registers actions).
    func contribute(to state: inout CompiledState) {}
    /// True while the behavior acts on its items every tick by itself (fields, an active
    /// continuous push): a paused animator holding it keeps ticking. Read for the behaviors
    /// that registered with `CompiledState.applyForcesEachTick(_:)`.
    var actsEveryTick: Bool { false }
    /// Applies this behavior's forces and impulses before a world step (for the behaviors that
    /// registered with `CompiledState.applyForcesEachTick(_:)`).
    func applyForces(_ animator: AnimatorCore, dt: Double) {}
    /// Called when the behavior joins an animator (after its items have bodies).
    func attach(to animator: AnimatorCore) {}
    /// Called when the behavior leaves its animator.
    func detach(from animator: AnimatorCore) {}
    /// Called while the behavior is in an animator and its item list changed: `added` items
    /// already have bodies, `removed` ones still have theirs.
    func itemsDidChange(added: [any DynamicItem], removed: [any DynamicItem], animator: AnimatorCore) {}
    /// Called when the animator's `referenceBounds` changed.
    func referenceBoundsChanged() {}
    /// True for a plain `DynamicBehavior` with no child and no action: it gives an animator
    /// nothing to do.
    final var isInert: Bool { childBehaviors.isEmpty && action == nil && type(of: self) == DynamicBehavior.self }
}

/// The base of behaviors that act on a list of items (gravity, collision, push, item
/// properties, fields): the list and its `addItem` / `removeItem`.
///
/// Adding or removing an item changes only that item: the other items keep their bodies,
/// velocities, spins and contacts.
open class ItemListBehavior: DynamicBehavior {
    /// The items, in the order they were added (each once).
    public private(set) var items: [any DynamicItem]
    /// The identities of `items`.
    private(set) var itemSet: Set<ObjectIdentifier> = []

    /// A behavior for `items` (an item listed twice is kept once).
    public init(items: [any DynamicItem] = []) {
        var unique: [any DynamicItem] = [], seen: Set<ObjectIdentifier> = []
        for item in items where seen.insert(ObjectIdentifier(item)).inserted { unique.append(item) }
        self.items = unique
        self.itemSet = seen
        super.init()
    }

    /// Adds an item (no effect if it is already there).
    open func addItem(_ item: any DynamicItem) {
        guard itemSet.insert(ObjectIdentifier(item)).inserted else { return }
        items.append(item)
        dynamicAnimator?.itemsChanged(self, added: [item], removed: [])
    }

    /// Removes an item (no effect if it is not there).
    open func removeItem(_ item: any DynamicItem) {
        guard itemSet.remove(ObjectIdentifier(item)) != nil, let i = items.firstIndex(where: { $0 === item }) else { return }
        items.remove(at: i)
        dynamicAnimator?.itemsChanged(self, added: [], removed: [item])
    }

    override var dynamicItems: [any DynamicItem] { items }
}
