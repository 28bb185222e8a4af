import Foundation
import TestSupport
import Testing

@testable import BackgroundTrace

/// Traces/format-v4/alarms: `alarm.set` (44), `alarm.cancel` (46) and `alarm.fire` (45),
/// laid out from their specs, written out here by hand from docs/FORMAT.md ("Spec
/// layout"): `alarm.set`'s presence bits (bit 0: `window`) first, `at` a scaled varint,
/// `type` its word's index, `window` a scaled varint.
@Suite struct AlarmVectorTests {
  static let vector: [UInt8] = {
    let payload: [UInt8] =
      [0x02]  // string table: 2 strings, in the order first used
      + [0x06] + Array("backup".utf8) + [0x08] + Array("reminder".utf8)
      + [
        0x00, 0x00,  // app.launch at 0
        // alarm.set: code 44, +0; no presence bits; alarm 0; at 900 s; exact-allow-while-idle
        0x1E, 0x2C, 0x00, 0x00, 0x00, 0x93, 0x1C, 0x03,
        0x1E, 0x2C, 0x00, 0x00, 0x01, 0xF3, 0x01, 0x00,  // alarm.set, +0; alarm 1; at 60 s; inexact
        0x1E, 0x2E, 0x2B, 0x01,  // alarm.cancel: code 46, +10 s; alarm 1
        0x1E, 0x2D, 0xEB, 0x1B, 0x00,  // alarm.fire: code 45, +890 s; alarm 0
        // alarm.set, +0; presence bit 0 (window); alarm 0; at 4,500 s: (4500 << 2) | 3 = 18003,
        // a varint D3 8C 01; window (word 5); window 600 s: (600 << 2) | 3 = 2403, E3 12
        0x1E, 0x2C, 0x00, 0x01, 0x00, 0xD3, 0x8C, 0x01, 0x05, 0xE3, 0x12,
      ]
    return FormatV4VectorTests.androidFile(payload: payload, events: 6)
  }()

  @Test func theVectorIsLaidOutFromTheKindsSpecs() throws {
    let trace = try FormatV4VectorTests.expectVector("alarms", isLaidOutAs: Self.vector)
    #expect(
      trace.events.map(\.kind) == [
        .appLaunch,
        .alarmSet(alarm: "backup", at: TraceTime(.seconds(900)), type: .exactAllowWhileIdle),
        .alarmSet(alarm: "reminder", at: TraceTime(.seconds(60)), type: .inexact),
        .alarmCancel(alarm: "reminder"), .alarmFire(alarm: "backup"),
        .alarmSet(alarm: "backup", at: TraceTime(.seconds(4500)), type: .window, window: TraceInterval(seconds: 600)),
      ])
  }
}
