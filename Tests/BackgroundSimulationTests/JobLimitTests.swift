import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// The limits AOSP `QuotaController` puts on an app's regular jobs besides its bucket's
/// execution quota (docs/platform-model.md, "Standby buckets"): 4 hours of running in
/// any 24 (`DEFAULT_MAX_EXECUTION_TIME_MS` over `MAX_PERIOD_MS`, every bucket, `active`
/// included), 20 job starts a minute (`DEFAULT_MAX_JOB_COUNT_PER_RATE_LIMITING_WINDOW`
/// over `DEFAULT_RATE_LIMITING_WINDOW_MS`), and each bucket's job and session counts
/// per window (`DEFAULT_MAX_JOB_COUNT_*`, `DEFAULT_MAX_SESSION_COUNT_*`: a rare app's
/// jobs run in at most 3 sessions a day). Out of any of them due work waits with
/// `reasons=quota` (JobScheduler's `PENDING_JOB_REASON_QUOTA`). Times are written out by
/// hand; work is dispatched the instant it is due (`workDispatchDelay` zero).
@Suite struct JobLimitTests {
  /// Returns success after `duration` of virtual time.
  typealias TimedWorker = WaitReasonTests.TimedWorker

  static func android(_ change: (inout SimulationConfiguration) -> Void = { _ in }) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.workDispatchDelay = .zero
    configuration.standbyBucketFollowsUse = false
    change(&configuration)
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  /// Enqueues `sync`, periodic every 15 minutes, whose worker runs `runs`.
  static func enqueueSync(on system: SimulatedSystem, runs: Duration) throws {
    try system.enqueue(
      WorkRequest(work: "sync", period: .seconds(900), worker: TimedWorker(clock: system.clock, duration: runs)),
      policy: nil)
  }

  static func starts(_ system: SimulatedSystem, of work: String) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter {
      $0.contains(" work=\(work) ") && ($0.contains(" work.start ") || $0.contains(" work.wait "))
    }
  }

  /// A periodic sync every 15 minutes whose worker takes 9 minutes, in the `active`
  /// bucket: run k starts at k × 1440 s (each period follows the last run's end). Runs
  /// 0 to 26 use 27 × 540 = 14,580 s; run 26 starts at 37,440 s with 14,400 − 14,040 =
  /// 360 s left (more than the 30 s buffer) and runs its 540 s whatever is left. Run 27,
  /// due at 38,880 s, is over the 4 hours (14,400 s) and waits until 210 s of run 0
  /// (0–540 s) have aged out of the 24 hours: 86,400 + 210 = 86,610 s, when 30 s are
  /// left.
  @Test func theActiveBucketsJobsStopAtFourHoursADay() throws {
    let system = Self.android()
    try Self.enqueueSync(on: system, runs: .seconds(540))
    system.advance(to: TraceTime(seconds: 87_000))
    let starts = Self.starts(system, of: "sync")
    #expect(starts.count == 29)
    #expect(starts.first == "0 work.start work=sync attempt=0")
    #expect(starts[26] == "37440 work.start work=sync attempt=0")
    #expect(starts[27] == "38880 work.wait work=sync reasons=quota")
    #expect(starts[28] == "86610 work.start work=sync attempt=0")
    // A sync every 15 minutes that runs 9 asks for more than 4 hours a day: the checker
    // says the quota cannot keep its period, at the start after the wait.
    let findings = TraceChecker.check(system.trace)
    #expect(findings.map(\.rule) == [.workPeriodOutpaced])
    #expect(findings.first?.time == TraceTime(seconds: 86_610))
  }

  /// Near miss: the same sync with the cap lifted (`maxJobExecutionTime = nil`) runs
  /// every 1440 s, run 27 at 38,880 s.
  @Test func withoutTheDailyCapTheActiveBucketsJobsRunOn() throws {
    let system = Self.android { $0.maxJobExecutionTime = nil }
    try Self.enqueueSync(on: system, runs: .seconds(540))
    system.advance(to: TraceTime(seconds: 40_000))
    let starts = Self.starts(system, of: "sync")
    #expect(starts.count == 28)
    #expect(starts.last == "38880 work.start work=sync attempt=0")
  }

  /// In the rare bucket, three sessions a day (`DEFAULT_MAX_SESSION_COUNT_RARE`): a
  /// periodic sync every 15 minutes whose worker takes 1 s runs at 0, 901 and 1802 s
  /// (three sessions, 3 s of its 10-minute quota); the fourth run, due at 2703 s, waits
  /// until the first session (0–1 s) leaves the 24 hours at 86,401 s. Before the
  /// session count was modelled it ran at 2703 s.
  @Test func aRareAppsJobsRunInThreeSessionsADay() throws {
    let system = Self.android { $0.standbyBucket = .rare }
    try Self.enqueueSync(on: system, runs: .seconds(1))
    system.advance(to: TraceTime(seconds: 86_500))
    #expect(
      Self.starts(system, of: "sync") == [
        "0 work.start work=sync attempt=0",
        "901 work.start work=sync attempt=0",
        "1802 work.start work=sync attempt=0",
        "2703 work.wait work=sync reasons=quota",
        "86401 work.start work=sync attempt=0",
      ])
  }

  /// Twenty-five one-time works enqueued at once, each 1 s: twenty start at 0 s, the
  /// rate limit's 20 a minute (`DEFAULT_MAX_JOB_COUNT_PER_RATE_LIMITING_WINDOW`,
  /// `DEFAULT_RATE_LIMITING_WINDOW_MS`); the other five wait and start at 60 s, when the
  /// first starts leave the minute. (The first enqueue starts the app's process, which
  /// starts the others due then: `upload-1` is among the five.)
  @Test func twentyJobsStartAMinute() throws {
    let system = Self.android()
    for index in 1...25 {
      try system.enqueue(
        WorkRequest(work: "upload-\(index)", worker: TimedWorker(clock: system.clock, duration: .seconds(1))),
        policy: nil)
    }
    system.advance(to: TraceTime(seconds: 120))
    let lines = system.trace.events.map(TextTraceWriter.line(for:))
    let startedAtZero = lines.filter { $0.hasPrefix("0 work.start ") }
    let startedAtSixty = lines.filter { $0.hasPrefix("60 work.start ") }
    #expect(startedAtZero.count == 20)
    #expect(startedAtSixty.count == 5)
    let waited = lines.filter { $0.hasPrefix("0 work.wait ") && $0.hasSuffix(" reasons=quota") }
    #expect(waited.count == 5)
    #expect(waited.first == "0 work.wait work=upload-1 reasons=quota")
    // The five that waited are the five that start at 60 s.
    let names = { (lines: [String]) in Set(lines.map { $0.split(separator: " ")[2] }) }
    #expect(names(waited) == names(startedAtSixty))
  }
}
