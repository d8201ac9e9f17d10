import Foundation
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// Hands memory glibc's allocator holds free back to the system every `interval` (`malloc_trim`).
///
/// glibc keeps freed memory for reuse, so a burst (an ingest peak, every live stream's writes queued at once) leaves
/// the process's resident size at its peak long after. Trimming every few seconds lets it come back down; the
/// allocator's own reuse is unaffected. Where there is no `malloc_trim` it does nothing.
struct MemoryTrimService: Service {
    /// How long between trims.
    let interval: Duration

    /// Trims until graceful shutdown.
    func run() async throws {
        let trim = MallocTrim.lookUp()
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            _ = trim?.function(0)
        }
    }
}

/// glibc's `malloc_trim(3)`, found at run time: it is declared in <malloc.h>, which Swift's Glibc module leaves out.
private struct MallocTrim {
    /// `malloc_trim(pad)`: trims, keeping `pad` bytes at the top of the heap.
    let function: @convention(c) (Int) -> Int32

    /// The function, or nil where the C library has none.
    static func lookUp() -> MallocTrim? {
        #if canImport(Glibc)
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "malloc_trim") else { return nil }
        return MallocTrim(function: unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self))
        #else
        return nil
        #endif
    }
}
