import DynamicsFuzzing
import DynamicsKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The randomized "app life" test of the DynamicsKit API (`AppLifeFuzzer`) on a fixed-seed
/// slice, and the tutorial's collision toggle as fixed scenarios. Each runs in a child process
/// (an exit test): a precondition failure there kills only the child, whose stderr — with the
/// one-line replay command the crash handlers print — becomes this test's failure message.
/// Every animator here runs on its own `AnimationClock`, never `.main`.
@Suite("AppLife: random app-life sequences and the collision toggle", .serialized)
struct AppLifeTests {
    /// Sequences in the fixed slice (about 40 calls each on average) and the slice's seed.
    static let sliceSequences = 250
    static let sliceSeed: UInt64 = AppLifeFuzzer.Options.defaultSeed

    /// Lines a child process reports start with this.
    static let violationPrefix = "violation: "

    /// Runs the slice (in the child process) and exits 0 only when nothing broke.
    static func runSlice() -> Never {
        let out = ChildReport(name: "slice")
        let report = AppLifeFuzzer.run(.init(seed: sliceSeed, sequences: sliceSequences, maxFailingSequences: 10))
        for v in report.violations.prefix(20) { out.line(violationPrefix + v.description) }
        out.line("sequences: \(report.sequences), calls: \(report.calls), violations: \(report.violations.count), \(String(format: "%.2f", report.seconds)) s")
        exit(report.violations.isEmpty ? 0 : 1)
    }

    @Test("a fixed-seed slice of random app-life sequences keeps every invariant")
    func fixedSeedSlice() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            AppLifeTests.runSlice()
        }
        ChildReport.check(result, name: "slice", what: "fuzz slice (seed 0x\(String(Self.sliceSeed, radix: 16)), \(Self.sliceSequences) sequences)")
    }

    @Test("tutorial toggle: remove all behaviors while the item rests on the boundary, make new ones")
    func tutorialToggle() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            AppLifeTests.runToggle(variant: 0)
        }
        ChildReport.check(result, name: "toggle0", what: "tutorial toggle")
    }

    @Test("tutorial toggle, repeated, re-adding the removed behaviors and making new ones in turn")
    func tutorialToggleRepeated() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            AppLifeTests.runToggle(variant: 1)
        }
        ChildReport.check(result, name: "toggle1", what: "tutorial toggle, repeated")
    }

    @Test("replaying a sequence gives the same calls")
    func replayIsDeterministic() {
        let seed = AppLifeFuzzer.sequenceSeed(run: Self.sliceSeed, index: 3)
        var a: [String] = [], b: [String] = []
        // Crashes here would be caught by the slice above; this only compares the logs.
        _ = AppLifeFuzzer.runSequence(seed: seed, calls: 12) { a.append($0) }
        _ = AppLifeFuzzer.runSequence(seed: seed, calls: 12) { b.append($0) }
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    // MARK: The tutorial toggle

    /// Counts contact calls per key; a `began` while touching or an `ended` while not is a problem.
    final class ToggleLedger: CollisionBehaviorDelegate {
        var touching = Set<String>()
        var problems: [String] = []
        var began = 0, ended = 0
        let name: String
        init(_ name: String) { self.name = name }

        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
            began += 1
            if !touching.insert("boundary \(identifier ?? "nil")").inserted { problems.append("\(name): duplicate began with boundary \(identifier ?? "nil")") }
        }
        func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?) {
            ended += 1
            if touching.remove("boundary \(identifier ?? "nil")") == nil { problems.append("\(name): ended without began with boundary \(identifier ?? "nil")") }
        }
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {
            began += 1
            problems.append("\(name): item–item began with a single item")
        }
    }

    /// The tutorial's toggle: a view under gravity inside a collision behavior with a delegate
    /// rests on the bottom of the reference bounds; `removeAllBehaviors()`, then a new collision
    /// behavior (with a delegate) and a new gravity behavior for the same view. Variant 1
    /// toggles eight times, alternately re-adding the removed behaviors and making new ones.
    static func runToggle(variant: Int) -> Never {
        let out = ChildReport(name: "toggle\(variant)")
        CrashReplay.setLine("replay: swift test --filter AppLifeTests (tutorial toggle, variant \(variant))")
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480), clock: clock)
        let view = DynamicView(frame: CGRect(x: 110, y: 100, width: 100, height: 100))
        var ledgers: [ToggleLedger] = []
        var problems: [String] = []

        func make() -> (GravityBehavior, CollisionBehavior) {
            let gravity = GravityBehavior(items: [view])
            let collision = CollisionBehavior(items: [view])
            collision.translatesReferenceBoundsIntoBoundary = true
            let ledger = ToggleLedger("collision \(ledgers.count)")
            ledgers.append(ledger)
            collision.collisionDelegate = ledger
            return (gravity, collision)
        }
        func checkInside(_ when: String) {
            let c = view.center
            if !(c.x.isFinite && c.y.isFinite) || c.y > 480 - 50 + 2 || c.y < 50 - 2 { problems.append("\(when): view centre \(c) left the bounds") }
        }

        var (gravity, collision) = make()
        animator.addBehavior(collision)
        animator.addBehavior(gravity)
        clock.run(for: 2)
        checkInside("after 2 s")
        if ledgers[0].began == 0 { problems.append("the view never touched the boundary in 2 s") }
        let rounds = variant == 0 ? 1 : 8
        for round in 0..<rounds {
            animator.removeAllBehaviors()
            clock.advance(by: 1.0 / 60.0)
            for l in ledgers where !l.touching.isEmpty {
                problems.append("round \(round): \(l.name) still touching \(l.touching.sorted()) after removeAllBehaviors() and a frame (began \(l.began), ended \(l.ended))")
                l.touching.removeAll()
            }
            if variant == 1 && round % 2 == 1 {
                // Re-add the same behaviors (now free) in the other order.
                animator.addBehavior(gravity)
                animator.addBehavior(collision)
            } else {
                (gravity, collision) = make()
                animator.addBehavior(collision)
                animator.addBehavior(gravity)
            }
            clock.run(for: variant == 0 ? 2 : 0.5)
            checkInside("round \(round)")
        }
        animator.removeAllBehaviors()
        clock.advance(by: 1.0 / 60.0)
        for l in ledgers {
            problems += l.problems
            if !l.touching.isEmpty { problems.append("\(l.name): still touching \(l.touching.sorted()) at the end (began \(l.began), ended \(l.ended))") }
        }
        for p in problems { out.line(violationPrefix + p) }
        exit(problems.isEmpty ? 0 : 1)
    }

}

/// What a child process (an exit test) tells its parent: its stderr goes to a file named after
/// the parent's process id, which the parent reads when the child failed (a failed exit test
/// gives no result to read stderr from) — report lines, the runtime's "Fatal error" message
/// and the replay line the crash handlers write.
struct ChildReport {
    let fd: Int32

    static func path(name: String, parent: Int32) -> String {
        NSTemporaryDirectory() + "/dynamicskit-applife-\(parent)-\(name).txt"
    }

    /// In the child: opens the file and installs the crash handlers.
    init(name: String) {
        fd = open(Self.path(name: name, parent: getppid()), O_CREAT | O_TRUNC | O_WRONLY, 0o644)
        if fd >= 0 { dup2(fd, 2) }
        CrashReplay.installHandlers()
    }

    func line(_ s: String) {
        let data = Array((s + "\n").utf8)
        _ = data.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// In the parent, after the exit test: records one issue per violation the child reported,
    /// or the replay line after a crash.
    static func check(_ result: ExitTest.Result?, name: String, what: String) {
        let path = Self.path(name: name, parent: getpid())
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard result == nil else { return }  // the exit test passed
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record(Comment(rawValue: "\(what) failed and left no report at \(path)"))
            return
        }
        let lines = text.split(separator: "\n").map(String.init)
        let violations = lines.filter { $0.hasPrefix(AppLifeTests.violationPrefix) }
        for v in violations { Issue.record(Comment(rawValue: "\(what): \(v.dropFirst(AppLifeTests.violationPrefix.count))")) }
        if let replay = lines.last(where: { $0.hasPrefix("replay: ") }) {
            let fatal = lines.last { $0.contains("Precondition failed") || $0.contains("Assertion failed") || $0.contains("Fatal error") || $0.contains("fatal error") }
            Issue.record(Comment(rawValue: "\(what) crashed: \(fatal ?? "(no runtime message)") — \(replay)"))
        } else if violations.isEmpty {
            Issue.record(Comment(rawValue: "\(what) failed: \(lines.suffix(3).joined(separator: " | "))"))
        }
    }
}
