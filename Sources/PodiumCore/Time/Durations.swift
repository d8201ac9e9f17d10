/// Durations as the numbers logs, metrics and reports print.
extension Duration {
    /// This duration in seconds, fractions included.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
