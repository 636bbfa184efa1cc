import DynamicsEngine
import DynamicsKit
import Foundation

/// The `animators` scene (scenes.md): N cards, each with its own `ViewPropertyAnimator`, in
/// groups of `AnimatorsDriver.groupSize` cards on one phone screen and one clock.
///
/// Every card repeats a 3 s (180-frame) cycle, card i starting i mod 180 frames late: at
/// frame 0 of its cycle its animator starts (0.6 s, ease-out: the card slides 110 pt right
/// and 200 pt up, turning 0.2 rad); at frame 20 a finger catches it (paused); frames 21–44
/// the finger drags it (`fractionComplete` set every frame, linearly); at frame 45 the finger
/// lets go moving toward home: the animator is reversed and continued with a spring (damping
/// ratio 0.55, the finger's velocity, 0.6 s), and completes at `.start` with the card home.
/// The groups' clocks advance in parallel over the workers, each worker making the cycle
/// events of its share of the groups first (`AnimationClock.advance(_:by:workers:preparing:)`).
public enum AnimatorsScene {
    /// The scene's descriptor (`SceneCatalog`).
    public static let descriptor = SceneDescriptor(
        name: "animators",
        summary: "N cards, each with a property animator started, paused, dragged, reversed and sprung home every 3 s",
        sizeMeaning: "animators", sizes: [1_000, 10_000], defaultSize: 10_000, maximumSize: 1_000_000
    ) { request in
        let driver = AnimatorsDriver(count: request.size)
        return SceneInstance(name: request.scene.name, size: request.size, seed: request.seed, driver: driver,
                             frame: componentFrame, stepsDefault: request.scene.stepsDefault,
                             judge: { _, report in driver.judge(&report) })
    }
}

/// Steps the `animators` scene (see `AnimatorsScene`).
public final class AnimatorsDriver: SceneDriver, ClockSharePreparation {
    /// Cards on one screen and clock.
    public static let groupSize = 50
    /// Frames in a card's cycle.
    public static let period = 180
    /// Cycle frames of the events: pause, last drag, let go; and the frame by which the card
    /// is home again (the spring lasts 36 frames from the let-go).
    static let pauseFrame = 20, lastDragFrame = 44, letGoFrame = 45, homeBy = 45 + 36 + 2
    /// The animation: 0.6 s, ease-out, to home + (110, −200), turned 0.2 rad.
    static let duration: TimeInterval = 0.6
    static let offset = CGPoint(x: 110, y: -200), turn: CGFloat = 0.2

    /// The cards, in order.
    public let cards: [DynamicView]
    /// Card i's animator (on its group's clock).
    public let animators: [ViewPropertyAnimator]
    /// The groups' screens (card i on screen i / `groupSize`).
    public let screens: [DynamicView]
    let clocks: [AnimationClock]
    /// Where each card rests.
    public let homes: [CGPoint]
    /// Per card: its animation block and completion, made once and handed over every cycle.
    /// (In structs: a closure read from an array of closures is re-abstracted, an allocation.)
    private struct Block { let run: () -> Void }
    private struct Completion { let run: (ViewAnimatingPosition) -> Void }
    private let blocks: [Block]
    private var completionHandlers: [Completion] = []
    /// Per card: cycles started, completions, completions that found the card away from home
    /// or not at `.start`. (Buffers: the workers write different cards' counts at once.)
    private let started: UnsafeMutableBufferPointer<Int>
    private let completed: UnsafeMutableBufferPointer<Int>
    private let wrongCompletions: UnsafeMutableBufferPointer<Int>
    /// Cycles started by each part of `makeToggles`' pass.
    private let partCounts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
    private var frame = 0
    private var quietFrom = Int.max
    /// The frame whose events `prepare` makes.
    private var eventFrame = 0

    init(count: Int) {
        let g = Self.groupSize
        let groups = (count + g - 1) / g
        var cards: [DynamicView] = [], animators: [ViewPropertyAnimator] = [], homes: [CGPoint] = []
        var screens: [DynamicView] = [], clocks: [AnimationClock] = []
        cards.reserveCapacity(count); animators.reserveCapacity(count); homes.reserveCapacity(count)
        for k in 0..<groups {
            let clock = AnimationClock()
            let screen = DynamicView(frame: phoneScreen)
            screen.name = "screen"
            screen.backgroundColor = Color(red: 0.93, green: 0.94, blue: 0.96)
            let inGroup = min(g, count - k * g)
            for j in 0..<inGroup {
                let card: DynamicView
                if inGroup == 1 {
                    card = DynamicView(frame: CGRect(x: 57, y: 380, width: 260, height: 160))
                    card.text = "Drag me"
                    card.textColor = .white
                    card.textAlignment = .center
                } else {
                    // A 5 × 10 grid of small cards.
                    let col = j % 5, row = j / 5
                    card = DynamicView(frame: CGRect(x: CGFloat(col) * 75 + 5, y: CGFloat(row) * 66 + 5, width: 65, height: 56))
                }
                card.name = "card"
                card.cornerRadius = 10
                card.backgroundColor = Color(red: 0.25 + 0.5 * CGFloat(j % 5) / 4, green: 0.45, blue: 0.85)
                screen.addSubview(card)
                cards.append(card)
                homes.append(card.center)
                animators.append(ViewPropertyAnimator(duration: Self.duration, curve: .easeOut, clock: clock))
            }
            screens.append(screen)
            clocks.append(clock)
        }
        self.cards = cards; self.animators = animators; self.homes = homes
        self.screens = screens; self.clocks = clocks
        started = .allocate(capacity: count); started.initialize(repeating: 0)
        completed = .allocate(capacity: count); completed.initialize(repeating: 0)
        wrongCompletions = .allocate(capacity: count); wrongCompletions.initialize(repeating: 0)
        blocks = (0..<count).map { i in
            let card = cards[i], target = CGPoint(x: homes[i].x + Self.offset.x, y: homes[i].y + Self.offset.y)
            return Block {
                card.center = target
                card.transform = CGAffineTransform(rotationAngle: Self.turn)
            }
        }
        completionHandlers = (0..<count).map { i in
            Completion { [unowned self] position in self.completedCycle(i, at: position) }
        }
    }

    deinit {
        started.deallocate(); completed.deallocate(); wrongCompletions.deallocate(); partCounts.deallocate()
    }

    /// A card's completion: counted, and checked (UIKit leaves a reversed animator's views at
    /// their start values, the model too).
    private func completedCycle(_ i: Int, at position: ViewAnimatingPosition) {
        completed[i] += 1
        let card = cards[i]
        if position != .start || card.center != homes[i] || card.transform != .identity || card.presentation.center != homes[i] {
            wrongCompletions[i] += 1
        }
    }

    /// Where the finger holds the animation at cycle frame `k` (21 … 44): from where the card
    /// was caught, out toward the end and back.
    static func dragFraction(_ k: Int) -> Double {
        let caught = Double(pauseFrame) / 60 / duration
        return caught + 0.4 * sin(Double.pi * Double(k - pauseFrame) / 30)
    }

    /// The finger's velocity at the let-go toward home, in units of the distance left per
    /// second (`SpringTimingParameters.initialVelocity`).
    static let letGoVelocity: Double = {
        let k = Double(lastDragFrame - pauseFrame)
        let perSecond = -0.4 * Double.pi / 30 * cos(Double.pi * k / 30) * 60   // d fraction / dt, toward home
        return perSecond / dragFraction(lastDragFrame)
    }()

    /// Card i's events at cycle frame k.
    @inline(__always)
    private func event(_ i: Int, _ k: Int) -> Bool {
        let a = animators[i]
        // (A card whose first cycle has not begun has nothing to pause, drag or let go.)
        if k != 0 && k != Self.homeBy && a.state == .inactive { return false }
        switch k {
        case 0:
            a.addAnimations(blocks[i].run)
            a.addCompletion(completionHandlers[i].run)
            a.startAnimation()
            started[i] += 1
            return true
        case Self.pauseFrame:
            a.pauseAnimation()
        case (Self.pauseFrame + 1)...Self.lastDragFrame:
            a.fractionComplete = CGFloat(Self.dragFraction(k))
        case Self.letGoFrame:
            a.isReversed = true
            let v = CGFloat(Self.letGoVelocity)
            a.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 0.55, initialVelocity: CGVector(dx: v, dy: v)),
                                durationFactor: 1)
        case Self.homeBy:
            // The next cycle runs forward again.
            a.isReversed = false
        default: break
        }
        return false
    }

    /// Makes the events of this frame for the cards of the groups in `share`; returns the
    /// cycles started.
    @discardableResult
    private func events(groups share: Range<Int>) -> Int {
        let f = eventFrame
        guard f < quietFrom else { return 0 }
        let g = Self.groupSize, n = cards.count, p = Self.period
        var starts = 0
        for i in (share.lowerBound * g)..<min(share.upperBound * g, n) {
            let k = (f + i) % p
            if k <= Self.homeBy, event(i, k) { starts += 1 }
        }
        return starts
    }

    public func prepare(_ share: Range<Int>) { events(groups: share) }

    /// This frame's events, then every group's clock, in one pass over the workers.
    public func step(dt: Float, workers: Int) {
        eventFrame = frame
        frame += 1
        AnimationClock.advance(clocks, by: frameSeconds(dt), workers: workers, preparing: self)
    }

    /// This frame's events alone (the benchmark counts their allocations apart), over the
    /// workers; returns the cycles started (so allocations per toggle are per card cycle).
    public func makeToggles(workers: Int) -> Int {
        eventFrame = frame
        let n = clocks.count, w = max(1, min(workers, n, partCounts.count))
        ParallelWork.forEach(w, workers: w, EventPass(driver: self, count: n, parts: w))
        var total = 0
        for p in 0..<w { total += partCounts[p] }
        return total
    }

    /// `makeToggles`' pass: part p makes the events of the p-th contiguous share of the groups.
    private struct EventPass: IndexedWork, @unchecked Sendable {
        let driver: AnimatorsDriver
        let count: Int
        let parts: Int
        func perform(_ p: Int) {
            driver.partCounts[p] = driver.events(groups: (p * count / parts)..<((p + 1) * count / parts))
        }
    }

    /// Advances every group's clock by one frame.
    public func advance(dt: Float, workers: Int) {
        frame += 1
        AnimationClock.advance(clocks, by: frameSeconds(dt), workers: workers)
    }

    // MARK: Checking

    /// The scene's checks: every card's presentation finite; every completion at `.start` with
    /// the card home (model and presentation); each card completed every cycle that started
    /// long enough ago, and no more than it started; cards between cycles rest at home.
    func judge(_ report: inout SanityReport) {
        var finite = true, wrong = 0, missing = 0, extra = 0, away = 0
        let p = Self.period
        for i in cards.indices {
            let pres = cards[i].presentation
            if !(pres.center.x.isFinite && pres.center.y.isFinite && pres.transform.a.isFinite && pres.transform.b.isFinite) { finite = false }
            wrong += wrongCompletions[i]
            // Cycles started at frames s < frame with (s + i) % p == 0; done by s + homeBy.
            let first = (p - i % p) % p
            let due = frame - Self.homeBy > first ? (frame - Self.homeBy - 1 - first) / p + 1 : 0
            if completed[i] < min(due, started[i]) { missing += 1 }
            if completed[i] > started[i] { extra += 1 }
            let k = ((frame - 1) + i) % p
            if frame > 0, k > Self.homeBy || (started[i] == 0) {
                if cards[i].presentation.center != homes[i] || cards[i].center != homes[i] || animators[i].state != .inactive { away += 1 }
            }
        }
        report.checks["finite_presentation"] = finite
        report.checks["completions_at_start_home"] = wrong == 0
        report.checks["one_completion_per_cycle"] = missing == 0 && extra == 0
        report.checks["idle_cards_home"] = away == 0
        report.metrics["completions"] = Double(completed.reduce(0, +))
        report.metrics["cycles_started"] = Double(started.reduce(0, +))
    }

    public func itemCenters() -> [Vec2] { cards.map { $0.presentation.center.vec2 } }
    public var touchingContactCount: Int { 0 }
    public var contactCount: Int { 0 }
    public var kineticEnergy: Double { 0 }
    public var bodyCount: Int { cards.count }
    public var awakeBodyCount: Int { animators.reduce(0) { $0 + ($1.isRunning ? 1 : 0) } }
    public var isAtRest: Bool { frame >= quietFrom && !animators.contains { $0.state != .inactive } }
    /// Every card starts one cycle and is then left alone.
    public func stopChangingAfterFirstCycle() { quietFrom = frame + Self.period }
    /// The first group's screen.
    public var picture: ScenePicture? { .view(screens[0], clocks[0]) }
}
