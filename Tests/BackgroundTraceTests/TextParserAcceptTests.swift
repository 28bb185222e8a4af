import BackgroundTrace
import Testing

@Suite struct TextParserAcceptTests {
  @Test func commentsBlankLinesTabsAndCRLFAreAccepted() throws {
    let text =
      "bgtrace 1  \r\n"
      + "# a comment\r\n"
      + "\r\n"
      + "   # an indented comment\r\n"
      + "meta\tplatform=ios   budget=30\r\n"
      + "\t\r\n"
      + "0\tapp.launch\r\n"
      + "  0.5   task.begin\tid=1   name=SaveDocument  \r\n"
      + "\n"
      + "1.25 task.end id=1"  // no line ending at the end
    let trace = try RecordedTrace(text: text)
    #expect(trace.meta == TraceMetadata(["platform": "ios", "budget": "30"]))
    #expect(
      trace.events == [
        TraceEvent(time: .zero, .appLaunch),
        TraceEvent(time: TraceTime(milliseconds: 500), .taskBegin(id: 1, name: "SaveDocument")),
        TraceEvent(time: TraceTime(milliseconds: 1_250), .taskEnd(id: 1)),
      ])
  }

  @Test func quotedStringsUnescape() throws {
    let text =
      #"""
      bgtrace 1
      0 mark label="say \"hi\" back\\slash\nnew line\ttab \u{1F600} \u{e9}"
      0 mark label=""
      """# + "\n0 mark label=\"raw\ttab and ünïcödé and 😀\"\n0 input key=\"a b\" value=\"x=y\"\n"
    let trace = try RecordedTrace(text: text)
    #expect(
      trace.events.map(\.kind) == [
        .mark(label: "say \"hi\" back\\slash\nnew line\ttab 😀 é"),
        .mark(label: ""),
        .mark(label: "raw\ttab and ünïcödé and 😀"),
        .input(key: "a b", value: "x=y"),
      ])
  }

  @Test func quotedValuesOfBareWordFieldsAreAccepted() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 app.state to=\"active\"\n0 task.begin id=1 name=\"Save\"\n")
    #expect(trace.events.map(\.kind) == [.appState(to: .active), .taskBegin(id: 1, name: "Save")])
    // The writer drops the quotes that are not needed.
    #expect(trace.text == "bgtrace 1\n0 app.state to=active\n0 task.begin id=1 name=Save\n")
  }

  @Test func explicitDefaultValuesAreKeptAndWrittenBack() throws {
    let text = """
      bgtrace 1
      0 sched.register ident=refresh ok=true
      0 sched.register ident=cleanup
      0 work.enqueue work=w backoff=exponential delay=30
      0 work.enqueue work=v
      0 sched.submit ident=refresh type=refresh earliest=0 network=false power=false

      """
    let trace = try RecordedTrace(text: text)
    #expect(
      trace.events.map(\.kind) == [
        .schedRegister(identifier: "refresh", ok: true),
        .schedRegister(identifier: "cleanup", ok: nil),
        .workEnqueue(WorkEnqueue(work: "w", backoff: .exponential, backoffDelay: TraceInterval(seconds: 30))),
        .workEnqueue(WorkEnqueue(work: "v")),
        .schedSubmit(
          SchedulerSubmission(identifier: "refresh", type: .refresh, earliest: .zero, network: false, power: false)),
      ])
    #expect(trace.text == text)
  }

  @Test func envSetKeepsKeysInRecordedOrder() throws {
    let text = "bgtrace 1\n0 env.set zeta=1 alpha=offline mid=\"two words\"\n"
    let trace = try RecordedTrace(text: text)
    #expect(
      trace.events.map(\.kind) == [
        .envSet([
          EnvironmentSetting(key: "zeta", value: "1"),
          EnvironmentSetting(key: "alpha", value: "offline"),
          EnvironmentSetting(key: "mid", value: "two words"),
        ])
      ])
    #expect(trace.text == text)
  }

  @Test func fieldsMayComeInAnyOrderAndAreWrittenInTableOrder() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n0 work.result outcome=retry attempt=2 work=w\n")
    #expect(trace.events.map(\.kind) == [.workResult(work: "w", attempt: 2, outcome: .retry)])
    #expect(trace.text == "bgtrace 1\n0 work.result work=w attempt=2 outcome=retry\n")
  }

  @Test func nonCanonicalTimesParseAndAreWrittenCanonically() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n00.50 app.launch\n1.000 app.launch\n1.000000001 app.launch\n")
    #expect(trace.events.map(\.time.nanoseconds) == [500_000_000, 1_000_000_000, 1_000_000_001])
    #expect(trace.text == "bgtrace 1\n0.5 app.launch\n1 app.launch\n1.000000001 app.launch\n")
  }

  @Test func equalTimesAreAllowed() throws {
    let trace = try RecordedTrace(text: "bgtrace 1\n3 app.launch\n3 app.state to=active\n3 app.state to=inactive\n")
    #expect(trace.events.count == 3)
  }

  @Test func everyKindParsesToItsCase() throws {
    let text = """
      bgtrace 1
      0 app.launch
      0 app.state to=suspended
      0 app.terminate
      0 app.terminate reason=watchdog
      0 task.begin id=0
      0 task.expire id=9223372036854775807
      0 sched.reject ident=a error=immediateRunIneligible
      0 sched.cancel ident=a
      0 sched.cancel all=true
      0 sched.launch ident=a run=3
      0 sched.expire run=3
      0 sched.complete run=3 success=false
      0 work.enqueue work=w name=N backoff=linear delay=0.5 limit=4 period=900 policy=appendOrReplace
      0 work.start work=w attempt=1
      0 work.stop work=w attempt=1 reason=timeout
      0 work.cancel work=w
      """
    let trace = try RecordedTrace(text: text)
    #expect(
      trace.events.map(\.kind) == [
        .appLaunch,
        .appState(to: .suspended),
        .appTerminate(reason: nil),
        .appTerminate(reason: "watchdog"),
        .taskBegin(id: 0, name: nil),
        .taskExpire(id: Int.max),
        .schedReject(identifier: "a", error: .immediateRunIneligible),
        .schedCancel(.identifier("a")),
        .schedCancel(.all),
        .schedLaunch(identifier: "a", run: 3),
        .schedExpire(run: 3),
        .schedComplete(run: 3, success: false),
        .workEnqueue(
          WorkEnqueue(
            work: "w", name: "N", backoff: .linear, backoffDelay: TraceInterval(milliseconds: 500), retryLimit: 4,
            period: TraceInterval(seconds: 900), policy: .appendOrReplace)),
        .workStart(work: "w", attempt: 1),
        .workStop(work: "w", attempt: 1, reason: "timeout"),
        .workCancel(work: "w"),
      ])
  }

  @Test func textReaderReportsLineNumbers() throws {
    let text = "bgtrace 1\n# comment\nmeta a=b\n\n0 app.launch\n\n\n7 mark label=x\n"
    var reader = try TextTraceReader(source: MemoryByteSource(Array(text.utf8)), file: "t.txt")
    #expect(reader.meta == TraceMetadata(["a": "b"]))
    #expect(try reader.next() == LocatedEvent(event: TraceEvent(time: .zero, .appLaunch), location: 5))
    #expect(
      try reader.next()
        == LocatedEvent(event: TraceEvent(time: TraceTime(seconds: 7), .mark(label: "x")), location: 8))
    #expect(try reader.next() == nil)
    #expect(try reader.next() == nil)
  }

  @Test func headerOnlyTraceIsEmpty() throws {
    #expect(try RecordedTrace(text: "bgtrace 1") == RecordedTrace())
    #expect(try RecordedTrace(text: "bgtrace 1\n") == RecordedTrace())
    #expect(try RecordedTrace(text: "bgtrace 1\nmeta k=v\n") == RecordedTrace(meta: TraceMetadata(["k": "v"])))
  }

  @Test func linesLongerThanAReadBlockAreParsed() throws {
    let label = String(repeating: "x", count: 200_000)
    let trace = try RecordedTrace(text: "bgtrace 1\n0 mark label=\(label)\n1 app.launch\n")
    #expect(trace.events.map(\.kind) == [.mark(label: label), .appLaunch])
  }
}
