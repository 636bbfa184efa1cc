import Dispatch
import Foundation
import Synchronization

/// Prints a line on standard output and flushes it at once (progress must show when stdout
/// is a pipe): the long-running commands' (`fuzz`, `fuzz-api`, `soak`) progress and results.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A progress bar on standard error, drawn by a background thread from an atomic step
/// counter that the stepping thread bumps (one relaxed atomic add per step).
///
/// It shows up only after the run has taken a second, only when stderr is a terminal, and
/// never with `--quiet`. It draws from a byte buffer prepared before the run, so drawing
/// allocates nothing and does not disturb the allocation counters.
final class ProgressBar: @unchecked Sendable {
    private let done = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let total: Int
    private let label: [UInt8]
    private let finished = DispatchSemaphore(value: 0)
    private let enabled: Bool
    private let buffer: UnsafeMutableBufferPointer<UInt8>

    /// Whether bars are drawn at all: stderr is a terminal and `--quiet` was not given.
    static func shouldDraw(quiet: Bool) -> Bool { !quiet && isatty(2) == 1 }

    init(label: String, total: Int, enabled: Bool) {
        self.total = max(1, total)
        self.label = Array(label.utf8.prefix(40))
        self.enabled = enabled
        self.buffer = .allocate(capacity: 256)
        if enabled {
            let thread = Thread { [self] in loop() }
            thread.start()
        }
    }

    deinit { buffer.deallocate() }

    /// One more step done.
    @inline(__always) func advance() { done.add(1, ordering: .relaxed) }

    /// Stops drawing and clears the line.
    func finish() {
        guard enabled else { return }
        stopped.store(true, ordering: .releasing)
        finished.wait()
    }

    private func loop() {
        let start = DispatchTime.now().uptimeNanoseconds
        var drawn = false
        while !stopped.load(ordering: .acquiring) {
            usleep(100_000)
            if DispatchTime.now().uptimeNanoseconds - start < 1_000_000_000 { continue }
            draw(elapsed: DispatchTime.now().uptimeNanoseconds - start)
            drawn = true
        }
        if drawn {
            // "\r" + erase line.
            var n = 0
            for b in "\r\u{1B}[K".utf8 { buffer[n] = b; n += 1 }
            _ = write(2, buffer.baseAddress, n)
        }
        finished.signal()
    }

    private func draw(elapsed: UInt64) {
        var n = 0
        func put(_ b: UInt8) { if n < buffer.count { buffer[n] = b; n += 1 } }
        func putNumber(_ v: Int) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var x = max(0, v), count = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat { d[count] = UInt8(48 + x % 10); x /= 10; count += 1 } while x > 0 && count < 20
                for i in stride(from: count - 1, through: 0, by: -1) { put(d[i]) }
            }
        }
        let d = min(done.load(ordering: .relaxed), total)
        put(13) // \r
        for b in label { put(b) }
        put(32); put(91) // " ["
        let width = 30, filled = d * width / total
        for i in 0..<width { put(i < filled ? 35 : 46) } // '#' or '.'
        put(93); put(32) // "] "
        putNumber(d * 100 / total); put(37); put(32) // "NN% "
        putNumber(d); put(47); putNumber(total); put(32) // "d/total "
        putNumber(Int(elapsed / 1_000_000_000)); put(115) // "Ns"
        for b in "\u{1B}[K".utf8 { put(b) }
        _ = write(2, buffer.baseAddress, n)
    }
}
