public import BackgroundTrace

/// Generates realistic, rule-abiding traces of an app's background work: launches,
/// foreground and background phases, named UIKit tasks, scheduler registrations,
/// refresh and processing runs that resubmit and complete, workers that retry with
/// exponential backoff within their attempt limit, network flaps and recorded inputs.
///
/// The same seed and timing give the same events on every machine. The traces are
/// clean under every checker rule, so they serve as benchmark input and as the
/// "no findings on a large trace" test.
public struct WorkloadGenerator: Sendable {
  /// How event times are spaced.
  public enum Timing: String, Sendable, CaseIterable {
    /// Whole milliseconds, as a virtual clock produces.
    case virtualMilliseconds
    /// Nanosecond jitter on every time, as a wall clock produces.
    case wallClockNanoseconds
  }

  /// Refresh identifier registered in every process.
  public static let refreshIdentifier = "com.example.app.refresh"
  /// Processing identifier registered in every process.
  public static let processingIdentifier = "com.example.app.db-cleanup"
  private static let taskNames = ["SaveDocument", "UploadPhotos", "SyncContacts", "SendAnalytics", "FlushLogs"]
  private static let terminateReasons = ["user", "memory", "system"]

  private var random: SplitMix64
  private let timing: Timing
  private var now: UInt64 = 0
  private var lastEmitted: UInt64 = 0
  private var nextRun = 1
  private var nextWork = 1

  /// Creates a generator.
  public init(seed: UInt64, timing: Timing) {
    random = SplitMix64(seed: seed)
    self.timing = timing
  }

  /// A trace of at least `eventCount` events (whole sessions), with its metadata.
  ///
  /// - Complexity: O(*n*) in `eventCount`.
  public static func trace(eventCount: Int, seed: UInt64 = 1, timing: Timing = .virtualMilliseconds) -> RecordedTrace {
    var generator = WorkloadGenerator(seed: seed, timing: timing)
    var events: [TraceEvent] = []
    events.reserveCapacity(eventCount + 512)
    while events.count < eventCount { generator.appendSession(to: &events) }
    return RecordedTrace(meta: meta, events: events)
  }

  /// The metadata the generated traces carry.
  public static let meta = TraceMetadata(["platform": "ios", "budget": "30", "source": "workload"])

  /// Appends one app process's events, from `app.launch` to `app.terminate`, in time order.
  public mutating func appendSession(to output: inout [TraceEvent]) {
    var session: [(time: UInt64, order: Int, kind: TraceEvent.Kind)] = []
    func add(_ time: UInt64, _ kind: TraceEvent.Kind) {
      session.append((time, session.count, kind))
    }
    let start = now
    var t = start
    add(t, .appLaunch)
    add(t, .schedRegister(identifier: Self.refreshIdentifier, ok: nil))
    add(t, .schedRegister(identifier: Self.processingIdentifier, ok: nil))
    t += ms(150...400)
    add(t, .appState(to: .active))
    var taskID = 0
    var sessionEnd = t

    // Foreground: short tasks, inputs, a refresh submission, work with retries.
    let foregroundEnd = t + ms(60_000...300_000)
    add(
      t + ms(500...2_000),
      .schedSubmit(
        SchedulerSubmission(
          identifier: Self.refreshIdentifier, type: .refresh,
          earliest: TraceTime(nanoseconds: foregroundEnd + 900_000_000_000))))
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      sessionEnd = max(sessionEnd, appendWork(from: t + ms(1_000...30_000), add))
    }
    while t < foregroundEnd {
      t += ms(200...4_000)
      taskID += 1
      let name = Self.taskNames.randomElement(using: &random)!
      add(t, .taskBegin(id: taskID, name: name))
      let duration = ms(50...5_000)
      if Int.random(in: 0..<8, using: &random) == 0 {
        add(t + duration / 2, .input(key: "upload.status", value: Bool.random(using: &random) ? "ok" : "timeout"))
      }
      add(t + duration, .taskEnd(id: taskID))
      if Int.random(in: 0..<25, using: &random) == 0 {
        add(
          t + duration,
          .envSet([EnvironmentSetting(key: "network", value: Bool.random(using: &random) ? "wifi" : "offline")]))
      }
      if Int.random(in: 0..<40, using: &random) == 0 {
        add(t + duration, .mark(label: "checkpoint"))
      }
      t += duration
    }

    // Background: tasks that end within the budget, then scheduler runs.
    add(t, .appState(to: .inactive))
    t += ms(100...500)
    add(t, .appState(to: .background))
    var backgroundEnd = t
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      taskID += 1
      let begin = t + ms(0...500)
      add(begin, .taskBegin(id: taskID, name: Self.taskNames.randomElement(using: &random)!))
      let end = begin + ms(500...25_000)
      add(end, .taskEnd(id: taskID))
      backgroundEnd = max(backgroundEnd, end)
    }
    var runTime = backgroundEnd + ms(1_000...5_000)
    let refreshRun = nextRun
    nextRun += 1
    add(runTime, .schedLaunch(identifier: Self.refreshIdentifier, run: refreshRun))
    runTime += ms(10...200)
    add(
      runTime,
      .schedSubmit(
        SchedulerSubmission(
          identifier: Self.refreshIdentifier, type: .refresh,
          earliest: TraceTime(nanoseconds: runTime + 900_000_000_000))))
    runTime += ms(500...10_000)
    add(runTime, .schedComplete(run: refreshRun, success: true))
    if Bool.random(using: &random) {
      let run = nextRun
      nextRun += 1
      runTime += ms(1_000...3_000)
      add(runTime, .schedLaunch(identifier: Self.processingIdentifier, run: run))
      runTime += ms(5_000...30_000)
      if Int.random(in: 0..<4, using: &random) == 0 {
        add(runTime, .schedExpire(run: run))
        runTime += ms(10...900)
        add(runTime, .schedComplete(run: run, success: false))
      } else {
        add(runTime, .schedComplete(run: run, success: true))
      }
    }
    runTime += ms(2_000...5_000)
    add(runTime, .appState(to: .suspended))
    sessionEnd = max(sessionEnd, runTime) + ms(1_000...60_000)
    add(sessionEnd, .appTerminate(reason: Self.terminateReasons.randomElement(using: &random)!))
    now = sessionEnd + ms(1_000...600_000)

    session.sort { ($0.time, $0.order) < ($1.time, $1.order) }
    for entry in session {
      var time = entry.time
      if timing == .wallClockNanoseconds { time += UInt64.random(in: 0..<1_000_000, using: &random) }
      time = max(time, lastEmitted)
      lastEmitted = time
      output.append(TraceEvent(time: TraceTime(nanoseconds: time), entry.kind))
    }
  }

  /// Adds one work item's enqueue, attempts and results; returns its last event's time.
  private mutating func appendWork(from start: UInt64, _ add: (UInt64, TraceEvent.Kind) -> Void) -> UInt64 {
    let work = "sync-\(nextWork)"
    nextWork += 1
    let limit = 3
    add(start, .workEnqueue(WorkEnqueue(work: work, name: "DataSyncWorker", retryLimit: limit)))
    var t = start + ms(100...2_000)
    var attempt = 0
    while true {
      add(t, .workStart(work: work, attempt: attempt))
      t += ms(200...8_000)
      let succeeds = Int.random(in: 0..<3, using: &random) != 0
      let outcome: WorkOutcome = succeeds ? .success : (attempt < limit ? .retry : .failure)
      add(t, .workResult(work: work, attempt: attempt, outcome: outcome))
      guard outcome == .retry else { return t }
      attempt += 1
      // Exponential backoff from 30 s: 30 s × 2^(attempt − 1), then scheduling slack.
      t += 30_000_000_000 << UInt64(attempt - 1) + ms(0...3_000)
    }
  }

  private mutating func ms(_ range: ClosedRange<UInt64>) -> UInt64 {
    UInt64.random(in: range, using: &random) * 1_000_000
  }
}
