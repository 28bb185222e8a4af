import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import Foundation
import Testing

/// The tracing wrappers over a base platform (here the simulation): what they record
/// must be what the platform itself saw.
@Suite struct TracingWrapperTests {
  /// The simulation's own events of the kinds a wrapper records.
  /// The events a wrapper records, from the platform's trace; without the request ids
  /// the simulation gives requests the app gave none (the wrapper records the id the
  /// app's request has).
  static func wrapperKinds(_ trace: RecordedTrace) -> [TraceEvent] {
    trace.events.compactMap { event in
      switch event.kind {
      case .workEnqueue:
        return withoutRequestID(event)
      case .taskBegin, .taskEnd, .taskExpire, .schedRegister, .schedSubmit, .schedReject, .schedCancel, .schedLaunch,
        .schedExpire, .schedComplete, .workStart, .workResult, .workStop, .workCancel:
        return event
      default:
        return nil
      }
    }
  }

  @Test func wrappersRecordWhatThePlatformSaw() {
    let system = SimulatedSystem(seed: 11)
    let recorder = TraceRecorder(clock: system.clock)
    let host = TracingBackgroundTaskHost(base: system, recorder: recorder)
    let scheduler = TracingTaskScheduler(base: system, recorder: recorder)
    let work = TracingWorkQueue(base: system, recorder: recorder)
    let context = AsyncContext(simulation: system.scheduler)
    let app = SampleApp(host: host, scheduler: scheduler, work: work, context: context)
    system.launch { _ in app.didFinishLaunching() }
    system.advance(by: .seconds(1))
    app.sync(failures: 1)
    system.moveToBackground()
    app.didEnterBackground(saveDuration: .seconds(50))
    // Past the refresh's latest launch: 1 h + 8 h under the realistic launch policy.
    system.advance(by: .seconds(9 * 3600 + 60))

    let simulated = Self.wrapperKinds(system.trace)
    let wrapped = recorder.trace.events
    #expect(wrapped == simulated)
    #expect(wrapped.contains { $0.kind == .taskExpire(id: 1) })
    #expect(wrapped.contains { if case .schedLaunch = $0.kind { true } else { false } })
    #expect(wrapped.contains { $0.kind == .workResult(work: "sync-1", attempt: 1, outcome: .success) })
  }

  /// The alarm wrapper records each call as the simulated `AlarmManager` does: a
  /// one-off alarm, a window alarm, a repeating one (with the interval asked for, not
  /// the minute Android clamps 30 s to) and a cancel; `setAlarm` with `.repeating`
  /// repeats every `delay`.
  @Test func theAlarmWrapperRecordsEachCallAsThePlatform() throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.exactAlarmsPermitted = true
    let system = SimulatedSystem(seed: 11, configuration: configuration)
    let recorder = TraceRecorder(clock: system.clock)
    let alarms = TracingAlarmScheduler(base: system, recorder: recorder)
    try alarms.setAlarm("exact", after: .seconds(600), type: .exact)
    alarms.setWindowAlarm("window", after: .seconds(600), window: .seconds(60))
    alarms.setRepeatingAlarm("sync", after: .seconds(30), every: .seconds(30))
    try alarms.setAlarm("hourly", after: .seconds(3600), type: .repeating)
    system.advance(by: .seconds(100))
    alarms.cancelAlarm("sync")
    let calls = system.trace.events.filter {
      switch $0.kind {
      case .alarmSet, .alarmCancel: true
      default: false
      }
    }
    #expect(recorder.trace.events == calls)
    #expect(
      recorder.trace.events.map(TextTraceWriter.line(for:)) == [
        "0 alarm.set alarm=exact at=600 type=exact", "0 alarm.set alarm=window at=600 type=window window=60",
        "0 alarm.set alarm=sync at=30 type=repeating interval=30",
        "0 alarm.set alarm=hourly at=3600 type=repeating interval=3600", "100 alarm.cancel alarm=sync",
      ])
  }

  /// A request's `addTag`s are recorded as WorkManager's WorkerWrapper prints them where
  /// each attempt ends (`Work [ id=…, tags={ … } ]`): `tags=` on the result, joined by
  /// `,`, by the wrapper and by the simulation alike; a request without tags has none.
  @Test func aRequestsTagsAreOnEachResult() {
    struct Retrying: BackgroundWorker {
      func doWork(_ context: WorkContext) async -> WorkResult { context.runAttemptCount == 0 ? .retry : .success }
    }
    let system = SimulatedSystem(seed: 11)
    let recorder = TraceRecorder(clock: system.clock)
    let work = TracingWorkQueue(base: system, recorder: recorder)
    system.launch { _ in
      try! work.enqueue(
        WorkRequest(work: "sync", tags: ["com.example.SyncWorker", "sync"], worker: Retrying()), policy: nil)
      try! work.enqueue(WorkRequest(work: "plain", worker: Retrying()), policy: nil)
    }
    system.advance(by: .seconds(120))

    let results = recorder.trace.events.filter { if case .workResult = $0.kind { true } else { false } }.map(\.kind)
    let tags = "com.example.SyncWorker,sync"
    #expect(
      Set(results) == [
        .workResult(work: "sync", attempt: 0, outcome: .retry, tags: tags),
        .workResult(work: "sync", attempt: 1, outcome: .success, tags: tags),
        .workResult(work: "plain", attempt: 0, outcome: .retry),
        .workResult(work: "plain", attempt: 1, outcome: .success),
      ])
    #expect(recorder.trace.events == Self.wrapperKinds(system.trace))
  }

  @Test func aRejectedSubmissionIsRecordedAndRethrown() {
    var configuration = SimulationConfiguration()
    configuration.permittedIdentifiers = ["com.example.allowed"]
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    let recorder = TraceRecorder(clock: system.clock)
    let scheduler = TracingTaskScheduler(base: system, recorder: recorder)
    system.launch { _ in }
    #expect(throws: TaskSchedulerError(.notPermitted)) {
      try scheduler.submit(.refresh("com.example.other", earliestBeginDelay: .seconds(60)))
    }
    #expect(
      recorder.trace.events.map(\.kind) == [
        .schedSubmit(
          SchedulerSubmission(identifier: "com.example.other", type: .refresh, earliest: TraceTime(seconds: 60))),
        .schedReject(identifier: "com.example.other", error: .notPermitted),
      ])
  }

  @Test func theEnvironmentRecorderStreamsToBGTRACEOUTPUT() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-env-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    #expect(try TraceRecorder.fromEnvironment([:]) == nil)
    #expect(try TraceRecorder.fromEnvironment(["BGTRACE_OUTPUT": ""]) == nil)

    let template = directory.appendingPathComponent("run-%p.bgtrace").path
    let recorder = try #require(try TraceRecorder.fromEnvironment(["BGTRACE_OUTPUT": template]))
    let path = directory.appendingPathComponent("run-\(ProcessInfo.processInfo.processIdentifier).bgtrace").path
    recorder.record(.taskBegin(id: 1, name: "Upload"))
    recorder.record(.appState(to: .background))  // flushes
    var reader = try TraceReader(path: path)
    let events = try reader.readAll().events.map(\.kind)
    #expect(events == [.appLaunch, .taskBegin(id: 1, name: "Upload"), .appState(to: .background)])
    try recorder.close()
  }
}
