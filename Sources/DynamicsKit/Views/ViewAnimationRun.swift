import Foundation
/// A committed view animation, advanced by its clock.
final class ViewAnimationRun {
    /// The block's timing and callbacks as they were when it committed.
    private(set) var settings: ViewAnimationSettings
    private(set) var hadDelegateCallbacks: Bool

    private(set) var elapsed: TimeInterval = 0
    private(set) var started = false
    private(set) var ended = false
    private var interrupted = false
    private var liveTracks = 0
    private var hadTracks = false
    /// The views with tracks of this run: the first held apart (most runs animate one view,
    /// and an array of one would be an allocation per animation), the others in `moreViews`.
    private var firstView: DynamicView?
    private var moreViews: [DynamicView] = []
    /// The eased fraction the tracks present (0 during the delay); nil once ended.
    private(set) var presentedFraction: Double? = 0

    init(_ t: AnimationTransaction) {
        settings = t.settings
        hadDelegateCallbacks = t.settings.delegate != nil || t.settings.willStart != nil || t.settings.didStop != nil
    }

    /// A run that ended and whose callbacks have run, made a new run of `t` (its clock keeps a
    /// few for the next commits: `AnimationClock.makeRun`).
    func reuse(_ t: AnimationTransaction) {
        precondition(ended && firstView == nil && moreViews.isEmpty, "ViewAnimationRun.reuse: the run has not ended")
        settings = t.settings
        hadDelegateCallbacks = t.settings.delegate != nil || t.settings.willStart != nil || t.settings.didStop != nil
        elapsed = 0
        started = false
        ended = false
        interrupted = false
        liveTracks = 0
        hadTracks = false
        presentedFraction = 0
    }

    /// Lets go of the settings' callbacks (and what they hold) while the run waits to be reused.
    func releaseCallbacks() {
        settings = ViewAnimationSettings(id: nil, context: nil, duration: 0)
    }

    func trackAdded(_ view: DynamicView) {
        liveTracks += 1
        hadTracks = true
        if firstView == nil {
            firstView = view
        } else if firstView !== view && !moreViews.contains(where: { $0 === view }) {
            moreViews.append(view)
        }
    }

    /// One of the run's tracks was taken away (another animation or a direct set).
    func trackRemoved(interrupted: Bool) {
        liveTracks -= 1
        if interrupted { self.interrupted = true }
    }

    /// Length of the whole animation after the delay (∞ when repeating forever).
    var activeDuration: TimeInterval {
        let cycle = settings.duration * (settings.autoreverses ? 2 : 1)
        if settings.repeatCount == .infinity { return cycle > 0 ? .infinity : 0 }
        return cycle * (settings.repeatCount > 0 ? settings.repeatCount : 1)
    }

    enum Event { case willStart, didStop(Bool) }

    /// Advances by `dt` and reports what happened (the clock calls the callbacks afterwards).
    func advance(by dt: TimeInterval, events: inout [(ViewAnimationRun, Event)]) {
        guard !ended else { return }
        if hadTracks && liveTracks == 0 {
            // Every property was taken over: the animation stops, unfinished.
            end(finished: false, events: &events)
            return
        }
        elapsed += dt
        let active = elapsed - settings.delay
        if !started && active >= -1e-12 {
            started = true
            events.append((self, .willStart))
        }
        guard started else { presentedFraction = 0; return }
        let total = activeDuration
        if active >= total - 1e-12 {
            end(finished: !interrupted, events: &events)
            return
        }
        let cycle = settings.duration * (settings.autoreverses ? 2 : 1)
        var local = active - (active / cycle).rounded(.down) * cycle
        if settings.autoreverses && local > settings.duration { local = cycle - local }
        if let spring = settings.spring {
            presentedFraction = spring.progress(at: local, velocity: settings.springVelocity)
        } else {
            presentedFraction = settings.curve.value(at: settings.duration > 0 ? local / settings.duration : 1)
        }
    }

    private func end(finished: Bool, events: inout [(ViewAnimationRun, Event)]) {
        ended = true
        presentedFraction = nil
        if let v = firstView { v.removeTracks(of: self) }
        for v in moreViews { v.removeTracks(of: self) }
        firstView = nil
        moreViews.removeAll(keepingCapacity: true)
        events.append((self, .didStop(finished)))
    }

    func fire(_ event: Event) {
        switch event {
        case .willStart:
            settings.delegate?.animationWillStart(settings.id, context: settings.context)
            settings.willStart?(settings.id, settings.context)
        case .didStop(let finished):
            settings.delegate?.animationDidStop(settings.id, finished: finished, context: settings.context)
            settings.didStop?(settings.id, finished, settings.context)
            settings.completion?(finished)
        }
    }
}
