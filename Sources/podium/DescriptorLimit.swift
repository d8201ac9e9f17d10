import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds how many connections it can hold.
///
/// Every HTTP connection is a descriptor. At the limit `accept` fails, NIO stops accepting for a second at a time
/// without a word, and new clients wait unanswered in the kernel's backlog (or are reset when it overflows), while
/// idle connections go on holding their descriptors: the connection limit never took effect. So `serve` raises its
/// soft limit to the hard one, and keeps `PODIUM_MAX_CONNECTIONS` within what the limit leaves after the pools.
enum DescriptorLimit {
    /// Raises the soft limit to the hard limit (as far as the system allows); returns the soft limit now in force,
    /// or nil where it cannot be read.
    static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resourceKind, &raised) == 0 { limit = raised }
        }
        // `RLIM_INFINITY` is all ones.
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resourceKind = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceKind = RLIMIT_NOFILE
    #endif
}
