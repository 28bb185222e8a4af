import BackgroundTraceCheck

extension RuleTraceTable {
  /// Background `URLSession` rules (docs/rules.md, `net-*`), each worked out by hand
  /// from the trace's comment block.
  static let transferCases: [TraceCase] = [
    TraceCase(
      file: "net-handler-not-called.fires.txt",
      expected: [
        finding(
          .netHandlerNotCalled, line: 11, at: "5 app.state to=suspended", "session com.example.upload (woken at 0s)",
          "not called before the app was suspended")
      ]),
    TraceCase(
      file: "net-handler-not-called.fires-budget.txt",
      expected: [
        finding(
          .netHandlerNotCalled, line: 10, at: "31 mark label=later", "session com.example.upload (woken at 0s)",
          "within the 30s background budget after urlSessionDidFinishEvents at 0.5s")
      ]),
    TraceCase(file: "net-handler-not-called.near-miss.txt", expected: []),
    TraceCase(
      file: "net-handler-early.fires.txt",
      expected: [
        finding(
          .netHandlerEarly, line: 9, at: "0.2 net.handler session=com.example.upload",
          "called before urlSessionDidFinishEvents")
      ]),
    TraceCase(file: "net-handler-early.near-miss.txt", expected: []),
    TraceCase(
      file: "net-handler-unknown.fires.txt",
      expected: [
        finding(
          .netHandlerUnknown, line: 10, at: "0.7 net.handler session=com.example.upload", "no wake outstanding")
      ]),
    TraceCase(file: "net-handler-unknown.near-miss.txt", expected: []),
    TraceCase(
      file: "net-session-duplicate.fires.txt",
      expected: [
        finding(
          .netSessionDuplicate, line: 8, at: "2 net.create session=com.example.upload",
          "created again in this process (first at 1s)")
      ]),
    TraceCase(file: "net-session-duplicate.near-miss.txt", expected: []),
    TraceCase(
      file: "net-not-recreated.fires.txt",
      expected: [
        finding(
          .netNotRecreated, line: 9, at: "1 app.state to=suspended", "session com.example.upload at 0s",
          "never created it before the app was suspended")
      ]),
    TraceCase(file: "net-not-recreated.near-miss.txt", expected: []),
    // Apple, "Downloading files in the background": "The delay increases each time the
    // system resumes or relaunches your app"; iOS 26.1 nsurlsessiond: 60 s, then doubled.
    TraceCase(
      file: "net-one-transfer-per-wake.fires.txt",
      expected: [
        finding(
          .netOneTransferPerWake, line: 35, at: "460.3 net.wake session=com.example.downloads",
          "woke the app for background session com.example.downloads 3 times in a row",
          "each time the app started one new transfer from the background", "start them together")
      ]),
    TraceCase(file: "net-one-transfer-per-wake.near-miss.txt", expected: []),
  ]
}
