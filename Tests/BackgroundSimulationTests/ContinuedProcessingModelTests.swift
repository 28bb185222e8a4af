import BackgroundSimulation
import BackgroundTrace
import Testing

/// The canonical text lines of a trace's events (no header, no meta).
private func eventLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(TextTraceWriter.line(for:))
}

/// A system whose Info.plist permits the continued-processing wildcard
/// `com.example.app.export.*`, and a listed refresh identifier.
private func system(_ configure: (inout SimulationConfiguration) -> Void = { _ in }) -> SimulatedSystem {
  var configuration = SimulationConfiguration()
  configuration.bundleIdentifier = "com.example.app"
  configuration.permittedIdentifiers = ["com.example.app.export.*", "com.example.app.refresh"]
  configure(&configuration)
  return SimulatedSystem(seed: 5, configuration: configuration)
}

/// What the app's launch handler got and did.
private final class Log {
  var tasks: [any ContinuedProcessingTask] = []
  var expirations = 0
}

/// Registers, from a button's code after launch, a handler that keeps each task and
/// counts its expirations, then submits `request`.
private func start(
  _ request: TaskRequest, on system: SimulatedSystem, log: Log, completeOnExpiration: Bool = true
) throws {
  system.register(forTaskWithIdentifier: request.identifier, using: nil) { task in
    guard let task = task as? any ContinuedProcessingTask else { return }
    log.tasks.append(task)
    task.expirationHandler = {
      log.expirations += 1
      if completeOnExpiration { task.setTaskCompleted(success: false) }
    }
  }
  try system.submit(request)
}

/// `BGContinuedProcessingTask` (iOS 26) as Apple documents it and the iOS 26.1
/// BackgroundTasks framework (EthanArbuckle/iPhone18-3_26.1_23B85_Restore,
/// System/Library/Frameworks/BackgroundTasks.framework/BackgroundTasks/) has it; each
/// test names its source.
@Suite struct ContinuedProcessingModelTests {
  /// Apple Developer Forums thread 799126, quoting BackgroundTasks/BGTaskScheduler.h:
  /// continued-processing tasks are "explicitly exempt from the 'register before
  /// applicationDidFinishLaunching' requirement" — the app registers a wildcard-composed
  /// identifier when the user starts the work. A listed identifier still must register
  /// at launch.
  @Test func aWildcardComposedIdentifierRegistersAfterLaunch() {
    let system = system()
    system.launch { _ in }
    #expect(system.register(forTaskWithIdentifier: "com.example.app.export.1", using: nil) { _ in })
    #expect(system.crashReports.isEmpty)
    #expect(!system.register(forTaskWithIdentifier: "com.example.app.refresh", using: nil) { _ in })
    #expect(system.crashReports == ["All launch handlers must be registered before application finishes launching"])
  }

  /// Apple, BGContinuedProcessingTaskRequest: "The app submits this request from the
  /// foreground … The framework begins processing the task immediately, if possible";
  /// BGContinuedProcessingTask.mm `_initWithIdentifier:activity:` takes the request's
  /// title and subtitle.
  @Test func aSubmissionFromTheForegroundLaunchesAtOnce() throws {
    let system = system()
    let log = Log()
    system.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "Export", subtitle: "3 photos"), on: system, log: log)
    system.advance(by: .zero)
    #expect(
      eventLines(system.trace) == [
        "0 app.launch", "0 app.state to=active", "0 sched.register ident=com.example.app.export.1",
        "0 sched.submit ident=com.example.app.export.1 type=continued title=Export subtitle=\"3 photos\" strategy=queue",
        "0 sched.launch ident=com.example.app.export.1 run=1",
      ])
    #expect(log.tasks.map(\.title) == ["Export"] && log.tasks.map(\.subtitle) == ["3 photos"])
  }

  /// The same page: the request is submitted from the foreground; from the background it
  /// is refused (Apple documents no code; the model gives `notPermitted`).
  @Test func aSubmissionFromTheBackgroundIsRefused() {
    let system = system()
    let log = Log()
    system.launch { _ in }
    system.moveToBackground()
    #expect(throws: TaskSchedulerError(.notPermitted)) {
      try start(.continued("com.example.app.export.1", title: "Export", subtitle: ""), on: system, log: log)
    }
  }

  /// BGTaskScheduler.mm, `_unsafe_submitTaskRequest:error:`: a continued-processing
  /// request whose `requiredResources` has a resource `supportedResources` lacks fails
  /// with code 1 (`unavailable`, userInfo `requestedResources`, `supportedResources`).
  @Test func aGPURequestNeedsTheSupportedResource() throws {
    let gpu = TaskRequest.continued("com.example.app.export.1", title: "Render", subtitle: "", requiredResources: .gpu)
    let without = system()
    without.launch { _ in }
    #expect(throws: TaskSchedulerError(.unavailable)) { try start(gpu, on: without, log: Log()) }
    let with = system { $0.supportedContinuedProcessingResources = [.gpu] }
    with.launch { _ in }
    try start(gpu, on: with, log: Log())
    with.advance(by: .zero)
    #expect(eventLines(with.trace).last == "0 sched.launch ident=com.example.app.export.1 run=1")
  }

  /// Apple, SubmissionStrategy.fail: "fails the submission … if the system can't run it
  /// immediately"; BGTaskScheduler.Error.Code.immediateRunIneligible; SubmissionStrategy.queue:
  /// "adds the task request to the back of a queue. The system runs the task as soon as
  /// possible" — here when the running task completes.
  @Test func failIsRefusedAndQueueWaitsWhileTheSlotIsTaken() throws {
    let system = system()
    let log = Log()
    system.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: system, log: log)
    system.advance(by: .seconds(1))
    #expect(throws: TaskSchedulerError(.immediateRunIneligible)) {
      try start(.continued("com.example.app.export.2", title: "B", subtitle: "", strategy: .fail), on: system, log: log)
    }
    try start(.continued("com.example.app.export.3", title: "C", subtitle: ""), on: system, log: log)
    system.advance(by: .seconds(1))
    #expect(log.tasks.count == 1)
    log.tasks[0].setTaskCompleted(success: true)
    system.advance(by: .zero)
    #expect(log.tasks.map(\.identifier) == ["com.example.app.export.1", "com.example.app.export.3"])
    #expect(
      eventLines(system.trace).suffix(2) == [
        "2 sched.complete run=1 success=true", "2 sched.launch ident=com.example.app.export.3 run=2",
      ])
  }

  /// Apple, BGContinuedProcessingTask: "Tasks that appear stalled may be forcibly
  /// expired"; the strict reading, with the shortest window reported (Apple Developer
  /// Forums thread 808756: with no progress the task "fails as expected after ~30
  /// seconds"). A run whose progress moves within each window runs on.
  @Test func aRunWithNoProgressExpiresAfterTheStallWindow() throws {
    let stalled = system()
    let log = Log()
    stalled.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: stalled, log: log)
    stalled.advance(by: .seconds(29))
    #expect(log.expirations == 0)
    stalled.advance(by: .seconds(1))
    #expect(log.expirations == 1)
    #expect(
      eventLines(stalled.trace).suffix(2) == [
        "30 sched.expire run=1 reason=stalled", "30 sched.complete run=1 success=false",
      ])

    let moving = system()
    let movingLog = Log()
    moving.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: moving, log: movingLog)
    moving.advance(by: .zero)
    movingLog.tasks[0].progress.totalUnitCount = 10
    for _ in 1...9 {
      moving.advance(by: .seconds(25))
      movingLog.tasks[0].progress.completedUnitCount += 1
      movingLog.tasks[0].progress.completedUnitCount += 0  // no move: not reported
    }
    #expect(movingLog.expirations == 0)
    #expect(moving.trace.events.filter { $0.kind.tag == .schedProgress }.count == 10)
    moving.advance(by: .seconds(30))
    #expect(movingLog.expirations == 1)

    let lenient = system { $0.continuedProcessingStallWindow = nil }
    let lenientLog = Log()
    lenient.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: lenient, log: lenientLog)
    lenient.advance(by: .seconds(3600))
    #expect(lenientLog.expirations == 0)
  }

  /// Apple, "Performing long-running tasks on iOS and iPadOS": a person can cancel the
  /// task from the system's interface, and the system then calls its expiration handler.
  /// The trace tells it from a stall: `sched.expire reason=user` (a stall's is
  /// `reason=stalled`); before, both were a bare `sched.expire`.
  @Test func aUserCancelCallsTheExpirationHandler() throws {
    let system = system()
    let log = Log()
    system.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: system, log: log)
    system.advance(by: .seconds(5))
    #expect(system.userCancelContinuedProcessing(identifier: "com.example.app.export.1"))
    #expect(log.expirations == 1)
    #expect(!system.userCancelContinuedProcessing(identifier: "com.example.app.export.1"))
    #expect(
      eventLines(system.trace).suffix(2) == [
        "5 sched.expire run=1 reason=user", "5 sched.complete run=1 success=false",
      ])
  }

  /// Apple, SubmissionStrategy.queue: "The system cancels queued
  /// BGContinuedProcessingTaskRequest objects if someone closes your app using the app
  /// switcher."
  @Test func closingTheAppDropsQueuedRequests() throws {
    let system = system()
    let log = Log()
    system.launch { _ in }
    try start(.continued("com.example.app.export.1", title: "A", subtitle: ""), on: system, log: log)
    try start(.continued("com.example.app.export.2", title: "B", subtitle: ""), on: system, log: log)
    system.advance(by: .seconds(1))
    #expect(system.pendingTaskRequests().map(\.identifier) == ["com.example.app.export.2"])
    system.terminate(reason: "user")
    #expect(system.pendingTaskRequests().isEmpty)
  }
}
