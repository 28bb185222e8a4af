import BackgroundTrace

/// `event` as a test writes it by hand: without `work.enqueue`'s `request=`, whose UUID
/// the simulation draws from its seed (`WorkRequestIDTests` holds what is recorded).
func withoutRequestID(_ event: TraceEvent) -> TraceEvent {
  guard case .workEnqueue(var enqueue) = event.kind, enqueue.request != nil else { return event }
  enqueue.request = nil
  return TraceEvent(time: event.time, .workEnqueue(enqueue))
}

/// An event's text line as a test writes it by hand: as ``TextTraceWriter`` writes it,
/// without `request=` (``withoutRequestID(_:)``).
func handWrittenLine(for event: TraceEvent) -> String {
  TextTraceWriter.line(for: withoutRequestID(event))
}

extension RecordedTrace {
  /// The trace's text as a test writes it by hand: without `request=`
  /// (``withoutRequestID(_:)``).
  var handWrittenText: String {
    RecordedTrace(meta: meta, events: events.map(withoutRequestID)).text
  }
}
