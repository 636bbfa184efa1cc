// The byte-level side of world snapshots (`Snapshot.swift`): the header, the checksum, a
// growable little-endian writer and a bounds-checked reader. Nothing here knows the world.

extension World {
    /// Why `World(snapshot:)` refused a snapshot. Every case says where and what is wrong.
    public enum SnapshotError: Error, Equatable, CustomStringConvertible {
        /// The bytes do not start with the snapshot magic (`DKWORLD` and a zero byte).
        case notASnapshot
        /// Written by a newer format version than this build reads.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// The data ends before a value of `section` that needs `needed` bytes at `offset`
        /// (offsets count from the start of the snapshot).
        case truncated(section: String, offset: Int, needed: Int, available: Int)
        /// The header's payload length disagrees with the bytes given (a cut-off file, or
        /// bytes appended to one).
        case lengthMismatch(declared: Int, actual: Int)
        /// The payload's checksum differs from the header's: the bytes were altered.
        case checksumMismatch(stored: UInt64, computed: UInt64)
        /// A value read at `offset` is not one a world can hold (NaN, an index out of range,
        /// an unknown enumeration value, a broken list).
        case invalidValue(section: String, field: String, offset: Int, reason: String)

        /// A sentence saying what is wrong and where (section, field, byte offset).
        public var description: String {
            switch self {
            case .notASnapshot:
                return "not a world snapshot (the first 8 bytes are not the snapshot magic)"
            case let .unsupportedVersion(found, supported):
                return "snapshot format version \(found) is newer than the supported version \(supported)"
                    + (found == 0 ? " (version 0 does not exist)" : "")
            case let .truncated(section, offset, needed, available):
                return "snapshot truncated at offset \(offset) of section '\(section)': \(needed) bytes needed, \(available) left"
            case let .lengthMismatch(declared, actual):
                return actual < declared
                    ? "snapshot truncated: the header declares \(declared) payload bytes, \(actual) present"
                    : "snapshot has \(actual - declared) bytes after its declared \(declared) payload bytes"
            case let .checksumMismatch(stored, computed):
                return "snapshot checksum mismatch (stored \(hex(stored)), computed \(hex(computed))): the data is corrupt"
            case let .invalidValue(section, field, offset, reason):
                return "invalid value in field '\(field)' of section '\(section)' at offset \(offset): \(reason)"
            }
        }

        private func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return "0x" + String(repeating: "0", count: 16 - s.count) + s
        }
    }
}

/// The fixed header of a snapshot (32 bytes, little-endian):
/// magic `DKWORLD\0` (8) · format version (u32) · reserved, zero (u32) · payload length (u64) ·
/// payload checksum (u64, `SnapshotChecksum`).
enum SnapshotHeader {
    static let magic: [UInt8] = Array("DKWORLD".utf8) + [0]
    static let size = 32
    /// The format version this build writes and the newest it reads; it reads the older ones
    /// too. Version 2 added the static grid's cell size to `WRLD`; version 3 the shapes'
    /// filters (`SHAP`, for shapes with a filter other than the default); version 4 the
    /// materials' rolling resistance (`GEOM`) and the rolling impulse of each contact that has
    /// rolling resistance (`CONT`).
    static let version: UInt32 = 4
}

/// The snapshot checksum: four interleaved lanes over the payload read as little-endian
/// 64-bit words (lane `k` takes words `k, k + 4, …`), each lane `h = (h ^ word) · p` with the
/// 64-bit FNV prime `p = 0x100000001b3` from the FNV offset basis plus the lane number; the
/// last 0–7 bytes form a final word (zero-padded) for lane 0. The result mixes the lanes and
/// the length through a 64-bit finaliser. Every change confined to one 8-byte word changes
/// the result (each step is a bijection of the lane state).
enum SnapshotChecksum {
    static let prime: UInt64 = 0x0000_0100_0000_01b3
    static let basis: UInt64 = 0xcbf2_9ce4_8422_2325

    static func of(_ p: UnsafeRawBufferPointer) -> UInt64 {
        var h0 = basis, h1 = basis &+ 1, h2 = basis &+ 2, h3 = basis &+ 3
        let n = p.count
        var i = 0
        if let base = p.baseAddress {
            while i + 32 <= n {
                h0 = (h0 ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* prime
                h1 = (h1 ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))) &* prime
                h2 = (h2 ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))) &* prime
                h3 = (h3 ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))) &* prime
                i += 32
            }
            var lane = 0
            while i + 8 <= n {
                let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                switch lane {
                case 0: h0 = (h0 ^ w) &* prime
                case 1: h1 = (h1 ^ w) &* prime
                default: h2 = (h2 ^ w) &* prime
                }
                lane += 1; i += 8
            }
            if i < n {
                var w: UInt64 = 0
                for k in 0..<(n - i) { w |= UInt64(base.load(fromByteOffset: i + k, as: UInt8.self)) << UInt64(8 * k) }
                h0 = (h0 ^ w) &* prime
            }
        }
        var h = mix(h0) ^ mix(h1 &+ 0x9e37_79b9_7f4a_7c15) ^ mix(h2 &+ 0x3c6e_f372_fe94_f82a) ^ mix(h3 &+ 0xdaa6_6d2c_7ddf_743f)
        h ^= UInt64(n)
        return mix(h)
    }

    /// A 64-bit finaliser (a bijection that spreads every input bit over the output).
    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var k = x
        k ^= k >> 33; k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33; k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}

/// A growable little-endian byte buffer: fixed-width stores into raw memory (no per-byte
/// appends); call `reserve` before a record with its largest size.
final class SnapshotWriter {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int
    /// False while the writer fills memory it was lent (`init(lending:capacity:)`).
    private(set) var ownsStorage = true

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    /// A writer filling `capacity` bytes at `base` (an array's new buffer); if they do not
    /// suffice it moves to storage of its own (`ownsStorage`).
    init(lending base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
        ownsStorage = false
    }

    deinit { if ownsStorage { base.deallocate() } }

    /// Makes room for `n` more bytes.
    @inline(__always) func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ need: Int) {
        let c = max(need, capacity * 2)
        let p = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 16)
        p.copyMemory(from: base, byteCount: count)
        if ownsStorage { base.deallocate() }
        ownsStorage = true
        base = p
        capacity = c
    }

    // Unchecked stores: the caller reserved room for the record.
    @inline(__always) func u8(_ v: UInt8) { base.storeBytes(of: v, toByteOffset: count, as: UInt8.self); count += 1 }
    @inline(__always) func u16(_ v: UInt16) { base.storeBytes(of: v.littleEndian, toByteOffset: count, as: UInt16.self); count += 2 }
    @inline(__always) func u32(_ v: UInt32) { base.storeBytes(of: v.littleEndian, toByteOffset: count, as: UInt32.self); count += 4 }
    @inline(__always) func u64(_ v: UInt64) { base.storeBytes(of: v.littleEndian, toByteOffset: count, as: UInt64.self); count += 8 }
    @inline(__always) func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    @inline(__always) func f32(_ v: Float) { u32(v.bitPattern) }
    @inline(__always) func vec2(_ v: Vec2) { f32(v.x); f32(v.y) }
    @inline(__always) func rot(_ r: Rot) { f32(r.c); f32(r.s) }
    @inline(__always) func aabb(_ b: AABB) { vec2(b.lower); vec2(b.upper) }
    @inline(__always) func bool(_ b: Bool) { u8(b ? 1 : 0) }
    /// An unsigned LEB128 number (1–10 bytes).
    @inline(__always) func varint(_ v: UInt64) {
        var x = v
        while x >= 0x80 { u8(UInt8(truncatingIfNeeded: x) | 0x80); x >>= 7 }
        u8(UInt8(x))
    }

    /// Drops the bytes from `n` on.
    func truncate(to n: Int) { precondition(n <= count); count = n }

    func patchU32(_ v: UInt32, at offset: Int) { base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt32.self) }

    /// Writes `v` at an earlier position (a length filled in after its section).
    func patchU64(_ v: UInt64, at offset: Int) {
        base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt64.self)
    }

    /// Appends raw bytes.
    func bytes(_ b: [UInt8]) {
        reserve(b.count)
        b.withUnsafeBytes { if let s = $0.baseAddress { (base + count).copyMemory(from: s, byteCount: b.count) } }
        count += b.count
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}

/// A bounds-checked little-endian reader over a snapshot's bytes. Every read that would run
/// past the end throws `SnapshotError.truncated` naming the section being read.
struct SnapshotReader {
    let base: UnsafeRawPointer
    /// End of the readable range (the end of the current section while one is read).
    var end: Int
    var offset: Int
    var section = "header"
    /// The snapshot's format version (read from the header by `World.openSnapshot`): what
    /// an older version does not hold is read only from newer ones.
    var version = SnapshotHeader.version

    init(_ p: UnsafeRawBufferPointer) {
        base = p.baseAddress ?? UnsafeRawPointer(bitPattern: 64)!
        end = p.count
        offset = 0
    }

    var remaining: Int { end - offset }

    @inline(__always) mutating func need(_ n: Int) throws {
        if n > end - offset {
            throw World.SnapshotError.truncated(section: section, offset: offset, needed: n, available: end - offset)
        }
    }

    @inline(__always) mutating func u8() throws -> UInt8 {
        try need(1); defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }
    @inline(__always) mutating func u16() throws -> UInt16 {
        try need(2); defer { offset += 2 }
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) mutating func u32() throws -> UInt32 {
        try need(4); defer { offset += 4 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) mutating func u64() throws -> UInt64 {
        try need(8); defer { offset += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }

    /// An unsigned LEB128 number of at most 10 bytes that fits in 64 bits.
    @inline(__always) mutating func varint(_ field: StaticString) throws -> UInt64 {
        let at = offset
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            if shift == 63 && b > 1 { throw invalid(field, at: at, "number longer than 64 bits") }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    /// Reads a float that must be finite.
    @inline(__always) mutating func f32(_ field: StaticString) throws -> Float {
        let at = offset
        let v = Float(bitPattern: try u32())
        if !v.isFinite { throw invalid(field, at: at, "\(v) is not finite") }
        return v
    }

    /// Reads a float that must not be NaN (infinity allowed: an unlimited joint length).
    @inline(__always) mutating func f32AllowingInfinity(_ field: StaticString) throws -> Float {
        let at = offset
        let v = Float(bitPattern: try u32())
        if v.isNaN { throw invalid(field, at: at, "NaN") }
        return v
    }

    @inline(__always) mutating func vec2(_ field: StaticString) throws -> Vec2 { Vec2(try f32(field), try f32(field)) }
    @inline(__always) mutating func rot(_ field: StaticString) throws -> Rot { Rot(c: try f32(field), s: try f32(field)) }
    @inline(__always) mutating func aabb(_ field: StaticString) throws -> AABB {
        let at = offset
        let b = AABB(lower: try vec2(field), upper: try vec2(field))
        if !(b.lower.x <= b.upper.x && b.lower.y <= b.upper.y) { throw invalid(field, at: at, "lower corner above upper corner") }
        return b
    }

    mutating func bool(_ field: StaticString) throws -> Bool {
        let at = offset
        switch try u8() {
        case 0: return false
        case 1: return true
        case let v: throw invalid(field, at: at, "\(v) is not a boolean (0 or 1)")
        }
    }

    /// An index read as a signed 32-bit value that must lie in `0 ..< limit` (or be -1 when
    /// `allowNone`).
    @inline(__always) mutating func index(_ field: StaticString, below limit: Int, allowNone: Bool = false) throws -> Int32 {
        let at = offset
        let v = try i32()
        if (allowNone && v == -1) || (v >= 0 && Int(v) < limit) { return v }
        throw invalid(field, at: at, "index \(v) outside 0..<\(limit)")
    }

    /// A count that must be at most `limit` (and fit in the bytes left at `minBytesEach` each).
    @inline(__always) mutating func count(_ field: StaticString, atMost limit: Int, minBytesEach: Int = 0) throws -> Int {
        let at = offset
        let v = Int(try u32())
        if v > limit { throw invalid(field, at: at, "count \(v) exceeds \(limit)") }
        if minBytesEach > 0 && v > remaining / minBytesEach {
            throw World.SnapshotError.truncated(section: section, offset: offset, needed: v * minBytesEach, available: remaining)
        }
        return v
    }

    func invalid(_ field: StaticString, at offset: Int, _ reason: String) -> World.SnapshotError {
        .invalidValue(section: section, field: "\(field)", offset: offset, reason: reason)
    }
}
