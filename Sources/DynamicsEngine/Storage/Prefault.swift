#if canImport(Glibc)
import Glibc
#endif

/// Maps the pages of a large new buffer that is about to be written whole, in one system call
/// (Linux `madvise(MADV_POPULATE_WRITE)`, kernel 5.14 and later), instead of taking a page
/// fault per 4 KiB page as it is filled: in a large snapshot restore those faults would be a
/// large part of the time (Results/checkpoints.md). Elsewhere, or where the kernel refuses,
/// it does nothing (the pages are then faulted in as they are written). It writes nothing:
/// the memory's contents are unchanged (fresh pages read as zero either way).
enum Prefault {
    /// Below this, the faults cost less than the call.
    static let minBytes = 1 << 20
    static let pageBytes = 4096

    static func pages(_ p: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        guard bytes >= minBytes else { return }
        let a = Int(bitPattern: p)
        let lo = (a + pageBytes - 1) & ~(pageBytes - 1), hi = (a + bytes) & ~(pageBytes - 1)
        guard hi > lo, let q = UnsafeMutableRawPointer(bitPattern: lo) else { return }
        // MADV_POPULATE_WRITE (23): not in every libc's headers.
        _ = madvise(q, hi - lo, 23)
        #endif
    }
}
