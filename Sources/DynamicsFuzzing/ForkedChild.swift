#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one fuzz case in a forked child so that a crash ends only the child (both fuzzers'
/// `--keep-going`). The child's stderr comes back through a pipe: the case writes its result
/// as lines there, after whatever the runtime printed.
enum ForkedChild {
    /// What came back: every stderr line, the wait status and the child's peak resident memory.
    struct Outcome {
        var lines: [String]
        var status: Int32
        var peakResidentMB: Double

        /// For a child that did not exit with status 0: a kind without numbers (so one bug
        /// gives one kind) built from the runtime's last fatal message among `otherLines` (the
        /// lines that are not the case's own result), and how the process ended.
        func crash(otherLines: [String]) -> (kind: String, how: String)? {
            let exited = (status & 0x7f) == 0
            guard !exited || (status >> 8) & 0xff != 0 else { return nil }
            let fatal = otherLines.last { $0.contains("Precondition failed") || $0.contains("Assertion failed") || $0.contains("Fatal error") || $0.contains("fatal error") }
                ?? "the process died (status \(status))"
            var kind = "crash: "
            for c in fatal where !(c.isNumber && kind.last == "#") { kind.append(c.isNumber ? "#" : c) }
            let how = exited ? "exited with status \((status >> 8) & 0xff)" : "died of signal \(status & 0x7f)"
            return (kind, how)
        }
    }

    /// Runs `body` in a child; its return value is written to the child's stderr as the last
    /// output. Nil when no pipe could be made (the caller then runs the case in-process).
    static func run(_ body: () -> String) -> Outcome? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let pid = fork()
        if pid == 0 {
            close(fds[0])
            dup2(fds[1], 2)
            let bytes = Array(body().utf8)
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + done, bytes.count - done) }
                if n <= 0 { break }
                done += n
            }
            _exit(0)
        }
        close(fds[1])
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return Outcome(lines: lines, status: status, peakResidentMB: Double(usage.ru_maxrss) / 1024)  // kB on Linux
    }
}
