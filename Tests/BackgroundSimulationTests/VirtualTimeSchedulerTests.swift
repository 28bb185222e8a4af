import BackgroundSimulation
import BackgroundTrace
import Synchronization
import Testing

/// What the timers saw, in order.
private final class Log: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

private func seconds(_ value: Double) -> TraceTime { TraceTime(seconds: value) }

/// `VirtualTimeScheduler`: the single-threaded virtual-time loop modelled on swift-nio's
/// `EmbeddedEventLoop.advanceTime(to:)`.
@Suite struct VirtualTimeSchedulerTests {
  @Test func timersAtTheSameInstantRunInSchedulingOrder() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    for name in ["a", "b", "c", "d", "e"] {
      scheduler.schedule(at: seconds(2)) { log.append(name) }
    }
    scheduler.schedule(at: seconds(1)) { log.append("early") }  // scheduled last, due first
    scheduler.schedule(at: seconds(2)) { log.append("f") }
    scheduler.advance(to: seconds(3))
    #expect(log.all == ["early", "a", "b", "c", "d", "e", "f"])
  }

  @Test func nowIsTheTimersDeadlineWhileItRuns() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    for time in [7.25, 0.5, 3.0] {
      scheduler.schedule(at: seconds(time)) { log.append("\(scheduler.now)") }
    }
    scheduler.schedule(after: .seconds(4)) { log.append("after 4: \(scheduler.now)") }
    scheduler.advance(by: .seconds(60))
    #expect(log.all == ["0.5", "3", "after 4: 4", "7.25"])
    #expect(scheduler.now == seconds(60))
  }

  @Test func aTimerScheduledForNowByATimerRunsAtTheSameInstantAfterTheOthersDue() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    scheduler.schedule(at: seconds(1)) {
      log.append("first")
      scheduler.schedule(at: scheduler.now) { log.append("nested at \(scheduler.now)") }
    }
    scheduler.schedule(at: seconds(1)) { log.append("second") }
    scheduler.schedule(at: seconds(1.5)) { log.append("later") }
    scheduler.advance(to: seconds(2))
    #expect(log.all == ["first", "second", "nested at 1", "later"])
  }

  @Test func timeNeverMovesBackwards() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    scheduler.advance(to: seconds(10))
    scheduler.advance(to: seconds(5))
    #expect(scheduler.now == seconds(10))
    // A deadline in the past runs now, at 10, not at 3.
    scheduler.schedule(at: seconds(3)) { log.append("ran at \(scheduler.now)") }
    scheduler.advance(to: seconds(4))
    #expect(log.all == ["ran at 10"])
    #expect(scheduler.now == seconds(10))
    scheduler.runUntilIdle(until: seconds(1))
    #expect(scheduler.now == seconds(10))
  }

  @Test func runnableJobsAllFinishBeforeTimeMoves() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    scheduler.schedule(at: seconds(1)) { log.append("timer at \(scheduler.now)") }
    Task(executorPreference: scheduler.executor) {
      log.append("job at \(scheduler.now)")
      scheduler.schedule(at: .zero) { log.append("timer from job at \(scheduler.now)") }
    }
    scheduler.advance(to: seconds(1))
    #expect(log.all == ["job at 0", "timer from job at 0", "timer at 1"])
  }

  @Test func aCancelledTimerNeverRuns() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    let cancelled = scheduler.schedule(at: seconds(1)) { log.append("cancelled") }
    scheduler.schedule(at: seconds(1)) { log.append("kept") }
    scheduler.cancel(cancelled)
    scheduler.advance(to: seconds(2))
    #expect(log.all == ["kept"])
  }

  @Test
  func aCancelledTimerDoesNotHoldTime() {
    let scheduler = VirtualTimeScheduler()
    let sleeper = scheduler.schedule(at: seconds(3600)) {}
    scheduler.schedule(at: seconds(5)) {}
    scheduler.cancel(sleeper)
    #expect(scheduler.nextTimerTime == seconds(5))
    scheduler.runUntilIdle()
    #expect(scheduler.now == seconds(5))
    #expect(!scheduler.hasPendingTimers)
  }

  @Test func runUntilIdleStopsAtItsLimit() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    // A periodic timer never runs out: every 10 s.
    @Sendable func tick() {
      log.append("\(scheduler.now)")
      scheduler.schedule(after: .seconds(10), tick)
    }
    scheduler.schedule(at: .zero, tick)
    scheduler.runUntilIdle(until: seconds(35))
    #expect(log.all == ["0", "10", "20", "30"])
    #expect(scheduler.nextTimerTime == seconds(40))
  }

  @Test func runUntilIdleForASpanCountsFromNow() {
    let scheduler = VirtualTimeScheduler()
    let log = Log()
    @Sendable func tick() {
      log.append("\(scheduler.now)")
      scheduler.schedule(after: .seconds(10), tick)
    }
    scheduler.advance(to: seconds(100))
    scheduler.schedule(at: seconds(100), tick)
    scheduler.runUntilIdle(for: .seconds(25))
    #expect(log.all == ["100", "110", "120"])
  }

  /// The simulated system and the scheduler under it are driven with the same calls:
  /// points as `TraceTime`, spans as `Duration`.
  @Test func systemAndSchedulerTakeTheSameArguments() {
    let system = SimulatedSystem(seed: 1)
    let scheduler = VirtualTimeScheduler()
    system.advance(to: seconds(5))
    scheduler.advance(to: seconds(5))
    system.advance(by: .seconds(2))
    scheduler.advance(by: .seconds(2))
    system.runUntilIdle(until: seconds(9))
    scheduler.runUntilIdle(until: seconds(9))
    system.runUntilIdle(for: .seconds(1))
    scheduler.runUntilIdle(for: .seconds(1))
    #expect(system.now == seconds(7))
    #expect(scheduler.now == seconds(7))
  }
}
