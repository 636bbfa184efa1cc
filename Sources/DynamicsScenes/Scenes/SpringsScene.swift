import DynamicsComponents
import DynamicsEngine
import DynamicsKit
import Foundation
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// `springs`: N cells (390 × 60 pt, 8 pt apart) in a vertical springy list
/// (`SpringyFlowLayout`) on a 390 × 844 pt screen, scrolled by the scripted finger: drag 600 pt
/// up over 0.4 s, fling at 3 000 pt/s, let the list and its springs come to rest, then the
/// same the other way, and again. One clock; springs only within a screen of the visible rows.
enum SpringsScene {
    static let screen = CGSize(width: 390, height: 844)
    static let cell = CGSize(width: 390, height: 60)
    static let spacing: CGFloat = 8

    static let descriptor = SceneDescriptor(
        name: "springs", summary: "a springy list of N cells (390 × 60) on a phone screen, dragged 600 pt, flung at 3 000 pt/s, both ways",
        sizeMeaning: "cells", sizes: [100, 100_000], defaultSize: 100_000, maximumSize: 10_000_000
    ) { request in
        let driver = SpringsDriver(cells: request.size)
        let length = Float(CGFloat(request.size) * (cell.height + spacing))
        let frame = SceneFrame(groundLevel: length + 2 * Float(screen.height), yUp: false, bodySize: Float(cell.height),
                               boundsMin: Vec2(-Float(screen.width), -2 * Float(screen.height)),
                               boundsMax: Vec2(2 * Float(screen.width), length + 2 * Float(screen.height)))
        return SceneInstance(name: request.scene.name, size: request.size, seed: request.seed, driver: driver, frame: frame,
                             stepsDefault: request.scene.stepsDefault) { _, report in driver.judge(&report) }
    }
}

/// Steps the `springs` scene (see `SpringsScene`). A step is one 1/60 s frame: this frame's
/// finger event, then the clock (deceleration, springs, the collection view's layout pass,
/// which adds and removes springs).
public final class SpringsDriver: SceneDriver, CollectionViewDataSource {
    /// The list's clock.
    public let clock = AnimationClock()
    /// The springy layout.
    public let layout: SpringyFlowLayout
    /// The list, full screen.
    public let collectionView: CollectionView
    /// The phone screen holding the list.
    public let screenView = DynamicView(frame: CGRect(origin: .zero, size: SpringsScene.screen))
    /// Cells in the list.
    public let cells: Int

    /// Frames of the drag (0.4 s) and the finger's travel per frame (600 pt in all).
    static let dragFrames = 24
    static let dragStep: CGFloat = 25
    static let flingSpeed: CGFloat = 3_000
    /// The longest a settle may take (frames) before the check counts the list as restless.
    static let settleLimit = 60 * 12

    private enum Phase { case dragging(Int), settling(Int) }
    private var phase = Phase.dragging(0)
    /// +1: the finger moves up (the list scrolls toward its end); −1: down.
    private var direction: CGFloat = 1
    private var frame = 0
    private var quiet = false
    private var cyclesDone = 0
    /// Set when `makeToggles` ran this frame (so `advance` does not run it twice).
    private var frameDone = false

    // The sanity check's tallies (read by `judge`).
    private(set) var orderViolations = 0
    private(set) var rests = 0
    private(set) var restless = 0
    private(set) var worstRestError: CGFloat = 0
    private(set) var mostSprings = 0
    private var lastChanges = 0

    init(cells: Int) {
        self.cells = cells
        layout = SpringyFlowLayout()
        layout.itemSize = SpringsScene.cell
        layout.minimumLineSpacing = SpringsScene.spacing
        layout.minimumInteritemSpacing = 0
        collectionView = CollectionView(frame: CGRect(origin: .zero, size: SpringsScene.screen), collectionViewLayout: layout, clock: clock)
        collectionView.backgroundColor = Color(white: 0.95)
        collectionView.cellProvider = { _, ip, reusing in
            let v = reusing ?? DynamicView(frame: .zero)
            v.cornerRadius = 10
            // A colour per cell, by its index (hue steps), so a recording shows the cells move.
            let k = CGFloat(ip.item % 12) / 12
            v.backgroundColor = Color(red: 0.35 + 0.5 * k, green: 0.55, blue: 0.95 - 0.5 * k)
            return v
        }
        collectionView.dataSource = self
        screenView.addSubview(collectionView)
        collectionView.reloadData()
    }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { cells }

    /// One frame: the finger's event for this frame, then the clock.
    private func runFrame(dt: Float) -> Int {
        let before = layout.springsAdded + layout.springsRemoved
        let cv = collectionView
        let x = SpringsScene.screen.width / 2
        let start = direction > 0 ? SpringsScene.screen.height * 0.8 : SpringsScene.screen.height * 0.2
        switch phase {
        case .dragging(let k):
            if quiet { break }
            if k == 0 { cv.beginDrag(at: CGPoint(x: x, y: start)) }
            cv.drag(to: CGPoint(x: x, y: start - direction * Self.dragStep * CGFloat(k + 1)))
            if k + 1 == Self.dragFrames {
                cv.endDrag(velocity: CGPoint(x: 0, y: -direction * Self.flingSpeed))
                phase = .settling(0)
            } else {
                phase = .dragging(k + 1)
            }
        case .settling:
            break
        }
        clock.advance(by: frameSeconds(dt))
        frame += 1
        if case .settling(let n) = phase {
            if !cv.isDecelerating && !layout.animator.isRunning {
                rests += 1
                measureRest()
                cyclesDone += 1
                direction = -direction
                phase = .dragging(0)
            } else if n + 1 >= Self.settleLimit {
                restless += 1
                cyclesDone += 1
                direction = -direction
                phase = .dragging(0)
            } else {
                phase = .settling(n + 1)
            }
        }
        checkOrder()
        mostSprings = max(mostSprings, layout.springCount)
        lastChanges = layout.springsAdded + layout.springsRemoved - before
        return lastChanges
    }

    /// The cells holding a spring (all within a screen of the visible rows) keep their order
    /// down the list.
    private func checkOrder() {
        var previous = -CGFloat.infinity
        layout.forEachItem(in: layout.tiledRect) { ip, _ in
            guard let a = layout.layoutAttributesForItem(at: ip) else { return }
            let y = a.center.y
            if !(y > previous) { orderViolations += 1 }
            previous = y
        }
    }

    /// At rest: the largest distance of a sprung cell from its flow position.
    private func measureRest() {
        let tiled = layout.tiledRect
        layout.forEachItem(in: tiled) { ip, f in
            guard let a = layout.layoutAttributesForItem(at: ip) else { return }
            let e = max(abs(a.center.x - f.midX), abs(a.center.y - f.midY))
            if !(e <= worstRestError) { worstRestError = e.isNaN ? .infinity : e }
        }
    }

    public func step(dt: Float, workers: Int) { _ = runFrame(dt: dt) }

    /// The whole frame (the springs come and go inside it, in the collection view's layout
    /// pass): returns the cells that entered or left the springs' range this frame, so that
    /// the benchmark counts the allocations per cell entering or leaving.
    public func makeToggles(workers: Int) -> Int {
        frameDone = true
        return runFrame(dt: 1.0 / 60.0)
    }

    public func advance(dt: Float, workers: Int) {
        if frameDone { frameDone = false } else { _ = runFrame(dt: dt) }
    }

    public func itemCenters() -> [Vec2] {
        var out: [Vec2] = []
        layout.forEachItem(in: layout.tiledRect) { ip, _ in
            if let a = layout.layoutAttributesForItem(at: ip) { out.append(Vec2(Float(a.center.x), Float(a.center.y))) }
        }
        return out
    }
    public var touchingContactCount: Int { 0 }
    public var contactCount: Int { 0 }
    public var kineticEnergy: Double { layout.animator.physicsWorld.kineticEnergy }
    public var bodyCount: Int { layout.springCount }
    public var awakeBodyCount: Int { layout.animator.physicsWorld.awakeBodyCount }
    public var isAtRest: Bool { quiet && !collectionView.isDecelerating && !layout.animator.isRunning }
    /// Finishes the cycle under way (one drag and fling each way), then leaves the list alone.
    public func stopChangingAfterFirstCycle() { quiet = true }
    /// The phone screen with the list.
    public var picture: ScenePicture? { .view(screenView, clock) }

    /// The scene's checks: cells kept their order, every rest found every cell within 0.5 pt
    /// of its flow position, and every settle ended within 12 s.
    func judge(_ report: inout SanityReport) {
        report.checks["order_kept"] = orderViolations == 0
        report.checks["at_rest_in_place"] = worstRestError <= 0.5
        report.checks["settles"] = restless == 0
        report.metrics["order_violations"] = Double(orderViolations)
        report.metrics["rest_error_pt"] = Double(worstRestError)
        report.metrics["rests"] = Double(rests)
        report.metrics["springs_max"] = Double(mostSprings)
        report.metrics["springs_added"] = Double(layout.springsAdded)
        report.metrics["springs_removed"] = Double(layout.springsRemoved)
        report.metrics["content_offset_y"] = Double(collectionView.contentOffset.y)
    }
}
