import Foundation

/// A ready-made headless "view" (UIKit's `UIView`, without drawing or touches): a dynamic item
/// with a frame, alpha, background colour, optional text or image name, and subviews.
///
/// **Coordinates.** `center` is in the superview's coordinate space (for a top-level view, the
/// space of the animator's reference bounds); a view's own space has its origin at its
/// top-left corner (`bounds.origin` is always zero). y points down.
///
/// **Model and presentation.** As in UIKit, the properties hold the *model* value: a change
/// made inside `DynamicView.animate(withDuration:…)` takes its final value at once, and
/// `presentation` gives what is on screen at the clock's current time (what a renderer draws).
/// Animatable: `center`, `frame`, `bounds` (size), `transform`, `alpha`, `backgroundColor`.
/// Setting an animating property outside an animation ends that property's animation
/// (interrupted: its completion gets `false`) and shows the new value at once.
open class DynamicView: DynamicItem {
    // The centre, transform and tracks are `@exclusivity(unchecked)`: the animator writes
    // centres and transforms every tick (a view is used from one thread at a time, its
    // clock's), and the dynamic checks measurably slowed many-item scenes (docs/architecture.md).
    @exclusivity(unchecked) private var _center: CGPoint
    /// Tracks of the view animations running on this view, oldest first. (Beside the centre:
    /// setting the centre reads it, so a tick's write-back touches one line of the view.)
    @exclusivity(unchecked) var animationTracks: [AnimationTrack] = []
    private var _size: CGSize
    @exclusivity(unchecked) private var _transform: CGAffineTransform = .identity
    private var _alpha: CGFloat = 1
    private var _backgroundColor: Color = .white

    /// Storage for a layout system (DynamicsLayout keeps its per-view state here).
    @_spi(Layout) public var layoutStorage: (any ViewLayoutStorage)?
    /// The animator whose behaviors hold this view, set when it joins and leaves one.
    weak var holdingAnimator: DynamicAnimator?


    /// Centre in the superview's (or the reference) coordinate space. Animatable.
    open var center: CGPoint {
        get { _center }
        set { reportChange(.center, from: replace(&_center, with: newValue), to: newValue, as: AnimatableValue.point) }
    }

    /// The view's own rectangle: origin zero, its size. Setting it changes the size around the
    /// centre (the origin is ignored). Animatable.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: _size) }
        set { reportChange(.size, from: replace(&_size, with: newValue.size), to: newValue.size, as: AnimatableValue.size) }
    }

    /// Rotation and scale about the centre (a translation moves what is drawn, not `center`).
    /// The animator writes its rotation here. Animatable.
    open var transform: CGAffineTransform {
        get { _transform }
        set { reportChange(.transform, from: replace(&_transform, with: newValue), to: newValue, as: AnimatableValue.transform) }
    }

    /// Opacity 0 … 1 (multiplies with the superview's). Animatable.
    open var alpha: CGFloat {
        get { _alpha }
        set { reportChange(.alpha, from: replace(&_alpha, with: newValue), to: newValue, as: AnimatableValue.scalar) }
    }

    /// Fill colour of the view's rectangle. Animatable.
    open var backgroundColor: Color {
        get { _backgroundColor }
        set { reportChange(.backgroundColor, from: replace(&_backgroundColor, with: newValue), to: newValue, as: AnimatableValue.color) }
    }

    /// A name for debugging and rendering (e.g. "menu", "alert").
    open var name: String = ""
    /// Text drawn in the view (a label or a button title); nil draws none.
    open var text: String? { didSet { layoutStorage?.viewContentChanged(self) } }
    /// Colour of the text (default black).
    open var textColor: Color = .black
    /// Font of the text (default the 17 pt system font).
    open var font: Font = .systemFont(ofSize: 17) { didSet { layoutStorage?.viewContentChanged(self) } }
    /// Horizontal alignment of the text (default left).
    open var textAlignment: TextAlignment = .left
    /// Lines the text may take (0 = as many as needed).
    open var numberOfLines: Int = 1
    /// The name of an image drawn at the view's left (a renderer shows a placeholder).
    open var imageName: String?
    /// Corner radius of the background rectangle.
    open var cornerRadius: CGFloat = 0
    /// Hidden views (and their subviews) are not drawn.
    open var isHidden = false
    /// An integer to find a subview by (UIKit's `tag`).
    open var tag: Int = 0
    open var collisionBoundsType: DynamicItemCollisionBoundsType = .rectangle
    open var collisionBoundingPath: [CGPoint] = []

    /// The views inside this one, back to front.
    public private(set) var subviews: [DynamicView] = []
    /// The view this one is inside.
    public private(set) weak var superview: DynamicView?

    /// A view with this frame (in its future superview's space), opaque white, no subviews.
    public init(frame: CGRect) {
        _center = CGPoint(x: frame.midX, y: frame.midY)
        _size = frame.size
    }

    /// The frame of the untransformed view around its centre, in the superview's space.
    /// Setting it sets `center` and `bounds` (both animatable).
    open var frame: CGRect {
        get { CGRect(x: center.x - _size.width / 2, y: center.y - _size.height / 2, width: _size.width, height: _size.height) }
        set {
            center = CGPoint(x: newValue.midX, y: newValue.midY)
            bounds = CGRect(origin: .zero, size: newValue.size)
        }
    }

    /// Adds `view` on top of the other subviews (moving it from its old superview).
    public func addSubview(_ view: DynamicView) {
        precondition(view !== self, "addSubview: a view cannot contain itself")
        var a: DynamicView? = self
        while let v = a { precondition(v !== view, "addSubview: the view is an ancestor of the receiver"); a = v.superview }
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Takes the view out of its superview (no effect without one).
    public func removeFromSuperview() {
        guard let s = superview else { return }
        // Layout keeps the constraints of a view on the view or an ancestor, which then has
        // layout storage: the nearest one takes away those that involve this view's tree.
        var host: DynamicView? = s
        while let h = host {
            if let storage = h.layoutStorage { storage.view(self, willLeave: s); break }
            host = h.superview
        }
        s.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// The first view in this one's tree (itself included, depth first) with this tag.
    public func viewWithTag(_ tag: Int) -> DynamicView? {
        if self.tag == tag { return self }
        for s in subviews { if let v = s.viewWithTag(tag) { return v } }
        return nil
    }

    // MARK: Presentation

    /// What is on screen: the model values with the running view animations applied at the
    /// current time of their clock (UIKit's presentation layer).
    public struct Presentation: Sendable, Equatable {
        /// The presented centre, in the superview's space.
        public var center: CGPoint
        /// The presented size.
        public var size: CGSize
        /// The presented rotation and scale.
        public var transform: CGAffineTransform
        /// The presented opacity.
        public var alpha: CGFloat
        /// The presented background colour.
        public var backgroundColor: Color
        /// The untransformed frame around `center`.
        public var frame: CGRect { CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height) }
        /// The presented bounds: origin zero, the presented size.
        public var bounds: CGRect { CGRect(origin: .zero, size: size) }
    }

    /// The presented state (equal to the model values when nothing animates).
    public var presentation: Presentation {
        var p = Presentation(center: _center, size: _size, transform: _transform, alpha: _alpha, backgroundColor: _backgroundColor)
        for t in animationTracks {
            guard let v = t.presented(over: p.value(of: t.property)) else { continue }
            p.set(t.property, v)
        }
        return p
    }

    /// Whether a view animation is running on any property of this view.
    public var isAnimating: Bool { !animationTracks.isEmpty }

    /// Ends every view animation on this view (their completions get `false`); the view shows
    /// its model values.
    public func removeAllAnimations() {
        let tracks = animationTracks
        animationTracks.removeAll()
        for t in tracks { t.run?.trackRemoved(interrupted: true) }
    }

    /// The one path of every animatable setter, after it stored the new model value: reports
    /// the change of `property` (its values boxed by `box`) when changes are tracked.
    @inline(__always)
    private func reportChange<T>(_ property: AnimatableProperty, from old: T, to new: T, as box: (T) -> AnimatableValue) {
        if tracksChanges { propertyChanged(property, from: box(old), to: box(new)) }
    }

    private func propertyChanged(_ property: AnimatableProperty, from old: AnimatableValue, to new: AnimatableValue) {
        if let transaction = ViewAnimationCapture.current {
            // The presented value before this change: the old model value unless an animation runs.
            var presented = old
            for t in animationTracks where t.property == property {
                if let v = t.presented(over: presented) { presented = v }
            }
            transaction.record(view: self, property: property, modelFrom: old, presentedFrom: presented, to: new)
        } else if animationTracks.contains(where: { $0.property == property }) {
            removeTracks(for: property)
        }
    }

    /// Removes the tracks animating `property`; their runs are told they were interrupted.
    func removeTracks(for property: AnimatableProperty) {
        var removed: [AnimationTrack] = []
        animationTracks.removeAll { t in
            if t.property == property { removed.append(t); return true }
            return false
        }
        for t in removed { t.run?.trackRemoved(interrupted: true) }
    }

    /// Called by a finished run: drops its tracks from this view.
    func removeTracks(of run: ViewAnimationRun) {
        animationTracks.removeAll { $0.run === run }
    }

    /// Drops the tracks of a property animator (it finished or stopped).
    func removeTracks(of animator: ViewPropertyAnimator) {
        animationTracks.removeAll { $0.animator === animator }
    }

    /// The model value of `property`, boxed.
    func modelValue(of property: AnimatableProperty) -> AnimatableValue {
        switch property {
        case .center: return .point(_center)
        case .size: return .size(_size)
        case .transform: return .transform(_transform)
        case .alpha: return .scalar(_alpha)
        case .backgroundColor: return .color(_backgroundColor)
        }
    }

    /// Sets the model value of `property` without reporting the change: a property animator
    /// that finishes at its start or where it stopped puts the model there, leaving the other
    /// animations of the property running.
    func setModelValue(_ value: AnimatableValue, of property: AnimatableProperty) {
        switch (property, value) {
        case (.center, .point(let c)): _center = c
        case (.size, .size(let z)): _size = z
        case (.transform, .transform(let x)): _transform = x
        case (.alpha, .scalar(let a)): _alpha = a
        case (.backgroundColor, .color(let c)): _backgroundColor = c
        default: break
        }
    }
}

extension DynamicView.Presentation {
    /// The presented value of `property`, boxed.
    func value(of property: AnimatableProperty) -> AnimatableValue {
        switch property {
        case .center: return .point(center)
        case .size: return .size(size)
        case .transform: return .transform(transform)
        case .alpha: return .scalar(alpha)
        case .backgroundColor: return .color(backgroundColor)
        }
    }

    mutating func set(_ property: AnimatableProperty, _ value: AnimatableValue) {
        switch (property, value) {
        case (.center, .point(let c)): center = c
        case (.size, .size(let s)): size = s
        case (.transform, .transform(let x)): transform = x
        case (.alpha, .scalar(let a)): alpha = a
        case (.backgroundColor, .color(let c)): backgroundColor = c
        default: break
        }
    }
}

extension DynamicView {
    /// Whether a property change must be reported to the animation machinery: an animation
    /// block is open on some thread, or this view has a running animation (which a direct
    /// change interrupts). One relaxed atomic load while nothing animates.
    @inline(__always) var tracksChanges: Bool {
        ViewAnimationCapture.mayCapture || !animationTracks.isEmpty
    }
}

/// Stores `newValue` in `slot` and returns what it held. The access to `slot` ends on return,
/// so the setters report a change (which may run completion handlers that read the view)
/// with no access to the view's storage still open.
@inline(__always)
private func replace<T>(_ slot: inout T, with newValue: T) -> T {
    let old = slot
    slot = newValue
    return old
}
