import BackgroundTrace

/// UIKit's and BackgroundTasks' messages about background work, read into
/// ``PlatformMessage``s. Each message's format, source and event are in docs/import.md.
///
/// - UIKit (UIKitCore, subsystem `com.apple.UIKit`, category `BackgroundTask`):
///   `_UIBackgroundTaskInfo.mm` (its `description`, `%@: taskID = %lu, taskName = %@,
///   creationTime = %lu (elapsed = %lu)`, and `fireExpirationHandler`) and
///   `UIApplication.mm` (`Can't end BackgroundTask: …`, `Background Task %lu ("%@"),
///   was created over 30 seconds ago. …`, `Background task still not ended after
///   expiration handlers were called: %{private}@. …`).
/// - BackgroundTasks (subsystem `com.apple.BackgroundTasks`, category `Framework`):
///   `BGTaskScheduler.mm` (`submitTaskRequest: %{public}@`, `Running task: %{public}@`,
///   `Starting task: %{public}@`, `Marking task %{public}@ complete with success: %d`,
///   `Calling expiration handlers for activities: %{public}@`, `Expiring task:
///   %{public}@`, `registerForTaskWithIdentifier: %{public}@`,
///   `cancelTaskRequestWithIdentifier: %{public}@`, `cancelAllTaskRequests`, `Error
///   submitting task request: %{public}@, error: %{public}@`, and the exception reason
///   `No launch handler registered for task with identifier %@`).
package enum AppleBackgroundMessages: Sendable {
  /// Reads one message (its source is the record's `subsystem:category`, possibly empty).
  package static func read(_ record: LogRecord) -> MessageReading {
    var message = Substring(MessageText.normalized(record.message))
    // Xcode's console prints a category before the message: `[BackgroundTask] …`.
    if let rest = MessageText.dropPrefix("[BackgroundTask] ", message) { message = rest }

    if let rest = prefix(LogRelevance.stateUpdateWords, message) { return stateUpdate(rest) }
    if MessageText.hasPrefix("[app", message), let reading = frontBoardState(message) { return reading }
    if let rest = after("Can't end BackgroundTask: no background task exists with identifier ", message) {
      guard let id = MessageText.leadingInteger(rest) else { return .malformed(expected: "a task identifier") }
      return .message(.taskEndRefused(id: id))
    }
    if let rest = after("Can't endBackgroundTask: no background task exists with identifier ", message) {
      // UIKit before iOS 13: the identifier in hexadecimal only (`%lx`), `… identifier 6c, or …`.
      guard let id = MessageText.leadingHexInteger(rest) else {
        return .malformed(expected: "a hexadecimal task identifier")
      }
      return .message(.taskEndRefused(id: id))
    }
    if let rest = after("Background task still not ended after expiration handlers were called:", message) {
      // `<private>` on a device that is not debugged: no id to name.
      guard let info = taskInfo(rest) else { return .unrelated }
      return .message(.taskStillNotEnded(id: info.id, name: info.name))
    }
    if let rest = prefix("Background Task ", message) {
      guard let id = MessageText.leadingInteger(rest) else { return .malformed(expected: "a task identifier") }
      guard MessageText.contains("was created over 30 seconds ago", in: rest) else { return .unrelated }
      var name: String?
      if let open = MessageText.firstRange(of: " (\"", in: rest),
        let close = MessageText.firstRange(of: "\"),", in: rest[open.upperBound...])
      {
        name = String(rest[open.upperBound..<close.lowerBound])
      }
      return .message(.taskOld(id: id, name: name))
    }
    if let rest = prefix("Created background task ", message) ?? prefix("Creating background task ", message) {
      guard let info = taskInfo(rest) else { return .malformed(expected: "'taskID = N'") }
      return .message(.taskCreated(id: info.id, name: info.name))
    }
    if let rest = prefix("Ending background task with UIBackgroundTaskIdentifier: ", message) {
      guard let id = MessageText.leadingInteger(rest) else { return .malformed(expected: "a task identifier") }
      return .message(.taskEnded(id: id))
    }
    if let rest = prefix("Ending task with identifier ", message) {
      guard let id = MessageText.leadingInteger(rest) else { return .malformed(expected: "a task identifier") }
      return .message(.taskEnded(id: id))
    }
    if MessageText.contains("Called expiration handler:", in: message)
      || MessageText.hasPrefix("Calling expiration handler for task", message)
    {
      guard let rest = after(" for task: ", message) ?? after("for task:", message), let info = taskInfo(rest) else {
        return .malformed(expected: "'for task: <_UIBackgroundTaskInfo …>: taskID = N'")
      }
      return .message(.taskExpiring(id: info.id, name: info.name))
    }
    return readScheduler(message)
  }

  private static func readScheduler(_ message: Substring) -> MessageReading {
    if let rest = prefix("submitTaskRequest: ", message) {
      guard let request = taskIdentifier(rest) else { return .malformed(expected: "a task request") }
      return .message(.requestSubmitted(identifier: request.identifier, type: request.kind))
    }
    if let rest = prefix("Running task: ", message) ?? prefix("Starting task: ", message) {
      guard let task = taskIdentifier(rest) else { return .malformed(expected: "a task") }
      return .message(.taskLaunched(identifier: task.identifier))
    }
    // The debugger's launches and expirations (`_simulateLaunchForTaskWithIdentifier:`,
    // `_simulateExpirationForTaskWithIdentifier:` in BGTaskScheduler, as Apple's "Starting
    // and Terminating Tasks During Development" runs them).
    if let rest = prefix("Simulating launch for task with identifier ", message) {
      let identifier = rest.prefix { !$0.isWhitespace }
      guard !identifier.isEmpty else { return .malformed(expected: "a task identifier") }
      return .message(.simulatedLaunchRequested(identifier: String(identifier)))
    }
    if let rest = prefix("Starting simulated task: ", message) {
      guard !MessageText.hasPrefix("<decode", rest), let task = taskIdentifier(rest) else {
        return .message(.simulatedTaskStarted)
      }
      return .message(.taskLaunched(identifier: task.identifier))
    }
    if let rest = prefix("Marking simulated task complete: ", message) {
      let decoded = MessageText.hasPrefix("<decode", rest) ? nil : taskIdentifier(rest)
      return .message(.simulatedTaskCompleted(identifier: decoded?.identifier))
    }
    if let rest = prefix("Simulating expiration for task with identifier ", message) {
      let identifier = rest.prefix { !$0.isWhitespace }
      guard !identifier.isEmpty else { return .malformed(expected: "a task identifier") }
      return .message(.tasksExpiring(identifiers: [String(identifier)]))
    }
    if prefix("No task request with identifier ", message) != nil,
      MessageText.contains(" has been scheduled", in: message)
    {
      return .message(.simulatedLaunchFoundNoRequest)
    }
    if let rest = prefix("Marking task ", message),
      let range = MessageText.firstRange(of: " complete with success: ", in: rest)
    {
      guard let task = taskIdentifier(rest[..<range.lowerBound]),
        let success = MessageText.leadingInteger(rest[range.upperBound...])
      else { return .malformed(expected: "'Marking task TASK complete with success: 0|1'") }
      return .message(.taskCompleted(identifier: task.identifier, success: success != 0))
    }
    if let rest = prefix("Calling expiration handlers for activities: ", message)
      ?? prefix("Calling expiration handlers for tasks: ", message)
    {
      let identifiers = allTaskIdentifiers(rest)
      guard !identifiers.isEmpty else { return .malformed(expected: "the tasks whose handlers are called") }
      return .message(.tasksExpiring(identifiers: identifiers))
    }
    if let rest = after("No launch handler registered for task with identifier ", message) {
      let identifier = rest.prefix { !$0.isWhitespace && $0 != "'" && $0 != "\"" }
      guard !identifier.isEmpty else { return .malformed(expected: "a task identifier") }
      return .message(.noLaunchHandler(identifier: String(identifier)))
    }
    if let rest = prefix("registerForTaskWithIdentifier: ", message) {
      let identifier = rest.prefix { !$0.isWhitespace }
      guard !identifier.isEmpty else { return .malformed(expected: "a task identifier") }
      return .message(.handlerRegistered(identifier: String(identifier)))
    }
    if let rest = prefix("cancelTaskRequestWithIdentifier: ", message) {
      let identifier = rest.prefix { !$0.isWhitespace }
      guard !identifier.isEmpty else { return .malformed(expected: "a task identifier") }
      return .message(.requestCancelled(identifier: String(identifier)))
    }
    if message == "cancelAllTaskRequests" { return .message(.requestCancelled(identifier: nil)) }
    if let rest = prefix("Error submitting task request: ", message),
      let range = MessageText.firstRange(of: ", error: ", in: rest)
    {
      guard let request = taskIdentifier(rest[..<range.lowerBound]) else {
        return .malformed(expected: "a task request")
      }
      return .message(.requestRejected(identifier: request.identifier, code: errorCode(rest[range.upperBound...])))
    }
    return .unrelated
  }

  /// RunningBoardServices' `Received state update for %d (%{public}@, %{public}@%{public}@`
  /// (`-[RBSConnection async_observedProcessStatesDidChange:completion:]`), after its
  /// first words: the pid, the process's identity, `NSStringFromRBSTaskState` of its
  /// task state and `-Visible` or `-NotVisible` (whether the state's endowment
  /// namespaces hold `com.apple.frontboard.visibility`). Only an app's identity
  /// (`app<BUNDLE(UUID)>`, `application<BUNDLE>` before iOS 17) is read: daemons',
  /// extensions' and XPC services' states are not an app's. A running app is suspended,
  /// visible (`active`: the line does not tell UIKit's inactive apart) or not visible
  /// (`background`); any other state (`none`, `unknown`, no visibility) writes nothing.
  static func stateUpdate(_ text: Substring) -> MessageReading {
    guard let pid = MessageText.leadingInteger(text), let open = after(" (", text) else {
      return .malformed(expected: "'PID (IDENTITY, STATE'")
    }
    let identity: Substring
    if let rest = MessageText.dropPrefix("app<", open) {
      identity = rest
    } else if let rest = MessageText.dropPrefix("application<", open) {
      identity = rest
    } else {
      return .unrelated
    }
    guard let close = MessageText.firstRange(of: ">, ", in: identity) else {
      return .malformed(expected: "'app<BUNDLE(UUID)>, STATE'")
    }
    let name = bundleIdentifier(identity[..<close.lowerBound])
    let state = identity[close.upperBound...].prefix { !$0.isWhitespace }
    guard !name.isEmpty else { return .malformed(expected: "the app's bundle identifier") }
    let appState: AppLifecycleState
    if MessageText.hasPrefix("running-suspended", state) {
      appState = .suspended
    } else if state == "running-active-Visible" {
      appState = .active
    } else if state == "running-active-NotVisible" {
      appState = .background
    } else {
      return .unrelated
    }
    return .message(.processStateChanged(pid: pid, name: String(name), state: appState))
  }

  /// FrontBoard's `%{public}@ Setting process visibility to: %{public}@` and `%{public}@
  /// Setting process task state to: %{public}@` (`-[FBProcess _updateStateWithBlock:]`,
  /// `FrontBoard.framework/FrontBoard/FBProcess.mm` of the iOS 26.1 restore dump: the
  /// process's `logProem`, `[app<BUNDLE>:PID]` (`[application<BUNDLE>:PID]` before iOS
  /// 17), then `NSStringFromFBProcessVisibility` or `NSStringFromFBProcessTaskState`), in
  /// SpringBoard. `nil` when the message is neither; only an app's process is read, and
  /// only `Foreground`, `Background`, `Running` and `Suspended`.
  static func frontBoardState(_ text: Substring) -> MessageReading? {
    let isVisibility: Bool
    let range: Range<Substring.Index>
    if let found = MessageText.firstRange(of: LogRelevance.visibilityWords, in: text) {
      (isVisibility, range) = (true, found)
    } else if let found = MessageText.firstRange(of: "] Setting process task state to: ", in: text) {
      (isVisibility, range) = (false, found)
    } else {
      return nil
    }
    let head = text[..<range.lowerBound]
    guard let identity = MessageText.dropPrefix("[app<", head) ?? MessageText.dropPrefix("[application<", head)
    else { return .unrelated }
    guard let colon = identity.lastIndex(of: ":"), colon > identity.startIndex,
      identity[identity.index(before: colon)] == ">",
      let pid = MessageText.leadingInteger(identity[identity.index(after: colon)...])
    else { return .malformed(expected: "'[app<BUNDLE>:PID]'") }
    let name = bundleIdentifier(identity[..<identity.index(before: colon)])
    guard !name.isEmpty else { return .malformed(expected: "the app's bundle identifier") }
    let value = text[range.upperBound...].prefix { !$0.isWhitespace }
    switch (isVisibility, value) {
    case (true, "Foreground"), (true, "Background"):
      return .message(.processVisibilityChanged(pid: pid, name: String(name), foreground: value == "Foreground"))
    case (false, "Running"), (false, "Suspended"):
      return .message(.processTaskStateChanged(pid: pid, name: String(name), suspended: value == "Suspended"))
    default:
      return .unrelated
    }
  }

  /// `…taskID = N, taskName = NAME, creationTime = …` of a `_UIBackgroundTaskInfo`'s description.
  static func taskInfo(_ text: Substring) -> (id: Int, name: String?)? {
    guard let rest = after("taskID = ", text), let id = MessageText.leadingInteger(rest) else { return nil }
    var name: String?
    if let named = after("taskName = ", rest) {
      let end = MessageText.firstRange(of: ", creationTime = ", in: named)?.lowerBound ?? named.endIndex
      name = String(named[..<end])
    }
    return (id, name)
  }

  /// The identifier of a task or request description (`<BGAppRefreshTaskRequest:
  /// IDENT, …>`, `<BGProcessingTask: IDENT>`, `identifier: IDENT`), and its kind.
  static func taskIdentifier(_ text: Substring) -> (identifier: String, kind: SchedulerRequestKind)? {
    let kind: SchedulerRequestKind = MessageText.contains("AppRefresh", in: text) ? .refresh : .processing
    var rest = text
    if let inner = after("identifier: ", rest) ?? after("identifier=", rest) {
      rest = inner
    } else if let open = rest.firstIndex(of: "<"), let colon = rest[open...].firstIndex(of: ":") {
      rest = rest[rest.index(after: colon)...].drop { $0 == " " }
    }
    let identifier = rest.prefix { !$0.isWhitespace && $0 != "," && $0 != ">" && $0 != ")" && $0 != "\"" }
    guard !identifier.isEmpty else { return nil }
    return (String(identifier), kind)
  }

  /// Every task identifier named in a list of activities or tasks.
  static func allTaskIdentifiers(_ text: Substring) -> [String] {
    var identifiers: [String] = []
    var rest = text
    while let open = rest.firstIndex(of: "<") {
      let close = rest[open...].firstIndex(of: ">") ?? rest.endIndex
      if let task = taskIdentifier(rest[open..<close]) { identifiers.append(task.identifier) }
      rest = rest[close...].dropFirst()
    }
    if identifiers.isEmpty, let task = taskIdentifier(text) { identifiers.append(task.identifier) }
    return identifiers
  }

  /// `BGTaskSchedulerErrorDomain Code=N`'s N.
  static func errorCode(_ text: Substring) -> Int? {
    after("Code=", text).flatMap { MessageText.leadingInteger($0) }
  }

  /// The bundle identifier of an app's identity as RunningBoard and FrontBoard print it,
  /// `BUNDLE` or `BUNDLE(UUID)`.
  private static func bundleIdentifier(_ identity: Substring) -> Substring {
    guard identity.last == ")", let paren = identity.firstIndex(of: "(") else { return identity }
    return identity[..<paren]
  }

  private static func prefix(_ marker: StaticString, _ text: Substring) -> Substring? {
    MessageText.dropPrefix(marker, text)
  }

  private static func after(_ marker: StaticString, _ text: Substring) -> Substring? {
    MessageText.after(marker, in: text)
  }
}
