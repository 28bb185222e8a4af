import BackgroundSimulation
import BackgroundTrace
import Synchronization
import Testing

/// What the tasks observed, in order.
private final class Observations: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

/// Starts `operation` as a task on the scheduler's executor; it runs only when the
/// scheduler drains its jobs.
@discardableResult
private func spawn(
  on scheduler: VirtualTimeScheduler, _ operation: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  Task(executorPreference: scheduler.executor) { await operation() }
}

/// `VirtualClock`: sleeping on the simulation's virtual time (docs/guides/capturing.md, "In unit tests, with the simulator").
@Suite struct VirtualClockTests {
  @Test func sleepersResumeExactlyAtTheirDeadline() {
    let scheduler = VirtualTimeScheduler()
    let clock = scheduler.clock
    let seen = Observations()
    spawn(on: scheduler) {
      try? await clock.sleep(for: .seconds(5))
      seen.append("5s woke at \(scheduler.now), clock.now \(clock.now == VirtualClock.Instant(offset: .seconds(5)))")
    }
    spawn(on: scheduler) {
      try? await clock.sleep(until: VirtualClock.Instant(offset: .milliseconds(2500)))
      seen.append("2.5s woke at \(scheduler.now)")
      try? await clock.sleep(for: .seconds(1))  // relative to 2.5: 3.5
      seen.append("then woke at \(scheduler.now)")
    }
    scheduler.advance(to: TraceTime(seconds: 3))
    #expect(seen.all == ["2.5s woke at 2.5"])  // 3 < 3.5 and 3 < 5
    scheduler.advance(to: TraceTime(seconds: 10))
    #expect(seen.all == ["2.5s woke at 2.5", "then woke at 3.5", "5s woke at 5, clock.now true"])
    #expect(scheduler.now == TraceTime(seconds: 10))
  }

  @Test func sleepersWithTheSameDeadlineResumeInTheOrderTheyWentToSleep() {
    let scheduler = VirtualTimeScheduler()
    let clock = scheduler.clock
    let seen = Observations()
    for index in 0..<8 {
      spawn(on: scheduler) {
        try? await clock.sleep(for: .seconds(1))
        seen.append("\(index)")
      }
    }
    scheduler.advance(by: .seconds(1))
    #expect(seen.all == (0..<8).map(String.init))
  }

  @Test func cancellingASleepingTaskThrowsCancellationErrorAtOnceWithoutMovingTime() async {
    for _ in 0..<100 {
      let scheduler = VirtualTimeScheduler()
      let clock = scheduler.clock
      let seen = Observations()
      let task = spawn(on: scheduler) {
        do {
          try await clock.sleep(for: .seconds(3600))
          seen.append("woke at \(scheduler.now)")
        } catch is CancellationError {
          seen.append("cancelled at \(scheduler.now)")
        } catch {
          seen.append("unexpected \(error)")
        }
      }
      scheduler.advance(to: TraceTime(seconds: 5))
      task.cancel()
      scheduler.runPending()
      // Resumed by the cancellation at 5, not by the hour-long timer.
      #expect(seen.all == ["cancelled at 5"])
      #expect(scheduler.now == TraceTime(seconds: 5))
      scheduler.advance(to: TraceTime(seconds: 7200))
      #expect(seen.all == ["cancelled at 5"])  // and the hour-long timer resumes nothing
      await task.value
      if seen.all != ["cancelled at 5"] { break }  // one failing run tells it all
    }
  }

  @Test func aTaskCancelledBeforeItSleepsThrowsWithoutWaiting() {
    let scheduler = VirtualTimeScheduler()
    let clock = scheduler.clock
    let seen = Observations()
    let task = spawn(on: scheduler) {
      do {
        try await clock.sleep(for: .seconds(10))
        seen.append("woke")
      } catch {
        seen.append("\(type(of: error)) at \(scheduler.now)")
      }
    }
    task.cancel()
    scheduler.runPending()
    #expect(seen.all == ["CancellationError at 0"])
  }

  @Test func aDeadlineInThePastResumesNowWithoutMovingTimeBack() {
    let scheduler = VirtualTimeScheduler()
    let clock = scheduler.clock
    let seen = Observations()
    scheduler.advance(to: TraceTime(seconds: 10))
    spawn(on: scheduler) {
      try? await clock.sleep(until: VirtualClock.Instant(offset: .seconds(4)))
      seen.append("woke at \(scheduler.now)")
    }
    scheduler.runPending()
    #expect(seen.all == ["woke at 10"])
    #expect(clock.now == VirtualClock.Instant(offset: .seconds(10)))
  }

  @Test func nothingResumesWithoutTheSchedulerMovingTime() {
    let scheduler = VirtualTimeScheduler()
    let clock = scheduler.clock
    let seen = Observations()
    spawn(on: scheduler) {
      try? await clock.sleep(for: .nanoseconds(1))
      seen.append("woke")
    }
    scheduler.runPending()
    #expect(seen.all.isEmpty)  // real time passing does not count
    scheduler.advance(by: .nanoseconds(1))
    #expect(seen.all == ["woke"])
  }
}
