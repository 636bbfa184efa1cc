import DynamicsComponents
import DynamicsKit
import DynamicsScenes
import Foundation
import Testing
#if canImport(UIKit)
import UIKit   // IndexPath(item:section:), .item, .section (IndexPath+Items.swift adds them elsewhere)
#elseif canImport(AppKit)
import AppKit
#endif

/// The `springs` scene: a springy list scrolled both ways by the scripted finger.
@Suite("springs scene")
struct SpringsSceneTests {
    @Test("springs 200 × 800 steps: scrolled down and back, at rest in place twice, order kept, springs only near the screen")
    func sanity() throws {
        let scene = try SceneCatalog.scene(named: "springs").build(size: 200, seed: 0)
        scene.run(steps: 800)
        let r = scene.sanity()
        #expect(r.passed, "failures: \(r.failures)")
        #expect(r.metrics["rests"] == 2, "one rest after each fling: \(r.metrics)")
        #expect((r.metrics["rest_error_pt"] ?? .infinity) <= 0.5)
        // Three screens of 68 pt rows (844 / 68 = 12.4 each) hold springs, never all 200 cells.
        #expect((r.metrics["springs_max"] ?? 0) <= 40 && (r.metrics["springs_added"] ?? 0) > 60)
        let d = try #require(scene.driver as? SpringsDriver)
        #expect(d.collectionView.subviews.count <= 14, "cells only on screen: \(d.collectionView.subviews.count)")
    }

    @Test("the list moves the same at 100 and at 1 000 000 cells: the cost and the motion follow the screen, not N")
    func independentOfLength() throws {
        let small = try SceneCatalog.scene(named: "springs").build(size: 100, seed: 0)
        let large = try SceneCatalog.scene(named: "springs").build(size: 1_000_000, seed: 0)
        let a = try #require(small.driver as? SpringsDriver), b = try #require(large.driver as? SpringsDriver)
        for step in 0..<400 {
            small.step(); large.step()
            if step % 10 == 0 {
                #expect(a.collectionView.contentOffset == b.collectionView.contentOffset, "step \(step)")
                #expect(a.layout.springCount == b.layout.springCount, "step \(step)")
                let centers = { (d: SpringsDriver) in d.collectionView.indexPathsForVisibleItems.map { d.layout.layoutAttributesForItem(at: $0)!.center } }
                #expect(centers(a) == centers(b), "step \(step)")
            }
        }
        #expect(b.layout.springsAdded < 200, "springs made for the cells that passed the screen, not the million")
    }

    @Test("undamped springs never let the list rest: the check fails")
    func undampedFails() throws {
        let scene = try SceneCatalog.scene(named: "springs").build(size: 200, seed: 0)
        let d = try #require(scene.driver as? SpringsDriver)
        d.layout.springDamping = 0
        scene.run(steps: 24 + 60 * 12 + 10)
        let r = scene.sanity()
        #expect(!r.passed && r.failures.contains("settles"), "failures: \(r.failures)")
    }
}
