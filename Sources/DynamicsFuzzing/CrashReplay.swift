#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a crash (a precondition failure, a trap, a bad access) print how to replay it: the
/// fuzzer stores a preformatted line before each sequence, and signal handlers write it to
/// stderr with `write(2)` (async-signal-safe) before the process dies with the signal's
/// default action.
public enum CrashReplay {
    private static let capacity = 1024
    nonisolated(unsafe) private static let buffer: UnsafeMutablePointer<CChar> = .allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var mirror: Int32 = -1

    /// The signals a crash raises.
    public static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT]

    /// Stores the line to print if the process crashes (a newline is added). Not thread-safe:
    /// one thread runs sequences at a time.
    public static func setLine(_ line: String) {
        length = 0
        var n = 0
        for byte in line.utf8 where n < capacity - 2 {
            buffer[n] = CChar(bitPattern: byte)
            n += 1
        }
        buffer[n] = 10  // "\n"
        length = n + 1
    }

    /// Forgets the stored line (a crash then prints nothing extra).
    public static func clear() { length = 0 }

    /// Also writes the line to this open file descriptor on a crash (-1: none); for a parent
    /// process that cannot read the crashed child's stderr.
    public static func mirror(toFileDescriptor fd: Int32) { mirror = fd }

    /// Installs the handlers for `signals` (once per process).
    public static func installHandlers() {
        if installed { return }
        installed = true
        for s in signals { _ = signal(s, crashHandler) }
    }

    fileprivate static func writeLine() {
        let n = length
        guard n > 0 else { return }
        _ = write(2, "\n", 1)
        _ = write(2, buffer, n)
        if mirror >= 0 { _ = write(mirror, buffer, n) }
    }
}

/// Writes the replay line, restores the default action and raises the signal again.
private let crashHandler: @convention(c) (Int32) -> Void = { sig in
    CrashReplay.writeLine()
    _ = signal(sig, SIG_DFL)
    _ = raise(sig)
}
