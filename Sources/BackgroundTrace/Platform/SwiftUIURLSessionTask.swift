import Synchronization

/// SwiftUI's background URL session kinds of `BackgroundTask<Request, Response>`, as
/// `Scene.backgroundTask(_:action:)` takes them
/// (https://developer.apple.com/documentation/swiftui/backgroundtask): the action runs
/// when the system launches or wakes the app for a background session's events
/// (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`), and
/// SwiftUI calls that completion handler when the action returns.
///
/// ```swift
/// // SwiftUI:  .backgroundTask(.urlSession("com.example.downloads")) { await downloads.handleEvents() }
/// transfers.backgroundTask(.urlSession("com.example.downloads")) { await downloads.handleEvents() }
/// ```
///
/// `Request` is what the action gets: nothing for ``urlSession(_:)``, the session's
/// identifier for ``urlSession`` and ``urlSession(matching:)``.
public struct SwiftUIURLSessionTask<Request: Sendable>: Sendable {
  /// Which of SwiftUI's kinds it is: what the SwiftUI adapter hands SwiftUI.
  package enum Kind: Sendable {
    /// `urlSession(_:)`: the session of this identifier.
    case identifier(String)
    /// `urlSession`: every session.
    case any
    /// `urlSession(matching:)`: the sessions the predicate accepts.
    case matching(@Sendable (String) -> Bool)
  }

  package let kind: Kind
  /// What the action gets for the session of an identifier.
  package let request: @Sendable (String) -> Request

  /// The kind's test of a session's identifier.
  package var matches: @Sendable (String) -> Bool {
    switch kind {
    case .identifier(let identifier): { $0 == identifier }
    case .any: { _ in true }
    case .matching(let predicate): predicate
    }
  }

  /// Whether the kind handles the events of the session `identifier`.
  public func matches(session identifier: String) -> Bool { matches(identifier) }
}

extension SwiftUIURLSessionTask where Request == Void {
  /// SwiftUI's `BackgroundTask.urlSession(_:)`: "A task that responds to background URL
  /// sessions matching the given identifier"
  /// (https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession(_:)),
  /// `static func urlSession(_ identifier: String) -> BackgroundTask<Void, Void>`.
  public static func urlSession(_ identifier: String) -> SwiftUIURLSessionTask<Void> {
    SwiftUIURLSessionTask(kind: .identifier(identifier), request: { _ in () })
  }
}

extension SwiftUIURLSessionTask where Request == String {
  /// SwiftUI's `BackgroundTask.urlSession`: "A task that responds to background URL
  /// sessions" (https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession),
  /// `static var urlSession: BackgroundTask<String, Void>`; the action gets the session's
  /// identifier.
  public static var urlSession: SwiftUIURLSessionTask<String> {
    SwiftUIURLSessionTask(kind: .any, request: { $0 })
  }

  /// SwiftUI's `BackgroundTask.urlSession(matching:)`: "A task that responds to
  /// background URL sessions matching the given predicate"
  /// (https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession(matching:)),
  /// `static func urlSession(matching: @escaping @Sendable (String) -> Bool) ->
  /// BackgroundTask<String, Void>`; the action gets the session's identifier.
  public static func urlSession(matching: @escaping @Sendable (String) -> Bool) -> SwiftUIURLSessionTask<String> {
    SwiftUIURLSessionTask(kind: .matching(matching), request: { $0 })
  }
}

/// The URL-session actions one process registered with
/// ``BackgroundTransfers/backgroundTask(_:action:)``, in registration order: what the
/// simulation, the replay and ``URLSessionTransfers`` run at a wake for a session. A
/// new process registers its own (they go with the process, as a scene's modifiers do).
package final class SessionActions: Sendable {
  private let actions = Mutex<[(matches: @Sendable (String) -> Bool, run: @Sendable (String) async -> Void)]>([])

  package init() {}

  /// Keeps `action` for the sessions `task` matches.
  package func add<Request: Sendable>(
    _ task: SwiftUIURLSessionTask<Request>, _ action: @escaping @Sendable (Request) async -> Void
  ) {
    let request = task.request
    actions.withLock { $0.append((task.matches, { await action(request($0)) })) }
  }

  /// The actions for the session `identifier`, in registration order; empty when none
  /// matches (the app delegate's `handleEvents` gets the wake then).
  package func matching(_ identifier: String) -> [@Sendable (String) async -> Void] {
    actions.withLock { $0.filter { $0.matches(identifier) }.map(\.run) }
  }

  /// Forgets every action: the process ended.
  package func removeAll() {
    actions.withLock { $0.removeAll() }
  }

  /// Runs `actions` for the session `identifier` one after another in a task on
  /// `executor`, then calls `completionHandler`, as SwiftUI calls the wake's completion
  /// handler when the actions return. Cancelling the returned task (the wake's time ran
  /// out: "If the action closure has not returned when the task runs out of time to
  /// complete, the system cancels the task") cancels the action running.
  package static func run(
    _ actions: [@Sendable (String) async -> Void], for identifier: String, on executor: (any TaskExecutor)?,
    then completionHandler: @escaping @Sendable () -> Void
  ) -> Task<Void, Never> {
    Task(executorPreference: executor) {
      for action in actions { await action(identifier) }
      completionHandler()
    }
  }
}
