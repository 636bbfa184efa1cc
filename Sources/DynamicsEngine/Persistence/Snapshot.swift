// World snapshots: `World.snapshot()` and `World(snapshot:)` (the format is described in
// README.md, "Checkpoints", and below; the byte-level helpers are in `SnapshotFormat.swift`).
//
// What is written is everything a step reads from the steps before it, and nothing it
// rebuilds: bodies (placement, centre, velocities, sleep timer and ring, forces, flags, groups,
// their shapes in order), shapes (geometry and material through a table of distinct shape
// prototypes, the broad phase's fat box of every moving shape, static shapes' boxes),
// joints (definition, resolved length and angle, accumulated impulses), collision groups and
// their boundaries, contacts in key order (flags, manifold with feature ids and warm-start
// impulses, the recycling cache), the last step's and pending contact events, settings,
// gravity, the step and continuous-hit counts, the static grid's cell size (chosen when the
// grid was built, from the shapes of that time), and every slot's generation and the free
// slot lists, so handles and future creations stay what they would have been.
//
// Rebuilt on restore: mass, inertia and centre of mass (`updateMass`, the function that
// computed them), collision masks, group member lists, the vertex pool's layout, contact data
// slots, the moving shapes' current boxes (rewritten by the next step before any read), the
// broad phase (a full pair search over the restored fat boxes finds exactly the contacts'
// pairs), the islands, their colouring and batches, the static grid (with the cell size
// written, so its cells list the static shapes in the original's order), the contact softness
// cache and the exact-rest copy (a restored world takes one full step where the original
// might have taken a step at rest: the same result by construction). Tests compare a
// restored world's continuation with the original's bit for bit.
//
// Layout (all little-endian): the 32-byte header (`SnapshotHeader`), then sections, each a
// 4-byte ASCII tag, a u64 length and its bytes, in this order: APPL (application data),
// WRLD, GRUP, GEOM, BODY, SHAP, JONT, CONT, EVNT. Older format versions are read too: what a
// version adds is read only from snapshots of that version on (`SnapshotReader.version`).

extension World {
    /// The world's state as a versioned binary snapshot (little-endian, with a checksum):
    /// `World(snapshot:)` restores a world that continues exactly as this one would, bit for
    /// bit, with any worker count. Not during a step.
    ///
    /// What is not part of it: `workerCount`, profiling state, and the internal counters of
    /// reused work (a restored world starts them at zero).
    public func snapshot() -> [UInt8] { snapshot(applicationData: []) }

    /// A snapshot carrying `applicationData`, opaque bytes of the caller's (a checkpointing
    /// program's own state) covered by the checksum; read them back with
    /// `World.applicationData(ofSnapshot:)`.
    public func snapshot(applicationData: [UInt8]) -> [UInt8] {
        checkNotStepping("snapshot")
        // Written straight into the array (its capacity an upper bound of the size: only the
        // pages written are touched), so the bytes are not copied again.
        let bound = snapshotSizeBound + applicationData.count
        var spilled: SnapshotWriter? = nil
        var out = [UInt8](unsafeUninitializedCapacity: bound) { buf, n in
            let w = SnapshotWriter(lending: UnsafeMutableRawPointer(buf.baseAddress!), capacity: bound)
            encode(into: w, applicationData: applicationData)
            if w.ownsStorage { spilled = w; n = 0 } else { n = w.count }
        }
        if let w = spilled { out = Array(w.buffer) }  // (only if the bound were wrong)
        return out
    }

    /// A 64-bit digest of the world's state: the checksum of its snapshot. Two worlds whose
    /// states agree bit for bit have the same digest (a resumed run and an uninterrupted one).
    public func stateDigest() -> UInt64 {
        checkNotStepping("stateDigest")
        let w = SnapshotWriter(capacity: snapshotSizeBound)
        encode(into: w, applicationData: [])
        return UInt64(littleEndian: w.base.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Restores a world from `snapshot()`'s bytes. The world continues exactly as the one
    /// that wrote them would have. Its `workerCount` is the default (set it as you like: the
    /// results do not depend on it).
    ///
    /// - Throws: `World.SnapshotError` for bytes that are not a snapshot, a newer format
    ///   version, a truncated or altered snapshot (length and checksum), or values no world
    ///   can hold (non-finite numbers, indices out of range, broken lists); the message says
    ///   what and where. A snapshot that restores never holds NaN.
    public convenience init(snapshot bytes: [UInt8]) throws {
        let (gravity, settings, payload, version) = try bytes.withUnsafeBytes { raw -> (Vec2, WorldSettings, Int, UInt32) in
            var r = try World.openSnapshot(raw)
            try World.skipApplicationData(&r)
            let start = r.offset
            let head = try World.readWorldHead(&r)
            return (head.gravity, head.settings, start, r.version)
        }
        self.init(gravity: gravity, settings: settings)
        try bytes.withUnsafeBytes { raw in
            var r = SnapshotReader(raw)
            r.offset = payload
            r.version = version
            try restore(from: &r)
        }
    }

    /// The application data of a snapshot (`snapshot(applicationData:)`), after checking its
    /// header, length and checksum; empty when none was given.
    ///
    /// - Throws: `World.SnapshotError` as `init(snapshot:)` does for the header and checksum.
    public static func applicationData(ofSnapshot bytes: [UInt8]) throws -> [UInt8] {
        try bytes.withUnsafeBytes { raw in
            var r = try openSnapshot(raw)
            let (start, n) = try beginSection(&r, "APPL")
            let data = Array(raw[start ..< start + n])
            return data
        }
    }
}

// MARK: - Section bookkeeping

private func tag(_ s: StaticString) -> UInt32 {
    let p = s.utf8Start
    return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
}

extension World {
    /// An upper bound of the snapshot's size without application data: each record at its
    /// largest (the writer would grow past it, but never needs to).
    var snapshotSizeBound: Int {
        var n = SnapshotHeader.size + 9 * 12 + 256
        n += 16 * (bodySlots.freeSlots.count + shapeSlots.freeSlots.count + jointSlots.freeSlots.count + groups.slots.freeSlots.count)
        for g in groups.records { n += 16 + 4 * g.boundaries.count }
        let me = metas.view
        for i in 0..<Int(bodySlots.count) {
            n += 128 + 4 * Int(me[i].shapeCount)
            if me[i].alive { n += 4 * groups.ofBody[i].count }
        }
        let sh = shapes.view
        n += 4
        for s in 0..<Int(shapeSlots.count) { n += 64 + 30 + 16 * Int(sh[s].vertexCount) }
        n += 4 + (contacts.count + contacts.asleepCount) * 128 + Int(jointSlots.count) * 200
        n += 12 + (contacts.beginEvents.count + contacts.endEvents.count + contacts.pendingEndEvents.count) * 56
        return n
    }

    /// Checks the header, the length and the checksum; returns a reader at the first section.
    static func openSnapshot(_ raw: UnsafeRawBufferPointer) throws -> SnapshotReader {
        var r = SnapshotReader(raw)
        r.section = "header"
        if raw.count < 8 {
            // Too short to tell: the magic's prefix, or not a snapshot at all.
            if raw.elementsEqual(SnapshotHeader.magic.prefix(raw.count)) {
                throw SnapshotError.truncated(section: "header", offset: 0, needed: SnapshotHeader.size, available: raw.count)
            }
            throw SnapshotError.notASnapshot
        }
        guard raw.prefix(8).elementsEqual(SnapshotHeader.magic) else { throw SnapshotError.notASnapshot }
        r.offset = 8
        try r.need(SnapshotHeader.size - 8)
        let version = try r.u32()
        if version == 0 || version > SnapshotHeader.version {
            throw SnapshotError.unsupportedVersion(found: version, supported: SnapshotHeader.version)
        }
        r.version = version
        let reservedAt = r.offset
        let reserved = try r.u32()
        if reserved != 0 { throw r.invalid("reserved", at: reservedAt, "\(reserved) (must be 0)") }
        let length = try r.u64()
        let stored = try r.u64()
        let actual = raw.count - SnapshotHeader.size
        if length != UInt64(actual) {
            throw SnapshotError.lengthMismatch(declared: length > UInt64(Int.max) ? Int.max : Int(length), actual: actual)
        }
        let computed = SnapshotChecksum.of(UnsafeRawBufferPointer(rebasing: raw[SnapshotHeader.size...]))
        if computed != stored { throw SnapshotError.checksumMismatch(stored: stored, computed: computed) }
        return r
    }

    /// Reads a section's tag and length; returns its start and length, the reader limited to it.
    static func beginSection(_ r: inout SnapshotReader, _ name: StaticString) throws -> (Int, Int) {
        r.section = "\(name)"
        let at = r.offset
        let t = try r.u32()
        if t != tag(name) { throw r.invalid("section tag", at: at, "expected section '\(name)'") }
        let n = try r.u64()
        if n > UInt64(r.remaining) {
            throw SnapshotError.truncated(section: "\(name)", offset: r.offset, needed: n > UInt64(Int.max) ? Int.max : Int(n),
                                          available: r.remaining)
        }
        return (r.offset, Int(n))
    }

    /// Runs `body` over one section and checks it read the section exactly.
    static func section<T>(_ r: inout SnapshotReader, _ name: StaticString, _ body: (inout SnapshotReader) throws -> T) throws -> T {
        let (start, n) = try beginSection(&r, name)
        let outerEnd = r.end
        r.end = start + n
        let v = try body(&r)
        if r.offset != r.end {
            throw r.invalid("section length", at: r.offset, "\(r.end - r.offset) unread bytes at the end of the section")
        }
        r.end = outerEnd
        return v
    }

    static func skipApplicationData(_ r: inout SnapshotReader) throws {
        let (start, n) = try beginSection(&r, "APPL")
        r.offset = start + n
    }

    /// Writes section `name`: its tag, its length (patched after `body` wrote its content).
    @discardableResult
    private func writeSection<T>(_ w: SnapshotWriter, _ name: StaticString, _ body: () -> T) -> T {
        w.reserve(12)
        w.u32(tag(name))
        let lengthAt = w.count
        w.u64(0)
        let result = body()
        w.patchU64(UInt64(w.count - lengthAt - 8), at: lengthAt)
        return result
    }
}

// MARK: - Writing

private enum BodyBits {
    // flags0
    static let alive: UInt8 = 1, awake: UInt8 = 8, fixedRotation: UInt8 = 16, ownGravity: UInt8 = 32
    static let allowSleep: UInt8 = 64, isBullet: UInt8 = 128
    // flags1
    static let isFast: UInt8 = 1, force: UInt8 = 2, damping: UInt8 = 4, center0: UInt8 = 8, sleepNext: UInt8 = 16
    static let charge: UInt8 = 32, userData: UInt8 = 64, customGroups: UInt8 = 128
    // flags2
    static let gravity: UInt8 = 1, sleepThreshold: UInt8 = 2
}

/// The flag byte of a contact record: the contact's has-points, touching and began flags in
/// their own bits (1, 2, 4), then cached, recycled, whether it has two points (it has one
/// when it has points and not two), speculative points only, and whether the points carry
/// recycling anchors.
private enum ContactBits {
    static let cached: UInt8 = 8, recycled: UInt8 = 16, twoPoints: UInt8 = 32, speculative: UInt8 = 64, anchors: UInt8 = 128
}

private enum ShapeBits {
    static let alive: UInt8 = 1, isBoundary: UInt8 = 2, isStatic: UInt8 = 4, oneSided: UInt8 = 8
    /// Format version 3 on: a filter (category, mask, group index) follows.
    static let filtered: UInt8 = 16
}

@inline(__always) private func sameBits(_ a: Vec2, _ b: Vec2) -> Bool {
    a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
}

extension World {
    func encode(into w: SnapshotWriter, applicationData: [UInt8]) {
        // (The body records' sleep timers, as every step would have written them.)
        writeRestTimers()
        w.reserve(SnapshotHeader.size)
        w.bytes(SnapshotHeader.magic)
        w.u32(SnapshotHeader.version)
        w.u32(0)
        w.u64(0)  // payload length
        w.u64(0)  // checksum

        writeSection(w, "APPL") { w.bytes(applicationData) }
        writeSection(w, "WRLD") { writeWorldHead(w) }
        writeSection(w, "GRUP") { writeGroups(w) }
        let prototypeOf = writeSection(w, "GEOM") { writePrototypes(w) }
        writeSection(w, "BODY") { writeBodies(w) }
        writeSection(w, "SHAP") { writeShapes(w, prototypeOf) }
        writeSection(w, "JONT") { writeJoints(w) }
        writeSection(w, "CONT") { writeContacts(w) }
        writeSection(w, "EVNT") {
            for list in [contacts.beginEvents, contacts.endEvents, contacts.pendingEndEvents] { writeEvents(w, list) }
        }

        let payload = w.count - SnapshotHeader.size
        w.patchU64(UInt64(payload), at: 16)
        let sum = SnapshotChecksum.of(UnsafeRawBufferPointer(start: w.base + SnapshotHeader.size, count: payload))
        w.patchU64(sum, at: 24)
    }

    private func writeSlots(_ w: SnapshotWriter, _ s: SlotAllocator) {
        w.reserve(8 + 4 * s.freeSlots.count)
        w.u32(UInt32(s.count))
        w.u32(UInt32(s.freeSlots.count))
        for f in s.freeSlots { w.i32(f) }
    }

    private func writeWorldHead(_ w: SnapshotWriter) {
        w.reserve(128)
        w.vec2(gravity)
        let s = settings
        w.u32(UInt32(clamping: s.subSteps))
        for f in [s.contactHertz, s.contactDampingRatio, s.maxContactPushSpeed, s.jointHertz, s.jointDampingRatio,
                  s.restitutionThreshold, s.linearSlop, s.contactRecycleDistance, s.sleepLinearThreshold,
                  s.sleepAngularThreshold, s.timeToSleep, s.maxLinearSpeed] { w.f32(f) }
        w.bool(s.isSleepEnabled)
        w.bool(s.isContinuousEnabled)
        w.u64(UInt64(stepCount))
        w.u64(UInt64(continuousHits))
        w.bool(broadPhase.staticDirty)
        // The static grid's cell size, when it is built (see `BroadPhase.staticCellSize`).
        if !broadPhase.staticDirty { w.f32(broadPhase.staticCellSize) }
        w.i32(boundaryBody)
        writeSlots(w, bodySlots)
        writeSlots(w, shapeSlots)
        writeSlots(w, jointSlots)
        writeSlots(w, groups.slots)
    }

    private func writeGroups(_ w: SnapshotWriter) {
        for g in groups.records {
            w.reserve(14 + 4 * g.boundaries.count)
            w.bool(g.alive)
            w.u32(g.generation)
            w.u8(g.mode.rawValue)
            w.u32(UInt32(g.boundaries.count))
            for s in g.boundaries { w.i32(s) }
        }
    }

    /// The distinct shape prototypes (kind, radius, centre, material, vertices and normals,
    /// compared byte for byte); returns each live shape's prototype index.
    private func writePrototypes(_ w: SnapshotWriter) -> [Int32] {
        let n = Int(shapeSlots.count)
        var prototypeOf = [Int32](repeating: -1, count: n)
        w.reserve(4)
        let countAt = w.count
        w.u32(0)
        var starts: [Int] = [], lengths: [Int] = []
        var tableSize = 16
        while tableSize < 2 * max(1, shapeCountAlive) { tableSize <<= 1 }
        var table = [Int32](repeating: -1, count: tableSize)
        var hashes: [UInt64] = []
        var lastFound: Int? = nil
        let sh = shapes.view, verts = pool.vertices.view, norms = pool.normals.view
        for s in 0..<n where sh[s].alive {
            let rec = sh[s]
            let vc = rec.kind == .circle ? 0 : Int(rec.vertexCount)
            w.reserve(34 + 16 * vc)
            let start = w.count
            w.u8(rec.kind.rawValue)
            w.u8(UInt8(vc))
            w.f32(rec.radius)
            w.vec2(rec.center)
            w.f32(rec.friction); w.f32(rec.restitution); w.f32(rec.density)
            w.f32(rec.rollingResistance)
            let st = Int(rec.vertexStart)
            for k in 0..<vc { w.vec2(verts[st + k]) }
            for k in 0..<vc { w.vec2(norms[st + k]) }
            let len = w.count - start
            // Most shapes repeat the previous shape's prototype (a pile of equal boxes).
            if let p = lastFound, lengths[p] == len, memcmpBytes(w.base + starts[p], w.base + start, len) {
                w.truncate(to: start)
                prototypeOf[s] = Int32(p)
                continue
            }
            let h = quickHash(w.base + start, len)
            var slot = Int(truncatingIfNeeded: h) & (tableSize - 1)
            var found: Int32 = -1
            while table[slot] >= 0 {
                let p = Int(table[slot])
                if hashes[p] == h && lengths[p] == len && memcmpBytes(w.base + starts[p], w.base + start, len) {
                    found = Int32(p); break
                }
                slot = (slot + 1) & (tableSize - 1)
            }
            if found >= 0 {
                w.truncate(to: start)
                prototypeOf[s] = found
                lastFound = Int(found)
            } else {
                let p = Int32(starts.count)
                table[slot] = p
                starts.append(start); lengths.append(len); hashes.append(h)
                prototypeOf[s] = p
                lastFound = Int(p)
            }
        }
        w.patchU32(UInt32(starts.count), at: countAt)
        return prototypeOf
    }

    private var shapeCountAlive: Int { Int(shapeSlots.count) - shapeSlots.freeSlots.count }

    private func writeBodies(_ w: SnapshotWriter) {
        let si = sims.view, st = states.view, me = metas.view
        let g = gravity
        for i in 0..<Int(bodySlots.count) {
            let m = me[i]
            var f0: UInt8 = m.alive ? BodyBits.alive : 0
            guard m.alive else {
                w.reserve(5); w.u8(f0); w.u32(m.generation)
                continue
            }
            f0 |= m.type.rawValue << 1
            if m.awake { f0 |= BodyBits.awake }
            if m.fixedRotation { f0 |= BodyBits.fixedRotation }
            if m.ownGravity { f0 |= BodyBits.ownGravity }
            if m.allowSleep { f0 |= BodyBits.allowSleep }
            if m.isBullet { f0 |= BodyBits.isBullet }
            let s = si[i], v = st[i]
            let groupsHere = groups.ofBody[i]
            let defaultGroups = groupsHere.count == 1 && groupsHere[0] == 0
            var f1: UInt8 = 0
            if m.isFast { f1 |= BodyBits.isFast }
            if s.force.x.bitPattern != 0 || s.force.y.bitPattern != 0 || s.torque.bitPattern != 0 { f1 |= BodyBits.force }
            if s.linearDamping.bitPattern != 0 || s.angularDamping.bitPattern != 0 { f1 |= BodyBits.damping }
            if !sameBits(s.center0, s.center) { f1 |= BodyBits.center0 }
            if m.sleepNext >= 0 { f1 |= BodyBits.sleepNext }
            if m.charge.bitPattern != 0 { f1 |= BodyBits.charge }
            if m.userData != 0 { f1 |= BodyBits.userData }
            if !defaultGroups { f1 |= BodyBits.customGroups }
            var f2: UInt8 = 0
            if !sameBits(s.gravity, g) { f2 |= BodyBits.gravity }
            if m.sleepThreshold.bitPattern != BodyDef.defaultSleepThreshold.bitPattern { f2 |= BodyBits.sleepThreshold }
            w.reserve(128 + 4 * groupsHere.count + 4 * Int(m.shapeCount))
            w.u8(f0); w.u32(m.generation); w.u8(f1); w.u8(f2)
            w.vec2(s.xf.p); w.rot(s.xf.q); w.vec2(s.center)
            w.vec2(v.v); w.f32(v.w)
            w.f32(s.coreRadius)
            w.f32(m.sleepTime)
            if f1 & BodyBits.force != 0 { w.vec2(s.force); w.f32(s.torque) }
            if f1 & BodyBits.damping != 0 { w.f32(s.linearDamping); w.f32(s.angularDamping) }
            if f1 & BodyBits.center0 != 0 { w.vec2(s.center0) }
            if f1 & BodyBits.sleepNext != 0 { w.i32(m.sleepNext) }
            if f1 & BodyBits.charge != 0 { w.f32(m.charge) }
            if f1 & BodyBits.userData != 0 { w.u64(m.userData) }
            if f2 & BodyBits.gravity != 0 { w.vec2(s.gravity) }
            if f2 & BodyBits.sleepThreshold != 0 { w.f32(m.sleepThreshold) }
            if !defaultGroups {
                w.u16(UInt16(groupsHere.count))
                for gi in groupsHere { w.i32(gi) }
            }
            w.u16(UInt16(m.shapeCount))
            var sh = m.firstShape
            while sh >= 0 { w.i32(sh); sh = shapeNext[Int(sh)] }
        }
    }

    private func writeShapes(_ w: SnapshotWriter, _ prototypeOf: [Int32]) {
        let sh = shapes.view, fat = broadPhase.fatBoxes.view, boxes = broadPhase.boxes.view, filters = broadPhase.filters.view
        for s in 0..<Int(shapeSlots.count) {
            let r = sh[s]
            w.reserve(84)
            guard r.alive else { w.u8(0); w.u32(r.generation); continue }
            var f: UInt8 = ShapeBits.alive
            if r.isBoundary { f |= ShapeBits.isBoundary }
            if r.isStatic { f |= ShapeBits.isStatic }
            if r.oneSided { f |= ShapeBits.oneSided }
            if r.filtered { f |= ShapeBits.filtered }
            w.u8(f); w.u32(r.generation)
            w.i32(prototypeOf[s])
            if r.filtered { w.u64(filters[s].categoryBits); w.u64(filters[s].maskBits); w.i32(filters[s].groupIndex) }
            if r.isBoundary { w.i32(r.boundaryGroup); w.u64(r.boundaryID) }
            if r.isStatic { w.aabb(boxes[s]) }
            w.aabb(fat[s])
        }
    }

    private func writeJoints(_ w: SnapshotWriter) {
        let js = joints.view
        for j in 0..<Int(jointSlots.count) {
            let r = js[j]
            w.reserve(200)
            w.bool(r.alive); w.u32(r.generation)
            guard r.alive else { continue }
            let d = r.def
            w.u8(d.type.rawValue)
            if let a = d.bodyA { w.u8(1); w.i32(a.index); w.u32(a.generation) } else { w.u8(0) }
            w.i32(d.bodyB.index); w.u32(d.bodyB.generation)
            w.vec2(d.localAnchorA); w.vec2(d.localAnchorB); w.vec2(d.localAxisA)
            if let a = d.referenceAngle { w.u8(1); w.f32(a) } else { w.u8(0) }
            if let l = d.length { w.u8(1); w.f32(l) } else { w.u8(0) }
            w.f32(d.minLength); w.f32(d.maxLength)
            w.bool(d.enableSpring); w.f32(d.hertz); w.f32(d.dampingRatio)
            w.bool(d.enableLimit); w.f32(d.lower); w.f32(d.upper)
            w.bool(d.enableMotor); w.f32(d.maxMotorTorque); w.f32(d.motorSpeed)
            w.vec2(d.target); w.f32(d.targetAngle); w.f32(d.maxForce); w.f32(d.angularHertz); w.f32(d.angularDampingRatio)
            w.i32(r.bodyA); w.i32(r.bodyB)
            w.f32(r.restLength); w.f32(r.referenceAngle)
            w.vec2(r.linearImpulse); w.f32(r.angularImpulse); w.f32(r.springImpulse)
            w.f32(r.lowerImpulse); w.f32(r.upperImpulse); w.f32(r.motorImpulse)
        }
    }

    /// Contacts in key order. Each: the key's increase over the previous key (LEB128), a
    /// byte of flags (`ContactBits`), the recycling cache when cached, the normal when it has
    /// points, and per point its feature id, normal, tangent and largest normal impulse, its
    /// recycling anchor and base separation when present, and its position and separation only
    /// when no body of the contact is awake (otherwise the next step's narrow phase rewrites
    /// them before anything reads them).
    private func writeContacts(_ w: SnapshotWriter) {
        // The contacts of the records and of the sleeping sets, in one key order.
        contacts.flushWoken(); contacts.sortIn()
        var asleep: [Contact] = []
        if contacts.asleepCount > 0 {
            asleep.reserveCapacity(contacts.asleepCount)
            contacts.forEachAsleep { asleep.append($0) }
            asleep.sort { $0.key < $1.key }
        }
        let cs = contacts.view, data = contacts.data.view, me = metas.view
        var live = asleep.count
        for k in cs.indices where cs[k].shapeA >= 0 { live += 1 }
        w.reserve(4)
        w.u32(UInt32(live))
        var lastKey: UInt64 = 0
        // The manifolds sit in slots out of key order once contacts have come and gone: each
        // iteration first reads the slot 16 contacts ahead, so that many misses overlap.
        var sink: Int = 0
        let ahead = 16
        var k = 0, j = 0
        while k < cs.count || j < asleep.count {
            let c: Contact
            if j >= asleep.count || (k < cs.count && cs[k].key < asleep[j].key) {
                if k + ahead < cs.count, cs[k + ahead].slot >= 0 { sink &+= data[Int(cs[k + ahead].slot)].manifold.pointCount }
                c = cs[k]; k += 1
                if c.shapeA < 0 { continue }
            } else {
                c = asleep[j]; j += 1
            }
            let d = data[Int(c.slot)]
            let m = d.manifold
            let pc = m.pointCount
            let cached = c.flags & Contact.cached != 0
            var anchors = cached
            if !anchors {
                for p in 0..<pc where m[p].anchorA.x.bitPattern != 0 || m[p].anchorA.y.bitPattern != 0 || m[p].baseSeparation.bitPattern != 0 {
                    anchors = true
                }
            }
            assert(c.flags & Contact.ended == 0, "a contact's ended flag outlived its step")
            var f = c.flags & (Contact.hasPoints | Contact.touching | Contact.began)
            if cached { f |= ContactBits.cached }
            if c.flags & Contact.recycled != 0 { f |= ContactBits.recycled }
            assert((pc > 0) == (c.flags & Contact.hasPoints != 0), "a contact's points and its has-points flag disagree")
            if pc == 2 { f |= ContactBits.twoPoints }
            if c.flags & Contact.speculative != 0 { f |= ContactBits.speculative }
            if anchors { f |= ContactBits.anchors }
            let kept = !World.updatedByNextStep(c, me)
            w.reserve(10 + 1 + 24 + 8 + 2 * 40 + 4)
            w.varint(c.key &- lastKey)
            lastKey = c.key
            w.u8(f)
            if cached { w.vec2(d.cachedOffset); w.rot(d.cachedQA); w.rot(d.cachedQB) }
            if pc > 0 { w.vec2(m.normal) }
            for p in 0..<pc {
                let mp = m[p]
                w.u32(mp.id); w.f32(mp.normalImpulse); w.f32(mp.tangentImpulse); w.f32(mp.maxNormalImpulse)
                if anchors { w.vec2(mp.anchorA); w.f32(mp.baseSeparation) }
                if kept { w.vec2(mp.point); w.f32(mp.separation) }
            }
            // (Its shapes give the reader the resistance; the impulse is 0 without one.)
            if d.rollingResistance > 0 { w.f32(d.rollingImpulse) }
        }
        if sink == -1 { w.reserve(0) }  // (keeps the look-ahead reads)
    }

    /// Whether the next step's narrow phase recomputes the contact's points and separations
    /// (it does for every contact with an awake, non-static body) before anything reads them.
    @inline(__always)
    static func updatedByNextStep(_ c: Contact, _ me: View<BodyMeta>) -> Bool {
        let a = me[Int(c.bodyA)], b = me[Int(c.bodyB)]
        return (a.awake && a.type != .static) || (b.awake && b.type != .static)
    }

    private func writeEvents(_ w: SnapshotWriter, _ list: [ContactEvent]) {
        w.reserve(4)
        w.u32(UInt32(list.count))
        for e in list {
            w.reserve(56)
            w.i32(e.body.index); w.u32(e.body.generation)
            switch e.other {
            case .body(let b): w.u8(0); w.i32(b.index); w.u32(b.generation)
            case let .boundary(b, id): w.u8(1); w.i32(b.shape); w.u32(b.generation); w.u64(id)
            }
            w.vec2(e.point); w.vec2(e.normal)
        }
    }
}

/// A hash of a few bytes (a shape prototype's record) for the prototype table.
@inline(__always) private func quickHash(_ p: UnsafeMutableRawPointer, _ n: Int) -> UInt64 {
    var h = SnapshotChecksum.basis ^ UInt64(n)
    var i = 0
    while i + 8 <= n {
        h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* SnapshotChecksum.prime
        h ^= h >> 29
        i += 8
    }
    while i < n { h = (h ^ UInt64(p.load(fromByteOffset: i, as: UInt8.self))) &* SnapshotChecksum.prime; i += 1 }
    return SnapshotChecksum.mix(h)
}

@inline(__always) private func memcmpBytes(_ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}


// MARK: - Reading

/// The world-wide values read before the world is created.
struct SnapshotWorldHead {
    var gravity = Vec2.zero
    var settings = WorldSettings()
    var stepCount = 0
    var continuousHits = 0
    var staticDirty = true
    /// The static grid's cell size when it is built (format version 2 on; nil: choose one).
    var staticCellSize: Float? = nil
    var boundaryBody: Int32 = 0
    var bodySlots = SlotAllocator()
    var shapeSlots = SlotAllocator()
    var jointSlots = SlotAllocator()
    var groupSlots = SlotAllocator()
}

/// Slot counts are limited so that a crafted count cannot make the restore allocate wildly
/// before the data runs out (each slot's record takes at least one byte).
private let maxSlots = Int(Int32.max)

extension World {
    /// How many bytes of memory one column of a section's records may have mapped ahead
    /// (`Column.reserveCapacity(_:prefaultingWithin:)`): a few times the section's bytes left,
    /// which an honest snapshot's columns stay within (a body's 65 bytes become about 200 in
    /// three columns, a contact's 54 about 170 in three), so that a crafted count cannot make
    /// the restore commit much more memory than the snapshot's size.
    static func prefaultBudget(_ r: SnapshotReader) -> Int { 8 * r.remaining }

    /// Per slot of `s` (whose free slots `readSlots` checked): whether it is listed free.
    static func freeMask(_ s: SlotAllocator) -> [Bool] {
        var m = [Bool](repeating: false, count: Int(s.count))
        for f in s.freeSlots { m[Int(f)] = true }
        return m
    }

    static func readSlots(_ r: inout SnapshotReader, _ name: StaticString) throws -> SlotAllocator {
        var s = SlotAllocator()
        let n = try r.count(name, atMost: maxSlots)
        s.count = Int32(n)
        let f = try r.count(name, atMost: n, minBytesEach: 4)
        s.freeSlots.reserveCapacity(f)
        var seen = Set<Int32>()
        for _ in 0..<f {
            let at = r.offset
            let v = try r.index(name, below: n)
            if !seen.insert(v).inserted { throw r.invalid(name, at: at, "free slot \(v) listed twice") }
            s.freeSlots.append(v)
        }
        return s
    }

    static func readWorldHead(_ r: inout SnapshotReader) throws -> SnapshotWorldHead {
        try section(&r, "WRLD") { r in
            var h = SnapshotWorldHead()
            h.gravity = try r.vec2("gravity")
            var s = WorldSettings()
            let subAt = r.offset
            let sub = try r.u32()
            if sub < 1 || sub > 1 << 16 { throw r.invalid("settings.subSteps", at: subAt, "\(sub) (must be 1…65536)") }
            s.subSteps = Int(sub)
            s.contactHertz = try r.f32AllowingInfinity("settings.contactHertz")
            s.contactDampingRatio = try r.f32AllowingInfinity("settings.contactDampingRatio")
            s.maxContactPushSpeed = try r.f32AllowingInfinity("settings.maxContactPushSpeed")
            s.jointHertz = try r.f32AllowingInfinity("settings.jointHertz")
            s.jointDampingRatio = try r.f32AllowingInfinity("settings.jointDampingRatio")
            s.restitutionThreshold = try r.f32AllowingInfinity("settings.restitutionThreshold")
            s.linearSlop = try r.f32("settings.linearSlop")
            s.contactRecycleDistance = try r.f32AllowingInfinity("settings.contactRecycleDistance")
            s.sleepLinearThreshold = try r.f32AllowingInfinity("settings.sleepLinearThreshold")
            s.sleepAngularThreshold = try r.f32AllowingInfinity("settings.sleepAngularThreshold")
            s.timeToSleep = try r.f32AllowingInfinity("settings.timeToSleep")
            s.maxLinearSpeed = try r.f32AllowingInfinity("settings.maxLinearSpeed")
            s.isSleepEnabled = try r.bool("settings.isSleepEnabled")
            s.isContinuousEnabled = try r.bool("settings.isContinuousEnabled")
            h.settings = s
            let stepAt = r.offset
            let steps = try r.u64()
            let hits = try r.u64()
            if steps > UInt64(Int.max) || hits > UInt64(Int.max) { throw r.invalid("stepCount", at: stepAt, "out of range") }
            h.stepCount = Int(steps); h.continuousHits = Int(hits)
            h.staticDirty = try r.bool("staticDirty")
            if r.version >= 2 && !h.staticDirty {
                let cAt = r.offset
                let cell = try r.f32("staticCellSize")
                if !(cell > 0) { throw r.invalid("staticCellSize", at: cAt, "\(cell) (must be positive)") }
                h.staticCellSize = cell
            }
            let bbAt = r.offset
            let bb = try r.i32()
            h.bodySlots = try readSlots(&r, "bodySlots")
            h.shapeSlots = try readSlots(&r, "shapeSlots")
            h.jointSlots = try readSlots(&r, "jointSlots")
            h.groupSlots = try readSlots(&r, "groupSlots")
            if bb < 0 || bb >= h.bodySlots.count { throw r.invalid("boundaryBody", at: bbAt, "index \(bb) outside 0..<\(h.bodySlots.count)") }
            h.boundaryBody = bb
            if h.groupSlots.count < 1 { throw r.invalid("groupSlots", at: bbAt, "no default collision group") }
            return h
        }
    }

    /// Rebuilds this (freshly initialised) world from a snapshot whose header and checksum were
    /// checked; `r` is at the WRLD section.
    func restore(from r: inout SnapshotReader) throws {
        let head = try World.readWorldHead(&r)
        // Every column is rebuilt: the step context takes new views.
        stepContext.columnsChanged()
        // Start from nothing: the designated initialiser made a boundary body and group 0.
        sims.removeAll(); states.removeAll(); metas.removeAll(); groups.ofBody = BodyGroupTable()
        shapes.removeAll(); shapeNext.removeAll(); broadPhase.boxes.removeAll(); broadPhase.fatBoxes.removeAll(); broadPhase.isLarge.removeAll(); broadPhase.filters.removeAll(); broadPhase.reach.removeAll(); broadPhase.activity.inSleepGrid.removeAll()
        joints.removeAll(); contacts.removeAll()
        groups.records = []
        pool = VertexPool()
        _ = pool.allocate(count: 1) { _ in (.zero, .zero) }
        bodySlots = head.bodySlots; shapeSlots = head.shapeSlots; jointSlots = head.jointSlots; groups.slots = head.groupSlots
        boundaryBody = head.boundaryBody
        counters.stepCount = head.stepCount
        counters.continuousHits = head.continuousHits

        let nb = Int(bodySlots.count), ns = Int(shapeSlots.count), nj = Int(jointSlots.count), ng = Int(groups.slots.count)
        try readGroups(&r, count: ng)
        let protos = try readPrototypes(&r)
        let owner = try readBodies(&r, count: nb, shapeCount: ns, groupCount: ng)
        var prototypeOf: [Int32] = []
        try readShapes(&r, count: ns, owner: owner, groupCount: ng, protos, prototypeOf: &prototypeOf)
        try finishBodies(&r, prototypeOf: prototypeOf)
        try readJoints(&r, count: nj, bodyCount: nb)
        try readContacts(&r)
        try World.section(&r, "EVNT") { r in
            contacts.beginEvents = try readEvents(&r)
            contacts.endEvents = try readEvents(&r)
            contacts.pendingEndEvents = try readEvents(&r)
        }
        if r.offset != r.end {
            throw r.invalid("payload", at: r.offset, "\(r.end - r.offset) bytes after the last section")
        }
        // Derived state.
        bodyCount = 0; movingBodyCount = 0
        for i in 0..<nb where metas[i].alive && Int32(i) != boundaryBody {
            bodyCount += 1
            if metas[i].type != .static { movingBodyCount += 1 }
        }
        jointCount = 0
        for j in 0..<nj where joints[j].alive { jointCount += 1 }
        try restoreSleepingSets(&r)
        broadPhase.dirty = true
        islands.dirty = true; islands.awakeStale = true; islands.awakeJointsStale = true
        jointGraph.stale = true
        broadPhase.pairsChanged = true
        broadPhase.staticDirty = head.staticDirty
        // Static boxes as stored (they were computed with the settings of their time), and
        // the cell size the original grid was built with (a version-1 snapshot has none: its
        // grid gets one chosen afresh, which may order the static shapes differently).
        if !broadPhase.staticDirty { rebuildStaticGrid(keepingBoxes: true, cellSize: head.staticCellSize) }
        broadPhase.dirty = true
    }

    private func readGroups(_ r: inout SnapshotReader, count ng: Int) throws {
        try World.section(&r, "GRUP") { r in
            try r.need(ng * 10)  // the least each group takes, before room is made for them all
            groups.records.reserveCapacity(ng)
            for _ in 0..<ng {
                var g = GroupRecord()
                g.alive = try r.bool("group.alive")
                g.generation = try r.u32()
                let at = r.offset
                let mode = try r.u8()
                if mode > 3 { throw r.invalid("group.mode", at: at, "\(mode) is not a collision mode") }
                g.mode = CollisionMode(rawValue: mode)
                let n = try r.count("group.boundaries", atMost: Int(shapeSlots.count), minBytesEach: 4)
                for _ in 0..<n { g.boundaries.append(try r.index("group.boundaries", below: Int(shapeSlots.count))) }
                groups.records.append(g)
            }
            let freeSet = Set(groups.slots.freeSlots)
            for (gi, g) in groups.records.enumerated() where g.alive == freeSet.contains(Int32(gi)) {
                throw r.invalid("group.alive", at: r.offset, "group \(gi) is \(g.alive ? "alive but listed free" : "dead but not listed free")")
            }
            if !groups.records[0].alive { throw r.invalid("group.alive", at: r.offset, "the default group is dead") }
        }
    }

    /// A shape prototype: where its vertices and normals are in `verts` / `norms`.
    struct Prototype {
        var kind: ShapeKind
        var count, start: Int
        var radius: Float
        var center: Vec2
        var material: Material
    }

    private func readPrototypes(_ r: inout SnapshotReader) throws -> (list: [Prototype], verts: [Vec2], norms: [Vec2]) {
        try World.section(&r, "GEOM") { r in
            let n = try r.count("prototypes", atMost: Int(shapeSlots.count), minBytesEach: 30)
            var list: [Prototype] = [], verts: [Vec2] = [], norms: [Vec2] = []
            list.reserveCapacity(n)
            for _ in 0..<n {
                let at = r.offset
                let k = try r.u8()
                guard let kind = ShapeKind(rawValue: k) else { throw r.invalid("prototype.kind", at: at, "\(k) is not a shape kind") }
                let cAt = r.offset
                let count = Int(try r.u8())
                switch kind {
                case .circle where count != 0, .segment where count != 2:
                    throw r.invalid("prototype.vertexCount", at: cAt, "\(count) vertices for a \(kind)")
                case .polygon where count < 2 || count > Geometry.maxPolygonVertices:
                    throw r.invalid("prototype.vertexCount", at: cAt, "\(count) vertices for a polygon")
                default: break
                }
                let rAt = r.offset
                let radius = try r.f32("prototype.radius")
                if radius < 0 || (kind == .circle && radius == 0) { throw r.invalid("prototype.radius", at: rAt, "\(radius)") }
                // Two vertices make a capsule, which has a radius.
                if kind == .polygon && count == 2 && radius == 0 {
                    throw r.invalid("prototype.vertexCount", at: cAt, "2 vertices for a polygon without a radius")
                }
                let center = try r.vec2("prototype.center")
                let mAt = r.offset
                var mat = Material(density: 0, friction: 0, restitution: 0)
                mat.friction = try r.f32("prototype.friction")
                mat.restitution = try r.f32("prototype.restitution")
                mat.density = try r.f32("prototype.density")
                if r.version >= 4 { mat.rollingResistance = try r.f32("prototype.rollingResistance") }
                if mat.friction < 0 || mat.restitution < 0 || mat.density < 0 || mat.rollingResistance < 0 {
                    throw r.invalid("prototype.material", at: mAt, "negative")
                }
                let start = verts.count
                try r.need(16 * count)
                for _ in 0..<count { verts.append(try r.vec2("prototype.vertex")) }
                for _ in 0..<count {
                    let nAt = r.offset
                    let v = try r.vec2("prototype.normal")
                    let l = v.x * v.x + v.y * v.y
                    if abs(l - 1) > 1e-3 { throw r.invalid("prototype.normal", at: nAt, "not a unit vector") }
                    norms.append(v)
                }
                list.append(Prototype(kind: kind, count: count, start: start, radius: radius, center: center, material: mat))
            }
            return (list, verts, norms)
        }
    }

    private func readBodies(_ r: inout SnapshotReader, count nb: Int, shapeCount ns: Int, groupCount ng: Int) throws -> [Int32] {
        try World.section(&r, "BODY") { r in
            try r.need(nb * 5)  // the least each slot takes
            let budget = World.prefaultBudget(r)
            sims.reserveCapacity(nb, prefaultingWithin: budget); states.reserveCapacity(nb, prefaultingWithin: budget)
            metas.reserveCapacity(nb, prefaultingWithin: budget)
            groups.ofBody.reserveCapacity(nb)
            shapeNext.reserveCapacity(ns, prefaultingWithin: budget)
            shapeNext.append(contentsOf: repeatElement(-1, count: ns))
            var owner = [Int32](repeating: -1, count: ns)
            let free = World.freeMask(bodySlots)
            let g = gravity
            // Bodies in the default group only share one list (no allocation per body).
            let defaultList: [Int32] = [0]
            for i in 0..<nb {
                let at = r.offset
                let f0 = try r.u8()
                var meta = BodyMeta()
                meta.generation = try r.u32()
                var sim = BodySim(), st = BodyState()
                guard f0 & BodyBits.alive != 0 else {
                    if f0 != 0 { throw r.invalid("body.flags", at: at, "\(f0) for a dead slot") }
                    if !free[i] { throw r.invalid("body.alive", at: at, "dead body \(i) is not a free slot") }
                    sims.append(sim); states.append(st); metas.append(meta); groups.ofBody.appendSlot()
                    continue
                }
                if free[i] { throw r.invalid("body.alive", at: at, "live body \(i) is listed as a free slot") }
                meta.alive = true
                guard let type = BodyType(rawValue: (f0 >> 1) & 3) else { throw r.invalid("body.type", at: at, "\((f0 >> 1) & 3)") }
                meta.type = type
                meta.awake = f0 & BodyBits.awake != 0
                meta.fixedRotation = f0 & BodyBits.fixedRotation != 0
                meta.ownGravity = f0 & BodyBits.ownGravity != 0
                meta.allowSleep = f0 & BodyBits.allowSleep != 0
                meta.isBullet = f0 & BodyBits.isBullet != 0
                let f1 = try r.u8()
                let f2at = r.offset
                let f2 = try r.u8()
                if f2 & ~(BodyBits.gravity | BodyBits.sleepThreshold) != 0 { throw r.invalid("body.flags", at: f2at, "unknown flags \(f2)") }
                meta.isFast = f1 & BodyBits.isFast != 0
                sim.xf.p = try r.vec2("body.position")
                let qAt = r.offset
                sim.xf.q = try r.rot("body.rotation")
                if abs(sim.xf.q.c * sim.xf.q.c + sim.xf.q.s * sim.xf.q.s - 1) > 1e-3 {
                    throw r.invalid("body.rotation", at: qAt, "not a unit rotation")
                }
                sim.center = try r.vec2("body.center")
                st.v = try r.vec2("body.linearVelocity")
                st.w = try r.f32("body.angularVelocity")
                let crAt = r.offset
                sim.coreRadius = try r.f32("body.coreRadius")
                if !(sim.coreRadius > 0) { throw r.invalid("body.coreRadius", at: crAt, "\(sim.coreRadius) (must be positive)") }
                let stAt = r.offset
                meta.sleepTime = try r.f32("body.sleepTime")
                if meta.sleepTime < 0 { throw r.invalid("body.sleepTime", at: stAt, "negative") }
                if f1 & BodyBits.force != 0 { sim.force = try r.vec2("body.force"); sim.torque = try r.f32("body.torque") }
                if f1 & BodyBits.damping != 0 {
                    let dAt = r.offset
                    sim.linearDamping = try r.f32("body.linearDamping"); sim.angularDamping = try r.f32("body.angularDamping")
                    if sim.linearDamping < 0 || sim.angularDamping < 0 { throw r.invalid("body.damping", at: dAt, "negative") }
                }
                sim.center0 = f1 & BodyBits.center0 != 0 ? try r.vec2("body.center0") : sim.center
                if f1 & BodyBits.sleepNext != 0 { meta.sleepNext = try r.index("body.sleepNext", below: nb) }
                if f1 & BodyBits.charge != 0 { meta.charge = try r.f32("body.charge") }
                if f1 & BodyBits.userData != 0 { meta.userData = try r.u64() }
                sim.gravity = f2 & BodyBits.gravity != 0 ? try r.vec2("body.gravity") : g
                if f2 & BodyBits.sleepThreshold != 0 {
                    let tAt = r.offset
                    meta.sleepThreshold = try r.f32AllowingInfinity("body.sleepThreshold")
                    if !(meta.sleepThreshold >= 0) { throw r.invalid("body.sleepThreshold", at: tAt, "negative") }
                }
                var list: [Int32] = []
                if f1 & BodyBits.customGroups != 0 {
                    let n = Int(try r.u16())
                    try r.need(4 * n)
                    list.reserveCapacity(n)
                    for _ in 0..<n {
                        let gAt = r.offset
                        let gi = try r.index("body.groups", below: ng)
                        if !groups.records[Int(gi)].alive || list.contains(gi) { throw r.invalid("body.groups", at: gAt, "group \(gi) dead or repeated") }
                        list.append(gi)
                    }
                } else {
                    list = defaultList
                }
                let nShapes = Int(try r.u16())
                try r.need(4 * nShapes)
                var prev: Int32 = -1
                for _ in 0..<nShapes {
                    let sAt = r.offset
                    let s = try r.index("body.shapes", below: ns)
                    if owner[Int(s)] >= 0 { throw r.invalid("body.shapes", at: sAt, "shape \(s) listed twice") }
                    owner[Int(s)] = Int32(i)
                    if prev < 0 { meta.firstShape = s } else { shapeNext[Int(prev)] = s }
                    prev = s
                }
                meta.shapeCount = Int32(nShapes)
                if type == .static && meta.awake { throw r.invalid("body.awake", at: at, "a static body is never awake") }
                sims.append(sim); states.append(st); metas.append(meta); groups.ofBody.appendSlot(list)
            }
            return owner
        }
    }

    private func readShapes(_ r: inout SnapshotReader, count ns: Int, owner: [Int32], groupCount ng: Int,
                            _ protos: (list: [Prototype], verts: [Vec2], norms: [Vec2]), prototypeOf: inout [Int32]) throws {
        try World.section(&r, "SHAP") { r in
            try r.need(ns * 5)
            let budget = World.prefaultBudget(r)
            shapes.reserveCapacity(ns, prefaultingWithin: budget); broadPhase.boxes.reserveCapacity(ns, prefaultingWithin: budget)
            broadPhase.fatBoxes.reserveCapacity(ns, prefaultingWithin: budget)
            broadPhase.isLarge.reserveCapacity(ns, prefaultingWithin: budget)
            broadPhase.isLarge.append(contentsOf: repeatElement(0, count: ns))
            broadPhase.filters.append(contentsOf: repeatElement(.default, count: ns))
            broadPhase.reach.append(contentsOf: repeatElement(3, count: ns))
            broadPhase.activity.inSleepGrid.append(contentsOf: repeatElement(0, count: ns))
            let free = World.freeMask(shapeSlots)
            prototypeOf = [Int32](repeating: -1, count: ns)
            continuous.oneSidedSegments = 0
            // Blocks of at least 4 vertices per shape with vertices.
            pool.vertices.reserveCapacity(4 * ns + 4); pool.normals.reserveCapacity(4 * ns + 4)
            for s in 0..<ns {
                let at = r.offset
                let f = try r.u8()
                var rec = ShapeRecord()
                rec.generation = try r.u32()
                let zero = AABB(lower: .zero, upper: .zero)
                guard f & ShapeBits.alive != 0 else {
                    if f != 0 { throw r.invalid("shape.flags", at: at, "\(f) for a dead slot") }
                    if !free[s] || owner[s] >= 0 { throw r.invalid("shape.alive", at: at, "dead shape \(s) is not a free slot") }
                    shapes.append(rec); broadPhase.boxes.append(zero); broadPhase.fatBoxes.append(zero)
                    continue
                }
                if f > (r.version >= 3 ? 31 : 15) { throw r.invalid("shape.flags", at: at, "unknown flags \(f)") }
                if free[s] { throw r.invalid("shape.alive", at: at, "live shape \(s) is listed as a free slot") }
                let b = owner[s]
                if b < 0 { throw r.invalid("shape.body", at: at, "live shape \(s) belongs to no body") }
                rec.alive = true
                rec.body = b
                rec.isBoundary = f & ShapeBits.isBoundary != 0
                rec.isStatic = f & ShapeBits.isStatic != 0
                rec.oneSided = f & ShapeBits.oneSided != 0
                if rec.isStatic != (metas[Int(b)].type == .static) { throw r.invalid("shape.isStatic", at: at, "disagrees with its body's type") }
                let p = Int(try r.index("shape.prototype", below: protos.list.count))
                let proto = protos.list[p]
                rec.kind = proto.kind
                rec.radius = proto.radius
                rec.center = proto.center
                rec.friction = proto.material.friction
                rec.restitution = proto.material.restitution
                rec.density = proto.material.density
                rec.rollingResistance = proto.material.rollingResistance
                if proto.kind == .segment && !rec.isStatic { throw r.invalid("shape.prototype", at: at, "a segment on a moving body") }
                prototypeOf[s] = Int32(p)
                if f & ShapeBits.filtered != 0 {
                    let fAt = r.offset
                    let filter = ShapeFilter(categoryBits: try r.u64(), maskBits: try r.u64(), groupIndex: try r.i32())
                    if filter == .default { throw r.invalid("shape.filter", at: fAt, "a filtered shape with the default filter") }
                    rec.filtered = true
                    broadPhase.filters[s] = filter
                }
                if proto.count > 0 {
                    rec.vertexCount = Int32(proto.count)
                    // A fresh block (the restored pool has no free blocks), as `VertexPool.allocate`.
                    let cap = 4 << VertexPool.sizeClass(proto.count)
                    let st = pool.vertices.count
                    pool.vertices.append(contentsOf: repeatElement(.zero, count: cap))
                    pool.normals.append(contentsOf: repeatElement(.zero, count: cap))
                    for k in 0..<proto.count {
                        pool.vertices[st + k] = protos.verts[proto.start + k]
                        pool.normals[st + k] = protos.norms[proto.start + k]
                    }
                    rec.vertexStart = Int32(st)
                }
                if rec.isBoundary {
                    let gAt = r.offset
                    rec.boundaryGroup = try r.index("shape.boundaryGroup", below: ng)
                    rec.boundaryID = try r.u64()
                    if b != boundaryBody || proto.kind != .segment || !groups.records[Int(rec.boundaryGroup)].boundaries.contains(Int32(s)) {
                        throw r.invalid("shape.boundaryGroup", at: gAt, "boundary \(s) is not a segment of the boundary body listed by its group")
                    }
                }
                if rec.oneSided {
                    if !rec.isBoundary { throw r.invalid("shape.oneSided", at: at, "only boundaries are one-sided") }
                    continuous.oneSidedSegments += 1
                }
                if rec.isStatic {
                    broadPhase.boxes.append(try r.aabb("shape.box"))
                    broadPhase.fatBoxes.append(try r.aabb("shape.fatBox"))
                } else {
                    broadPhase.fatBoxes.append(try r.aabb("shape.fatBox"))
                    // Rewritten by the next step before it is read.
                    broadPhase.boxes.append(zero)
                }
                shapes.append(rec)
            }
            // Every group's boundaries are live boundaries of that group.
            for (gi, g) in groups.records.enumerated() {
                for s in g.boundaries where !(shapes[Int(s)].alive && shapes[Int(s)].isBoundary && shapes[Int(s)].boundaryGroup == Int32(gi)) {
                    throw r.invalid("group.boundaries", at: r.offset, "group \(gi) lists shape \(s), not one of its boundaries")
                }
            }
        }
    }

    /// Mass properties from the shapes (as `updateMass` computed them), stored centres, masks,
    /// group members, sleep rings; checks that nothing non-finite came out.
    private func finishBodies(_ r: inout SnapshotReader, prototypeOf: [Int32]) throws {
        let nb = Int(bodySlots.count)
        let at = r.offset
        r.section = "BODY"
        // `updateMass` is a function of the body's shapes, type and fixed rotation: bodies of
        // one shape share the result per (prototype, type, fixed rotation).
        // (Indexed by key, not hashed into a dictionary: hashing is a visible part of a large
        // restore.)
        let keys = 8 * (Int(prototypeOf.max() ?? -1) + 1)
        var memoSlot = [Int32](repeating: -1, count: keys)
        var memo: [BodySim] = []
        var defaultMasks: (UInt64, UInt64, Bool)? = nil
        for i in 0..<nb where metas[i].alive {
            let keep = sims[i]
            // (The boundary body's mass properties are those of a static body without shapes:
            // boundaries are added without `updateMass`.)
            if i != Int(boundaryBody) {
                let m = metas[i]
                let key = m.shapeCount == 1 ? Int(prototypeOf[Int(m.firstShape)]) * 8 + Int(m.type.rawValue) * 2 + (m.fixedRotation ? 1 : 0) : -1
                if key >= 0 && memoSlot[key] >= 0 {
                    let known = memo[Int(memoSlot[key])]
                    var sim = keep
                    sim.mass = known.mass; sim.inertia = known.inertia; sim.invMass = known.invMass
                    sim.invInertia = known.invInertia; sim.localCenter = known.localCenter; sim.maxExtent = known.maxExtent
                    sims[i] = sim
                } else {
                    updateMass(body: i)
                    if key >= 0 { memoSlot[key] = Int32(memo.count); memo.append(sims[i]) }
                }
            }
            sims[i].coreRadius = keep.coreRadius
            sims[i].center = keep.center
            sims[i].center0 = keep.center0
            let s = sims[i]
            if !(s.mass.isFinite && s.inertia.isFinite && s.invMass.isFinite && s.invInertia.isFinite
                 && s.localCenter.isFinite && s.maxExtent.isFinite) {
                throw r.invalid("body.shapes", at: at, "body \(i)'s shapes give a non-finite mass")
            }
            if groups.ofBody[i].count == 1 && groups.ofBody[i][0] == 0 {
                if defaultMasks == nil { recomputeMasks(body: i); defaultMasks = (metas[i].itemMask, metas[i].boundaryMask, metas[i].overflow) }
                (metas[i].itemMask, metas[i].boundaryMask, metas[i].overflow) = defaultMasks!
            } else {
                recomputeMasks(body: i)
            }
        }
        let bb = Int(boundaryBody)
        if !metas[bb].alive || metas[bb].type != .static {
            throw r.invalid("boundaryBody", at: at, "body \(bb) is not a live static body")
        }
        // Sleep rings: every body with a successor is the successor of exactly one (cycles).
        var incoming = [UInt8](repeating: 0, count: nb)
        for i in 0..<nb where metas[i].alive && metas[i].sleepNext >= 0 {
            let n = Int(metas[i].sleepNext)
            if !metas[n].alive || metas[n].sleepNext < 0 || metas[i].awake || incoming[n] != 0 {
                throw r.invalid("body.sleepNext", at: at, "body \(i)'s sleeping ring is broken")
            }
            incoming[n] = 1
        }
        r.section = "SHAP"
    }

    private func readJoints(_ r: inout SnapshotReader, count nj: Int, bodyCount nb: Int) throws {
        try World.section(&r, "JONT") { r in
            try r.need(nj * 5)
            joints.reserveCapacity(nj)
            let free = Set(jointSlots.freeSlots)
            for j in 0..<nj {
                let at = r.offset
                var rec = JointRecord()
                rec.alive = try r.bool("joint.alive")
                rec.generation = try r.u32()
                if rec.alive == free.contains(Int32(j)) { throw r.invalid("joint.alive", at: at, "disagrees with the free slots") }
                guard rec.alive else { joints.append(rec); continue }
                let tAt = r.offset
                let t = try r.u8()
                guard let type = JointType(rawValue: t) else { throw r.invalid("joint.type", at: tAt, "\(t)") }
                var bodyA: BodyHandle? = nil
                if try r.bool("joint.hasBodyA") { bodyA = BodyHandle(index: try r.i32(), generation: try r.u32()) }
                let bodyB = BodyHandle(index: try r.i32(), generation: try r.u32())
                var d = JointDef(type: type, bodyA: bodyA, bodyB: bodyB)
                d.localAnchorA = try r.vec2("joint.localAnchorA"); d.localAnchorB = try r.vec2("joint.localAnchorB")
                d.localAxisA = try r.vec2("joint.localAxisA")
                if try r.bool("joint.hasReferenceAngle") { d.referenceAngle = try r.f32("joint.referenceAngle") }
                if try r.bool("joint.hasLength") { d.length = try r.f32("joint.length") }
                d.minLength = try r.f32("joint.minLength"); d.maxLength = try r.f32AllowingInfinity("joint.maxLength")
                d.enableSpring = try r.bool("joint.enableSpring"); d.hertz = try r.f32("joint.hertz")
                d.dampingRatio = try r.f32("joint.dampingRatio")
                d.enableLimit = try r.bool("joint.enableLimit"); d.lower = try r.f32("joint.lower"); d.upper = try r.f32("joint.upper")
                d.enableMotor = try r.bool("joint.enableMotor"); d.maxMotorTorque = try r.f32("joint.maxMotorTorque")
                d.motorSpeed = try r.f32("joint.motorSpeed")
                d.target = try r.vec2("joint.target"); d.targetAngle = try r.f32("joint.targetAngle")
                d.maxForce = try r.f32AllowingInfinity("joint.maxForce")
                d.angularHertz = try r.f32("joint.angularHertz"); d.angularDampingRatio = try r.f32("joint.angularDampingRatio")
                if let msg = d.validate() { throw r.invalid("joint.definition", at: tAt, msg) }
                rec.def = d
                let bAt = r.offset
                rec.bodyA = try r.index("joint.bodyA", below: nb)
                rec.bodyB = try r.index("joint.bodyB", below: nb)
                if rec.bodyA == rec.bodyB || !metas[Int(rec.bodyA)].alive || !metas[Int(rec.bodyB)].alive {
                    throw r.invalid("joint.bodies", at: bAt, "joint \(j) needs two different live bodies")
                }
                rec.restLength = try r.f32("joint.restLength"); rec.referenceAngle = try r.f32("joint.referenceAngle")
                rec.linearImpulse = try r.vec2("joint.linearImpulse"); rec.angularImpulse = try r.f32("joint.angularImpulse")
                rec.springImpulse = try r.f32("joint.springImpulse"); rec.lowerImpulse = try r.f32("joint.lowerImpulse")
                rec.upperImpulse = try r.f32("joint.upperImpulse"); rec.motorImpulse = try r.f32("joint.motorImpulse")
                joints.append(rec)
            }
        }
    }

    private func readContacts(_ r: inout SnapshotReader) throws {
        try World.section(&r, "CONT") { r in
            let n = try r.count("contacts", atMost: Int(Int32.max), minBytesEach: 2)
            let budget = World.prefaultBudget(r)
            let ns = Int(shapeSlots.count)
            contacts.reserve(n, prefaultingWithin: budget)
            let sh = shapes.view, me = metas.view
            var key: UInt64 = 0
            for k in 0..<n {
                let at = r.offset
                let delta = try r.varint("contact.key")
                let (next, overflow) = key.addingReportingOverflow(delta)
                key = next
                let a = Int(truncatingIfNeeded: key >> 32), b = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
                guard delta > 0, !overflow, a < ns, b < ns, a != b, sh[a].alive, sh[b].alive, sh[a].body != sh[b].body else {
                    throw r.invalid("contact.key", at: at, "key \(key): not two live shapes of different bodies in increasing key order")
                }
                var c = ContactSet.makeContact(key: key, shapes: sh)
                let f = try r.u8()
                let hasPoints = f & Contact.hasPoints != 0
                if !hasPoints && f & (ContactBits.twoPoints | ContactBits.speculative) != 0 {
                    throw r.invalid("contact.flags", at: at, "points flagged on a contact without points (\(f))")
                }
                let pc = hasPoints ? (f & ContactBits.twoPoints != 0 ? 2 : 1) : 0
                let cached = f & ContactBits.cached != 0, anchors = f & ContactBits.anchors != 0
                c.flags = f & (Contact.hasPoints | Contact.touching | Contact.began)
                if cached { c.flags |= Contact.cached }
                if f & ContactBits.recycled != 0 { c.flags |= Contact.recycled }
                if f & ContactBits.speculative != 0 { c.flags |= Contact.speculative }
                c.slot = Int32(k)
                let kept = !World.updatedByNextStep(c, me)
                var d = ContactData()
                if cached {
                    d.cachedOffset = try r.vec2("contact.cachedOffset")
                    d.cachedQA = try r.rot("contact.cachedQA"); d.cachedQB = try r.rot("contact.cachedQB")
                }
                d.manifold.pointCount = pc
                if pc > 0 { d.manifold.normal = try r.vec2("contact.normal") }
                for p in 0..<pc {
                    var mp = ManifoldPoint()
                    mp.id = try r.u32()
                    mp.normalImpulse = try r.f32("contact.normalImpulse"); mp.tangentImpulse = try r.f32("contact.tangentImpulse")
                    mp.maxNormalImpulse = try r.f32("contact.maxNormalImpulse")
                    if anchors { mp.anchorA = try r.vec2("contact.anchorA"); mp.baseSeparation = try r.f32("contact.baseSeparation") }
                    if kept { mp.point = try r.vec2("contact.point"); mp.separation = try r.f32("contact.separation") }
                    if p == 0 { d.manifold.p0 = mp } else { d.manifold.p1 = mp }
                }
                d.rollingResistance = ContactSet.rollingResistance(sh[a], sh[b])
                if d.rollingResistance > 0 && r.version >= 4 { d.rollingImpulse = try r.f32("contact.rollingImpulse") }
                contacts.append(restored: c, d)
            }
        }
    }

    /// The sleeping sets of the restored world: one per sleeping ring of dynamic bodies, and
    /// the retired contacts moved into them (as `ContactSet.retire` moves them at the end of
    /// a step). A contact with points between two sleeping islands is invalid: its points
    /// would have made the two one island.
    private func restoreSleepingSets(_ r: inout SnapshotReader) throws {
        let nb = Int(bodySlots.count)
        contacts.bodySets.refill(count: nb, with: -1)
        for i in 0..<nb where metas[i].alive && metas[i].type == .dynamic && !metas[i].awake && contacts.bodySets[i] < 0 {
            let set = contacts.makeSet()
            var k = i
            repeat {
                if metas[k].type == .dynamic { contacts.bodySets[k] = set }
                k = Int(metas[k].sleepNext)
            } while k >= 0 && k != i
        }
        let bs = contacts.bodySets.view
        for c in contacts.view where c.flags & Contact.hasPoints != 0 {
            let sa = bs[Int(c.bodyA)], sb = bs[Int(c.bodyB)]
            if sa >= 0 && sb >= 0 && sa != sb {
                throw r.invalid("contact.flags", at: r.offset, "contact \(c.key) has points between two sleeping islands")
            }
        }
        contacts.retire(metas: metas.view)
    }

    private func readEvents(_ r: inout SnapshotReader) throws -> [ContactEvent] {
        let n = try r.count("events", atMost: Int(Int32.max), minBytesEach: 33)
        var out: [ContactEvent] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            let body = BodyHandle(index: try r.i32(), generation: try r.u32())
            let at = r.offset
            let other: ContactEvent.Partner
            switch try r.u8() {
            case 0: other = .body(BodyHandle(index: try r.i32(), generation: try r.u32()))
            case 1:
                let h = BoundaryHandle(shape: try r.i32(), generation: try r.u32())
                other = .boundary(h, id: try r.u64())
            case let v: throw r.invalid("event.partner", at: at, "\(v)")
            }
            out.append(ContactEvent(body: body, other: other, point: try r.vec2("event.point"), normal: try r.vec2("event.normal")))
        }
        return out
    }
}
