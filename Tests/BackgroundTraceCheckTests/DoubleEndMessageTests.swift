import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// `task-double-end` names when the task ended before (docs/rules.md): the checker
/// remembers the times of the last 64 ends, a ring that wraps around.
@Suite struct DoubleEndMessageTests {
  /// Task 1000 ends at 200 s, is begun again and ends at 202 s, then ends once more:
  /// the first end of that task is the one at 202 s. Sixty-three other tasks ended
  /// before, so the end at 200 s fills the ring's last place and the one at 202 s
  /// wraps to its first.
  @Test func aDoubleEndNamesTheLatestEndAfterTheRingWraps() {
    var events: [TraceEvent] = [TraceEvent(time: .zero, .appLaunch), TraceEvent(time: .zero, .appState(to: .active))]
    for id in 1...63 {
      events.append(TraceEvent(time: TraceTime(nanoseconds: UInt64(id) * 1_000_000_000), .taskBegin(id: id, name: nil)))
      events.append(TraceEvent(time: TraceTime(nanoseconds: UInt64(id) * 1_000_000_000), .taskEnd(id: id)))
    }
    for (begin, end) in [(199, 200), (201, 202)] {
      events.append(
        TraceEvent(time: TraceTime(nanoseconds: UInt64(begin) * 1_000_000_000), .taskBegin(id: 1000, name: nil)))
      events.append(TraceEvent(time: TraceTime(nanoseconds: UInt64(end) * 1_000_000_000), .taskEnd(id: 1000)))
    }
    events.append(TraceEvent(time: TraceTime(nanoseconds: 203_000_000_000), .taskEnd(id: 1000)))
    let findings = TraceChecker.check(RecordedTrace(events: events))
    #expect(findings.map(\.rule) == [.taskDoubleEnd])
    #expect(findings.first?.message == "task 1000 ended twice (first end at 202s)")
  }
}
