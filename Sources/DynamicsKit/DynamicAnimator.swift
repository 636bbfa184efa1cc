import DynamicsEngine
import Foundation

/// Told when an animator starts moving items again and when everything has come to rest.
/// Both methods are optional.
public protocol DynamicAnimatorDelegate: AnyObject {
    /// The animator is about to move items again after a pause (or for the first time).
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
    /// Every item of the animator came to rest (or nothing is left to animate).
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}

/// Runs behaviors on items inside a reference rectangle (UIKit's `UIDynamicAnimator`, with
/// reference bounds instead of a reference view). Points, seconds, radians; y points down.
///
/// Time: `step(by:)` advances exactly the time given in fixed sub-steps of `fixedTimeStep`
/// (1/120 s) with an accumulator; `run(for:)` and `runUntilPaused(timeout:)` advance the
/// animator's `clock`, which steps every animator and view animation on it;
/// `AnimationClock.tick(timestamp:)` is the real-time entry point. One tick: behaviors apply
/// forces → world step → centres and rotations written back → collision delegate calls (all
/// "began", then all "ended") → every behavior's `action` → behavior changes made during the
/// tick → pause check.
public final class DynamicAnimator {
    /// What this animator steps (world, behaviors, items); the clock holds it too
    /// (`AnimatorCore`).
    let core: AnimatorCore

    /// An animator for items inside `referenceBounds`, registered on `clock` (whose
    /// `advance(by:)` steps it; `step(by:)` steps it alone).
    public init(referenceBounds: CGRect, clock: AnimationClock = .main) {
        precondition(referenceBounds.origin.x.isFinite && referenceBounds.origin.y.isFinite
                     && referenceBounds.width.isFinite && referenceBounds.height.isFinite
                     && referenceBounds.width >= 0 && referenceBounds.height >= 0,
                     "DynamicAnimator: referenceBounds must be finite with a non-negative size")
        core = AnimatorCore(referenceBounds: referenceBounds, clock: clock)
        core.owner = self
        clock.register(core)
    }

    deinit {
        core.clock.unregister(core)
    }

    /// The coordinate space's rectangle (the stand-in for UIKit's reference view).
    public var referenceBounds: CGRect {
        get { core.referenceBounds }
        set { core.referenceBounds = newValue }
    }
    /// Told when the animator resumes and pauses (held weakly).
    public var delegate: DynamicAnimatorDelegate? {
        get { core.delegate }
        set { core.delegate = newValue }
    }
    /// The fixed sub-step (s).
    public var fixedTimeStep: TimeInterval { core.fixedTimeStep }
    /// Sum of the time given to `step(by:)` (never reset).
    public var elapsedTime: TimeInterval { core.elapsedTime }
    /// False once every body is at rest (or nothing is left to animate).
    public var isRunning: Bool { core.isRunning }
    /// Worker threads of this animator's world (default 1: UI-sized worlds step faster on one).
    public var workerCount: Int {
        get { core.workerCount }
        set { core.workerCount = newValue }
    }
    /// The engine world underneath, for statistics (contacts, kinetic energy), rendering and
    /// benchmarks. Read from it freely; changing bodies in it directly bypasses the behaviors.
    public var physicsWorld: World { core.world }
    var world: World { core.world }
    /// The clock that steps this animator along with the view animations on it (an animator
    /// made for a collection view layout moves to its collection view's clock).
    public var clock: AnimationClock { core.clock }

    /// Items that stood still after two ticks in a row and moved less than this (pt) between
    /// them stay where they are until something changes them (`World.settleDistance`): an item
    /// pressed against a boundary stops within a tenth of a point of where the solver's soft
    /// contact would take it over the next half second, and the animator pauses at the same tick.
    static let settleDistance: Float = 0.01

    /// The animator's world: an item rests when its centre moves at most 1 pt/s and it turns at
    /// most 2°/s (the engine's per-body threshold is off for items), so a view comes to rest
    /// about where its frame stops changing visibly.
    static let worldSettings: WorldSettings = {
        var s = WorldSettings()
        s.sleepLinearThreshold = 1
        s.sleepAngularThreshold = 2 * Float.pi / 180
        return s
    }()

    /// Checks that an item can be simulated; `addBehavior` stops with this message otherwise.
    public static func validate(_ item: any DynamicItem) throws {
        let s = item.bounds.size
        guard s.width.isFinite, s.height.isFinite, s.width > 0, s.height > 0 else { throw DynamicsError.invalidItemSize(s) }
        let c = item.center, a = item.transform.rotationAngle
        guard c.x.isFinite, c.y.isFinite, a.isFinite else { throw DynamicsError.invalidItemPlacement(c) }
        if item.collisionBoundsType == .path {
            _ = try pathPolygon(item.collisionBoundingPath)
        }
    }

    static func pathPolygon(_ points: [CGPoint]) throws -> [Vec2] {
        guard points.count >= 3 else { throw DynamicsError.invalidBoundingPath("it needs at least 3 points") }
        var v = points.map { $0.vec }
        // Accept either winding: the engine wants a positive signed area.
        var area: Float = 0
        for i in 0..<v.count { let a = v[i], b = v[(i + 1) % v.count]; area += a.x * b.y - a.y * b.x }
        if area < 0 { v.reverse() }
        do { try Geometry.validatePolygon(v) } catch { throw DynamicsError.invalidBoundingPath("\(error)") }
        return v
    }

    // MARK: Behaviors

    /// The top-level behaviors, in insertion order.
    public var behaviors: [DynamicBehavior] { core.topLevel }

    /// Adds a top-level behavior. Adding one that is already there is ignored; adding one that
    /// sits elsewhere (another animator, or as a child) is a programmer error. During a tick
    /// (from an action or a delegate call) the change takes effect after the tick.
    public func addBehavior(_ behavior: DynamicBehavior) { core.addBehavior(behavior) }

    /// Removes a top-level behavior (no effect if it is not one). Items no other behavior
    /// holds leave the world (their velocity is forgotten); pairs of its collision behaviors
    /// that were touching get their `ended` calls once the removal is done.
    public func removeBehavior(_ behavior: DynamicBehavior) { core.removeBehavior(behavior) }

    /// Removes every top-level behavior (the last added first).
    public func removeAllBehaviors() { core.removeAllBehaviors() }

    // MARK: Items

    /// Every item some behavior of this animator holds, in the order they joined (slots are
    /// reused, so an item that left and came back may appear earlier).
    public var items: [any DynamicItem] { core.items }

    /// Items whose bounding box overlaps `rect` (reference coordinates).
    public func items(in rect: CGRect) -> [any DynamicItem] { core.items(in: rect) }

    /// Re-reads the item's centre and rotation (keeping its velocity) and wakes it.
    public func updateItem(usingCurrentState item: any DynamicItem) { core.updateItem(usingCurrentState: item) }

    /// The attributes of the cell at `indexPath` that a behavior of this animator holds; nil
    /// when none does (UIKit's `layoutAttributesForCell(at:)`).
    public func layoutAttributesForCell(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        core.layoutAttributesForCell(at: indexPath)
    }

    // MARK: Clock

    /// Steps this animator alone by exactly `seconds`, in fixed sub-steps of `fixedTimeStep`
    /// (the remainder is kept for the next call). View animations and other animators on the
    /// clock do not move; use `run(for:)` or the clock for that. Called from inside one of this
    /// animator's callbacks (a delegate call or an action), the time joins the step under way.
    public func step(by seconds: TimeInterval) { core.step(by: seconds) }

    /// Advances this animator's `clock` by `seconds` in 1/60 s frames, so every animator and
    /// view animation on that clock (completions included) moves with it, as on a device.
    public func run(for seconds: TimeInterval) {
        precondition(seconds.isFinite && seconds >= 0, "DynamicAnimator.run(for:): time must be finite and not negative")
        clock.run(for: seconds)
    }

    /// Advances this animator's `clock` in 1/60 s frames until the animator pauses or
    /// `timeout` seconds have passed; true when it paused.
    @discardableResult
    public func runUntilPaused(timeout: TimeInterval) -> Bool {
        precondition(timeout.isFinite && timeout >= 0, "runUntilPaused(timeout:): the timeout must be finite and not negative")
        var t: TimeInterval = 0
        while isRunning && t < timeout { clock.advance(by: 1.0 / 60.0); t += 1.0 / 60.0 }
        return !isRunning
    }

    /// **Better than UIKit**: calls `handler` once, the next time the animator pauses (at once
    /// if it is not running).
    public func whenSettled(_ handler: @escaping () -> Void) { core.whenSettled(handler) }

    // MARK: For behaviors, items and layouts

    func body(for item: any DynamicItem) -> BodyHandle? { core.body(for: item) }
    func resume() { core.resume() }
    func itemPropertiesChanged() { core.itemPropertiesChanged() }
    func tickListsChanged() { core.tickListsChanged() }
    func deliverContactCallsIfIdle() { core.deliverContactCallsIfIdle() }
    func behaviorDidJoin(_ behavior: DynamicBehavior) { core.behaviorDidJoin(behavior) }
    func behaviorWillLeave(_ behavior: DynamicBehavior) { core.behaviorWillLeave(behavior) }
    func itemsChanged(_ behavior: DynamicBehavior, added: [any DynamicItem], removed: [any DynamicItem]) {
        core.itemsChanged(behavior, added: added, removed: removed)
    }
    func move(to newClock: AnimationClock) { core.move(to: newClock) }
}
