import DynamicsComponents
import DynamicsEngine
import DynamicsKit
import Foundation

/// The phone-sized target view of the UI scenes (pt).
let phoneScreen = CGRect(x: 0, y: 0, width: 375, height: 667)

/// The region a component's views must stay in (its own target space, generously).
let componentFrame = SceneFrame(groundLevel: 4 * 667, yUp: false, bodySize: 250,
                                boundsMin: Vec2(-2 * 375, -3 * 667), boundsMax: Vec2(3 * 375, 3 * 667))

/// The step `dt` as the exact frame time it stands for (Float(1/60) → 1/60 s), so that
/// clocks stepped 60 times a second add up to whole seconds.
func frameSeconds(_ dt: Float) -> TimeInterval {
    let hz = (1 / Double(dt)).rounded()
    return abs(hz * Double(dt) - 1) < 1e-6 ? 1 / hz : Double(dt)
}

extension CGPoint {
    var vec2: Vec2 { Vec2(Float(x), Float(y)) }
}

// MARK: - menus and alerts

/// The UI scenes (scenes.md): `menus`, `alerts` and `dashboard`.
enum ComponentScenes {
    /// `menus`: N independent slide-in menus, each with its own target view (375 × 667 pt),
    /// animator and clock. Every menu toggles show/hide every 1.5 s of simulated time; menu i
    /// starts its cycle i mod 90 frames late, so the toggles spread evenly over the steps (a
    /// screen full of independent users, not one synchronised burst). Even menus come from the
    /// left, odd ones from the right. Each step advances every menu's clock by 1/60 s; the
    /// clocks are stepped in parallel over the workers.
    static let menus = SceneDescriptor(
        name: "menus", summary: "N slide-in menus, each with its own animator, toggling every 1.5 s",
        sizeMeaning: "menus", sizes: [100, 1_000], defaultSize: 1_000, maximumSize: 100_000
    ) { $0.instance(driver: MenusDriver(period: 90, count: $0.size, make: menu), frame: componentFrame) }

    /// `alerts`: N independent drop-in alerts, each with its own target view (375 × 667 pt),
    /// animator and clock. Every alert alternates show / tap every 2 s of simulated time (a
    /// tap on button i mod 2); alert i starts i mod 120 frames late. Clocks are stepped in
    /// parallel over the workers.
    static let alerts = SceneDescriptor(
        name: "alerts", summary: "N drop-in alerts, each with its own animator, shown and dismissed every 2 s",
        sizeMeaning: "alerts", sizes: [100, 1_000], defaultSize: 1_000, maximumSize: 100_000
    ) { $0.instance(driver: AlertsDriver(period: 120, count: $0.size, make: alert), frame: componentFrame) }

    /// `dashboard`: see `DashboardDriver`.
    static let dashboard = SceneDescriptor(
        name: "dashboard",
        summary: "2048 × 1536 pt: N small items in collision layers, snaps, pushes, 20 menus and 20 alerts on one clock",
        sizeMeaning: "small items", sizes: [1_000, 5_000], defaultSize: 5_000, maximumSize: 50_000
    ) { request in
        let frame = SceneFrame(groundLevel: 1536, yUp: false, bodySize: 40,
                               boundsMin: Vec2(-2, -2), boundsMax: Vec2(2050, 1538))
        return request.instance(driver: DashboardDriver(items: request.size, seed: request.seed), frame: frame)
    }

    /// Menu `i` of `menus` on its own phone screen.
    static func menu(_ i: Int, clock: AnimationClock) -> MenuComponent {
        let left = i % 2 == 0
        let frame = left ? CGRect(x: 0, y: 0, width: 150, height: 667) : CGRect(x: 375 - 150, y: 0, width: 150, height: 667)
        return MenuComponent(frame: frame, targetView: DynamicView(frame: phoneScreen), direction: left ? .leftToRight : .rightToLeft,
                             options: ["Home", "Inbox", "Starred", "Settings", "Help"], optionImages: nil, clock: clock)
    }

    /// An alert of `alerts` on its own phone screen.
    static func alert(_ i: Int, clock: AnimationClock) -> AlertComponent {
        AlertComponent(title: "Update available", message: "A new version is ready to install.",
                       buttonTitles: ["Install", "Later"], targetView: DynamicView(frame: phoneScreen), clock: clock)
    }
}

/// A component the UI scenes repeat: its animator, its screen, the view that moves, and the
/// toggle that starts each cycle.
public protocol CycledComponent: AnyObject {
    /// The component's animator.
    var animator: DynamicAnimator { get }
    /// The screen the component lives in.
    var targetView: DynamicView { get }
    /// The centre of the view that moves (pt).
    var movingCenter: CGPoint { get }
    /// Shows the component when it is hidden; otherwise hides it (a menu) or taps its button
    /// `button` (an alert).
    func toggle(button: Int)
}

extension MenuComponent: CycledComponent {
    public var movingCenter: CGPoint { menuView.center }
    public func toggle(button: Int) {
        if isMenuShown { hideMenu() } else { showMenu(selectionHandler: ignoreMenuSelection) }
    }
}

extension AlertComponent: CycledComponent {
    public var movingCenter: CGPoint { alertView.center }
    public func toggle(button: Int) {
        if isShown { tapButton(at: button) } else { show(selectionHandler: ignoreAlertSelection) }
    }
}

private let ignoreMenuSelection: @Sendable (Int) -> Void = { _ in }
private let ignoreAlertSelection: @Sendable (Int, String) -> Void = { _, _ in }

/// Steps the `menus` scene.
public typealias MenusDriver = CycledComponentsDriver<MenuComponent>
/// Steps the `alerts` scene.
public typealias AlertsDriver = CycledComponentsDriver<AlertComponent>

/// Steps N independent components, each with its own clock: component i toggles (button
/// i mod 2) at frames ≡ −i mod `period`.
public final class CycledComponentsDriver<Component: CycledComponent>: SceneDriver, ClockSharePreparation {
    /// The components, one clock each.
    public let components: [Component]
    let clocks: [AnimationClock]
    /// The components' animators, held as such: the driver is reached through `SceneDriver`,
    /// where its generic code is not specialised, and the benchmark reads the contact count
    /// after every step (through the components, that would allocate once per component).
    let animators: [DynamicAnimator]
    /// Frames between a component's toggles.
    let period: Int
    private var frame = 0
    /// The first frame that toggles nothing (`stopChangingAfterFirstCycle`).
    private var quietFrom = Int.max

    init(period: Int, count: Int, make: (Int, AnimationClock) -> Component) {
        var components: [Component] = [], clocks: [AnimationClock] = []
        components.reserveCapacity(count); clocks.reserveCapacity(count)
        for i in 0..<count {
            let clock = AnimationClock()
            components.append(make(i, clock))
            clocks.append(clock)
        }
        self.period = period; self.components = components; self.clocks = clocks
        self.animators = components.map(\.animator)
    }

    /// Toggles the components due and advances every clock, in one pass over the workers:
    /// the worker that takes a share of the clocks toggles its components, then advances them
    /// (`AnimationClock.advance(_:by:workers:preparing:)`). The same result as all the toggles
    /// first (`makeToggles`) and then every clock (`advance`): the components are independent.
    public func step(dt: Float, workers: Int) {
        dueFirst = frame < quietFrom ? (period - frame % period) % period : Int.max
        frame += 1
        AnimationClock.advance(clocks, by: frameSeconds(dt), workers: workers, preparing: self)
    }

    /// Component i toggles once, at frame (−i mod `period`) of the first cycle (a menu or alert
    /// is shown), and then is left alone. The first cycle counts from the next frame.
    public func stopChangingAfterFirstCycle() { quietFrom = frame + period }

    /// The first component due this frame (`step`; component i is due at frames ≡ −i mod `period`).
    private var dueFirst = 0

    /// Toggles the components of `share` due this frame (on the worker that then advances them).
    public func prepare(_ share: Range<Int>) {
        guard dueFirst < share.upperBound else { return }
        // The first due index in the share: dueFirst + k·period ≥ share.lowerBound.
        var i = share.lowerBound <= dueFirst ? dueFirst : dueFirst + (share.lowerBound - dueFirst + period - 1) / period * period
        while i < share.upperBound {
            components[i].toggle(button: i % 2)
            i += period
        }
    }

    /// Toggles the components whose cycle starts at this frame (component i at frames ≡ −i mod
    /// `period`), in a pass of their own: `prepare` over one contiguous share a worker,
    /// without advancing (the benchmark counts a toggle's allocations this way; any split of
    /// the components toggles the same ones). Returns how many toggled.
    public func makeToggles(workers: Int) -> Int {
        dueFirst = frame < quietFrom ? (period - frame % period) % period : Int.max
        let n = components.count, w = max(1, min(workers, n))
        ParallelWork.forEach(w, workers: w, TogglePass(driver: self, count: n, parts: w))
        return dueFirst < n ? (n - dueFirst + period - 1) / period : 0
    }

    /// `makeToggles`' pass: part p prepares the p-th contiguous share of the components. (A
    /// value, not a closure: a closure's context would be an allocation per pass, counted as
    /// the toggles'.)
    private struct TogglePass: IndexedWork {
        let driver: CycledComponentsDriver
        let count: Int
        let parts: Int
        func perform(_ p: Int) { driver.prepare((p * count / parts)..<((p + 1) * count / parts)) }
    }

    /// Advances every component's clock by one frame, in parallel over the workers, each
    /// worker taking shares of the clocks (`AnimationClock.advance(_:by:workers:)`).
    public func advance(dt: Float, workers: Int) {
        frame += 1
        let seconds = frameSeconds(dt)
        AnimationClock.advance(clocks, by: seconds, workers: workers)
    }

    public func itemCenters() -> [Vec2] { components.map { $0.movingCenter.vec2 } }
    public var touchingContactCount: Int { animators.reduce(0) { $0 + $1.physicsWorld.touchingContactCount } }
    public var contactCount: Int { animators.reduce(0) { $0 + $1.physicsWorld.contactCount } }
    public var kineticEnergy: Double { animators.reduce(0) { $0 + $1.physicsWorld.kineticEnergy } }
    public var bodyCount: Int { animators.reduce(0) { $0 + $1.items.count } }
    public var awakeBodyCount: Int { animators.reduce(0) { $0 + $1.physicsWorld.awakeBodyCount } }
    /// (Not before the last change is made: a component still to be shown is paused too.)
    public var isAtRest: Bool { frame >= quietFrom && !animators.contains { $0.isRunning } }
    /// The first component's screen.
    public var picture: ScenePicture? { components.first.map { .view($0.targetView, clocks[0]) } }
}

// MARK: - dashboard

/// Steps the `dashboard` scene (scenes.md): one 2048 × 1536 pt world on one clock with N small
/// items (default 5 000: 20–40 pt rectangles and circles, seeded) under gravity with collision
/// in the reference bounds, 50 snap behaviors retargeted every second, 20 instantaneous pushes per
/// second at random items, plus 20 menus and 20 alerts toggling (their own animators, on the
/// same clock).
///
/// **Layers.** 5 000 such items cover about 4.1 M pt², more than the 3.1 M pt² screen, so they
/// cannot all rest in one layer; like a dashboard's stacked panels, the items are split into
/// collision layers of 500 (one `CollisionBehavior` each, all bounded by the screen) that pass
/// through each other. The item animator steps with the scene's worker count.
public final class DashboardDriver: SceneDriver {
    public let clock = AnimationClock()
    /// The animator of the small items.
    public let animator: DynamicAnimator
    public let items: [DynamicView]
    public let menus: [MenuComponent]
    public let alerts: [AlertComponent]
    let snaps: [SnapBehavior]
    let pushes: [PushBehavior]
    private var rng: SceneRandom
    private var frame = 0
    /// The first frame that changes nothing (`stopChangingAfterFirstCycle`).
    private var quietFrom = Int.max
    static let screen = CGRect(x: 0, y: 0, width: 2048, height: 1536)
    static let layerSize = 500

    init(items count: Int, seed: UInt64) {
        rng = SceneRandom(seed: seed)
        animator = DynamicAnimator(referenceBounds: Self.screen, clock: clock)
        var items: [DynamicView] = []
        items.reserveCapacity(count)
        // Spawn on a jittered grid per layer, so no two items of a layer start overlapping.
        let pitch: CGFloat = 44
        let columns = Int(Self.screen.width / pitch)
        for i in 0..<count {
            let k = i % Self.layerSize
            let col = k % columns, row = k / columns
            let side = CGFloat(20 + rng.float(in: 0...1) * 20)
            let height = i % 2 == 0 ? side : CGFloat(20 + rng.float(in: 0...1) * 20)
            let x = CGFloat(col) * pitch + pitch / 2 + CGFloat(rng.float(in: 0...1) - 0.5) * 2
            let y = CGFloat(row) * pitch + pitch / 2 + CGFloat(rng.float(in: 0...1) - 0.5) * 2
            let v = DynamicView(frame: CGRect(x: x - side / 2, y: y - height / 2, width: side, height: i % 2 == 0 ? side : height))
            v.collisionBoundsType = i % 2 == 0 ? .ellipse : .rectangle
            if i % 2 == 0 { v.cornerRadius = side / 2 }   // drawn as the circle it collides as
            v.backgroundColor = Color(red: CGFloat(rng.float(in: 0...1)), green: 0.5, blue: 0.8)
            items.append(v)
        }
        self.items = items
        animator.addBehavior(GravityBehavior(items: items))
        var start = 0
        while start < count {
            let layer = CollisionBehavior(items: Array(items[start..<min(start + Self.layerSize, count)]))
            layer.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(layer)
            start += Self.layerSize
        }
        var snaps: [SnapBehavior] = []
        for _ in 0..<min(50, count) {
            let s = SnapBehavior(item: items[Int(rng.next() % UInt64(count))], snapTo: CGPoint(x: 1024, y: 768))
            animator.addBehavior(s)
            snaps.append(s)
        }
        self.snaps = snaps
        var pushes: [PushBehavior] = []
        for _ in 0..<20 {
            let p = PushBehavior(items: [], mode: .instantaneous)
            p.active = false
            animator.addBehavior(p)
            pushes.append(p)
        }
        self.pushes = pushes
        var menus: [MenuComponent] = [], alerts: [AlertComponent] = []
        for i in 0..<20 {
            let left = i % 2 == 0
            let frame = left ? CGRect(x: 0, y: 0, width: 150, height: 667) : CGRect(x: 225, y: 0, width: 150, height: 667)
            menus.append(MenuComponent(frame: frame, targetView: DynamicView(frame: phoneScreen), direction: left ? .leftToRight : .rightToLeft,
                                       options: ["Overview", "Charts", "Alerts", "Settings"], optionImages: nil, clock: clock))
            alerts.append(AlertComponent(title: "Threshold", message: "A metric crossed its threshold.", buttonTitles: ["Dismiss", "Open"],
                                         targetView: DynamicView(frame: phoneScreen), clock: clock))
        }
        self.menus = menus; self.alerts = alerts
    }

    public func step(dt: Float, workers: Int) {
        _ = makeToggles(workers: workers)
        advance(dt: dt, workers: workers)
    }

    /// This frame's changes: snap targets (every second), one push, the menus and alerts due;
    /// returns the pushes, menus and alerts changed (a snap retarget is not counted).
    public func makeToggles(workers: Int) -> Int {
        animator.workerCount = workers
        let f = frame
        var count = 0
        guard f < quietFrom else { return 0 }
        if f % 60 == 0 {
            for s in snaps {
                s.snapPoint = CGPoint(x: 100 + CGFloat(rng.float(in: 0...1)) * 1848, y: 100 + CGFloat(rng.float(in: 0...1)) * 1336)
            }
        }
        if f % 3 == 0 {   // 20 pushes per second
            let p = pushes[(f / 3) % pushes.count]
            for old in p.items { p.removeItem(old) }
            p.addItem(items[Int(rng.next() % UInt64(items.count))])
            p.setAngle(CGFloat(rng.float(in: 0...1)) * 2 * .pi, magnitude: 0.5)
            p.active = true
            count += 1
        }
        for (i, m) in menus.enumerated() where (f + 4 * i) % 90 == 0 {
            m.toggle(button: 0)
            count += 1
        }
        for (i, a) in alerts.enumerated() where (f + 6 * i) % 120 == 0 {
            a.toggle(button: 0)
            count += 1
        }
        return count
    }

    /// Advances the shared clock by one frame.
    public func advance(dt: Float, workers: Int) {
        frame += 1
        clock.advance(by: frameSeconds(dt))
    }

    private var worlds: [World] { [animator.physicsWorld] + menus.map { $0.animator.physicsWorld } + alerts.map { $0.animator.physicsWorld } }
    public func itemCenters() -> [Vec2] { items.map { $0.center.vec2 } }
    public var touchingContactCount: Int { worlds.reduce(0) { $0 + $1.touchingContactCount } }
    public var contactCount: Int { worlds.reduce(0) { $0 + $1.contactCount } }
    public var kineticEnergy: Double { worlds.reduce(0) { $0 + $1.kineticEnergy } }
    public var bodyCount: Int { items.count + menus.count + alerts.count }
    public var awakeBodyCount: Int { worlds.reduce(0) { $0 + $1.awakeBodyCount } }
    public var isAtRest: Bool { frame >= quietFrom && !animator.isRunning && !menus.contains { $0.animator.isRunning } && !alerts.contains { $0.animator.isRunning } }
    /// The snap targets set once, one second of pushes, every menu and alert toggled once
    /// (shown), then nothing more: the items come to rest at their snap points and in layers.
    public func stopChangingAfterFirstCycle() { quietFrom = frame + 120 }
    /// The 2048 × 1536 screen of small items.
    public var picture: ScenePicture? { .animator(animator) }
}
