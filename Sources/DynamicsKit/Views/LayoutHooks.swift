/// What a layout system built on `DynamicView` in another module (DynamicsLayout) keeps in a
/// view's `layoutStorage`: the view tells it of the changes layout follows. Not for apps
/// (`@_spi(Layout)`).
@_spi(Layout) public protocol ViewLayoutStorage: AnyObject {
    /// The text or font of `view`, which holds this storage, changed (its intrinsic size may
    /// have changed, as a `UILabel`'s does).
    func viewContentChanged(_ view: DynamicView)
    /// `view` is about to leave `superview` (`removeFromSuperview`); this storage is that of
    /// `superview` or of its nearest ancestor that has one. Called before the view is detached.
    func view(_ view: DynamicView, willLeave superview: DynamicView)
}

/// A layout pass that waits for the next clock advance on the thread where it became pending
/// (`AnimationClock.scheduleLayoutPass(_:)`). Not for apps (`@_spi(Layout)`).
@_spi(Layout) public protocol PendingLayoutPass: AnyObject {
    /// Lays out. The pass may withdraw itself (`AnimationClock.withdrawLayoutPass(_:)`);
    /// otherwise it leaves the pending list when this returns.
    func runLayoutPass()
}

extension AnimationClock {
    /// Makes `pass` pending on the calling thread: it runs at the end of the next
    /// `advance(by:)` of any clock on this thread (the thread's turn of the run loop), or at
    /// `runPendingLayoutPasses()`. A pass is scheduled once until it runs or is withdrawn.
    @_spi(Layout) public static func scheduleLayoutPass(_ pass: any PendingLayoutPass) {
        ViewThreadState.current.schedule(pass)
    }

    /// Takes `pass` out of the calling thread's pending passes (no effect if it is not there).
    @_spi(Layout) public static func withdrawLayoutPass(_ pass: any PendingLayoutPass) {
        ViewThreadState.current.withdraw(pass)
    }

    /// Runs the calling thread's pending layout passes now, in the order they became pending.
    @_spi(Layout) public static func runPendingLayoutPasses() {
        ViewThreadState.runPendingLayoutPasses()
    }
}

extension DynamicView {
    /// Whether a behavior of a live animator holds this view. Layout sizes such a view but
    /// leaves its position to the animator.
    @_spi(Layout) public var isHeldByAnimator: Bool { holdingAnimator != nil }
}
