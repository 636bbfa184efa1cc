import BenchSupport
import CJemalloc
import JemallocConfig
#if canImport(Glibc)
import Glibc
#endif

/// jemalloc's statistics through `mallctl`. `dynamics-bench` links jemalloc (the `CJemalloc`
/// system library target), which makes it the process's `malloc`; the libraries do not.
///
/// - `stats.allocated` / `stats.resident`: live and resident bytes of the whole process, as of
///   the last `epoch` refresh.
/// - `thread.allocatedp` / `thread.deallocatedp`: pointers to the calling thread's running
///   byte counters (jemalloc counts bytes per thread, not allocation events).
/// - `stats.arenas.4096.small.nrequests` (4096 = MALLCTL_ARENAS_ALL) + `large.nrequests`: allocation events of all
///   threads (needs a refresh; includes the thread caches).
enum Jemalloc {
    /// The jemalloc version string, e.g. "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c".
    static var version: String? {
        var p: UnsafePointer<CChar>? = nil
        var len = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &p, &len, nil, 0) == 0, let p else { return nil }
        return String(cString: p)
    }

    /// Reads a numeric statistic (`size_t` or `uint64_t`, both 8 bytes here).
    static func read(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        var len = MemoryLayout<UInt64>.size
        let rc = name.withCString { mallctl($0, &value, &len, nil, 0) }
        return rc == 0 ? value : nil
    }

    static func readBool(_ name: String) -> Bool? {
        var value = false
        var len = MemoryLayout<Bool>.size
        let rc = name.withCString { mallctl($0, &value, &len, nil, 0) }
        return rc == 0 ? value : nil
    }

    /// Refreshes the cached `stats.*` figures.
    static func refresh() {
        var old: UInt64 = 0
        var new: UInt64 = 1
        var len = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &old, &len, &new, MemoryLayout<UInt64>.size)
    }

    /// A pointer to the calling thread's counter (`thread.allocatedp` or `thread.deallocatedp`).
    /// Valid for the calling thread only, for its lifetime.
    static func threadCounter(_ name: String) -> UnsafeMutablePointer<UInt64>? {
        var p: UnsafeMutablePointer<UInt64>? = nil
        var len = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        let rc = name.withCString { mallctl($0, &p, &len, nil, 0) }
        return rc == 0 ? p : nil
    }

    /// A snapshot of the process-wide figures (refreshes first).
    struct Snapshot {
        var allocated: UInt64
        var resident: UInt64
        var requests: UInt64
    }

    static func snapshot() -> Snapshot {
        refresh()
        // Literal names: building them after the refresh would allocate inside a measured window.
        let small = read("stats.arenas.4096.small.nrequests") ?? 0
        let large = read("stats.arenas.4096.large.nrequests") ?? 0
        return Snapshot(allocated: read("stats.allocated") ?? 0, resident: read("stats.resident") ?? 0,
                        requests: small + large)
    }

    /// Checks that jemalloc is the allocator Swift's own allocations go through and that its
    /// statistics are on; throws a one-line error otherwise, so the tool never prints zeros
    /// that only mean "not measured".
    /// `count` small blocks from malloc, returned so the optimizer cannot drop or move them
    /// (Swift arrays built here can be promoted to the stack under whole-module optimization).
    @inline(never)
    static func probeAllocations(_ count: Int) -> [UnsafeMutableRawPointer] {
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(count)
        for k in 0..<count {
            guard let p = malloc(32) else { break }
            p.storeBytes(of: UInt8(truncatingIfNeeded: k), as: UInt8.self)
            blocks.append(p)
        }
        return blocks
    }

    static func verify() throws -> String {
        guard let version else {
            throw EnvironmentError("jemalloc's mallctl does not answer; dynamics-bench must be linked with jemalloc (libjemalloc-dev)")
        }
        guard readBool("config.stats") == true else {
            throw EnvironmentError("jemalloc \(version) was built without statistics (--disable-stats); cannot measure memory")
        }
        guard let counter = threadCounter("thread.allocatedp") else {
            throw EnvironmentError("jemalloc \(version) has no per-thread counters (thread.allocatedp)")
        }
        // A Swift array's storage comes from the process's malloc: the counter must see it.
        let before = counter.pointee
        let probe = [UInt8](repeating: 1, count: 1 << 20)
        let after = counter.pointee
        withExtendedLifetime(probe) {}
        guard after &- before >= 1 << 20 else {
            throw EnvironmentError("jemalloc \(version) is linked but is not the process's malloc (a 1 MiB Swift allocation was not counted); cannot measure allocations")
        }
        let s1 = snapshot()
        let probe2 = probeAllocations(64)
        let s2 = snapshot()
        for p in probe2 { free(p) }
        guard s2.requests &- s1.requests >= 64 else {
            throw EnvironmentError("jemalloc \(version): the arena request counters did not count 64 allocations (\(s1.requests) -> \(s2.requests), \(probe2.count) blocks)")
        }
        return "jemalloc \(version)"
    }
}

/// The machine cannot measure what was asked (e.g. jemalloc is not the allocator): exit 3.
struct EnvironmentError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// Peak resident set size of this process (getrusage; Linux reports KiB).
func maxResidentSetBytes() -> Int {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024
}
