import Foundation

/// One configuration of a sweep.
public struct BenchConfig: Hashable, Sendable, CustomStringConvertible {
    public var scene: String
    public var items: Int
    public var threads: Int

    public init(scene: String, items: Int, threads: Int) {
        self.scene = scene; self.items = items; self.threads = threads
    }

    public var key: BenchKey { BenchKey(scene: scene, items: items, threads: threads) }
    public var description: String { key.description }
}

/// The list of configurations a `run` or the default suite measures, in a fixed order:
/// scene by scene, then size, then threads.
public enum Sweep {
    public static func configurations(_ scenes: [(scene: String, items: [Int])], threads: [Int]) -> [BenchConfig] {
        scenes.flatMap { entry in
            entry.items.flatMap { n in threads.map { BenchConfig(scene: entry.scene, items: n, threads: $0) } }
        }
    }
}

/// `--shard K/N`: part K (1-based) of N takes every N-th configuration starting at K−1, so
/// the N parts together run every configuration exactly once and each part gets a mix of
/// scenes and sizes.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 1, index <= count else {
            throw BenchUsageError("bad shard \(index)/\(count): expected K/N with 1 ≤ K ≤ N")
        }
        self.index = index; self.count = count
    }

    /// Parses "K/N", e.g. "2/4".
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw BenchUsageError("bad shard '\(text)': expected K/N, e.g. --shard 2/4")
        }
        guard n >= 1, k >= 1, k <= n else {
            throw BenchUsageError("bad shard '\(text)': expected K/N with 1 ≤ K ≤ N")
        }
        try self.init(index: k, count: n)
    }

    public func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    public var description: String { "\(index)/\(count)" }
}

/// Parsing of the CLI's number lists and counts.
public enum BenchArguments {
    /// "1000" or "1000,4000": positive integers, duplicates removed, order kept.
    public static func positiveList(_ text: String, option: String) throws -> [Int] {
        var out: [Int] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        for p in parts {
            let s = p.trimmingCharacters(in: .whitespaces)
            guard let v = Int(s) else {
                throw BenchUsageError("\(option) must be a positive integer or a comma-separated list of them (got '\(text)')")
            }
            guard v > 0 else { throw BenchUsageError("\(option) must be a positive integer (got \(v))") }
            if !out.contains(v) { out.append(v) }
        }
        return out
    }
}
