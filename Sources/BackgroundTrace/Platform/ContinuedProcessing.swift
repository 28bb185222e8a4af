import Synchronization

extension TaskRequest {
  /// A continued-processing request (`BGContinuedProcessingTaskRequest(identifier:title:subtitle:)`,
  /// iOS 26): work the user started, submitted from the foreground, which runs at once and
  /// may go on in the background while the system shows its progress.
  ///
  /// - Parameters:
  ///   - identifier: a permitted identifier, usually `<bundle>.<context>.<unique>` under a
  ///     `<bundle>.<context>.*` wildcard in `BGTaskSchedulerPermittedIdentifiers`.
  ///   - title: what the system's progress UI shows.
  ///   - subtitle: the line under the title.
  ///   - strategy: `.fail` to fail the submission when the task cannot start at once;
  ///     `.queue` (the default) to wait for a slot.
  ///   - requiredResources: `.gpu` for background GPU use; `nil` for the default.
  public static func continued(
    _ identifier: String, title: String, subtitle: String, strategy: ContinuedProcessingStrategy = .queue,
    requiredResources: ContinuedProcessingResource? = nil
  ) -> TaskRequest {
    var request = TaskRequest(identifier: identifier, type: .continued)
    request.title = title
    request.subtitle = subtitle
    request.strategy = strategy
    request.requiredResources = requiredResources
    return request
  }
}

/// A launched continued-processing task (`BGContinuedProcessingTask`, iOS 26): the
/// ``ScheduledTask`` a continued-processing request's launch handler gets. The app
/// reports its work through ``progress``; the system expires a task whose progress
/// stops moving, and runs the expiration handler when the user cancels it.
///
/// App code ported from BackgroundTasks casts as it did: `task as? any ContinuedProcessingTask`
/// where it wrote `task as? BGContinuedProcessingTask`.
public protocol ContinuedProcessingTask: ScheduledTask {
  /// The task's progress (`progress`, from `ProgressReporting`): set its
  /// `totalUnitCount` and advance its `completedUnitCount` as the work goes on.
  var progress: TaskProgress { get }
  /// The title the system's progress UI shows.
  var title: String { get }
  /// The subtitle the system's progress UI shows.
  var subtitle: String { get }
  /// Changes the title and subtitle (`updateTitle(_:subtitle:)`).
  func updateTitle(_ title: String, subtitle: String)
}

/// A continued-processing task's progress, as the `Progress` (`NSProgress`) of
/// `BGContinuedProcessingTask.progress` is used: set ``totalUnitCount``, then advance
/// ``completedUnitCount``. Each change that moves either count is reported to the system
/// (and recorded as `sched.progress`); setting a count to the value it has reports nothing.
public final class TaskProgress: Sendable {
  private struct State {
    var total: Int64 = 0
    var completed: Int64 = 0
    var observers: [@Sendable (_ completed: Int64, _ total: Int64) -> Void] = []
  }

  private let state = Mutex(State())

  /// A progress of 0 of 0 units, as a new task's.
  public init() {}

  /// The units the work has in all (`totalUnitCount`).
  public var totalUnitCount: Int64 {
    get { state.withLock { $0.total } }
    set { change { $0.total = newValue } }
  }

  /// The units done (`completedUnitCount`).
  public var completedUnitCount: Int64 {
    get { state.withLock { $0.completed } }
    set { change { $0.completed = newValue } }
  }

  /// `completedUnitCount / totalUnitCount`; 0 while the total is 0 or less.
  public var fractionCompleted: Double {
    state.withLock { $0.total > 0 ? Double($0.completed) / Double($0.total) : 0 }
  }

  /// Whether the work is done: `completedUnitCount >= totalUnitCount`, with a total.
  public var isFinished: Bool {
    state.withLock { $0.total > 0 && $0.completed >= $0.total }
  }

  /// Calls `observer` with the counts after each change that moves one (not with the
  /// current counts): how the system, the simulation and the tracing wrapper see reports.
  package func observe(_ observer: @escaping @Sendable (_ completed: Int64, _ total: Int64) -> Void) {
    state.withLock { $0.observers.append(observer) }
  }

  private func change(_ update: (inout State) -> Void) {
    let (moved, completed, total, observers) = state.withLock { state in
      let before = (state.completed, state.total)
      update(&state)
      return (before != (state.completed, state.total), state.completed, state.total, state.observers)
    }
    guard moved else { return }
    for observer in observers { observer(completed, total) }
  }
}
