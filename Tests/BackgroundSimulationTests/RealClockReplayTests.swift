import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Foundation
import Synchronization
import Testing

/// A trace recorded on the real clock whose app submits scheduler requests replays with
/// the default `timing: .order`: a time a field carries (`sched.submit earliest=`) is
/// compared as its offset from its own event, so the same request made at another
/// moment matches, and under `.exact` it is compared as the absolute time it is.
@Suite struct RealClockReplayTests {
  /// App code as it would ship: at launch it registers its two scheduler tasks, asks for
  /// a refresh in 15 minutes (an `earliestBeginDate`, as `BGAppRefreshTaskRequest` takes
  /// it) and a processing task in an hour with network, and enqueues a sync; entering the
  /// background it saves a draft inside a UIKit background task.
  final class SyncingApp: BackgroundAppDelegate, @unchecked Sendable {
    static let refresh = "com.example.refresh"
    static let cleanup = "com.example.cleanup"
    let host: any BackgroundTaskHost
    let scheduler: any TaskScheduling
    let work: any WorkQueue
    let context: AsyncContext

    init(host: any BackgroundTaskHost, scheduler: any TaskScheduling, work: any WorkQueue, context: AsyncContext) {
      self.host = host
      self.scheduler = scheduler
      self.work = work
      self.context = context
    }

    func didFinishLaunching() {
      for identifier in [Self.refresh, Self.cleanup] {
        scheduler.register(forTaskWithIdentifier: identifier, using: nil) { $0.setTaskCompleted(success: true) }
      }
      var refresh = TaskRequest.refresh(Self.refresh)
      refresh.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
      try? scheduler.submit(refresh)
      try? scheduler.submit(
        .processing(Self.cleanup, earliestBeginDelay: .seconds(3600), requiresNetworkConnectivity: true))
      try! work.enqueue(WorkRequest(work: "sync", worker: SyncWorker()), policy: .keep)
    }

    func didEnterBackground() {
      let id = host.beginBackgroundTask(withName: "SaveDraft", expirationHandler: nil)
      let host = self.host
      context.run { host.endBackgroundTask(id) }
    }
  }

  /// Uploads nothing and succeeds.
  struct SyncWorker: BackgroundWorker {
    func doWork(_ context: WorkContext) async -> WorkResult { .success }
  }

  /// Records the app through the tracing wrappers on `ContinuousClock`: every time in the
  /// trace is real nanoseconds since the recorder started, every `earliest=` the
  /// submission's real time plus its delay.
  static func recordOnTheRealClock(privacy: TracePrivacy = .visible) async -> RecordedTrace {
    let recorder = TraceRecorder(privacy: privacy)
    let (ended, signal) = AsyncStream<Void>.makeStream()
    let host = TracingBackgroundTaskHost(base: ThreadedTaskHost { signal.yield() }, recorder: recorder)
    let scheduler = TracingTaskScheduler(base: AcceptingScheduler(), recorder: recorder)
    let queue = StartOnRequestQueue()
    let work = TracingWorkQueue(base: queue, recorder: recorder)
    let app = SyncingApp(
      host: host, scheduler: scheduler, work: work, context: AsyncContext(executor: nil, clock: ContinuousClock()))
    recorder.record(.appLaunch)
    app.didFinishLaunching()
    recorder.record(.appState(to: .active))
    await queue.runEnqueued()  // WorkManager starts the sync
    recorder.record(.appState(to: .inactive))
    recorder.record(.appState(to: .background))
    app.didEnterBackground()
    for await _ in ended { break }  // the draft is saved and its task ended
    recorder.record(.appState(to: .suspended))
    return recorder.trace
  }

  /// The event's line at 0 s, its earliest date 0 s: what is the same in every recording.
  static func lineWithoutTimes(_ event: TraceEvent) -> String {
    guard case .schedSubmit(var submission) = event.kind else {
      return TextTraceWriter.line(for: TraceEvent(time: .zero, event.kind))
    }
    submission.earliest = submission.earliest.map { _ in .zero }
    return TextTraceWriter.line(for: TraceEvent(time: .zero, .schedSubmit(submission)))
  }

  @Test func aRealClockTraceWithSchedulerRequestsReplaysInOrder() async throws {
    let recorded = await Self.recordOnTheRealClock()
    #expect(
      recorded.events.map { Self.lineWithoutTimes($0) } == [
        "0 app.launch",
        "0 sched.register ident=com.example.refresh",
        "0 sched.register ident=com.example.cleanup",
        "0 sched.submit ident=com.example.refresh type=refresh earliest=0",
        "0 sched.submit ident=com.example.cleanup type=processing earliest=0 network=true",
        "0 work.enqueue work=sync policy=keep",
        "0 app.state to=active",
        "0 work.start work=sync attempt=0",
        "0 work.result work=sync attempt=0 outcome=success",
        "0 app.state to=inactive",
        "0 app.state to=background",
        "0 task.begin id=1 name=SaveDraft",
        "0 task.end id=1",
        "0 app.state to=suspended",
      ])
    // The earliest dates are real times: about 15 minutes and an hour after their
    // submissions (less the moment between reading the clock for the date or the delay
    // and stamping the event).
    let submits = recorded.events.compactMap { event -> (TraceTime, TraceTime)? in
      guard case .schedSubmit(let submission) = event.kind, let earliest = submission.earliest else { return nil }
      return (event.time, earliest)
    }
    try #require(submits.count == 2)
    #expect(submits[0].1 <= submits[0].0.adding(nanoseconds: 900_000_000_000))
    #expect(submits[0].1 > submits[0].0.adding(nanoseconds: 899_000_000_000))
    #expect(submits[1].1 <= submits[1].0.adding(nanoseconds: 3_600_000_000_000))
    #expect(submits[1].1 > submits[1].0.adding(nanoseconds: 3_599_000_000_000))

    // The same code asks for the same requests in every replay, though the app reads the
    // wall clock for the refresh's date.
    let (_, nondeterminism) = Replayer.replayChecked(recorded) { platform in
      SyncingApp(
        host: platform, scheduler: platform, work: platform, context: AsyncContext(simulation: platform.scheduler))
    }
    #expect(nondeterminism == nil)
    for _ in 0..<20 {
      let result = Replayer.replay(recorded) { platform in
        SyncingApp(
          host: platform, scheduler: platform, work: platform, context: AsyncContext(simulation: platform.scheduler))
      }
      #expect(result.divergence == nil, "\(String(describing: result.divergence))")
      #expect(result.unapplied.isEmpty)
      #expect(result.findings.isEmpty, "\(result.findings)")
      // The replay makes both requests at its own (virtual) moment, each as far from it
      // as in the recording: the refresh's date is read against the recorded offset.
      let replayed = result.trace.events.compactMap { event -> (TraceTime, TraceTime)? in
        guard case .schedSubmit(let submission) = event.kind, let earliest = submission.earliest else { return nil }
        return (event.time, earliest)
      }
      try #require(replayed.count == 2)
      for (replay, recording) in zip(replayed, submits) {
        #expect(
          replay.1.nanoseconds - replay.0.nanoseconds == recording.1.nanoseconds - recording.0.nanoseconds)
      }
    }
  }

  /// The recording: a refresh submitted 0.5 s after launch, for 900 s later.
  static let recordedSubmit = """
    bgtrace 1
    0 app.launch
    0.5 sched.submit ident=com.example.refresh type=refresh earliest=900.5

    """

  /// Submits a refresh at launch, `delay` out.
  final class SubmittingApp: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    let delay: Duration
    init(scheduler: any TaskScheduling, delay: Duration) {
      self.scheduler = scheduler
      self.delay = delay
    }
    func didFinishLaunching() {
      try? scheduler.submit(.refresh("com.example.refresh", earliestBeginDelay: delay))
    }
  }

  @Test func anEarliestDateComparesByItsOffsetUnderOrderAndAbsolutelyUnderExact() throws {
    let recorded = try RecordedTrace(text: Self.recordedSubmit)
    // The replay submits at launch, 0 s: `0 sched.submit … earliest=900`, 900 s after
    // its event as the recording's is.
    let inOrder = Replayer.replay(recorded) { SubmittingApp(scheduler: $0, delay: .seconds(900)) }
    #expect(inOrder.divergence == nil, "\(String(describing: inOrder.divergence))")
    #expect(
      inOrder.trace.events.last
        == TraceEvent(
          time: .zero,
          .schedSubmit(
            SchedulerSubmission(
              identifier: "com.example.refresh", type: .refresh, earliest: TraceTime(seconds: 900)))))

    let exact = Replayer.replay(recorded, timing: .exact) { SubmittingApp(scheduler: $0, delay: .seconds(900)) }
    #expect(
      exact.divergence?.description
        == "replay diverges at event 2 (0.5s): expected '0.5 sched.submit ident=com.example.refresh type=refresh earliest=900.5', the app did '0 sched.submit ident=com.example.refresh type=refresh earliest=900'"
    )
  }

  @Test func aDifferentOffsetDivergesUnderOrderWithTheRecordingsTimes() throws {
    let recorded = try RecordedTrace(text: Self.recordedSubmit)
    let result = Replayer.replay(recorded) { SubmittingApp(scheduler: $0, delay: .seconds(960)) }
    // The app's line is written where the recording has its action: at 0.5 s, with its
    // earliest date 960 s after it, so the two lines differ only where they were compared.
    #expect(
      result.divergence?.description
        == "replay diverges at event 2 (0.5s): expected '0.5 sched.submit ident=com.example.refresh type=refresh earliest=900.5', the app did '0.5 sched.submit ident=com.example.refresh type=refresh earliest=960.5'"
    )
    // The replayed trace keeps the replay's own times.
    #expect(
      result.trace.events.last.map(TextTraceWriter.line(for:))
        == "0 sched.submit ident=com.example.refresh type=refresh earliest=960")
  }

  /// Submits a refresh at launch with an `earliestBeginDate` `interval` seconds from now.
  final class DatedSubmittingApp: BackgroundAppDelegate {
    let scheduler: any TaskScheduling
    let interval: TimeInterval
    init(scheduler: any TaskScheduling, interval: TimeInterval) {
      self.scheduler = scheduler
      self.interval = interval
    }
    func didFinishLaunching() {
      var request = TaskRequest.refresh("com.example.refresh")
      request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
      try? scheduler.submit(request)
    }
  }

  @Test func anEarliestDateTakesTheRecordedOffsetWhenItIsTheSameRequest() throws {
    // The recorded submit's earliest date is 899.9 s after it: the recorded app made its
    // date (900 s from then) a tenth of a second before submitting.
    let recorded = try RecordedTrace(
      text: """
        bgtrace 1
        0 app.launch
        0.5 sched.submit ident=com.example.refresh type=refresh earliest=900.4

        """)
    let same = Replayer.replay(recorded, timing: .exact) { DatedSubmittingApp(scheduler: $0, interval: 900) }
    #expect(
      same.trace.events.last.map(TextTraceWriter.line(for:))
        == "0 sched.submit ident=com.example.refresh type=refresh earliest=899.9")
    #expect(same.divergence?.actual == "0 sched.submit ident=com.example.refresh type=refresh earliest=899.9")
    #expect(Replayer.replay(recorded) { DatedSubmittingApp(scheduler: $0, interval: 900) }.divergence == nil)

    // A date a minute later is another request: the replay keeps it, and diverges.
    let later = Replayer.replay(recorded) { DatedSubmittingApp(scheduler: $0, interval: 960) }
    let divergence = try #require(later.divergence)
    #expect(divergence.eventNumber == 2)
    #expect(
      divergence.actual?.hasPrefix("0.5 sched.submit ident=com.example.refresh type=refresh earliest=960.") == true)
  }
}

/// A scheduler that accepts every registration and submission and launches nothing.
final class AcceptingScheduler: TaskScheduling {
  func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool { true }
  func submit(_ request: TaskRequest) throws(TaskSchedulerError) {}
  func cancel(taskRequestWithIdentifier identifier: String) {}
  func cancelAllTaskRequests() {}
  func pendingTaskRequests() -> [TaskRequest] { [] }
}

/// A work queue that starts what was enqueued when the test says so, first attempts only.
final class StartOnRequestQueue: WorkQueue, @unchecked Sendable {
  let workIDs = WorkIDs()
  private let enqueued = Mutex<[WorkRequest]>([])

  func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) -> Bool {
    enqueued.withLock { $0.append(request) }
    return true
  }

  func enqueue(_ request: WorkRequest, after prerequisites: [String]) {
    enqueued.withLock { $0.append(request) }
  }

  func cancel(work: String) {}

  /// Runs each enqueued request's worker once, in enqueue order.
  func runEnqueued() async {
    for request in enqueued.withLock({ requests in
      defer { requests = [] }; return requests
    }) {
      _ = await request.worker.result(of: WorkContext(work: request.work, runAttemptCount: 0))
    }
  }
}
