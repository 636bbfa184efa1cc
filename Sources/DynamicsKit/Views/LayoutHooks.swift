import Synchronization

/// Hooks for a layout system built on `DynamicView` from another module (DynamicsLayout): a
/// per-view storage slot, whether an animator holds a view, and a pass run at the end of
/// `AnimationClock.advance(by:)`. Not for apps (`@_spi(Layout)`). While no layout is pending
/// the clock pays one relaxed atomic load per advance.
@_spi(Layout) public enum ViewLayoutHook {
    private static let pendingCount = Atomic<Int>(0)
    private static let handler = Mutex<(@Sendable () -> Void)?>(nil)

    /// Installs the pass run at the end of every `AnimationClock.advance(by:)` while some layout
    /// is pending (the latest installation wins).
    public static func install(_ pass: @escaping @Sendable () -> Void) {
        handler.withLock { $0 = pass }
    }

    /// Counts pending layouts up (`+1`) or down (`-1`); the pass runs while the count is above 0.
    public static func addPending(_ delta: Int) {
        pendingCount.add(delta, ordering: .relaxed)
    }

    private static let contentHandler = Mutex<(@Sendable (DynamicView) -> Void)?>(nil)

    /// Installs what runs when the text or font of a view with layout storage changes (its
    /// intrinsic size may have changed, as a `UILabel`'s does).
    public static func installContentChanged(_ handler: @escaping @Sendable (DynamicView) -> Void) {
        contentHandler.withLock { $0 = handler }
    }

    /// Called by `DynamicView` when the text or font of a view with layout storage changes.
    static func contentChanged(_ view: DynamicView) {
        let handler = contentHandler.withLock { $0 }
        handler?(view)
    }

    private static let removalHandler = Mutex<(@Sendable (DynamicView, DynamicView) -> Void)?>(nil)

    /// Installs what runs when a view leaves its superview (`removeFromSuperview`), with the
    /// view and its former superview, before the view is detached.
    public static func installRemoval(_ handler: @escaping @Sendable (DynamicView, DynamicView) -> Void) {
        removalHandler.withLock { $0 = handler }
    }

    /// Called by `DynamicView.removeFromSuperview()`.
    static func removing(_ view: DynamicView, from superview: DynamicView) {
        let handler = removalHandler.withLock { $0 }
        handler?(view, superview)
    }

    /// Runs the installed pass when a layout is pending (called by `AnimationClock`).
    @inline(__always) static func runIfPending() {
        guard pendingCount.load(ordering: .relaxed) > 0 else { return }
        let pass = handler.withLock { $0 }
        pass?()
    }
}

extension DynamicView {
    /// Whether a behavior of a live animator holds this view. Layout sizes such a view but
    /// leaves its position to the animator.
    @_spi(Layout) public var isHeldByAnimator: Bool { holdingAnimator != nil }
}
