import CBuildInfo

/// What build is running: `podium --version`, the `podium_build_info` metric and the start-up log line say it.
public enum BuildInfo {
    /// Podium's version.
    public static let version = "0.18.0"
    /// The git commit it was built from (12 hex digits, `-dirty` with uncommitted changes), or `unknown`.
    public static let commit = String(cString: podium_build_commit())
}
