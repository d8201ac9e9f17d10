import PodiumWire
/// A board period by its three names.
public struct BoardPeriodKey: Sendable, Hashable, Codable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String

    /// Creates a key.
    public init(board: String, window: LeaderboardWindow, period: String) {
        self.board = board
        self.window = window
        self.period = period
    }

    /// The key of a board period.
    public init(_ period: BoardPeriod) {
        self.init(board: period.board.id, window: period.period.window, period: period.period.key)
    }
}
