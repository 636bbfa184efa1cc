extension World {
    /// Wakes body `i` and, if it was asleep, every body of its sleeping island. Resets its
    /// sleep timer either way (a property change counts as motion).
    func wakeBody(_ i: Int) {
        guard metas[i].alive, metas[i].type != .static else { return }
        metas[i].sleepTime = 0
        if metas[i].awake { return }
        islandsDirty = true
        // Wake the ring of bodies that fell asleep together.
        var k = i
        repeat {
            metas[k].awake = true
            metas[k].sleepTime = 0
            let next = Int(metas[k].sleepNext)
            metas[k].sleepNext = -1
            k = next
        } while k >= 0 && k != i
    }

    /// Puts bodies `list` to sleep as one island (linked in a ring).
    func sleepIsland(_ list: View<Int32>) {
        guard let first = list.first else { return }
        islandsDirty = true
        var prev = Int(first)
        for b in list {
            let i = Int(b)
            metas[i].awake = false
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

    /// Wakes every body that has a contact with body `i`.
    func wakeTouchingBodies(of i: Int) {
        let b = Int32(i)
        for c in contacts where c.shapeA >= 0 && (c.bodyA == b || c.bodyB == b) {
            wakeBody(Int(c.bodyA)); wakeBody(Int(c.bodyB))
        }
    }

    /// Wakes every body that has a contact with shape `s`.
    func wakeTouching(boundary s: Int) {
        let sh = Int32(s)
        for c in contacts where c.shapeA >= 0 && (c.shapeA == sh || c.shapeB == sh) {
            wakeBody(Int(c.bodyA)); wakeBody(Int(c.bodyB))
        }
    }

    /// Ends the contacts of body `i` now: end events are reported after the next step.
    func endContacts(ofBody i: Int) {
        let b = Int32(i)
        for k in contacts.indices where contacts[k].shapeA >= 0 && (contacts[k].bodyA == b || contacts[k].bodyB == b) {
            endContact(k)
        }
    }

    /// Ends the contacts of shape `s` now.
    func endContacts(ofShape s: Int) {
        let sh = Int32(s)
        for k in contacts.indices where contacts[k].shapeA >= 0 && (contacts[k].shapeA == sh || contacts[k].shapeB == sh) {
            endContact(k)
        }
    }

    func endContact(_ k: Int) {
        let c = contacts[k]
        if c.flags & Contact.touching != 0 {
            pendingEndEvents.append(endEvent(for: c))
        }
        wakeBody(Int(c.bodyA)); wakeBody(Int(c.bodyB))
        contacts[k].shapeA = -1  // dropped by the next merge
        broadPhaseDirty = true
    }
}
