import BackgroundTrace
import Testing

/// Events that have no binary form are refused one by one, leaving the output untouched.
@Suite struct BinaryEncoderErrorTests {
  static let invalid: [(kind: TraceEvent.Kind, message: String)] = [
    (.taskBegin(id: -1, name: nil), "field 'id' is negative; trace integers are non-negative"),
    (.taskExpire(id: -5), "field 'id' is negative; trace integers are non-negative"),
    (.schedComplete(run: -1, success: true), "field 'run' is negative; trace integers are non-negative"),
    (
      .workResult(work: "w", attempt: -1, outcome: .retry),
      "field 'attempt' is negative; trace integers are non-negative"
    ),
    (
      .workEnqueue(WorkEnqueue(work: "w", retryLimit: -3)), "field 'limit' is negative; trace integers are non-negative"
    ),
    (.envSet([]), "env.set has no key=value pairs; it needs at least one"),
    (
      .schedSubmit(SchedulerSubmission(identifier: "a", type: .refresh, earliest: TraceTime(nanoseconds: .max))),
      "field 'earliest' is beyond the largest trace time"
    ),
    (
      .workEnqueue(WorkEnqueue(work: "w", backoffDelay: TraceInterval(nanoseconds: 1 << 63))),
      "field 'delay' is beyond the largest trace time"
    ),
    (
      .workEnqueue(WorkEnqueue(work: "w", period: TraceInterval(nanoseconds: .max))),
      "field 'period' is beyond the largest trace time"
    ),
  ]

  @Test(arguments: invalid)
  func eventWithoutABinaryFormIsRefused(kind: TraceEvent.Kind, message: String) throws {
    var encoder = BinaryTraceEncoder(chunkPayloadLimit: 256)
    var output = encoder.header()
    try encoder.append(TraceEvent(time: .zero, .appLaunch), into: &output)
    let before = output
    let error = #expect(throws: TraceEncodingError.self) {
      try encoder.append(TraceEvent(time: TraceTime(seconds: 1), kind), into: &output)
    }
    #expect(error == TraceEncodingError(eventNumber: 2, message: message))
    #expect(output == before)
    #expect(encoder.pendingEventCount == 1)
    // The encoder carries on as if the refused event had not been offered.
    try encoder.append(TraceEvent(time: TraceTime(seconds: 2), .mark(label: "after")), into: &output)
    encoder.flush(into: &output)
    let decoded = try RecordedTrace.decode(binary: output)
    #expect(decoded.damage.isEmpty)
    #expect(
      decoded.trace.events == [
        TraceEvent(time: .zero, .appLaunch), TraceEvent(time: TraceTime(seconds: 2), .mark(label: "after")),
      ])
  }

  @Test func eventEarlierThanThePreviousIsRefused() throws {
    let trace = RecordedTrace(events: [
      TraceEvent(time: TraceTime(seconds: 2), .appLaunch),
      TraceEvent(time: TraceTime(seconds: 1), .appLaunch),
    ])
    let error = #expect(throws: TraceEncodingError.self) { try trace.binary() }
    #expect(error == TraceEncodingError(eventNumber: 2, message: "time 1 is earlier than the previous event's time 2"))
    #expect(error?.description == "event 2: time 1 is earlier than the previous event's time 2")
  }

  @Test func orderIsCheckedAcrossChunks() throws {
    var encoder = BinaryTraceEncoder(chunkPayloadLimit: 256)
    var output = encoder.header()
    for index in 0..<200 {
      try encoder.append(TraceEvent(time: TraceTime(seconds: 10), .taskEnd(id: index)), into: &output)
    }
    #expect(encoder.pendingEventCount < 200)  // some chunks were sealed
    let error = #expect(throws: TraceEncodingError.self) {
      try encoder.append(TraceEvent(time: TraceTime(seconds: 9), .appLaunch), into: &output)
    }
    #expect(error?.eventNumber == 201)
  }

  @Test func timeBeyondTheLargestIsRefused() throws {
    let trace = RecordedTrace(events: [TraceEvent(time: TraceTime(nanoseconds: .max), .appLaunch)])
    let error = #expect(throws: TraceEncodingError.self) { try trace.binary() }
    #expect(
      error
        == TraceEncodingError(eventNumber: 1, message: "time 18446744073.709551615 is beyond the largest trace time"))
  }
}
