import Testing
@testable import DynamicsEngine

/// The broad phase lets only shapes that moved out of their fat boxes look for partners; the
/// contacts must still be exactly the pairs of overlapping fat boxes, under the keys a full
/// search gives them.
@Suite("Broad phase: only enlarged shapes look, the pairs stay exact")
struct IncrementalBroadPhaseTests {
    /// Every pair of shapes of different bodies, at least one dynamic, whose fat boxes overlap,
    /// keyed as the broad phase keys them: the moving shape first against a static one, else
    /// the lower slot. `groups`: only the pairs the world's collision groups allow (bodies the
    /// groups let collide, a body and a boundary of a group it is in); without, every pair.
    static func expectedKeys(_ w: World, groups: Bool = false) -> [UInt64] {
        var keys: [UInt64] = []
        let n = Int(w.shapeSlots.count)
        for s in 0..<n where w.shapes[s].alive {
            for t in (s + 1)..<max(n, s + 1) where w.shapes[t].alive {
                let a = Int(w.shapes[s].body), b = Int(w.shapes[t].body)
                if a == b || (w.metas[a].type != .dynamic && w.metas[b].type != .dynamic) { continue }
                guard w.broadPhase.fatBoxes[s].overlaps(w.broadPhase.fatBoxes[t]) else { continue }
                // Two bodies asleep in different sleeping sets keep no contact (`ContactSet`).
                let setA = w.contacts.bodySets[a], setB = w.contacts.bodySets[b]
                if setA >= 0 && setB >= 0 && setA != setB { continue }
                // Shape filters apply whatever `groups` says (a world without them passes all).
                guard Self.filtersAllow(w.broadPhase.filters[s], w.broadPhase.filters[t]) else { continue }
                if groups {
                    let allowed = w.shapes[t].isBoundary ? w.bodyCollidesWithBoundary(a, group: w.shapes[t].boundaryGroup)
                        : w.shapes[s].isBoundary ? w.bodyCollidesWithBoundary(b, group: w.shapes[s].boundaryGroup)
                        : w.bodiesCollide(a, b)
                    guard allowed else { continue }
                }
                let (first, second) = w.shapes[t].isStatic ? (s, t) : w.shapes[s].isStatic ? (t, s) : (s, t)
                keys.append(UInt64(UInt32(first)) << 32 | UInt64(UInt32(second)))
            }
        }
        return keys.sorted()
    }

    /// Box2D's `b2ShouldShapesCollide`, written out here as the reference for `ShapeFilter`.
    static func filtersAllow(_ a: ShapeFilter, _ b: ShapeFilter) -> Bool {
        if a.groupIndex != 0 && a.groupIndex == b.groupIndex { return a.groupIndex > 0 }
        return (a.maskBits & b.categoryBits) != 0 && (a.categoryBits & b.maskBits) != 0
    }

    /// The keys of every live contact, awake or in a sleeping set, sorted.
    static func contactKeys(_ w: World) -> [UInt64] {
        var keys = w.contacts.view.filter { $0.shapeA >= 0 }.map(\.key)
        w.contacts.forEachAsleep { keys.append($0.key) }
        return keys.sorted()
    }

    /// `contactKeys` and `expectedKeys` without the pairs of bodies woken during the last step:
    /// those look for their partners in the next pass (`BroadPhase.requery`), so their pairs
    /// with sleeping bodies may be missing until then.
    static func keysBesideWoken(_ w: World, groups: Bool = false) -> (got: [UInt64], want: [UInt64]) {
        let woken = Set(w.broadPhase.activity.requery.view.map { Int32($0) })
        func settled(_ k: UInt64) -> Bool {
            let s = Int(k >> 32), t = Int(k & 0xFFFF_FFFF)
            return !woken.contains(w.shapes[s].body) && !woken.contains(w.shapes[t].body)
        }
        return (contactKeys(w).filter(settled), expectedKeys(w, groups: groups).filter(settled))
    }

    /// Expects the contacts (beside woken bodies') to be exactly the pairs `expectedKeys` gives,
    /// saying `when` and how to replay otherwise; returns whether they were.
    static func contactsExact(_ w: World, groups: Bool = false, _ when: String,
                              sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (got, want) = keysBesideWoken(w, groups: groups)
        #expect(got == want, "\(when): \(got.count) contacts, \(want.count) expected; replay: swift test --filter IncrementalBroadPhaseTests",
                sourceLocation: sourceLocation)
        return got == want
    }

    @Test("random churn, teleports, kicks, sleep and a large moving bar: contacts = overlapping fat boxes, every step")
    func contactsMatchBruteForce() throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = true
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        try TestWorld.ground(w, top: 0, width: 6000)
        // A long kinematic bar sweeping over them (a "large" moving shape: over 8 grid cells),
        // low enough to brush the tallest bodies.
        var barDef = BodyDef(type: .kinematic, position: Vec2(-1400, -300))
        barDef.linearVelocity = Vec2(60, 0)
        _ = try w.createBody(barDef, shapes: [ShapeDef(.box(halfWidth: 600, halfHeight: 10))])
        var rng = TestRandom(seed: 0x5EED_B0AD)
        var bodies: [BodyHandle] = []
        func spawn(at p: Vec2) throws {
            if rng.float(0, 1) < 0.5 {
                bodies.append(try TestWorld.box(w, at: p, size: Vec2(rng.float(10, 80), rng.float(10, 80)), angle: rng.float(0, 3)))
            } else {
                bodies.append(try TestWorld.circle(w, at: p, radius: rng.float(5, 40)))
            }
        }
        // Three rows of 40, apart; they fall a little and settle.
        for row in 0..<3 {
            for col in 0..<40 { try spawn(at: Vec2(Float(col - 20) * 100 + rng.float(-5, 5), -60 - 100 * Float(row))) }
        }
        var checked = 0
        for step in 0..<360 {
            // Churn between steps: destroy, create, teleport, kick.
            if step % 17 == 5, !bodies.isEmpty { w.destroyBody(bodies.remove(at: Int(rng.next() % UInt64(bodies.count)))) }
            if step % 13 == 7 { try spawn(at: Vec2(rng.float(-2000, 2000), -900)) }
            if step % 29 == 11, let b = bodies.randomElement(using: &rng) {
                w.setTransform(b, position: Vec2(rng.float(-2000, 2000), -800), angle: 0)
            }
            if step % 31 == 3, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-300, 300), -600)) }
            w.step()
            guard Self.contactsExact(w, "step \(step)") else { return }
            checked += 1
        }
        #expect(checked == 360)
        // Most steps let only the enlarged shapes look (about a sixth of the shapes once the
        // rows have settled); the others (churn, the first fall) searched afresh.
        #expect(w.counters.incrementalPasses > 150, "incremental passes: \(w.counters.incrementalPasses)")
    }

    @Test("collision groups (several per body, none, and groups past the 64 of the masks) change between steps: contacts = overlapping fat boxes the groups allow")
    func contactsMatchBruteForceWithGroups() throws {
        let w = World(gravity: Vec2(0, 1000))
        let ground = try TestWorld.ground(w, top: 0, width: 3000)
        // 70 groups: the moving grid's entry masks cover the first 64, the rest take the
        // world's slow path (every bit set in the mask).
        let groups = (0..<70).map { _ in w.createCollisionGroup() }
        w.addBody(ground, to: groups[0])
        var rng = TestRandom(seed: 0x6A0F_5EED)
        var bodies: [BodyHandle] = []
        func regroup(_ b: BodyHandle) {
            for g in w.groups(of: b) where g != groups[0] { w.removeBody(b, from: g) }
            // Mostly one group, sometimes two or none; groups 0, 1, 2, 66 and 67 are shared.
            let choices = [1, 2, 66, 67, Int(rng.next() % 70)]
            for _ in 0..<Int(rng.next() % 3) { w.addBody(b, to: groups[choices[Int(rng.next() % 5)]]) }
        }
        for row in 0..<4 {
            for col in 0..<30 {
                let p = Vec2(Float(col - 15) * 70 + rng.float(-5, 5), -40 - 60 * Float(row))
                let b = rng.float(0, 1) < 0.5 ? try TestWorld.box(w, at: p, size: Vec2(rng.float(20, 60), rng.float(20, 60)))
                                              : try TestWorld.circle(w, at: p, radius: rng.float(10, 30))
                regroup(b)
                bodies.append(b)
            }
        }
        var filtered = 0
        for step in 0..<240 {
            if step % 7 == 3 { regroup(bodies[Int(rng.next() % UInt64(bodies.count))]) }
            if step % 23 == 9, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-400, 400), -500)) }
            w.step()
            guard Self.contactsExact(w, groups: true, "step \(step)") else { return }
            filtered += w.broadPhase.grid.entryMasks.isEmpty ? 0 : 1
        }
        #expect(filtered > 0, "the moving grid was built with entry masks")
    }

    @Test("shape filters (categories, masks, positive and negative group indices) beside collision groups: contacts = overlapping fat boxes both allow; a fast body is stopped only by walls its shapes collide with")
    func contactsMatchBruteForceWithShapeFilters() throws {
        let w = World(gravity: Vec2(0, 1000))
        // The ground is category 1; bodies are categories 2 and 4 (or default), masks drawn
        // from a few, groups ±1, ±2 or none.
        _ = try w.createBody(BodyDef(type: .static, position: .zero), shapes: [ShapeDef(.box(halfWidth: 1500, halfHeight: 20, center: Vec2(0, 20)))])
        let items = w.createCollisionGroup()
        var rng = TestRandom(seed: 0xF117_E45E)
        func randomFilter() -> ShapeFilter {
            if rng.next() % 4 == 0 { return .default }
            let categories: [UInt64] = [1, 2, 4, 6]
            let masks: [UInt64] = [.max, 1, 1 | 2, 1 | 4, 2 | 4, 0]
            let indices: [Int32] = [0, 0, 1, -1, 2, -2]
            return ShapeFilter(categoryBits: categories[Int(rng.next() % 4)], maskBits: masks[Int(rng.next() % 6)],
                               groupIndex: indices[Int(rng.next() % 6)])
        }
        var bodies: [BodyHandle] = []
        var filteredCount = 0
        for row in 0..<4 {
            for col in 0..<30 {
                let p = Vec2(Float(col - 15) * 70 + rng.float(-5, 5), -40 - 60 * Float(row))
                let shapes = (0..<(1 + Int(rng.next() % 2))).map { k -> ShapeDef in
                    let f = randomFilter()
                    if f != .default { filteredCount += 1 }
                    return ShapeDef(k == 0 ? .box(halfWidth: rng.float(10, 30), halfHeight: rng.float(10, 30))
                                           : .circle(radius: rng.float(8, 20), center: Vec2(rng.float(-15, 15), 0)), filter: f)
                }
                var def = BodyDef(type: .dynamic, position: p)
                if rng.next() % 5 != 0 { def.groups = [items] }
                bodies.append(try w.createBody(def, shapes: shapes))
            }
        }
        #expect(filteredCount > 50)
        var rejected = 0
        for step in 0..<240 {
            if step % 23 == 9, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-400, 400), -500)) }
            w.step()
            guard Self.contactsExact(w, groups: true, "step \(step)") else { return }
            if step == 239 {
                // Pairs the filters turned away while their boxes overlapped.
                let all = Self.expectedKeysIgnoringFilters(w)
                rejected = all.count - Self.expectedKeys(w, groups: true).count
            }
        }
        #expect(rejected > 0, "some overlapping pairs were refused by the filters")

        // A fast body whose only shape's mask leaves out the wall's category passes through
        // the wall; with the wall in its mask it is stopped there.
        for (mask, passes) in [(UInt64(2), true), (UInt64(1 | 2), false)] {
            let v = World(gravity: .zero)
            _ = try v.createBody(BodyDef(type: .static, position: .zero), shapes: [ShapeDef(.box(halfWidth: 5, halfHeight: 500, center: Vec2(200, 0)))])
            var def = BodyDef(type: .dynamic, position: .zero)
            def.linearVelocity = Vec2(60_000, 0)
            let b = try v.createBody(def, shapes: [ShapeDef(.circle(radius: 5), filter: ShapeFilter(categoryBits: 2, maskBits: mask))])
            v.step()
            let x = v.position(b).x
            #expect(passes ? x > 500 : x < 200, "mask \(mask): x \(x)")
        }
    }

    /// `expectedKeys(w, groups: true)` before the shape filters are applied.
    static func expectedKeysIgnoringFilters(_ w: World) -> [UInt64] {
        let saved = (0..<Int(w.shapeSlots.count)).map { w.broadPhase.filters[$0] }
        for s in saved.indices { w.broadPhase.filters[s] = .default }
        defer { for s in saved.indices { w.broadPhase.filters[s] = saved[s] } }
        return expectedKeys(w, groups: true)
    }

    @Test("layers of collision groups sharing one space, each inside its own four boundary edges: crowded cells searched, other groups' runs passed over, edges not large; contacts = overlapping fat boxes the groups allow")
    func layeredGroupsWithBoundariesMatchBruteForce() throws {
        let w = World(gravity: Vec2(0, 1000))
        var rng = TestRandom(seed: 0x1A7E_5EED)
        let layers = 6
        let corners = [Vec2(-400, -600), Vec2(400, -600), Vec2(400, 0), Vec2(-400, 0)]
        var bodies: [BodyHandle] = []
        for _ in 0..<layers {
            let g = w.createCollisionGroup()
            for k in 0..<4 { _ = try w.addBoundary(corners[k], corners[(k + 1) % 4], group: g) }
            for _ in 0..<60 {
                let p = Vec2(rng.float(-380, 380), rng.float(-580, -200))
                let b = rng.float(0, 1) < 0.5 ? try TestWorld.circle(w, at: p, radius: rng.float(8, 14))
                                              : try TestWorld.box(w, at: p, size: Vec2(rng.float(14, 26), rng.float(14, 26)))
                w.addBody(b, to: g)
                bodies.append(b)
            }
        }
        var crowded = 0, boundaryContacts = 0, longRuns = 0
        for step in 0..<180 {
            if step % 19 == 7, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-600, 600), -700)) }
            w.step()
            guard Self.contactsExact(w, groups: true, "step \(step)") else { return }
            boundaryContacts += w.contacts.view.filter { w.shapes[Int($0.key & 0xFFFF_FFFF)].isBoundary }.count
            let g = w.broadPhase.grid
            if g.nx > 0 {
                let cs = g.cellStart.view
                if (0..<(Int(g.nx) * Int(g.ny))).contains(where: { Int(cs[$0 + 1] - cs[$0]) > PairContext.searchedCellEntries }) { crowded += 1 }
                // Runs of one group's shapes in a cell, passed over in one jump: each run end
                // is past its entry, within the cell, and the masks inside a run are equal.
                let runs = g.entryRunEnds.view, masks = g.entryMasks.view
                for c in 0..<(Int(g.nx) * Int(g.ny)) {
                    for e in Int(cs[c])..<Int(cs[c + 1]) {
                        let r = Int(runs[e])
                        #expect(r > e && r <= Int(cs[c + 1]) && (e..<r).allSatisfy { masks[$0] == masks[e] }
                                && (r == Int(cs[c + 1]) || masks[r] != masks[e]), "step \(step), cell \(c), entry \(e): run end \(r)")
                        if r > e + 2 { longRuns += 1 }
                    }
                }
            }
        }
        // The edges (one row or column of cells each) are in the static grid, not tested by
        // every shape; cells crowded enough to be searched were met; shapes touched the edges.
        #expect(w.broadPhase.staticLarge.isEmpty && w.broadPhase.staticSmall.count == 4 * layers)
        #expect(Int(w.broadPhase.staticGrid.nx) * Int(w.broadPhase.staticGrid.ny) > 1)
        #expect(crowded > 0 && boundaryContacts > 0 && longRuns > 0, "crowded steps \(crowded), boundary contacts \(boundaryContacts), runs of 3 or more \(longRuns)")
    }

    @Test("a few moving shapes (all tested box against box, no moving grid), growing past the limit and back: contacts = overlapping fat boxes, every step")
    func fewMovingShapesMatchBruteForce() throws {
        let w = World(gravity: Vec2(0, 1000))
        try TestWorld.ground(w, top: 0, width: 1200)
        var rng = TestRandom(seed: 0xF3_5EED)
        var bodies: [BodyHandle] = []
        func spawn() throws {
            let p = Vec2(rng.float(-400, 400), rng.float(-500, -100))
            bodies.append(rng.float(0, 1) < 0.5 ? try TestWorld.box(w, at: p, size: Vec2(rng.float(20, 90), rng.float(20, 90)))
                                                : try TestWorld.circle(w, at: p, radius: rng.float(10, 45)))
        }
        for _ in 0..<3 { try spawn() }
        var sawFew = false, sawMany = false
        for step in 0..<400 {
            // Up past the limit in the first half, back down in the second.
            if step < 200 && step % 15 == 0 { try spawn() }
            if step >= 200 && step % 15 == 0 && bodies.count > 2 { w.destroyBody(bodies.remove(at: Int(rng.next() % UInt64(bodies.count)))) }
            if step % 23 == 11, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-500, 500), -700)) }
            w.step()
            let moving = w.broadPhase.moving.count
            if moving <= World.fewMovingShapes { sawFew = true } else { sawMany = true }
            guard Self.contactsExact(w, "step \(step), \(moving) moving shapes") else { return }
        }
        #expect(sawFew && sawMany)
    }

    @Test("shapes that can have no moving or no static partner (a group colliding with nothing, one with its boundaries only, filters meeting only the ground) skip those searches: contacts = overlapping fat boxes all rules allow; queries still find them")
    func unreachablePartnersAreNotSearched() throws {
        let w = World(gravity: Vec2(0, 1000))
        // The ground's shape is category 8; every other shape the default or a filter below.
        _ = try w.createBody(BodyDef(type: .static, position: .zero),
                             shapes: [ShapeDef(.box(halfWidth: 1500, halfHeight: 20, center: Vec2(0, 20)),
                                               filter: ShapeFilter(categoryBits: 8))])
        let loners = w.createCollisionGroup(mode: [])  // as joint_grid's sheet: collides with nothing
        let fenced = w.createCollisionGroup(mode: [.boundaries])  // only its own walls
        let corners = [Vec2(-700, -900), Vec2(700, -900), Vec2(700, -10), Vec2(-700, -10)]
        for k in 0..<4 { _ = try w.addBoundary(corners[k], corners[(k + 1) % 4], group: fenced) }
        // Debris: category 4, mask 8 — the ground only.
        let debris = ShapeFilter(categoryBits: 4, maskBits: 8)
        var rng = TestRandom(seed: 0x10_4E25)
        var bodies: [BodyHandle] = []
        var kinds: [Int] = []
        for row in 0..<6 {
            for col in 0..<30 {
                let kind = (row * 30 + col) % 4
                var def = BodyDef(type: .dynamic, position: Vec2(Float(col - 15) * 42 + rng.float(-4, 4), -60 - 70 * Float(row)))
                if kind == 1 { def.groups = [loners] }
                if kind == 2 { def.groups = [fenced] }
                let filter: ShapeFilter = kind == 3 ? debris : .default
                let geometry: Geometry = rng.float(0, 1) < 0.5 ? .box(halfWidth: rng.float(8, 18), halfHeight: rng.float(8, 18))
                                                               : .circle(radius: rng.float(8, 18))
                bodies.append(try w.createBody(def, shapes: [ShapeDef(geometry, filter: filter)]))
                kinds.append(kind)
            }
        }
        var contactsByKind = [0, 0, 0, 0]
        for step in 0..<200 {
            if step % 17 == 5, let b = bodies.randomElement(using: &rng) { w.setLinearVelocity(b, Vec2(rng.float(-400, 400), -600)) }
            w.step()
            guard Self.contactsExact(w, groups: true, "step \(step)") else { return }
            for c in w.contacts.view where c.shapeA >= 0 {
                for s in [Int(c.key >> 32), Int(c.key & 0xFFFF_FFFF)] where !w.shapes[s].isStatic {
                    if let k = bodies.firstIndex(where: { Int($0.index) == Int(w.shapes[s].body) }) { contactsByKind[kinds[k]] += 1 }
                }
            }
        }
        // Each kind's reach as the rules give it: default 3, loners 0, fenced and debris 2
        // (static partners only); the fenced bodies and the debris did touch their partners.
        #expect(w.broadPhase.reachLimited)
        var reachByKind: [Set<UInt8>] = [[], [], [], []]
        for (k, b) in bodies.enumerated() { w.forEachShape(of: Int(b.index)) { reachByKind[kinds[k]].insert(w.broadPhase.reach[$0]) } }
        #expect(reachByKind == [[3], [0], [2], [2]], "reach by kind: \(reachByKind)")
        #expect(contactsByKind[1] == 0 && contactsByKind[2] > 0 && contactsByKind[3] > 0 && contactsByKind[0] > 0, "contacts by kind: \(contactsByKind)")
        // The loners are still in the grids the queries read.
        let loner = bodies[1]
        let box = w.aabb(loner)
        #expect(w.bodies(overlapping: box).contains(loner))
    }

    @Test("a swinging sheet whose circles collide with nothing (Box2D's joint_grid): no pass looks for partners, and queries still answer as a scan")
    func partnerlessSheet() throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        let sheet = w.createCollisionGroup(mode: [])
        let n = 12
        var grid: [BodyHandle] = []
        for k in 0..<n {
            for i in 0..<n {
                var def = BodyDef(type: i == 0 && (k == 0 || k == n - 1) ? .static : .dynamic, position: Vec2(Float(k) * 40, Float(i) * 40))
                def.groups = [sheet]
                if def.type == .dynamic { def.linearVelocity = Vec2(600, 0) }  // a sideways swing
                let b = try w.createBody(def, shapes: [ShapeDef(.circle(radius: 16))])
                func pin(_ a: BodyHandle, _ anchorA: Vec2, _ anchorB: Vec2) {
                    var j = JointDef(type: .revolute, bodyA: a, bodyB: b)
                    j.localAnchorA = anchorA; j.localAnchorB = anchorB
                    w.createJoint(j)
                }
                if i > 0 { pin(grid[grid.count - 1], Vec2(0, 20), Vec2(0, -20)) }
                if k > 0 { pin(grid[grid.count - n], Vec2(20, 0), Vec2(-20, 0)) }
                grid.append(b)
            }
        }
        var rng = TestRandom(seed: 0x5EE7)
        var compared = 0
        for step in 0..<150 {
            w.step()
            #expect(w.contacts.view.allSatisfy { $0.shapeA < 0 }, "step \(step): a contact in a world where nothing collides")
            guard step % 10 == 9 else { continue }
            for _ in 0..<8 {
                let c = w.position(grid[Int(rng.next() % UInt64(grid.count))]) + Vec2(rng.float(-30, 30), rng.float(-30, 30))
                let box = AABB(lower: c - Vec2(25, 25), upper: c + Vec2(25, 25))
                #expect(w.bodies(overlapping: box) == w.scanBodies(overlapping: box), "step \(step): box \(box)")
                let o = c + Vec2(rng.float(-300, 300), rng.float(-300, 300))
                #expect(w.rayCast(from: o, translation: c - o) == w.scanRay(from: o, translation: c - o), "step \(step): ray from \(o)")
                compared += 1
            }
        }
        #expect(compared == 120)
        #expect(w.counters.partnerlessPasses > 100, "partnerless passes: \(w.counters.partnerlessPasses), reused \(w.counters.pairsReusedSteps)")
    }

    @Test("a shape that only moves within its fat box keeps its pairs without a search")
    func restingPairsStand() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        for k in 0..<4 { try TestWorld.box(w, at: Vec2(Float(k) * 150, -50), size: Vec2(100, 100)) }
        TestWorld.run(w, seconds: 1)
        let keys = w.contacts.view.map(\.key)
        let reused = w.counters.pairsReusedSteps
        TestWorld.run(w, seconds: 1)
        #expect(w.counters.pairsReusedSteps - reused >= 55)
        #expect(w.contacts.view.map(\.key) == keys)
        #expect(keys == Self.expectedKeys(w))
    }

    /// One body in flight, `count` bodies side by side: each moves 10 pt a step (600 pt/s at
    /// 1/60 s), five times the fat margin, toward a wall 1 500 pt ahead. Returns the steps of
    /// the first `flight` that reused their pairs, and whether every body stopped at the wall
    /// with the contacts exactly the overlapping fat boxes all the way.
    static func flyToWall(bodies count: Int, flight: Int) throws -> (reused: Int, stoppedAndExact: Bool) {
        let w = TestWorld.make(gravity: .zero)
        try TestWorld.box(w, at: Vec2(1550, 0), size: Vec2(100, 4000), type: .static)
        var bodies: [BodyHandle] = []
        for k in 0..<count {
            let b = try TestWorld.box(w, at: Vec2(0, Float(k) * 60 - 900), size: Vec2(20, 20))
            w.setLinearVelocity(b, Vec2(600, 0))
            bodies.append(b)
        }
        let reused0 = w.counters.pairsReusedSteps
        var reused = 0, exact = true
        for step in 0..<240 {
            w.step()
            if step == flight - 1 { reused = w.counters.pairsReusedSteps - reused0 }
            let keys = Self.keysBesideWoken(w)
            if keys.got != keys.want { exact = false }
        }
        let stopped = bodies.allSatisfy { w.transform($0).p.x < 1500 - 10 + 1 && w.transform($0).p.x > 1400 }
        return (reused, stopped && exact)
    }

    @Test("a small world's body in flight: its fat box reaches ahead, so its pairs are found afresh about one step in three; a crowd's are not")
    func fatBoxesLeadInSmallWorlds() throws {
        // 30 steps of flight (300 pt), far from the wall. A fat box that reaches 3 steps of
        // motion ahead lasts about 3 steps: about 20 of 30 reuse their pairs. Without the
        // lead, every step's box leaves its fat box (10 pt > 2 pt) and none do.
        let few = try Self.flyToWall(bodies: 1, flight: 30)
        #expect(few.reused >= 18, "1 body: \(few.reused) of 30 steps reused their pairs")
        #expect(few.stoppedAndExact, "1 body: it passed the wall, or the contacts were not the overlapping fat boxes")
        // More than `World.fewMovingShapes` moving shapes: fat boxes keep the margin only.
        let many = try Self.flyToWall(bodies: World.fewMovingShapes + 1, flight: 30)
        #expect(many.reused <= 1, "\(World.fewMovingShapes + 1) bodies: \(many.reused) of 30 steps reused their pairs")
        #expect(many.stoppedAndExact, "a crowd: a body passed the wall, or the contacts were not the overlapping fat boxes")
    }
}

@Suite("Broad phase: bodies made and destroyed between steps join and leave the lists without a rebuild")
struct ShapeChangeTests {
    @Test("a settled pile, partly asleep, with shape filters and collision groups: bodies destroyed (awake and asleep) and made (slots reused) every few steps are taken in without a rebuild, the next pass looks only at the enlarged and new shapes, and the contacts and queries stay exact; a new filter, a new group or a body made asleep rebuilds")
    func churnIsTakenIn() throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = true
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        let ground = try TestWorld.ground(w, top: 0, width: 5000)
        let items = w.createCollisionGroup(), other = w.createCollisionGroup()
        w.addBody(ground, to: items)
        var rng = TestRandom(seed: 0xC4_0A5E)
        // Filters as rain's ragdolls have them (a group index each, never colliding inside it).
        let filters = (1...3).map { ShapeFilter(groupIndex: -Int32($0)) } + [.default]
        var bodies: [BodyHandle] = []
        func spawn(at p: Vec2, filter: ShapeFilter? = nil, group: CollisionGroupID? = nil, asleep: Bool = false, box: Bool = false) throws {
            var def = BodyDef(type: .dynamic, position: p)
            def.groups = [group ?? items]
            def.startsAsleep = asleep
            let f = filter ?? filters[Int(rng.next() % UInt64(filters.count))]
            let geometry: Geometry = box || rng.float(0, 1) < 0.5 ? .box(halfWidth: rng.float(8, 20), halfHeight: rng.float(8, 20))
                                                                  : .circle(radius: rng.float(8, 20))
            bodies.append(try w.createBody(def, shapes: [ShapeDef(geometry, filter: f)]))
        }
        // 320 boxes in four heaps, which fall asleep apart (more than the sleeping grid's least
        // number of shapes; circles would roll away).
        for k in 0..<320 {
            try spawn(at: Vec2(Float(k % 4) * 1100 - 1650 + Float(k / 4 % 10) * 45 + rng.float(-3, 3), -30 - 45 * Float(k / 40)), box: true)
        }
        TestWorld.run(w, seconds: 5)
        let asleep = bodies.filter { !w.isAwake($0) }.count
        #expect(asleep > 256, "bodies asleep after settling: \(asleep)")
        let taken0 = w.counters.shapeChangesTaken
        var incrementalAfterTake = 0, sawSleepGrid = false, rebuilds = 0
        for step in 0..<240 {
            var expectRebuild = false
            if step % 4 == 1 {
                // Destroy three (asleep or awake), make four above the heaps: their slots are
                // the ones just freed, and more.
                for _ in 0..<3 { w.destroyBody(bodies.remove(at: Int(rng.next() % UInt64(bodies.count)))) }
                for _ in 0..<4 { try spawn(at: Vec2(rng.float(-2000, 2000), rng.float(-700, -500))) }
                switch step {
                case 41: try spawn(at: Vec2(0, -900), filter: ShapeFilter(groupIndex: -9)); expectRebuild = true
                case 81: try spawn(at: Vec2(0, -900), group: other); expectRebuild = true
                case 121: try spawn(at: Vec2(0, -900), asleep: true); expectRebuild = true
                default: break
                }
                // Queries before the step scan (the grids wait for the pass).
                let box = AABB(lower: Vec2(-2500, -1000), upper: Vec2(2500, 0))
                #expect(w.bodies(overlapping: box) == w.scanBodies(overlapping: box), "step \(step): a query before the pass")
            }
            let taken = w.counters.shapeChangesTaken, incremental = w.counters.incrementalPasses
            w.step()
            if step % 4 == 1 {
                if w.counters.shapeChangesTaken == taken { rebuilds += 1 }
                #expect((w.counters.shapeChangesTaken == taken) == expectRebuild,
                        "step \(step): shape changes \(expectRebuild ? "taken in where a rebuild was due" : "not taken in")")
                if w.counters.incrementalPasses > incremental { incrementalAfterTake += 1 }
            }
            if w.broadPhase.sleepGridCount > 0 { sawSleepGrid = true }
            guard IncrementalBroadPhaseTests.contactsExact(w, groups: true, "step \(step)") else { return }
            if step % 8 == 2 {
                let c = Vec2(rng.float(-2000, 2000), rng.float(-300, 0))
                let box = AABB(lower: c - Vec2(150, 150), upper: c + Vec2(150, 150))
                #expect(w.bodies(overlapping: box) == w.scanBodies(overlapping: box), "step \(step): box \(box)")
                let o = c + Vec2(rng.float(-600, 600), -600)
                #expect(w.rayCast(from: o, translation: c - o) == w.scanRay(from: o, translation: c - o), "step \(step): ray from \(o)")
            }
        }
        #expect(w.counters.shapeChangesTaken - taken0 == 57 && rebuilds == 3, "taken in: \(w.counters.shapeChangesTaken - taken0), rebuilds \(rebuilds)")
        #expect(incrementalAfterTake > 40, "passes after a change that only the enlarged and new shapes made: \(incrementalAfterTake)")
        #expect(sawSleepGrid, "the sleeping grid held shapes while bodies came and went")
    }
}
