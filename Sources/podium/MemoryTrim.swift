import Foundation
import ServiceLifecycle

#if canImport(Glibc)
/// glibc's `malloc_trim(3)` (in <malloc.h>, which the Glibc module leaves out): returns free heap memory to the system.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif

/// Hands memory glibc's allocator holds free back to the system every `interval` (`malloc_trim`).
///
/// glibc keeps freed memory for reuse, so a burst (an ingest peak, every live stream's writes queued at once) leaves
/// the process's resident size at its peak long after. Trimming every few seconds lets it come back down; the
/// allocator's own reuse is unaffected. Elsewhere than glibc it does nothing.
struct MemoryTrimService: Service {
    let interval: Duration

    /// Trims until graceful shutdown.
    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            #if canImport(Glibc)
            _ = mallocTrim(0)
            #endif
        }
    }
}
