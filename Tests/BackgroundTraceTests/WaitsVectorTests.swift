import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/waits: `work.wait` (41) and `sched.wait` (42), laid out from their
/// specs, written out here by hand from docs/FORMAT.md ("Spec layout"). `reasons=` is a
/// string: the words joined by `+`, in ``WaitReason``'s declaration order.
@Suite struct WaitsVectorTests {
  static let vector: [UInt8] = {
    let body: [UInt8] = [0x01, 0x08] + Array("platform".utf8) + [0x03] + Array("ios".utf8)
    let payload: [UInt8] =
      [0x04]  // string table: 4 strings, in the order first used
      + [0x07] + Array("refresh".utf8) + [0x14] + Array("foreground+scheduler".utf8)
      + [0x04] + Array("sync".utf8) + [0x13] + Array("network+not-running".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        0x1E, 0x2A, 0x0B, 0x00, 0x01,  // sched.wait: tag 30, code 42, +2 s (2 << 2 | 3); ident 0; reasons 1
        0x1E, 0x29, 0x07, 0x02, 0x03,  // work.wait: code 41, +1 s; work 2; reasons 3
      ]
    let chunk = FormatVectorTests.chunkHeader(
      payload: payload, sequence: 0, firstEvent: 0, events: 3, baseTime: [0, 0, 0, 0, 0, 0, 0, 0])
    return FormatV4VectorTests.header(flags: 0x02, body: body) + chunk + payload
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpecs() throws {
    let trace = try FormatV4VectorTests.expectVector("waits", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind).suffix(2) == [
        .schedWait(identifier: "refresh", reasons: [.foreground, .scheduler]),
        .workWait(work: "sync", reasons: [.network, .notRunning]),
      ])
  }

  /// A word that is not a reason, an empty list and a trailing `+` are errors naming
  /// the field, at its value (column 31 of `0 work.wait work=sync reasons=sleepy`).
  @Test func reasonsOutsideTheDeclaredWordsAreRefused() {
    for reasons in ["sleepy", "network+", "+network", "network++power"] {
      let text = "bgtrace 1\nmeta platform=android\n0 work.wait work=sync reasons=\(reasons)\n"
      #expect(throws: TraceFormatError.self, "\(reasons)") { try RecordedTrace(text: text, file: "w.txt") }
    }
    do {
      _ = try RecordedTrace(text: "bgtrace 1\n0 work.wait work=sync reasons=sleepy\n", file: "w.txt")
      Issue.record("a reason that is not declared was read")
    } catch {
      #expect(
        error.description
          == "w.txt:2:31: expected words joined by + from network, power, idle, foreground, quit, scheduler, slot, "
          + "quota, doze, not-running, battery, storage, device-idle, unused, rebooted, standby, background-restriction"
      )
    }
  }
}
