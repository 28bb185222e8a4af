import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import BackgroundTraceTesting
import Testing

/// ccViewer's continued-processing upload (``ContinuedUploader``, ported from
/// lithium0003/ccViewer): the user starts an upload at 1 s and leaves the app at 5 s; the
/// file goes in three chunks of 10, 40 and 10 s, and the storage service reports progress
/// after each chunk.
@Suite struct ContinuedUploadExampleTests {
  /// The iOS device the example runs on: its Info.plist permits `<bundle>.upload.*`.
  static func system() -> SimulatedSystem {
    var configuration = SimulationConfiguration()
    configuration.bundleIdentifier = ContinuedUploadApp.bundleId
    configuration.permittedIdentifiers = ["\(ContinuedUploadApp.bundleId).upload.*"]
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  /// The app on a replay's platform, as the golden replay builds it.
  static func app(on platform: ReplayPlatform, fixed: Bool) -> any BackgroundAppDelegate {
    ContinuedUploadApp(scheduler: platform, context: AsyncContext(simulation: platform.scheduler), fixed: fixed)
  }

  /// Runs the upload; `cancelAt`: when the user cancels it from the Live Activity.
  static func run(fixed: Bool, cancelAt: Duration? = nil) -> SimulatedSystem {
    let system = system()
    system.launchApp { system in
      ContinuedUploadApp(scheduler: system, context: AsyncContext(simulation: system.scheduler), fixed: fixed)
    }
    system.advance(by: .seconds(1))
    system.userAction("upload:video.mov:10,40,10")
    system.advance(by: .seconds(4))
    system.moveToBackground()
    if let cancelAt {
      system.advance(to: TraceTime(cancelAt))
      system.userCancelContinuedProcessing(identifier: "\(ContinuedUploadApp.bundleId).upload.1")
    }
    system.advance(by: .seconds(120))
    return system
  }

  /// The 40 s chunk leaves the progress still from 11 s: iOS expires the task at 41 s,
  /// the handler only sets `wasExpired`, the task is never completed, and the app is
  /// killed a second later. The checker warns of the stall and reports the run.
  @Test func aLongChunkStallsTheTaskAndTheAppIsKilled() {
    let trace = Self.run(fixed: false).trace
    #expect(
      ExampleTrace.lines(" sched.", in: trace) == [
        "1 sched.register ident=com.example.ccviewer.upload.1",
        "1 sched.submit ident=com.example.ccviewer.upload.1 type=continued title=video.mov subtitle=\"About to start...\" strategy=fail",
        "1 sched.launch ident=com.example.ccviewer.upload.1 run=1",
        // Setting totalUnitCount, then completedUnitCount: two reports.
        "11 sched.progress run=1 completed=0 total=3000",
        "11 sched.progress run=1 completed=1000 total=3000",
        "41 sched.expire run=1 reason=stalled",
      ])
    #expect(ExampleTrace.lines(" app.terminate", in: trace) == ["42 app.terminate reason=watchdog"])
    #expect(
      ExampleTrace.findings(in: trace) == [
        "sched-progress-stalled @ 41 sched.expire run=1 reason=stalled",
        "sched-not-completed @ 42 app.terminate reason=watchdog",
      ])
    expectTrace(
      trace, matchesGolden: "continued-upload-stalled",
      checks: .all(except: [.schedProgressStalled, .schedNotCompleted]), directory: ExampleTrace.iosGoldens)
  }

  /// The fix reports the bytes within each chunk every 5 s: the task never stalls and
  /// completes at 61 s.
  @Test func reportingWithinChunksCompletes() {
    let trace = Self.run(fixed: true).trace
    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(ExampleTrace.lines(" sched.complete", in: trace) == ["61 sched.complete run=1 success=true"])
    #expect(ExampleTrace.lines(" sched.progress", in: trace).count == 13)
    expectTrace(trace, matchesGolden: "continued-upload-fixed", directory: ExampleTrace.iosGoldens)
  }

  /// A user cancel at 20 s runs the expiration handler: the original only sets the flag
  /// and the app is killed; the fix completes the task at once.
  @Test func aUserCancelIsAnExpiration() {
    let buggy = Self.run(fixed: false, cancelAt: .seconds(20)).trace
    #expect(ExampleTrace.findings(in: buggy) == ["sched-not-completed @ 21 app.terminate reason=watchdog"])
    let fixed = Self.run(fixed: true, cancelAt: .seconds(20)).trace
    #expect(ExampleTrace.findings(in: fixed).isEmpty)
    #expect(
      ExampleTrace.lines(" sched.", in: fixed).suffix(2) == [
        "20 sched.expire run=1 reason=user", "20 sched.complete run=1 success=false",
      ])
  }

  /// Replaying the stalled recording with the fixed uploader: the replay hands the launch
  /// a continued task whose reports it compares in order; the fix's first report within
  /// a chunk (500 of 3,000) is where it departs from the recording, whose next report is
  /// the chunk's end (1,000).
  @Test func theFixDivergesFromTheStalledRecordingAtItsFirstReport() throws {
    let recording = Self.run(fixed: false).trace
    let same = Replayer.replay(recording) { Self.app(on: $0, fixed: false) }
    #expect(same.divergence == nil, "\(String(describing: same.divergence))")
    let fixed = Replayer.replay(recording) { Self.app(on: $0, fixed: true) }
    let divergence = try #require(fixed.divergence)
    #expect(divergence.expected?.hasSuffix("sched.progress run=1 completed=1000 total=3000") == true)
    #expect(divergence.actual?.hasSuffix("sched.progress run=1 completed=500 total=3000") == true)
  }
}
