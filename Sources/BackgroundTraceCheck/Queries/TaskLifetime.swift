public import BackgroundTrace

/// One UIKit background task's life in a trace, as the checker's lifecycle model sees
/// it: when it began, whether its expiration handler ran, and how it ended.
public struct TaskLifetime: Sendable, Hashable {
  /// How a task's life ended.
  public enum Ending: Sendable, Hashable {
    /// `task.end` for its id.
    case ended(at: TraceTime)
    /// Still open when the app was suspended, terminated or launched again, or when the
    /// trace ended; `reason` says which, as the checker's messages do
    /// (`before the app was suspended`).
    case closed(at: TraceTime, reason: String)
  }

  /// Which process it ran in, counting launches from 0 (task ids restart in each).
  public var process: Int
  /// Its id (`task.begin id=`).
  public var id: Int
  /// Its name, when given.
  public var name: String?
  /// When it began.
  public var begin: TraceTime
  /// When its expiration handler ran, if it did.
  public var expiredAt: TraceTime?
  /// How its life ended.
  public var ending: Ending

  /// Creates a lifetime (to compare with what ``BackgroundTrace/RecordedTrace/taskLifetimes`` found).
  public init(process: Int, id: Int, name: String?, begin: TraceTime, expiredAt: TraceTime?, ending: Ending) {
    self.process = process
    self.id = id
    self.name = name
    self.begin = begin
    self.expiredAt = expiredAt
    self.ending = ending
  }

  /// How long it was open.
  public var duration: TraceInterval {
    switch ending {
    case .ended(let at), .closed(let at, _): at.interval(since: begin)
    }
  }
}
