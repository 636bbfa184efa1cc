import DynamicsKit
import Foundation
import Testing
@testable import DynamicsLayout

@Suite(.serialized) struct VisualFormatTests {
    typealias L = LayoutConstraint

    func setUp(_ names: [String]) -> (DynamicView, [String: DynamicView]) {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        root.name = "root"
        var views: [String: DynamicView] = [:]
        for n in names {
            let v = DynamicView(frame: .zero)
            v.name = n
            v.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(v)
            views[n] = v
        }
        return (root, views)
    }

    func error(_ format: String, _ views: [String: DynamicView], metrics: [String: CGFloat]? = nil, options: L.FormatOptions = []) -> L.VisualFormatError? {
        do { _ = try L.constraints(withVisualFormat: format, options: options, metrics: metrics, views: views); return nil }
        catch let e as L.VisualFormatError { return e } catch { return nil }
    }

    @Test func theTutorialsTwoButtonsAreHundredPointsApart() throws {
        let (root, v) = setUp(["button1", "button2"])
        let cs = try L.constraints(withVisualFormat: "[button1]-100-[button2]", options: [], metrics: nil, views: v)
        #expect(cs.count == 1)
        let c = try #require(cs.first)
        #expect(c.firstItem === v["button2"] && c.firstAttribute == .leading && c.secondItem === v["button1"] && c.secondAttribute == .trailing)
        #expect(c.constant == 100 && c.relation == .equal && c.priority == .required)
        L.activate(cs)
        L.activate(try L.constraints(withVisualFormat: "H:|-10-[button1(50)]", options: [], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "V:|[button1(20)]", options: [.alignAllLeft], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "H:[button2(==button1)]", options: [], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "V:|[button2(==button1)]", options: [], metrics: nil, views: v))
        root.layoutIfNeeded()
        #expect(v["button1"]!.frame == CGRect(x: 10, y: 0, width: 50, height: 20))
        #expect(v["button2"]!.frame == CGRect(x: 160, y: 0, width: 50, height: 20))
    }

    @Test func standardSpacingEqualWidthsAndMetrics() throws {
        let (root, v) = setUp(["a", "b", "c"])
        L.activate(try L.constraints(withVisualFormat: "H:|-[a]-[b(==a)]-|", options: [.alignAllTop, .alignAllBottom], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "V:|-margin-[a(h@750,>=30)]-(>=gap)-[c(==40)]-(<=50)-|", options: [],
                                     metrics: ["margin": 12, "h": 25, "gap": 6], views: v))
        L.activate(try L.constraints(withVisualFormat: "H:|[c]|", options: [], metrics: nil, views: v))
        root.layoutIfNeeded()
        // 20 + w + 8 + w + 20 = 400 → w = 176.
        #expect(v["a"]!.frame == CGRect(x: 20, y: 12, width: 176, height: 30))   // ≥ 30 (required) beats 25 @750
        #expect(v["b"]!.frame == CGRect(x: 204, y: 12, width: 176, height: 30))  // aligned top and bottom with a
        let c = v["c"]!.frame
        #expect(c.minX == 0 && c.width == 400 && c.height == 40)
        #expect(c.minY >= 48 - 1e-9 && c.maxY >= 250 - 1e-9)                    // ≥ gap below a, ≤ 50 from the bottom
        #expect(L.standardSiblingSpacing == 8 && L.standardSuperviewSpacing == 20)
    }

    @Test func adjacencyAndDirectionOptions() throws {
        let (root, v) = setUp(["a", "b"])
        L.activate(try L.constraints(withVisualFormat: "H:|-(5)-[a(30)][b(40)]", options: [.directionRightToLeft, .alignAllCenterY], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "V:|-7-[a(10)]", options: [], metrics: nil, views: v))
        L.activate(try L.constraints(withVisualFormat: "V:[b(20)]", options: [], metrics: nil, views: v))
        root.layoutIfNeeded()
        #expect(v["a"]!.frame == CGRect(x: 365, y: 7, width: 30, height: 10))
        #expect(v["b"]!.frame == CGRect(x: 325, y: 2, width: 40, height: 20))
    }

    @Test func malformedFormatsNameThePositionAndWhatWasExpected() {
        let (_, v) = setUp(["a", "b"])
        let lone = DynamicView(frame: .zero)
        var e = error("H:[a]-[", v)
        #expect(e?.position == 7 && e?.expected == "a view name")
        #expect(e?.description.contains("Unable to parse constraint format") == true)
        e = error("H:[a]-[zz]", v)
        #expect(e?.position == 7 && e?.expected.contains("'zz'") == true)
        e = error("H:[a]-m-[b]", v)
        #expect(e?.position == 6 && e?.expected.contains("metric named 'm'") == true)
        e = error("X:[a]", v)
        #expect(e?.position == 0 && e?.expected == "'H:' or 'V:'")
        e = error("H:[a(>=)]", v)
        #expect(e?.position == 7)
        e = error("H:[a]-10[b]", v)
        #expect(e?.position == 8 && e?.expected == "'-' after the spacing")
        e = error("H:[a(50@2000)]", v)
        #expect(e?.expected == "a priority between 1 and 1000")
        e = error("H:[a]]", v)
        #expect(e?.position == 5)
        e = error("H:|-[x]", ["x": lone])
        #expect(e?.position == 2 && e?.expected.contains("superview") == true)
        e = error("H:[a]-[b]", v, options: [.alignAllLeft])
        #expect(e?.expected.contains("top, bottom or centerY") == true)
        e = error("H:[a]-gap-[b]", v, metrics: ["gap": .nan])
        #expect(e?.position == 6 && e?.expected == "a finite value for the metric 'gap'")
        e = error("H:[a]-gap-[b]", v, metrics: ["gap": 12])
        #expect(e == nil)
        e = error("H:[a(40,<=b)]", v)
        #expect(e == nil)
    }
}
