import BackgroundSimulation
import BackgroundTrace
import Testing

/// Returns `.retry` at once, forever: the result time of an attempt is its start time.
private struct AlwaysRetryWorker: BackgroundWorker {
  func doWork(_ context: WorkContext) async -> WorkResult { .retry }
}

/// One row of the table: a backoff configuration and the start times of attempts 1–12,
/// in seconds, computed by hand.
struct BackoffTableRow: Sendable, CustomTestStringConvertible {
  var policy: BackoffPolicy?
  var delay: Duration?
  var starts: [Int]

  var testDescription: String {
    "\(policy?.rawValue ?? "default") delay \(delay.map { "\($0)" } ?? "default")"
  }
}

/// Retry start times for linear and exponential backoff, by the androidx formula.
///
/// Attempt 0 starts at 0 (dispatch delay zero); attempt n starts at
/// start(n − 1) + backoff(n), because the worker returns as soon as it starts. With
/// d = clamp(delay, 10 s, 5 h): linear backoff(n) = d × n, exponential
/// backoff(n) = d × 2^(n−1), each capped at 5 h = 18 000 s.
private let backoffTable: [BackoffTableRow] = [
  // Linear, 5 s clamped up to 10 s: backoff 10n, start(n) = 10 × n(n+1)/2 = 5n(n+1):
  // 10, 10+20=30, 30+30=60, 100, 150, 210, 280, 360, 450, 550, 660, 780.
  BackoffTableRow(
    policy: .linear, delay: .seconds(5), starts: [10, 30, 60, 100, 150, 210, 280, 360, 450, 550, 660, 780]),
  // Linear, 1 h: backoff 3600, 7200, 10800, 14400, then 18000 (3600 × 5) and capped at
  // 18000 from attempt 6 on (21600 > 18000): starts 3600, 10800, 21600, 36000, 54000,
  // then +18000 each: 72000, 90000, 108000, 126000, 144000, 162000, 180000.
  BackoffTableRow(
    policy: .linear, delay: .seconds(3600),
    starts: [3600, 10800, 21600, 36000, 54000, 72000, 90000, 108000, 126000, 144000, 162000, 180000]),
  // Linear, 6 h clamped down to 5 h: backoff 18000n capped at 18000 → 18000 each.
  BackoffTableRow(
    policy: .linear, delay: .seconds(6 * 3600),
    starts: [18000, 36000, 54000, 72000, 90000, 108000, 126000, 144000, 162000, 180000, 198000, 216000]),
  // Exponential, 5 s clamped up to 10 s: backoff 10, 20, 40, 80, 160, 320, 640, 1280,
  // 2560, 5120, 10240, then 20480 capped to 18000. Starts: 10, 30, 70, 150, 310, 630,
  // 1270, 2550, 5110, 10230, 20470, 20470 + 18000 = 38470.
  BackoffTableRow(
    policy: .exponential, delay: .seconds(5),
    starts: [10, 30, 70, 150, 310, 630, 1270, 2550, 5110, 10230, 20470, 38470]),
  // Defaults (exponential, 30 s): backoff 30, 60, 120, 240, 480, 960, 1920, 3840, 7680,
  // 15360, then 30720 and 61440 capped to 18000. Starts: 30, 90, 210, 450, 930, 1890,
  // 3810, 7650, 15330, 30690, 48690, 66690.
  BackoffTableRow(
    policy: nil, delay: nil,
    starts: [30, 90, 210, 450, 930, 1890, 3810, 7650, 15330, 30690, 48690, 66690]),
]

/// WorkManager retry backoff (docs/platform-model.md "WorkManager") on the Android platform model.
@Suite struct WorkBackoffModelTests {
  @Test(arguments: backoffTable)
  func retryStartTimesFollowTheAndroidxBackoffFormula(_ row: BackoffTableRow) throws {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.workDispatchDelay = .zero
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    try system.enqueue(
      WorkRequest(work: "sync", backoff: row.policy, backoffDelay: row.delay, worker: AlwaysRetryWorker()),
      policy: nil)
    system.advance(to: TraceTime(seconds: Double(row.starts[11])))

    var starts: [Int: TraceTime] = [:]
    var results: [Int: TraceTime] = [:]
    for event in system.trace.events {
      switch event.kind {
      case .workStart(_, let attempt): starts[attempt] = event.time
      case .workResult(_, let attempt, .retry, _): results[attempt] = event.time
      default: break
      }
    }
    #expect(starts[0] == .zero)
    for attempt in 1...12 {
      let expected = TraceTime(nanoseconds: UInt64(row.starts[attempt - 1]) * 1_000_000_000)
      #expect(starts[attempt] == expected, "attempt \(attempt)")
      // The worker returns at once, so each attempt's result is at its start.
      #expect(results[attempt - 1] == starts[attempt - 1], "attempt \(attempt - 1)")
    }
    #expect(starts[13] == nil)  // not due before the last row's time
  }

  @Test func theDispatchDelayIsAddedToEveryStart() throws {
    // Default dispatch delay 0.1 s: attempt 0 at 0.1; exponential 30 s after it returned:
    // 0.1 + 30 + 0.1 = 30.2; then 30.2 + 60 + 0.1 = 90.3.
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    try system.enqueue(WorkRequest(work: "sync", worker: AlwaysRetryWorker()), policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    let starts = system.trace.events.compactMap { event -> String? in
      if case .workStart(_, let attempt) = event.kind { "\(event.time) attempt=\(attempt)" } else { nil }
    }
    #expect(starts == ["0.1 attempt=0", "30.2 attempt=1", "90.3 attempt=2"])
  }
}
