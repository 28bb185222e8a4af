/// An event kind's tag: which kind it is, without its fields (``TraceEvent/Kind`` is
/// the kind with its fields). The trace vocabulary.
///
/// The raw value is the tag in the binary form; it never changes for a kind once
/// published (see docs/FORMAT.md).
public enum EventTag: UInt8, Sendable, Hashable, CaseIterable, BitwiseCopyable {
  /// `app.launch`: a new process started.
  case appLaunch = 0
  /// `app.state`: the app moved to another state.
  case appState = 1
  /// `app.terminate`: the process ended.
  case appTerminate = 2
  /// `task.begin`: the app called `beginBackgroundTask` (id 0: the system refused).
  case taskBegin = 3
  /// `task.end`: the app called `endBackgroundTask`.
  case taskEnd = 4
  /// `task.expire`: the system ran a task's expiration handler.
  case taskExpire = 5
  /// `sched.register`: the app registered a launch handler.
  case schedRegister = 6
  /// `sched.submit`: the app submitted a scheduler request.
  case schedSubmit = 7
  /// `sched.reject`: the system refused a submission.
  case schedReject = 8
  /// `sched.cancel`: the app cancelled one pending request, or all of them.
  case schedCancel = 9
  /// `sched.launch`: the system launched a scheduled task.
  case schedLaunch = 10
  /// `sched.expire`: the system ran a launched task's expiration handler.
  case schedExpire = 11
  /// `sched.complete`: the app called `setTaskCompleted(success:)`.
  case schedComplete = 12
  /// `work.enqueue`: the app enqueued work.
  case workEnqueue = 13
  /// `work.start`: the system started a worker run.
  case workStart = 14
  /// `work.result`: the worker returned success, failure or retry.
  case workResult = 15
  /// `work.stop`: the system stopped a running worker.
  case workStop = 16
  /// `work.cancel`: the app cancelled work.
  case workCancel = 17
  /// `env.set`: the environment changed (network, charging, …).
  case envSet = 18
  /// `input`: a recorded nondeterministic input, handed back in a replay.
  case input = 19
  /// `mark`: a user annotation.
  case mark = 20

  /// The kind's name in the text form (`task.begin`).
  public var name: String {
    switch self {
    case .appLaunch: "app.launch"
    case .appState: "app.state"
    case .appTerminate: "app.terminate"
    case .taskBegin: "task.begin"
    case .taskEnd: "task.end"
    case .taskExpire: "task.expire"
    case .schedRegister: "sched.register"
    case .schedSubmit: "sched.submit"
    case .schedReject: "sched.reject"
    case .schedCancel: "sched.cancel"
    case .schedLaunch: "sched.launch"
    case .schedExpire: "sched.expire"
    case .schedComplete: "sched.complete"
    case .workEnqueue: "work.enqueue"
    case .workStart: "work.start"
    case .workResult: "work.result"
    case .workStop: "work.stop"
    case .workCancel: "work.cancel"
    case .envSet: "env.set"
    case .input: "input"
    case .mark: "mark"
    }
  }

  /// The kind with this text name, or `nil`.
  public init?(name: some StringProtocol) {
    guard let kind = EventTag.byName[String(name)] else { return nil }
    self = kind
  }

  private static let byName: [String: EventTag] = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0.name, $0) })

  /// Whether the system or the app produces events of this kind.
  public var side: EventSide {
    switch self {
    case .appLaunch, .appState, .appTerminate, .taskExpire, .schedReject, .schedLaunch,
      .schedExpire, .workStart, .workStop, .envSet, .input:
      .system
    case .taskBegin, .taskEnd, .schedRegister, .schedSubmit, .schedCancel, .schedComplete,
      .workEnqueue, .workResult, .workCancel:
      .app
    case .mark:
      .neither
    }
  }

  /// The kind's field names, in the order the writer prints them (`env.set` has free keys).
  public var fieldNames: [String] {
    switch self {
    case .appLaunch: []
    case .appState: ["to"]
    case .appTerminate: ["reason"]
    case .taskBegin: ["id", "name"]
    case .taskEnd, .taskExpire: ["id"]
    case .schedRegister: ["ident", "ok"]
    case .schedSubmit: ["ident", "type", "earliest", "network", "power"]
    case .schedReject: ["ident", "error"]
    case .schedCancel: ["ident", "all"]
    case .schedLaunch: ["ident", "run"]
    case .schedExpire: ["run"]
    case .schedComplete: ["run", "success"]
    case .workEnqueue: ["work", "name", "backoff", "delay", "limit", "period", "flex", "policy"]
    case .workStart: ["work", "attempt"]
    case .workResult: ["work", "attempt", "outcome"]
    case .workStop: ["work", "attempt", "reason"]
    case .workCancel: ["work"]
    case .envSet: []
    case .input: ["key", "value"]
    case .mark: ["label"]
    }
  }
}

extension TraceEvent.Kind {
  /// The event's kind without its fields.
  public var tag: EventTag {
    switch self {
    case .appLaunch: .appLaunch
    case .appState: .appState
    case .appTerminate: .appTerminate
    case .taskBegin: .taskBegin
    case .taskEnd: .taskEnd
    case .taskExpire: .taskExpire
    case .schedRegister: .schedRegister
    case .schedSubmit: .schedSubmit
    case .schedReject: .schedReject
    case .schedCancel: .schedCancel
    case .schedLaunch: .schedLaunch
    case .schedExpire: .schedExpire
    case .schedComplete: .schedComplete
    case .workEnqueue: .workEnqueue
    case .workStart: .workStart
    case .workResult: .workResult
    case .workStop: .workStop
    case .workCancel: .workCancel
    case .envSet: .envSet
    case .input: .input
    case .mark: .mark
    }
  }

  /// Whether the system or the app produces this event.
  public var side: EventSide { tag.side }
}

/// The earlier name of ``EventTag``.
@available(*, deprecated, renamed: "EventTag")
public typealias EventKind = EventTag
