import AppleAdapters
import BackgroundTasks
import BackgroundTrace
import Dispatch
import Foundation
import Testing

/// Collects what the app's handlers saw.
private final class Log {
  var launched: [String] = []
  var expired: [String] = []
}

/// `BackgroundTasksScheduler` under `TracingTaskScheduler`, against the BackgroundTasks
/// shim's fake `BGTaskScheduler` (Tests/AppleSDKShim/BackgroundTasks).
@Suite struct BackgroundTasksSchedulerTests {
  @Test func registerSubmitLaunchExpireAndCompleteReachTheSchedulerAndTheTrace() throws {
    let platform = BGTaskScheduler()
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    let log = Log()
    let queue = DispatchQueue(label: "AppleAdapterTests.refresh")
    #expect(
      scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: queue) { task in
        log.launched.append(task.identifier)
        task.expirationHandler = {
          log.expired.append(task.identifier)
          task.setTaskCompleted(success: false)
        }
      })
    #expect(
      scheduler.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
        log.launched.append(task.identifier)
        task.setTaskCompleted(success: true)
      })
    #expect(platform.registeredIdentifiers == ["com.example.cleanup", "com.example.refresh"])
    #expect(platform.queue(forTaskWithIdentifier: "com.example.refresh") === queue)
    #expect(platform.queue(forTaskWithIdentifier: "com.example.cleanup") == nil)

    let before = Date()
    try scheduler.submit(.refresh("com.example.refresh", earliestBeginDelay: .seconds(900)))
    let after = Date()
    let refresh = try #require(platform.pendingRequests.first as? BGAppRefreshTaskRequest)
    #expect(refresh.identifier == "com.example.refresh")
    let earliest = try #require(refresh.earliestBeginDate)
    #expect(earliest >= before.addingTimeInterval(900) && earliest <= after.addingTimeInterval(900))

    let refreshTask = try #require(platform.launch("com.example.refresh"))
    #expect(refreshTask is BGAppRefreshTask)
    #expect(platform.pendingRequests.isEmpty)
    refreshTask.expire()
    #expect(refreshTask.completions == [false])

    try scheduler.submit(
      .processing("com.example.cleanup", requiresNetworkConnectivity: true, requiresExternalPower: true))
    let cleanup = try #require(platform.pendingRequests.first as? BGProcessingTaskRequest)
    #expect(cleanup.requiresNetworkConnectivity && cleanup.requiresExternalPower)
    #expect(cleanup.earliestBeginDate == nil)
    let cleanupTask = try #require(platform.launch("com.example.cleanup"))
    #expect(cleanupTask is BGProcessingTask)
    #expect(cleanupTask.completions == [true])

    #expect(log.launched == ["com.example.refresh", "com.example.cleanup"])
    #expect(log.expired == ["com.example.refresh"])
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 sched.register ident=com.example.refresh
        0 sched.register ident=com.example.cleanup
        0 sched.submit ident=com.example.refresh type=refresh earliest=900
        0 sched.launch ident=com.example.refresh run=1
        0 sched.expire run=1
        0 sched.complete run=1 success=false
        0 sched.submit ident=com.example.cleanup type=processing network=true power=true
        0 sched.launch ident=com.example.cleanup run=2
        0 sched.complete run=2 success=true

        """)
  }

  @Test func aRefusedRegistrationIsRecordedNotOK() {
    let platform = BGTaskScheduler()
    platform.permittedIdentifiers = ["com.example.allowed"]
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    #expect(!scheduler.register(forTaskWithIdentifier: "com.example.other", using: nil) { _ in })
    #expect(platform.registeredIdentifiers.isEmpty)
    #expect(recorder.trace.events.map(\.kind) == [.schedRegister(identifier: "com.example.other", ok: false)])
  }

  @Test(arguments: [
    (BGTaskScheduler.Error.Code.unavailable, SchedulerRejection.unavailable),
    (.tooManyPendingTaskRequests, .tooManyPendingTaskRequests),
    (.notPermitted, .notPermitted),
    (.immediateRunIneligible, .immediateRunIneligible),
  ])
  func submitErrorsBecomeTheTracesRejectionCodes(code: BGTaskScheduler.Error.Code, rejection: SchedulerRejection) {
    let platform = BGTaskScheduler()
    platform.nextSubmitError = code
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    #expect(throws: TaskSchedulerError(rejection)) {
      try scheduler.submit(.refresh("com.example.refresh"))
    }
    #expect(platform.pendingRequests.isEmpty)
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 sched.submit ident=com.example.refresh type=refresh
        0 sched.reject ident=com.example.refresh error=\(rejection.rawValue)

        """)
  }

  @Test func anEarliestBeginDateReachesTheRequestUnchanged() throws {
    let platform = BGTaskScheduler()
    let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var request = TaskRequest.refresh("com.example.refresh")
    request.earliestBeginDate = date
    try BackgroundTasksScheduler(scheduler: platform).submit(request)
    #expect(platform.pendingRequests.map(\.earliestBeginDate) == [date])
  }

  @Test func cancelsReachTheScheduler() throws {
    let platform = BGTaskScheduler()
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    try scheduler.submit(.refresh("com.example.refresh"))
    try scheduler.submit(.processing("com.example.cleanup"))
    scheduler.cancel(taskRequestWithIdentifier: "com.example.refresh")
    #expect(platform.pendingRequests.map(\.identifier) == ["com.example.cleanup"])
    scheduler.cancelAllTaskRequests()
    #expect(platform.pendingRequests.isEmpty)
    #expect(
      recorder.trace.events.map(\.kind).suffix(2) == [
        .schedCancel(.identifier("com.example.refresh")), .schedCancel(.all),
      ])
  }

  /// `getPendingTaskRequests(completionHandler:)`, as `await pendingTaskRequests()`:
  /// each pending request comes back as the ``TaskRequest`` it was submitted as.
  @Test func pendingRequestsComeFromTheScheduler() async throws {
    let platform = BGTaskScheduler()
    let scheduler = BackgroundTasksScheduler(scheduler: platform)
    let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var refresh = TaskRequest.refresh("com.example.refresh")
    refresh.earliestBeginDate = date
    try scheduler.submit(refresh)
    try scheduler.submit(.processing("com.example.cleanup", requiresExternalPower: true))
    let expected = [refresh, .processing("com.example.cleanup", requiresExternalPower: true)]
    #expect(await scheduler.pendingTaskRequests() == expected)
  }

  /// A continued-processing request reaches `BGTaskScheduler` as a
  /// `BGContinuedProcessingTaskRequest` with its title, subtitle, strategy and resources;
  /// its launched `BGContinuedProcessingTask` is handed out as a `ContinuedProcessingTask`,
  /// whose progress reaches the task's `Progress` and the trace (`sched.progress`).
  @Test func aContinuedRequestAndItsProgressReachTheSchedulerAndTheTrace() async throws {
    let platform = BGTaskScheduler()
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    var launched: (any ContinuedProcessingTask)?
    scheduler.register(forTaskWithIdentifier: "com.example.app.export.1", using: nil) { task in
      launched = task as? any ContinuedProcessingTask
    }
    try scheduler.submit(
      .continued(
        "com.example.app.export.1", title: "Export", subtitle: "3 photos", strategy: .fail, requiredResources: .gpu))
    let request = try #require(platform.pendingRequests.first as? BGContinuedProcessingTaskRequest)
    #expect(request.title == "Export" && request.subtitle == "3 photos")
    #expect(request.strategy == .fail && request.requiredResources == .gpu)
    #expect(
      await scheduler.pendingTaskRequests() == [
        .continued(
          "com.example.app.export.1", title: "Export", subtitle: "3 photos", strategy: .fail, requiredResources: .gpu)
      ])

    let platformTask = try #require(platform.launch("com.example.app.export.1") as? BGContinuedProcessingTask)
    let task = try #require(launched)
    #expect(task.title == "Export")
    task.progress.totalUnitCount = 3
    task.progress.completedUnitCount = 1
    #expect(platformTask.progress.totalUnitCount == 3 && platformTask.progress.completedUnitCount == 1)
    task.updateTitle("Export", subtitle: "1 of 3")
    #expect(platformTask.subtitle == "1 of 3")
    task.setTaskCompleted(success: true)
    #expect(platformTask.completions == [true])
    #expect(
      recorder.trace.events.map(\.kind).suffix(4) == [
        .schedLaunch(identifier: "com.example.app.export.1", run: 1),
        .schedProgress(run: 1, completed: 0, total: 3),
        .schedProgress(run: 1, completed: 1, total: 3),
        .schedComplete(run: 1, success: true),
      ])
  }

  /// BGTask.h, iOS 26.0 SDK: `expirationHandler` "is cleared after it is called by the
  /// system or when ``BGTask/setTaskCompletedWithSuccess:`` is called": a run the app
  /// completed does not expire later. The shim kept the handler after completion, so an
  /// expiry there recorded a `sched.expire` after the run's `sched.complete`.
  @Test func aCompletedRunNoLongerExpires() throws {
    let platform = BGTaskScheduler()
    let recorder = TraceRecorder(clock: StoppedClock())
    let scheduler = TracingTaskScheduler(base: BackgroundTasksScheduler(scheduler: platform), recorder: recorder)
    scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      task.setTaskCompleted(success: true)
    }
    let task = try #require(platform.launch("com.example.refresh"))
    #expect(task.expirationHandler == nil)
    task.expire()
    #expect(task.completions == [true])
    #expect(
      recorder.trace.events.map(\.kind) == [
        .schedRegister(identifier: "com.example.refresh", ok: nil),
        .schedLaunch(identifier: "com.example.refresh", run: 1),
        .schedComplete(run: 1, success: true),
      ])
  }

  /// BGTaskRequest.h, iOS 26.0 SDK, on `BGContinuedProcessingTaskRequest`'s initializer:
  /// "``BGTaskRequest/earliestBeginDate`` will be outright ignored by the scheduler in
  /// favor of `NSDate.now`". The adapter left a delay's date on the request, and read it
  /// back from the pending request as if the scheduler kept it.
  @Test func aContinuedRequestCarriesNoEarliestDate() async throws {
    let platform = BGTaskScheduler()
    let scheduler = BackgroundTasksScheduler(scheduler: platform)
    var request = TaskRequest.continued("com.example.app.export.1", title: "Export", subtitle: "3 photos")
    request.earliestBeginDelay = .seconds(60)
    try scheduler.submit(request)
    let submitted = try #require(platform.pendingRequests.first as? BGContinuedProcessingTaskRequest)
    #expect(submitted.earliestBeginDate == nil)
    submitted.earliestBeginDate = Date(timeIntervalSinceReferenceDate: 800_000_000)
    #expect(
      await scheduler.pendingTaskRequests() == [
        .continued("com.example.app.export.1", title: "Export", subtitle: "3 photos")
      ])
  }
}
