extension World {
    /// Wakes body `i` and, if it was asleep, every body of its sleeping island. Resets its
    /// sleep timer either way (a property change counts as motion).
    func wakeBody(_ i: Int) {
        guard metas[i].alive, metas[i].type != .static else { return }
        metas[i].sleepTime = 0
        if metas[i].awake { return }
        islands.dirty = true
        // The island's contacts come back (`ContactSet.flushWoken`), and the broad phase looks
        // for its bodies' pairs again.
        let set = contacts.bodySets[i]
        if set >= 0 { contacts.wake(set: set); islands.setsPending = true }
        // Wake the ring of bodies that fell asleep together.
        var k = i
        repeat {
            metas[k].awake = true
            metas[k].sleepTime = 0
            contacts.bodySets[k] = -1
            noteMaybeAwake(k)
            if jointCount > 0 { noteJointsMaybeAwake(ofBody: k) }
            broadPhase.activity.requery.append(Int32(k))
            broadPhase.requeryPending = true
            let next = Int(metas[k].sleepNext)
            metas[k].sleepNext = -1
            k = next
        } while k >= 0 && k != i
    }

    /// Whether awake body `t`, touching sleeping body `s` through a contact with points, wakes
    /// it: only a dynamic body is woken, by a dynamic body or by a kinematic body that moves.
    /// A kinematic body standing still pushes nothing (it keeps no island awake either:
    /// `IslandBuilder.canSleep`), and nothing a contact does moves a kinematic body. (Were
    /// either woken, a body resting on a still platform and the platform — a kinematic body
    /// sleeps alone, when its own timer runs out — would wake each other every
    /// `timeToSleep`, and never both sleep.)
    @inline(__always)
    func touchWakes(_ t: Int, sleeping s: Int) -> Bool {
        metas[s].type == .dynamic && (metas[t].type == .dynamic || states[t].v != .zero || states[t].w != 0)
    }

    /// Puts bodies `list` to sleep as one island (linked in a ring, with a sleeping set that
    /// takes its contacts at the end of the step: `settleSleepingSets`).
    func sleepIsland(_ list: View<Int32>) {
        guard let first = list.first else { return }
        islands.dirty = true
        islands.awakeMayShrink = true
        islands.awakeJointsMayShrink = true
        let set = contacts.makeSet()
        var prev = Int(first)
        for b in list {
            let i = Int(b)
            metas[i].awake = false
            if metas[i].type == .dynamic { contacts.bodySets[i] = set }
            states[i].v = .zero
            states[i].w = 0
            if i != Int(first) { metas[prev].sleepNext = b; prev = i }
        }
        metas[prev].sleepNext = first
    }

    /// Takes body `i` out of its sleeping ring (before it is destroyed or made static).
    func removeFromSleepRing(_ i: Int) {
        let next = metas[i].sleepNext
        guard next >= 0 else { return }
        if Int(next) == i { metas[i].sleepNext = -1; return }
        var k = Int(next)
        while metas[k].sleepNext != Int32(i) { k = Int(metas[k].sleepNext) }
        metas[k].sleepNext = next
        metas[i].sleepNext = -1
    }

    /// Calls `visit` with the index of every live contact of body `i` (through its shapes'
    /// contact lists, not every contact of the world), in key order. Contacts in sleeping
    /// sets are brought back first: their islands wake.
    @inline(__always)
    func forEachContact(ofBody i: Int, _ visit: (Int) -> Void) {
        contacts.forEachContact(ofShapesFrom: metas[i].firstShape, shapeNext: shapeNext.view, wake: { self.wakeBody(ofShape: $0) }, visit)
    }

    /// Wakes the body of shape `s` (a contact of it in a sleeping set is needed).
    func wakeBody(ofShape s: Int32) { wakeBody(Int(shapes[Int(s)].body)) }

    /// Wakes every body that has a contact with body `i`.
    func wakeTouchingBodies(of i: Int) {
        forEachContact(ofBody: i) { k in wakeBody(Int(contacts[k].bodyA)); wakeBody(Int(contacts[k].bodyB)) }
    }

    /// Wakes every body that has a contact with shape `s`.
    func wakeTouching(boundary s: Int) {
        contacts.forEachContact(ofShape: s, wake: { self.wakeBody(ofShape: $0) }) { k in wakeBody(Int(contacts[k].bodyA)); wakeBody(Int(contacts[k].bodyB)) }
    }

    /// At the end of a step (or a step at rest): sorts in the contacts of islands that woke
    /// during it, and moves the contacts of islands that fell asleep into their sets
    /// (`ContactSet.retire`).
    func settleSleepingSets(retiring: Bool) {
        // (Sorting in moves contacts the islands of this step list: they are built again.)
        contacts.flushWoken()
        if contacts.unsortedFrom >= 0 { islands.dirty = true }
        contacts.sortIn()
        islands.setsPending = false
        if retiring { contacts.retire(metas: metas.view) }
    }

    /// Ends the contacts of body `i` now (before its shapes are released): end events are
    /// reported after the next step.
    func endContacts(ofBody i: Int) {
        forEachContact(ofBody: i) { endContact($0) }
    }

    /// Ends the contacts of shape `s` now.
    func endContacts(ofShape s: Int) {
        contacts.forEachContact(ofShape: s, wake: { self.wakeBody(ofShape: $0) }) { endContact($0) }
    }

    func endContact(_ k: Int) {
        let c = contacts[k]
        contacts.end(k, shapes: shapes.view, metas: metas.view)  // dropped by the next merge
        wakeBody(Int(c.bodyA)); wakeBody(Int(c.bodyB))
        // (The next pass may not reuse the last pass's pairs, which hold this one.)
        broadPhase.shapesChanged = true
    }
}
