import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import Testing

/// Races an upload against a timeout in a task group on the simulation's clock: the
/// first to finish wins and the other is cancelled. A timed-out upload is retried while
/// `runAttemptCount < limit`, then fails.
private struct UploadWithTimeoutWorker: BackgroundWorker {
  let clock: VirtualClock
  var upload: Duration = .seconds(5)
  var timeout: Duration = .seconds(3)
  var limit = 2

  private enum Outcome { case uploaded, timedOut, cancelled }

  func doWork(_ context: WorkContext) async -> WorkResult {
    let outcome = await withTaskGroup(of: Outcome.self) { group in
      group.addTask { [clock, upload] in
        (try? await clock.sleep(for: upload)) == nil ? .cancelled : .uploaded
      }
      group.addTask { [clock, timeout] in
        (try? await clock.sleep(for: timeout)) == nil ? .cancelled : .timedOut
      }
      let first = await group.next() ?? .cancelled
      group.cancelAll()
      return first
    }
    switch outcome {
    case .uploaded: return .success
    case .timedOut, .cancelled: return context.runAttemptCount < limit ? .retry : .failure
    }
  }
}

/// The trace of one run: the app launches at 0 and enqueues the upload.
private func uploadTrace(upload: Duration, timeout: Duration) -> String {
  let system = SimulatedSystem(seed: 42, configuration: SimulationConfiguration(platform: .android))
  system.launch { _ in }
  let worker = UploadWithTimeoutWorker(clock: system.clock, upload: upload, timeout: timeout)
  try! system.enqueue(WorkRequest(work: "upload", retryLimit: worker.limit, worker: worker), policy: nil)
  system.advance(by: .seconds(3600))
  return system.trace.handWrittenText
}

/// Async workers on the virtual clock (docs/guides/capturing.md: a `VirtualClock` driven by the
/// simulation's single-threaded scheduler, no reliance on yielding).
@Suite struct AsyncWorkerModelTests {
  @Test func aTimeoutRaceGivesTheSameTraceInAHundredRuns() {
    let first = uploadTrace(upload: .seconds(5), timeout: .seconds(3))
    for run in 2...100 {
      let trace = uploadTrace(upload: .seconds(5), timeout: .seconds(3))
      #expect(trace == first, "run \(run)")
      if trace != first { break }
    }
  }

  @Test func theTimeoutWinsAtThreeVirtualSecondsAndTheWorkIsRetried() {
    // Start 0.1 (dispatch 0.1 s); the 3 s timeout beats the 5 s upload: retry at 3.1.
    // Attempt 1: 3.1 + 30 (exponential 30 × 2^0) + 0.1 = 33.2, times out at 36.2.
    // Attempt 2: 36.2 + 60 (30 × 2^1) + 0.1 = 96.3, times out at 99.3: limit 2 → failure.
    #expect(
      uploadTrace(upload: .seconds(5), timeout: .seconds(3)) == """
        bgtrace 1
        meta platform=android seed=42
        0 app.launch
        0 app.state to=active
        0 work.enqueue work=upload limit=2
        0.1 work.start work=upload attempt=0
        3.1 work.result work=upload attempt=0 outcome=retry
        33.2 work.start work=upload attempt=1
        36.2 work.result work=upload attempt=1 outcome=retry
        96.3 work.start work=upload attempt=2
        99.3 work.result work=upload attempt=2 outcome=failure

        """)
  }

  @Test func anUploadFasterThanTheTimeoutSucceedsAtItsVirtualDuration() {
    // Start 0.1; the 2 s upload beats the 3 s timeout: success at 2.1.
    let lines = uploadTrace(upload: .seconds(2), timeout: .seconds(3)).split(separator: "\n").suffix(2)
    #expect(
      Array(lines) == ["0.1 work.start work=upload attempt=0", "2.1 work.result work=upload attempt=0 outcome=success"])
  }

  @Test func asyncContextSleepsOnTheSimulationsClock() {
    let system = SimulatedSystem(seed: 1)
    let context = AsyncContext(simulation: system.scheduler)
    system.launch { _ in }
    let id = system.beginBackgroundTask(withName: "Save", expirationHandler: nil)
    context.run {
      try? await context.sleep(.seconds(12.5))
      system.endBackgroundTask(id)
    }
    system.advance(by: .seconds(60))
    // Begun at 0, the 12.5 s save ends it at 12.5 virtual seconds.
    #expect(system.trace.events.last == TraceEvent(time: TraceTime(seconds: 12.5), .taskEnd(id: 1)))
  }
}
