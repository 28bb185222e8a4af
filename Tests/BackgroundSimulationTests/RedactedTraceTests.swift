import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Foundation
import Testing

/// A trace recorded with its private fields redacted (`TracePrivacy.redacted`, as
/// `os_log`'s `<private>` with a hash): nothing private is in it, a value always
/// becomes the same word, and the checker and replay still work on it.
@Suite struct RedactedTraceTests {
  /// `private-` and 12 hex digits.
  static func isRedacted(_ value: String?) -> Bool {
    guard let value, value.hasPrefix("private-") else { return false }
    let digits = value.dropFirst("private-".count)
    return digits.count == 12 && digits.allSatisfy(\.isHexDigit)
  }

  @Test func namesAndInputValuesAreHashedTheSameWithinATraceAndSystemAnswersAreKept() throws {
    let recorder = TraceRecorder(meta: ["platform": "ios"], privacy: .redacted)
    recorder.record(.taskBegin(id: 1, name: "Upload Alice's photos"), at: TraceTime(seconds: 1))
    recorder.record(.taskBegin(id: 2, name: "Upload Alice's photos"), at: TraceTime(seconds: 2))
    recorder.record(.taskBegin(id: 3, name: "Sync"), at: TraceTime(seconds: 3))
    recorder.record(.taskBegin(id: 4, name: nil), at: TraceTime(seconds: 4))
    recorder.record(.input(key: "user.email", value: "alice@example.com"), at: TraceTime(seconds: 5))
    recorder.record(.input(key: "system.backgroundTimeRemaining", value: "29.5"), at: TraceTime(seconds: 6))
    recorder.record(
      .workEnqueue(WorkEnqueue(work: "w1", name: "upload-alice", policy: .keep)), at: TraceTime(seconds: 7))
    recorder.record(
      .schedSubmit(SchedulerSubmission(identifier: "com.example.refresh", type: .refresh)), at: TraceTime(seconds: 8))
    let trace = recorder.trace
    #expect(trace.meta["privacy"] == "redacted")
    #expect(trace.meta["platform"] == "ios")
    guard case .taskBegin(_, let first) = trace.events[0].kind, case .taskBegin(_, let second) = trace.events[1].kind,
      case .taskBegin(_, let sync) = trace.events[2].kind, case .taskBegin(_, let none) = trace.events[3].kind,
      case .input(let key, let email) = trace.events[4].kind, case .input(_, let remaining) = trace.events[5].kind,
      case .workEnqueue(let enqueue) = trace.events[6].kind
    else {
      Issue.record("unexpected kinds: \(trace.events)")
      return
    }
    #expect(Self.isRedacted(first) && Self.isRedacted(sync) && Self.isRedacted(email) && Self.isRedacted(enqueue.name))
    #expect(first == second, "the same name is the same word, so the two begins still match up")
    #expect(first != sync)
    #expect(none == nil)
    #expect(key == "user.email", "keys are the app's vocabulary, not its data")
    #expect(remaining == "29.5", "the system's answer is kept: a replay hands it back as a number")
    #expect(enqueue.work == "w1")
    #expect(
      trace.events[7].kind == .schedSubmit(SchedulerSubmission(identifier: "com.example.refresh", type: .refresh)))

    // Nothing private is in either form of the trace, and both read back.
    let text = TextTraceWriter.text(of: trace)
    for secret in ["Alice", "alice", "Sync\n", "upload-alice"] { #expect(!text.contains(secret), "\(secret)") }
    #expect(try RecordedTrace(text: text) == trace)
    let binary = try trace.binary()
    #expect(String(decoding: binary, as: UTF8.self).contains("alice") == false)
    #expect(try RecordedTrace.decode(binary: binary).trace == trace)
  }

  @Test func anotherRecorderHashesTheSameValueToAnotherWord() {
    func redactedName() -> String? {
      let recorder = TraceRecorder(privacy: .redacted)
      recorder.record(.taskBegin(id: 1, name: "Upload"), at: .zero)
      guard case .taskBegin(_, let name) = recorder.trace.events[0].kind else { return nil }
      return name
    }
    // The key is random per recorder and written nowhere: a guess cannot be checked
    // against another trace's hash. (Equal by chance once in 2^48.)
    #expect(redactedName() != redactedName())
  }

  @Test func theCheckerFindsInARedactedTraceWhatItFindsInThePlainOne() throws {
    func record(_ privacy: TracePrivacy) -> RecordedTrace {
      let recorder = TraceRecorder(privacy: privacy)
      recorder.record(.appLaunch, at: .zero)
      recorder.record(.appState(to: .background), at: TraceTime(seconds: 1))
      recorder.record(.taskBegin(id: 1, name: "Upload"), at: TraceTime(seconds: 2))
      recorder.record(.taskBegin(id: 2, name: "Save"), at: TraceTime(seconds: 3))
      recorder.record(.taskEnd(id: 2), at: TraceTime(seconds: 4))
      recorder.record(.taskEnd(id: 2), at: TraceTime(seconds: 5))
      recorder.record(.appState(to: .suspended), at: TraceTime(seconds: 40))
      return recorder.trace
    }
    let plain = TraceChecker.check(record(.visible))
    let redacted = TraceChecker.check(record(.redacted))
    #expect(!plain.isEmpty)
    #expect(redacted.map(\.rule) == plain.map(\.rule))
    #expect(redacted.map(\.location) == plain.map(\.location))
    #expect(redacted.allSatisfy { !$0.message.contains("Upload") && !$0.message.contains("Save") })
  }

  @Test func aRedactedRealClockTraceReplays() async throws {
    let recorded = await RealClockReplayTests.recordOnTheRealClock(privacy: .redacted)
    let begin = recorded.events.first { $0.kind.tag == .taskBegin }
    guard case .taskBegin(_, let name)? = begin?.kind else {
      Issue.record("no task.begin in \(recorded.events)")
      return
    }
    #expect(Self.isRedacted(name))
    let result = Replayer.replay(recorded) { platform in
      RealClockReplayTests.SyncingApp(
        host: platform, scheduler: platform, work: platform, context: AsyncContext(simulation: platform.scheduler))
    }
    #expect(result.divergence == nil, "\(String(describing: result.divergence))")
    #expect(result.unapplied.isEmpty)

  }

  /// Begins two background tasks of one name when it enters the background, and ends them.
  final class TwoSavesApp: BackgroundAppDelegate, @unchecked Sendable {
    let host: any BackgroundTaskHost
    init(host: any BackgroundTaskHost) { self.host = host }
    func didEnterBackground() {
      let first = host.beginBackgroundTask(withName: "Save", expirationHandler: nil)
      let second = host.beginBackgroundTask(withName: "Save", expirationHandler: nil)
      host.endBackgroundTask(first)
      host.endBackgroundTask(second)
    }
  }

  /// A redacted recording of ``TwoSavesApp`` whose two begins have the names `first` and
  /// `second`.
  static func twoSaves(_ first: String, _ second: String) throws -> RecordedTrace {
    try RecordedTrace(
      text: """
        bgtrace 1
        meta privacy=redacted
        0 app.launch
        1 app.state to=active
        2 app.state to=background
        2 task.begin id=1 name=\(first)
        2 task.begin id=2 name=\(second)
        2 task.end id=1
        2 task.end id=2
        3 app.state to=suspended

        """)
  }

  @Test func eachRedactedNameStandsForOneReplayedNameAndOnlyIt() throws {
    let same = try Self.twoSaves("private-0a0a0a0a0a0a", "private-0a0a0a0a0a0a")
    let matched = Replayer.replay(same) { TwoSavesApp(host: $0) }
    #expect(matched.divergence == nil, "\(String(describing: matched.divergence))")

    // "Save" stands for the first hash, so the second begin, also "Save", is not the
    // recording's other name.
    let other = try Self.twoSaves("private-0a0a0a0a0a0a", "private-0b0b0b0b0b0b")
    let diverged = Replayer.replay(other) { TwoSavesApp(host: $0) }
    #expect(diverged.divergence?.expected == "2 task.begin id=2 name=private-0b0b0b0b0b0b")
    #expect(diverged.divergence?.actual == "2 task.begin id=2 name=private-0a0a0a0a0a0a")

    // Without the recording's privacy=redacted, names compare as they are.
    let plain = RecordedTrace(meta: TraceMetadata(), events: same.events)
    #expect(
      Replayer.replay(plain) { TwoSavesApp(host: $0) }.divergence?.expected
        == "2 task.begin id=1 name=private-0a0a0a0a0a0a")
  }
}
