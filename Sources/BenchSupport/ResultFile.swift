import Foundation

/// The machine a result file was measured on.
public struct MachineInfo: Codable, Sendable, Equatable {
    public var hostname: String
    public var os: String
    public var arch: String
    public var cpu: String
    public var cores: Int
    public var memoryBytes: UInt64

    public init(hostname: String, os: String, arch: String, cpu: String, cores: Int, memoryBytes: UInt64) {
        self.hostname = hostname; self.os = os; self.arch = arch; self.cpu = cpu
        self.cores = cores; self.memoryBytes = memoryBytes
    }

    enum CodingKeys: String, CodingKey {
        case hostname, os, arch, cpu, cores
        case memoryBytes = "memory_bytes"
    }

    /// This machine, read from ProcessInfo, uname and /proc/cpuinfo.
    public static func current() -> MachineInfo {
        let info = ProcessInfo.processInfo
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var arch = "unknown"
        var u = utsname()
        if uname(&u) == 0 {
            arch = withUnsafeBytes(of: &u.machine) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return MachineInfo(hostname: info.hostName, os: info.operatingSystemVersionString, arch: arch,
                           cpu: cpu, cores: info.activeProcessorCount, memoryBytes: info.physicalMemory)
    }
}

/// The file `dynamics-bench … --out FILE` writes and `compare` / `merge` read:
///
/// ```json
/// { "format": "dynamics-bench-results", "version": 1,
///   "date": "2026-11-23T10:00:00Z", "machine": { "hostname": …, "cpu": …, "cores": 2, … },
///   "swift_version": "6.3", "git_commit": "ee63745…", "command": "dynamics-bench run pile …",
///   "shard": "1/2", "results": [ { "scene": "pile", "items": 1000, "threads": 1,
///   "steps_per_second": 812.4, "steps_per_second_min": …, … } ] }
/// ```
///
/// `load` also accepts a bare result object, an array of them, or one object per line (what
/// `--format json` prints), so output of older versions can serve as a baseline.
public struct ResultFile: Codable, Sendable, Equatable {
    public static let formatName = "dynamics-bench-results"

    public var format: String
    public var version: Int
    /// ISO 8601, UTC.
    public var date: String
    public var machine: MachineInfo?
    public var swiftVersion: String?
    public var gitCommit: String?
    public var command: String?
    /// "K/N" when the file holds one shard of a sweep.
    public var shard: String?
    /// The files `merge` combined, in order.
    public var mergedFrom: [String]?
    public var results: [BenchRecord]

    public init(date: String = ResultFile.now(), machine: MachineInfo?, swiftVersion: String?,
                gitCommit: String?, command: String?, shard: String? = nil,
                mergedFrom: [String]? = nil, results: [BenchRecord]) {
        self.format = Self.formatName; self.version = 1; self.date = date; self.machine = machine
        self.swiftVersion = swiftVersion; self.gitCommit = gitCommit; self.command = command
        self.shard = shard; self.mergedFrom = mergedFrom; self.results = results
    }

    enum CodingKeys: String, CodingKey {
        case format, version, date, machine, command, shard, results
        case swiftVersion = "swift_version", gitCommit = "git_commit", mergedFrom = "merged_from"
    }

    public static func now() -> String {
        ISO8601DateFormatter().string(from: Date())
    }

    /// Pretty-printed JSON with sorted keys and a final newline.
    public func encoded() throws -> Data {
        var data = try BenchJSON.encoder(pretty: true).encode(self)
        data.append(0x0A)
        return data
    }

    // MARK: Reading

    /// Reads a result file; `role` names it in error messages ("baseline", "current", "input").
    public static func load(path: String, role: String = "result") throws -> ResultFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
            throw BenchUsageError("cannot read \(role) file '\(path)': \(reason)")
        }
        return try parse(data, name: "\(role) file '\(path)'")
    }

    /// Parses the contents of a result file (see the type's documentation for what is accepted).
    public static func parse(_ data: Data, name: String = "input") throws -> ResultFile {
        let decoder = BenchJSON.decoder()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw BenchUsageError("\(name) is empty, not a dynamics-bench result file") }
        guard let top = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            // Maybe JSON lines: one result object per line.
            var records: [BenchRecord] = []
            for (n, line) in text.split(separator: "\n").enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                do {
                    records.append(try decoder.decode(BenchRecord.self, from: Data(line.utf8)))
                } catch {
                    throw BenchUsageError("\(name) is not valid JSON (line \(n + 1): \(describe(error)))")
                }
            }
            return ResultFile(date: "", machine: nil, swiftVersion: nil, gitCommit: nil, command: nil, results: records)
        }
        do {
            if let object = top as? [String: Any] {
                if object["results"] != nil {
                    let file = try decoder.decode(ResultFile.self, from: Data(text.utf8))
                    guard file.format == formatName else {
                        throw BenchUsageError("\(name) has format '\(file.format)', expected '\(formatName)'")
                    }
                    guard file.version == 1 else {
                        throw BenchUsageError("\(name) has version \(file.version); this dynamics-bench reads version 1")
                    }
                    return file
                }
                if object["scene"] != nil {
                    let record = try decoder.decode(BenchRecord.self, from: Data(text.utf8))
                    return ResultFile(date: "", machine: nil, swiftVersion: nil, gitCommit: nil, command: nil, results: [record])
                }
                throw BenchUsageError("\(name) is not a dynamics-bench result file (a JSON object without \"results\")")
            }
            if top is [Any] {
                let records = try decoder.decode([BenchRecord].self, from: Data(text.utf8))
                return ResultFile(date: "", machine: nil, swiftVersion: nil, gitCommit: nil, command: nil, results: records)
            }
            throw BenchUsageError("\(name) is not a dynamics-bench result file (top level is not an object)")
        } catch let error as BenchUsageError {
            throw error
        } catch {
            throw BenchUsageError("\(name) is malformed: \(describe(error))")
        }
    }

    /// A one-line reason for a decoding error.
    static func describe(_ error: Error) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.enumerated().map { i, k in
                k.intValue.map { "[\($0)]" } ?? (i == 0 ? k.stringValue : "." + k.stringValue)
            }.joined()
        }
        switch error {
        case let DecodingError.keyNotFound(key, ctx):
            return "missing \"\(key.stringValue)\" at \(path(ctx.codingPath))"
        case let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx):
            return "wrong type at \(path(ctx.codingPath))"
        case let DecodingError.dataCorrupted(ctx):
            return "invalid data at \(path(ctx.codingPath))"
        default:
            return "not valid JSON"
        }
    }

    // MARK: Merging

    /// All results of `files`, in file order (nothing is dropped, duplicates included), under the
    /// metadata of the first file; `mergedFrom` lists `names`.
    public static func merge(_ files: [ResultFile], names: [String], date: String = ResultFile.now()) -> ResultFile {
        let first = files.first
        return ResultFile(date: date, machine: first?.machine, swiftVersion: first?.swiftVersion,
                          gitCommit: first?.gitCommit, command: first?.command, shard: nil,
                          mergedFrom: names, results: files.flatMap(\.results))
    }

    /// Keys that occur more than once in `results` (e.g. the same shard merged twice).
    public static func duplicateKeys(_ results: [BenchRecord]) -> [BenchKey] {
        var seen: [BenchKey: Int] = [:]
        for r in results { seen[r.key, default: 0] += 1 }
        return seen.filter { $0.value > 1 }.map(\.key).sorted()
    }
}
