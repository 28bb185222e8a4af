import BackgroundTrace
import Foundation
import Testing

/// A request's earliest begin time, given as Apple's `earliestBeginDate` or as a delay, in
/// its `sched.submit` fields (docs/FORMAT.md: `earliest=` is trace time).
@Suite struct TaskRequestTests {
  @Test func anEarliestBeginDateIsReadAgainstTheWallClockAtSubmission() {
    let submittedAt = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var request = TaskRequest.refresh("com.example.refresh")
    request.earliestBeginDate = submittedAt.addingTimeInterval(900)
    #expect(
      request.submission(at: TraceTime(seconds: 10), wallClock: submittedAt)
        == SchedulerSubmission(identifier: "com.example.refresh", type: .refresh, earliest: TraceTime(seconds: 910)))
    // A date already past means "now".
    request.earliestBeginDate = submittedAt.addingTimeInterval(-60)
    #expect(request.submission(at: TraceTime(seconds: 10), wallClock: submittedAt).earliest == TraceTime(seconds: 10))
  }

  @Test func aDateAndADelayReplaceEachOther() {
    let date = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var request = TaskRequest.processing("com.example.cleanup", earliestBeginDelay: .seconds(60))
    #expect(request.earliestBeginDelay == .seconds(60))
    #expect(request.earliestBeginDate == nil)
    request.earliestBeginDate = date
    #expect(request.earliestBeginDate == date)
    #expect(request.earliestBeginDelay == nil)
    #expect(request != .processing("com.example.cleanup", earliestBeginDelay: .seconds(60)))
    request.earliestBeginDelay = .seconds(30)
    #expect(request.earliestBeginDate == nil)
    #expect(request == .processing("com.example.cleanup", earliestBeginDelay: .seconds(30)))
    // A delay does not read the wall clock.
    #expect(request.submission(at: TraceTime(seconds: 5), wallClock: date).earliest == TraceTime(seconds: 35))
    request.earliestBeginDate = nil
    #expect(request.submission(at: TraceTime(seconds: 5)).earliest == nil)
  }
}
