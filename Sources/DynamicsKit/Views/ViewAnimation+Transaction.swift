import Foundation
/// What an animation block says about its timing and its callbacks: filled in while the block
/// is open (`AnimationTransaction`), fixed once it commits (`ViewAnimationRun`).
struct ViewAnimationSettings {
    let id: String?
    let context: UnsafeMutableRawPointer?
    var duration: TimeInterval
    var delay: TimeInterval = 0
    var curve: AnimationCurve = .easeInOut
    var repeatCount: Double = 0
    var autoreverses = false
    /// A spring in place of `curve` (`animate(withDuration:…usingSpringWithDamping:…)`) and
    /// its initial velocity (distances per second).
    var spring: SpringResponse?
    var springVelocity: Double = 0
    weak var delegate: ViewAnimationDelegate?
    var willStart: ((String?, UnsafeMutableRawPointer?) -> Void)?
    var didStop: ((String?, Bool, UnsafeMutableRawPointer?) -> Void)?
    var completion: ((Bool) -> Void)?

    init(id: String?, context: UnsafeMutableRawPointer?, duration: TimeInterval) {
        self.id = id; self.context = context; self.duration = duration
    }
}

/// An animation block being filled: the settings and the changes captured on its thread.
final class AnimationTransaction {
    /// Timing and callbacks, handed to the run when the block commits.
    var settings: ViewAnimationSettings
    let isBeginCommit: Bool
    var clock: AnimationClock
    var beginsFromCurrentState = false
    /// `performWithoutAnimation`: changes are applied, not animated.
    var disabled = false

    struct Change {
        let view: DynamicView
        let property: AnimatableProperty
        let modelFrom: AnimatableValue
        let presentedFrom: AnimatableValue
        var to: AnimatableValue
    }
    private(set) var changes: [Change] = []

    init(id: String?, context: UnsafeMutableRawPointer?, clock: AnimationClock, isBeginCommit: Bool = false) {
        settings = ViewAnimationSettings(id: id, context: context, duration: isBeginCommit ? 0.2 : 0)
        self.clock = clock; self.isBeginCommit = isBeginCommit
    }

    func record(view: DynamicView, property: AnimatableProperty, modelFrom: AnimatableValue,
                presentedFrom: AnimatableValue, to: AnimatableValue) {
        if disabled { view.removeTracks(for: property); return }
        if let i = changes.firstIndex(where: { $0.view === view && $0.property == property }) {
            changes[i].to = to
        } else {
            changes.append(Change(view: view, property: property, modelFrom: modelFrom, presentedFrom: presentedFrom, to: to))
        }
    }

    /// Back to the state of a new `animate` block (its change list keeps its capacity), holding
    /// on to nothing of the last one: not its callbacks, not its clock (`.main` lives anyway).
    func empty() {
        clock = .main
        settings = ViewAnimationSettings(id: nil, context: nil, duration: 0)
        beginsFromCurrentState = false
        disabled = false
        changes.removeAll(keepingCapacity: true)
    }

    /// Installs the captured changes as tracks of a new run on the clock.
    func commit() {
        let run = clock.makeRun(self)
        for c in changes {
            let from = beginsFromCurrentState ? c.presentedFrom : c.modelFrom
            if from == c.to { continue }              // nothing to animate (a running animation goes on)
            c.view.removeTracks(for: c.property)      // the older animation of this property ends
            c.view.animationTracks.append(AnimationTrack(property: c.property, from: from, to: c.to, run: run))
            run.trackAdded(c.view)
        }
        changes.removeAll(keepingCapacity: true)
        clock.add(run)
    }
}
