import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Testing

/// Background `URLSession` transfers through the tracing wrapper and the replayer: the
/// recorded `net.finish`, `net.wake` and `net.events-done` are handed to the app at
/// their places, task numbers come back as recorded, and the checker judges the
/// completion handler (docs/rules.md, "Background transfers").
@Suite struct BackgroundTransferReplayTests {
  /// An uploader as apps write it: the session is created at launch with the app as
  /// its delegate; a user's tap starts an upload; the wake's handler is kept and, when
  /// `callsHandler`, called in `urlSessionDidFinishEvents` (the fix), else never (the bug).
  final class UploadApp: BackgroundAppDelegate, BackgroundSessionDelegate, @unchecked Sendable {
    static let identifier = "com.example.upload"
    let transfers: any BackgroundTransfers
    let callsHandler: Bool
    var session: (any BackgroundSession)?
    var completionHandler: (@Sendable () -> Void)?
    var started: [Int] = []
    var results: [Int: TransferOutcome] = [:]

    init(transfers: any BackgroundTransfers, callsHandler: Bool) {
      self.transfers = transfers
      self.callsHandler = callsHandler
    }

    func didFinishLaunching() {
      session = transfers.session(identifier: Self.identifier, discretionary: false, delegate: self)
    }

    func perform(userAction action: String) {
      if action == "upload", let session,
        let task = session.startTransfer(.upload(file: "/tmp/photo.jpg", to: "https://example.com/photos"))
      {
        started.append(task)
      }
    }

    func handleEvents(forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void) {
      self.completionHandler = completionHandler
    }

    func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) { results[task] = outcome }

    func sessionDidFinishEvents(session: String) {
      guard callsHandler else { return }
      completionHandler?()
      completionHandler = nil
    }
  }

  /// What a device records of ``UploadApp`` with the fix: the upload finishes while the
  /// app is suspended, and the system wakes it in the background to deliver it.
  static let recorded = """
    bgtrace 1
    meta platform=ios
    0 app.launch
    0 net.create session=com.example.upload
    0.2 app.state to=active
    1 mark label=user:upload
    1 net.submit session=com.example.upload task=7 kind=upload
    2 app.state to=inactive
    2 app.state to=background
    3 app.state to=suspended
    100 app.state to=background
    100 net.wake session=com.example.upload
    100 net.finish session=com.example.upload task=7 outcome=success
    100 net.events-done session=com.example.upload
    100 net.handler session=com.example.upload
    105 app.state to=suspended

    """

  @Test func theFixedUploaderReplaysItsRecordingAndIsClean() throws {
    let trace = try RecordedTrace(text: Self.recorded)
    #expect(TraceChecker.check(trace).isEmpty)
    final class Made { var app: UploadApp? }
    let made = Made()
    let result = Replayer.replay(trace) { platform in
      let app = UploadApp(transfers: platform, callsHandler: true)
      made.app = app
      return app
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.unapplied.isEmpty)
    #expect(result.findings.isEmpty)
    let app = try #require(made.app)
    #expect(app.started == [7], "the task number comes back as recorded")
    #expect(app.results == [7: .success], "the recorded finish was delivered to the app's delegate")
  }

  @Test func theBuggyUploaderDivergesWhereItDoesNotCallTheHandlerAndItsOwnRecordingIsAFinding() throws {
    let diverged = Replayer.replay(try RecordedTrace(text: Self.recorded)) {
      UploadApp(transfers: $0, callsHandler: false)
    }
    #expect(diverged.divergence?.expected == "100 net.handler session=com.example.upload")
    #expect(diverged.divergence?.actual == nil, "the app did nothing more")

    // The bug's own recording: no net.handler, and the checker says so at the suspension.
    let buggy = try RecordedTrace(
      text: Self.recorded.replacing("100 net.handler session=com.example.upload\n", with: ""))
    let findings = TraceChecker.check(buggy)
    #expect(findings.map(\.rule) == [.netHandlerNotCalled])
    #expect(findings.first?.time == TraceTime(seconds: 105))
    let replayed = Replayer.replay(buggy) { UploadApp(transfers: $0, callsHandler: false) }
    #expect(replayed.divergence == nil)
    #expect(replayed.findings.map(\.rule) == [.netHandlerNotCalled], "the replay reproduces the finding")
  }

  /// A base that starts transfers numbered from 1 and lets the test deliver events.
  final class FakeTransfers: BackgroundTransfers, BackgroundSession, @unchecked Sendable {
    var identifier = ""
    var delegate: (any BackgroundSessionDelegate)?
    var next = 1
    func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
      -> any BackgroundSession
    {
      self.identifier = identifier
      self.delegate = delegate
      return self
    }
    func startTransfer(_ request: TransferRequest) -> Int? {
      defer { next += 1 }
      return next
    }
    /// No wakes of its own: keeps nothing.
    func backgroundTask<Request: Sendable>(
      _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void
    ) {}
  }

  @Test func theTracingWrapperRecordsWhatTheAppAndTheSystemDo() {
    let recorder = TraceRecorder()
    let base = FakeTransfers()
    let transfers = TracingBackgroundTransfers(base: base, recorder: recorder)
    let app = UploadApp(transfers: transfers, callsHandler: true)
    recorder.record(.appLaunch, at: .zero)
    app.didFinishLaunching()
    app.perform(userAction: "upload")
    app.perform(userAction: "upload")
    let handler = transfers.wake(session: UploadApp.identifier) {}
    app.handleEvents(forBackgroundSession: UploadApp.identifier, completionHandler: handler)
    base.delegate?.transferDidComplete(session: UploadApp.identifier, task: 2, outcome: .failed)
    base.delegate?.sessionDidFinishEvents(session: UploadApp.identifier)
    #expect(
      recorder.trace.events.map(\.kind) == [
        .appLaunch, .netCreate(session: UploadApp.identifier),
        .netSubmit(session: UploadApp.identifier, task: 1, kind: .upload, discretionary: nil),
        .netSubmit(session: UploadApp.identifier, task: 2, kind: .upload, discretionary: nil),
        .netWake(session: UploadApp.identifier),
        .netFinish(session: UploadApp.identifier, task: 2, outcome: .failed),
        .netEventsDone(session: UploadApp.identifier), .netHandler(session: UploadApp.identifier),
      ])
    #expect(app.results == [2: .failed])
  }
}
