import DynamicsEngine
import DynamicsKit

/// Where a scene's ground is, which way is up, and the region its dynamic bodies must stay in.
///
/// All values are in points, in the world's own coordinates.
public struct SceneFrame: Sendable, Equatable {
    /// The ground surface: y of the top face of the ground (y-up) or of its upper face on
    /// screen (y-down).
    public var groundLevel: Float
    /// True when y points up (the metre scenes); false for the UI scenes (y down).
    public var yUp: Bool
    /// The typical dynamic body size (pt), e.g. a box side or a circle diameter.
    public var bodySize: Float
    /// Lower-left and upper-right corners of the region a dynamic body's centre must stay in;
    /// a body outside is counted as escaped.
    public var boundsMin: Vec2
    public var boundsMax: Vec2

    public init(groundLevel: Float, yUp: Bool, bodySize: Float, boundsMin: Vec2, boundsMax: Vec2) {
        self.groundLevel = groundLevel; self.yUp = yUp; self.bodySize = bodySize
        self.boundsMin = boundsMin; self.boundsMax = boundsMax
    }

    /// Height of a point above the ground surface (pt; negative below it).
    @inlinable public func height(of p: Vec2) -> Float { yUp ? p.y - groundLevel : groundLevel - p.y }

    /// True when a body centre at `p` has left the scene.
    @inlinable public func hasEscaped(_ p: Vec2) -> Bool {
        !p.isFinite || height(of: p) < -bodySize
            || p.x < boundsMin.x || p.x > boundsMax.x || p.y < boundsMin.y || p.y > boundsMax.y
    }
}

/// What a picture of a driver scene shows.
public enum ScenePicture {
    /// A view tree (e.g. a component's target view) and the clock that animates it.
    case view(DynamicView, AnimationClock)
    /// An animator's items inside its reference bounds.
    case animator(DynamicAnimator)
}

/// What steps a scene made of DynamicsKit animators (many small worlds, components, view
/// animations) instead of one engine world. `SceneInstance.step()` calls it.
public protocol SceneDriver: AnyObject {
    /// Advances the whole scene by `dt` seconds using up to `workers` threads.
    func step(dt: Float, workers: Int)
    /// The centres of the scene's moving items (pt), for the sanity check.
    func itemCenters() -> [Vec2]
    /// Touching contacts summed over the scene's worlds.
    var touchingContactCount: Int { get }
    /// Contacts summed over the scene's worlds.
    var contactCount: Int { get }
    /// Kinetic energy summed over the scene's worlds.
    var kineticEnergy: Double { get }
    /// Bodies summed over the scene's worlds.
    var bodyCount: Int { get }
    /// What renderers draw for this scene (nil: nothing to draw).
    var picture: ScenePicture? { get }
    /// Component scenes: makes the show / hide toggles due at this step and returns how many
    /// it made — the first part of `step(dt:workers:)`; `advance(dt:workers:)` is the rest.
    /// The benchmark counts the allocations of the two parts apart. Default: no toggles.
    func makeToggles(workers: Int) -> Int
    /// The part of `step(dt:workers:)` after `makeToggles` (default: the whole step).
    func advance(dt: Float, workers: Int)
    /// Bodies awake, summed over the scene's worlds (`World.awakeBodyCount`).
    var awakeBodyCount: Int { get }
    /// True when every animator of the scene is paused (`DynamicAnimator.isRunning` false) and
    /// no change is still to come (`stopChangingAfterFirstCycle`).
    var isAtRest: Bool { get }
    /// Makes no more changes once the first cycle's are made (every component shown once),
    /// so that the scene can come to rest: `run --sleep` for animator scenes.
    func stopChangingAfterFirstCycle()
}

extension SceneDriver {
    public var picture: ScenePicture? { nil }
    public func makeToggles(workers: Int) -> Int { 0 }
    public func advance(dt: Float, workers: Int) { step(dt: dt, workers: workers) }
}

/// One built scene: the world, its dynamic bodies and how to judge the result.
///
/// Not thread-safe (like `World`); use it from one thread at a time.
public final class SceneInstance {
    /// The scene's name (`pile`, …).
    public let name: String
    /// The size parameter it was built with.
    public let size: Int
    /// The seed it was built with.
    public let seed: UInt64
    /// The physics world. Sleeping is off for the throughput scenes. Empty for scenes that
    /// step through a `driver`. Replaced by `resume(fromCheckpoint:)`.
    public internal(set) var world: World
    /// Set for scenes made of DynamicsKit animators: it steps them and sums their statistics.
    public let driver: (any SceneDriver)?
    /// Threads a step may use (`World.workerCount` of `world`, or the driver's parallelism).
    public var workerCount: Int {
        get { driver == nil ? world.workerCount : driverWorkers }
        set {
            precondition(newValue >= 1, "SceneInstance.workerCount must be at least 1")
            if driver == nil { world.workerCount = newValue } else { driverWorkers = newValue }
        }
    }
    private var driverWorkers = 1
    /// Touching contacts now (summed over the driver's worlds for animator scenes).
    public var touchingContactCount: Int { driver?.touchingContactCount ?? world.touchingContactCount }
    /// The scene's dynamic bodies, in creation order (a scene with a `beforeStep` hook may
    /// change them from step to step).
    public var dynamicBodies: [BodyHandle] { bodyList?() ?? storedBodies }
    private var storedBodies: [BodyHandle]
    /// The scene's own list of its dynamic bodies, for a scene whose bodies come and go: read
    /// only when asked (the sanity check), never while stepping.
    private let bodyList: (() -> [BodyHandle])?
    /// Number of static bodies (ground, walls).
    public let staticBodyCount: Int
    /// Ground, up direction, body size and escape region.
    public let frame: SceneFrame
    /// Steps a benchmark run takes unless told otherwise.
    public let stepsDefault: Int
    /// The time step of `step()`: 1/60 s.
    public let dt: Float
    /// Largest centre height of a dynamic body above the ground when the scene was built (pt).
    public private(set) var initialMaxHeight: Double = 0
    /// Steps taken through `step()` / `run(steps:)` (or restored by `resume(fromCheckpoint:)`).
    public internal(set) var stepsTaken = 0

    /// Whether the whole state of the scene is its engine world and step count, so that a
    /// checkpoint (`checkpoint()`) can resume it: false for scenes stepped by a `driver`
    /// (DynamicsKit animators) and for scenes with a `beforeStep` hook (which keeps state of
    /// its own).
    public var isResumable: Bool { driver == nil && beforeStep == nil }

    /// Adds scene-specific checks and metrics to a report (e.g. the pyramid's `standing`).
    public typealias Judge = (SceneInstance, inout SanityReport) -> Void
    private let judge: Judge?

    /// A scene's own work before each world step, like the `StepFcn` of Box2D's benchmark app
    /// (`rain` adds and removes ragdolls): called with the world and the number of steps taken
    /// so far, inside the timed step. It returns the scene's dynamic bodies when it changed
    /// them, nil otherwise.
    public typealias BeforeStep = (World, Int) -> [BodyHandle]?
    private let beforeStep: BeforeStep?

    /// Creates an instance. Scenes call this at the end of `build`; the initial heights are
    /// measured here, so create every body first.
    public init(name: String, size: Int, seed: UInt64, world: World, dynamicBodies: [BodyHandle],
                staticBodyCount: Int, frame: SceneFrame, stepsDefault: Int = 600,
                dt: Float = 1.0 / 60.0, judge: Judge? = nil, beforeStep: BeforeStep? = nil,
                bodyList: (() -> [BodyHandle])? = nil) {
        self.name = name; self.size = size; self.seed = seed; self.world = world; self.driver = nil
        self.storedBodies = dynamicBodies; self.bodyList = bodyList; self.staticBodyCount = staticBodyCount
        self.frame = frame; self.stepsDefault = stepsDefault; self.dt = dt; self.judge = judge
        self.beforeStep = beforeStep
        self.initialMaxHeight = measureHeights().max
    }

    /// Creates an instance of a scene that steps through `driver` (its `world` stays empty).
    public init(name: String, size: Int, seed: UInt64, driver: any SceneDriver, frame: SceneFrame,
                stepsDefault: Int = 600, dt: Float = 1.0 / 60.0, judge: Judge? = nil) {
        self.name = name; self.size = size; self.seed = seed; self.world = World(gravity: .zero); self.driver = driver
        self.storedBodies = []; self.bodyList = nil; self.staticBodyCount = 0
        self.frame = frame; self.stepsDefault = stepsDefault; self.dt = dt; self.judge = judge
        self.beforeStep = nil
        self.initialMaxHeight = measureHeights().max
    }

    /// Advances the scene by one step of `dt` (1/60 s).
    public func step() {
        if let d = driver { d.step(dt: dt, workers: driverWorkers) } else { stepWorld() }
        stepsTaken += 1
    }

    /// The first part of a step, for counting allocations apart: the component toggles due at
    /// this step (returns how many; 0 for scenes without toggles). `advance()` completes the
    /// step; `step()` is the two together.
    public func makeToggles() -> Int { driver?.makeToggles(workers: driverWorkers) ?? 0 }

    /// The rest of a step after `makeToggles()`.
    public func advance() {
        if let d = driver { d.advance(dt: dt, workers: driverWorkers) } else { stepWorld() }
        stepsTaken += 1
    }

    /// The scene's `beforeStep` work, then one world step.
    private func stepWorld() {
        if let beforeStep, let bodies = beforeStep(world, stepsTaken) { storedBodies = bodies }
        world.step(dt: dt)
    }

    /// True when nothing in the scene moves: no body awake in `world`, or every animator of
    /// a `driver` paused.
    public var isAtRest: Bool { driver?.isAtRest ?? !world.hasAwakeBodies }

    /// Takes `steps` steps.
    public func run(steps: Int) {
        for _ in 0..<max(0, steps) { step() }
    }

    /// Measures the scene now (not timed: keep it out of the stepping loop).
    public func sanity() -> SanityReport {
        let h = measureHeights()
        var report: SanityReport
        if let d = driver {
            report = SanityReport(
                escaped: h.escaped, kineticEnergy: d.kineticEnergy, averageHeight: h.average,
                maxHeight: h.max, initialMaxHeight: initialMaxHeight,
                touchingContacts: d.touchingContactCount, contacts: d.contactCount,
                bodies: d.bodyCount, staticBodies: 0, awakeBodies: d.awakeBodyCount)
        } else {
            var sum = 0.0, top = 0.0
            for b in dynamicBodies {
                let v = world.linearVelocity(b)
                let s = Double((v.x * v.x + v.y * v.y).squareRoot())
                sum += s; top = max(top, s)
            }
            report = SanityReport(
                escaped: h.escaped, kineticEnergy: world.kineticEnergy, averageHeight: h.average,
                maxHeight: h.max, initialMaxHeight: initialMaxHeight,
                touchingContacts: world.touchingContactCount, contacts: world.contactCount,
                bodies: dynamicBodies.count, staticBodies: staticBodyCount,
                maxSpeed: top, meanSpeed: dynamicBodies.isEmpty ? 0 : sum / Double(dynamicBodies.count),
                awakeBodies: world.awakeBodyCount)
        }
        judge?(self, &report)
        return report
    }

    private func measureHeights() -> (escaped: Int, average: Double, max: Double) {
        var escaped = 0
        var sum: Double = 0
        var top = -Double.infinity
        var sawNaN = false
        let points = driver?.itemCenters() ?? dynamicBodies.map { world.position($0) }
        for p in points {
            if frame.hasEscaped(p) { escaped += 1 }
            let y = Double(frame.height(of: p))
            sum += y
            if y.isNaN { sawNaN = true } else if y > top { top = y }
        }
        let n = points.count
        guard n > 0 else { return (0, 0, 0) }
        // A NaN height must not hide behind `max` (NaN compares false).
        return (escaped, sum / Double(n), sawNaN ? .nan : top)
    }
}
