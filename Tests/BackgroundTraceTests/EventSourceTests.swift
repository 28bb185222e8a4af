import BackgroundTrace
import Testing

/// A text trace's event may note the log line it was imported from after its fields,
/// `# from FILE:LINE` (docs/events.md, "Where an event came from"); any other comment
/// after the fields is a comment.
@Suite struct EventSourceTests {
  static func located(_ text: String) throws -> [LocatedEvent] {
    var reader = try TextTraceReader(source: MemoryByteSource(Array(text.utf8)), file: "t.txt")
    var events: [LocatedEvent] = []
    while let located = try reader.next() { events.append(located) }
    return events
  }

  @Test func aNoteAfterTheFieldsIsTheEventsSource() throws {
    let events = try Self.located(
      """
      bgtrace 1
      meta platform=ios
      0 app.launch # from device.log:3
      0.5 task.begin id=7 name="Upload # 2" # from device.log:8
      0.75 task.end id=7
      """)
    #expect(events.map(\.location) == [3, 4, 5])
    #expect(
      events.map(\.source) == [
        EventSource(file: "device.log", line: 3), EventSource(file: "device.log", line: 8), nil,
      ])
    #expect(events[1].event.kind == .taskBegin(id: 7, name: "Upload # 2"))
  }

  /// The file is everything up to the last colon, so a path with blanks and colons
  /// keeps them.
  @Test func theFileRunsToTheLastColon() throws {
    let events = try Self.located("bgtrace 1\n0 app.launch   #   from C:/logs/run 2.log:12  \n")
    #expect(events.map(\.source) == [EventSource(file: "C:/logs/run 2.log", line: 12)])
  }

  @Test func anyOtherCommentIsOnlyAComment() throws {
    let events = try Self.located(
      """
      bgtrace 1
      meta platform=ios # the phone on the desk
      0 app.launch # launched by the test
      1 app.launch # from device.log:0
      2 app.launch # from device.log:twelve
      3 app.launch #from device.log
      """)
    #expect(events.map(\.source) == [nil, nil, nil, nil])
    #expect(events.count == 4)
  }

  /// The comment needs a blank before it: a bare value stops only at a blank.
  @Test func aHashInsideABareValueIsAnError() {
    #expect(throws: TraceFormatError.self) { try RecordedTrace(text: "bgtrace 1\n0 task.end id=3#x\n") }
  }

  @Test func theWriterNotesTheSourceAfterTheFields() throws {
    var text = ""
    TextTraceWriter.appendLine(
      for: TraceEvent(time: TraceTime(milliseconds: 500), .taskEnd(id: 7)),
      source: EventSource(file: "logs/device.log", line: 8), to: &text)
    #expect(text == "0.5 task.end id=7 # from logs/device.log:8\n")
    // A name a line cannot hold is left out.
    var broken = ""
    TextTraceWriter.appendLine(
      for: TraceEvent(time: .zero, .appLaunch), source: EventSource(file: "a\nb.log", line: 1), to: &broken)
    #expect(broken == "0 app.launch\n")
  }
}
