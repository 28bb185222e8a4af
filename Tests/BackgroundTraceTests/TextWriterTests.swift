import BackgroundTrace
import Testing

@Suite struct TextWriterTests {
  @Test func canonicalTextOfAHandWrittenTrace() {
    let trace = RecordedTrace(
      meta: TraceMetadata(["platform": "ios", "device": "iPhone 15", "budget": "30"]),
      events: [
        TraceEvent(time: .zero, .appLaunch),
        TraceEvent(time: TraceTime(nanoseconds: 1), .schedRegister(identifier: "com.example.refresh", ok: nil)),
        TraceEvent(time: TraceTime(milliseconds: 200), .appState(to: .active)),
        TraceEvent(time: TraceTime(milliseconds: 12_500), .taskBegin(id: 1, name: "SaveDocument")),
        TraceEvent(time: TraceTime(milliseconds: 12_500), .taskBegin(id: 2, name: "Save Document")),
        TraceEvent(time: TraceTime(milliseconds: 12_500), .taskBegin(id: 3, name: nil)),
        TraceEvent(
          time: TraceTime(milliseconds: 13_000),
          .schedSubmit(
            SchedulerSubmission(
              identifier: "com.example.refresh", type: .processing, earliest: TraceTime(milliseconds: 912_500),
              network: true, power: false))),
        TraceEvent(
          time: TraceTime(milliseconds: 13_000),
          .workEnqueue(
            WorkEnqueue(
              work: "sync-1", name: "DataSyncWorker", backoff: .exponential, backoffDelay: TraceInterval(seconds: 30),
              retryLimit: 3,
              period: nil, policy: .keep))),
        TraceEvent(time: TraceTime(milliseconds: 13_000), .schedCancel(.all)),
        TraceEvent(time: TraceTime(milliseconds: 13_000), .schedCancel(.identifier("a/b:c+d-e_f.g"))),
        TraceEvent(
          time: TraceTime(milliseconds: 42_510),
          .envSet([
            EnvironmentSetting(key: "network", value: "offline"), EnvironmentSetting(key: "charging", value: "true"),
          ])),
        TraceEvent(time: TraceTime(milliseconds: 42_510), .input(key: "upload.status", value: "a=b")),
        TraceEvent(time: TraceTime(milliseconds: 42_510), .mark(label: "quote \" backslash \\ newline \n tab \t")),
        TraceEvent(time: TraceTime(milliseconds: 42_510), .mark(label: "bell \u{7} delete \u{7F} emoji 😀")),
        TraceEvent(time: TraceTime(milliseconds: 42_510), .mark(label: "")),
        TraceEvent(time: TraceTime(milliseconds: 42_510), .mark(label: "#not-a-comment")),
        TraceEvent(time: TraceTime(seconds: 86_400), .appTerminate(reason: "memory")),
      ])
    let expected = #"""
      bgtrace 1
      meta platform=ios device="iPhone 15" budget=30
      0 app.launch
      0.000000001 sched.register ident=com.example.refresh
      0.2 app.state to=active
      12.5 task.begin id=1 name=SaveDocument
      12.5 task.begin id=2 name="Save Document"
      12.5 task.begin id=3
      13 sched.submit ident=com.example.refresh type=processing earliest=912.5 network=true power=false
      13 work.enqueue work=sync-1 name=DataSyncWorker backoff=exponential delay=30 limit=3 policy=keep
      13 sched.cancel all=true
      13 sched.cancel ident=a/b:c+d-e_f.g
      42.51 env.set network=offline charging=true
      42.51 input key=upload.status value="a=b"
      42.51 mark label="quote \" backslash \\ newline \n tab \t"
      42.51 mark label="bell \u{7} delete \u{7F} emoji 😀"
      42.51 mark label=""
      42.51 mark label="#not-a-comment"
      86400 app.terminate reason=memory

      """#
    #expect(trace.text == expected)
    #expect(TextTraceWriter.text(of: trace) == expected)
  }

  @Test func writtenTextParsesBackToTheSameTrace() throws {
    let trace = RecordedTrace(
      meta: TraceMetadata(["note": "a \"quoted\" value\n"]),
      events: [
        TraceEvent(time: .zero, .mark(label: "\u{0}\u{1F}\u{7F}\u{80}\u{FFFF}\u{10FFFF}")),
        TraceEvent(time: .max, .envSet([EnvironmentSetting(key: "k", value: "")])),
      ])
    #expect(try RecordedTrace(text: trace.text) == trace)
  }

  @Test func emptyTraceIsJustTheHeader() {
    #expect(RecordedTrace().text == "bgtrace 1\n")
    #expect(TextTraceWriter.headerAndMeta(TraceMetadata()) == "bgtrace 1\n")
    #expect(TextTraceWriter.headerAndMeta(TraceMetadata(["b": "1", "a": "2"])) == "bgtrace 1\nmeta b=1 a=2\n")
  }

  @Test func lineForOneEventHasNoLineEnding() {
    let event = TraceEvent(time: TraceTime(milliseconds: 42_500), .taskExpire(id: 1))
    #expect(TextTraceWriter.line(for: event) == "42.5 task.expire id=1")
    var output = "x\n"
    TextTraceWriter.appendLine(for: event, to: &output)
    #expect(output == "x\n42.5 task.expire id=1\n")
  }

  @Test(arguments: [
    ("SaveDocument", true), ("com.example.app/refresh:1+2-3_4", true), ("0.5", true),
    ("", false), ("a b", false), ("a=b", false), ("\"", false), ("é", false), ("a\tb", false), ("#", false),
  ])
  func bareWordsAreExactlyTheWordCharacters(text: String, isBare: Bool) {
    #expect(TextTraceWriter.isBareWord(text) == isBare)
    #expect(TextTraceWriter.quotedIfNeeded(text) == (isBare ? text : TextTraceWriter.quoted(text)))
  }

  @Test func quotingEscapesOnlyWhatMustBeEscaped() {
    #expect(TextTraceWriter.quoted("plain") == #""plain""#)
    #expect(TextTraceWriter.quoted("a\"b\\c\nd\te") == #""a\"b\\c\nd\te""#)
    #expect(TextTraceWriter.quoted("\r\u{1B}") == #""\u{D}\u{1B}""#)
    #expect(TextTraceWriter.quoted("ünï 😀") == "\"ünï 😀\"")
  }
}
