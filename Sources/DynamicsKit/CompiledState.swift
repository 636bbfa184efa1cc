import DynamicsEngine

/// What an animator's behaviors compile to. The animator rebuilds it by asking every behavior
/// of its hierarchy, parent before children, in insertion order, to `contribute(to:)`; each
/// behavior type adds what it does through the methods below, so the animator never asks
/// which type a behavior is, and a new behavior type needs no change in the animator.
///
/// Two parts: per-body values (gravity, properties), which the animator then gives the bodies
/// whose values changed; and the per-tick lists (forces, contact reports, actions), which the
/// tick walks without allocating or retaining.
struct CompiledState {
    /// The world whose bodies the behaviors' cached handles name (a body's user data is its
    /// animator record slot).
    let world: World

    /// Per record slot: gravity summed in hierarchy order.
    private(set) var gravity: [Vec2] = []
    /// Per record slot: the default properties with every override applied, later ones winning.
    private(set) var properties: [ItemProperties] = []

    /// The behaviors whose `applyForces` runs before each world step, in hierarchy order.
    private(set) var forceBehaviors: [DynamicBehavior] = []
    /// `forceBehaviors` unretained, for the tick (the animator's hierarchy holds them; they
    /// leave only between ticks): a retain and a release of the list and of each behavior per
    /// tick would be a noticeable part of a one-item animator's tick.
    private(set) var forceRefs: [Unmanaged<DynamicBehavior>] = []
    /// The collision behaviors whose contacts a tick reports.
    private(set) var scannedCollisions: [CollisionBehavior] = []
    /// The behaviors with an `action`, run after each tick.
    private(set) var actionBehaviors: [DynamicBehavior] = []
    /// False while a tick walks the per-tick lists: a compilation made from inside the tick
    /// (an action or a callback changed a behavior) leaves them alone.
    private var collectsTickLists = true

    init(world: World) { self.world = world }

    /// Empties the per-slot values, sized for `slots` record slots, and, with `tickLists`,
    /// the per-tick lists (keeps the storage: recompiling allocates nothing once warm).
    mutating func reset(slots: Int, tickLists: Bool) {
        // (Element by element for a few slots: the generic bulk calls cost more than a
        // small animator's whole list.)
        gravity.removeAllKeepingCapacity()
        properties.removeAllKeepingCapacity()
        if slots <= 8 {
            for _ in 0..<slots { gravity.append(.zero); properties.append(.defaults) }
        } else {
            gravity.append(contentsOf: repeatElement(.zero, count: slots))
            properties.append(contentsOf: repeatElement(.defaults, count: slots))
        }
        collectsTickLists = tickLists
        guard tickLists else { return }
        forceBehaviors.removeAllKeepingCapacity()
        forceRefs.removeAllKeepingCapacity()
        scannedCollisions.removeAllKeepingCapacity()
        actionBehaviors.removeAllKeepingCapacity()
    }

    @inline(__always) private func slot(_ body: BodyHandle) -> Int { Int(world.userData(body)) }

    /// Adds the acceleration `a` (pt/s²) to the gravity of each of `bodies`.
    mutating func addGravity(_ a: Vec2, to bodies: BodyList) {
        for h in bodies { gravity[slot(h)] += a }
    }

    /// Applies the explicitly set properties `overrides` to each of `bodies` (over what earlier
    /// behaviors set).
    mutating func override(_ overrides: ItemOverrides, for bodies: BodyList) {
        for h in bodies { overrides.apply(to: &properties[slot(h)]) }
    }

    /// `behavior.applyForces(_:dt:)` runs before every world step (and, while its
    /// `actsEveryTick` is true, keeps a paused animator ticking).
    mutating func applyForcesEachTick(_ behavior: DynamicBehavior) {
        guard collectsTickLists else { return }
        forceBehaviors.append(behavior)
        forceRefs.append(Unmanaged.passUnretained(behavior))
    }

    /// Each tick looks at the world's contacts for `collision`'s delegate calls.
    mutating func reportContacts(of collision: CollisionBehavior) {
        guard collectsTickLists else { return }
        scannedCollisions.append(collision)
    }

    /// `behavior.action` runs after every tick (the animator adds each behavior that has one).
    mutating func runActionEachTick(_ behavior: DynamicBehavior) {
        guard collectsTickLists else { return }
        actionBehaviors.append(behavior)
    }
}

/// The cached bodies of a behavior's items (`DynamicBehavior.bodies`), in order: the first
/// one inline, so that caching the body of a one-item behavior (a menu's, an alert's, a
/// snap) allocates nothing; the rest in an array that keeps its storage.
struct BodyList: RandomAccessCollection {
    private var head: BodyHandle?
    private var tail: [BodyHandle] = []

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + tail.count }
    subscript(i: Int) -> BodyHandle { i == 0 ? head.unsafelyUnwrapped : tail[i - 1] }

    mutating func append(_ h: BodyHandle) {
        if head == nil { head = h } else { tail.append(h) }
    }

    /// Removes the first occurrence of `h` (keeping the order of the others).
    mutating func remove(_ h: BodyHandle) {
        if head == h {
            head = tail.isEmpty ? nil : tail.removeFirst()
        } else if let i = tail.firstIndex(of: h) {
            tail.remove(at: i)
        }
    }

    /// Empties the list, keeping the array's storage.
    mutating func removeAll() {
        head = nil
        tail.removeAllKeepingCapacity()
    }
}
