import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// Typed queries on a trace: events of a kind, a task's lifetime, findings by rule.
@Suite struct TraceQueryTests {
  static let trace = try! RecordedTrace(
    text: """
      bgtrace 1
      0 app.launch
      0 app.state to=active
      2 app.state to=background
      2 task.begin id=1 name=Upload
      2 task.begin id=2 name=Save
      2 task.begin id=0 name=Refused
      8 task.end id=1
      31 task.expire id=2
      33 app.state to=suspended
      40 app.launch
      41 task.begin id=1 name=Again

      """)

  @Test func lifetimesFollowTheLifecycleModel() {
    #expect(
      Self.trace.taskLifetimes == [
        TaskLifetime(
          process: 0, id: 1, name: "Upload", begin: TraceTime(seconds: 2), expiredAt: nil,
          ending: .ended(at: TraceTime(seconds: 8))),
        TaskLifetime(
          process: 0, id: 2, name: "Save", begin: TraceTime(seconds: 2), expiredAt: TraceTime(seconds: 31),
          ending: .closed(at: TraceTime(seconds: 33), reason: "before the app was suspended")),
        TaskLifetime(
          process: 1, id: 1, name: "Again", begin: TraceTime(seconds: 41), expiredAt: nil,
          ending: .closed(at: TraceTime(seconds: 41), reason: "before the trace ended")),
      ])
    #expect(Self.trace.taskLifetimes[0].duration == TraceInterval(seconds: 6))
  }

  @Test func eventsOfAKind() {
    #expect(Self.trace.events(.taskExpire) == [TraceEvent(time: TraceTime(seconds: 31), .taskExpire(id: 2))])
    #expect(Self.trace.events(.appLaunch).map(\.time) == [.zero, TraceTime(seconds: 40)])
  }

  @Test func findingsByRule() {
    let leaked = Self.trace.findings().of(.taskExpiredNotEnded)
    #expect(leaked.map(\.location) == [9])  // line 9: the expiration it did not answer
    #expect(Self.trace.findings().of(.taskDoubleEnd).isEmpty)
  }
}
