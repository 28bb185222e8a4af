import BackgroundTrace
import Testing

@Suite struct TraceTimeTests {
  @Test(
    arguments: [
      (0, "0"),
      (1, "0.000000001"),
      (10, "0.00000001"),
      (1_000, "0.000001"),
      (1_000_000, "0.001"),
      (200_000_000, "0.2"),
      (1_000_000_000, "1"),
      (12_500_000_000, "12.5"),
      (42_510_000_000, "42.51"),
      (86_400_000_000_000, "86400"),
      (1_234_567_890_123, "1234.567890123"),
      (9_223_372_036_854_775_807, "9223372036.854775807"),
    ] as [(UInt64, String)])
  func canonicalSpellingHasNoTrailingZerosOrExponent(nanoseconds: UInt64, text: String) {
    #expect(TraceTime(nanoseconds: nanoseconds).description == text)
    #expect(TraceTime(decimalSeconds: text) == TraceTime(nanoseconds: nanoseconds))
  }

  @Test(
    arguments: [
      ("12.50", 12_500_000_000),
      ("007", 7_000_000_000),
      ("0.0", 0),
      ("1.000000000", 1_000_000_000),
      ("0.000000001", 1),
    ] as [(String, UInt64)])
  func nonCanonicalDecimalsStillParse(text: String, nanoseconds: UInt64) {
    #expect(TraceTime(decimalSeconds: text) == TraceTime(nanoseconds: nanoseconds))
  }

  @Test(arguments: [
    "", ".", "1.", ".5", "-1", "+1", "1e3", "1E3", "0x10", "1.2.3", " 1", "1 ", "1,5",
    "0.0000000001",  // ten fractional digits
    "9223372037",  // one second past the largest time
    "9223372036.854775808",  // one nanosecond past the largest time
    "99999999999999999999999",
  ])
  func malformedOrOutOfRangeDecimalsAreRejected(text: String) {
    #expect(TraceTime(decimalSeconds: text) == nil)
  }

  @Test func largestTimeIsInt64MaxNanoseconds() {
    #expect(TraceTime.max.nanoseconds == 9_223_372_036_854_775_807)
    #expect(TraceTime.zero.nanoseconds == 0)
    #expect(TraceTime(decimalSeconds: "9223372036.854775807") == .max)
  }

  @Test func secondsInitializerRoundsToTheNearestNanosecondAndClamps() {
    #expect(TraceTime(seconds: 12.5).nanoseconds == 12_500_000_000)
    #expect(TraceTime(seconds: 0.0000000014).nanoseconds == 1)
    #expect(TraceTime(seconds: 0.0000000016).nanoseconds == 2)
    #expect(TraceTime(seconds: -3) == .zero)
    #expect(TraceTime(seconds: -.infinity) == .zero)
    #expect(TraceTime(seconds: .nan) == .zero)
    #expect(TraceTime(seconds: .infinity) == .max)
    #expect(TraceTime(seconds: 1e30) == .max)
  }

  @Test func millisecondsInitializerAndSecondsAndDuration() {
    let time = TraceTime(milliseconds: 1_500)
    #expect(time.nanoseconds == 1_500_000_000)
    #expect(time.seconds == 1.5)
    #expect(time.duration == .milliseconds(1_500))
  }

  @Test func addingSaturatesAtTheLargestTime() {
    #expect(TraceTime(nanoseconds: 5).adding(nanoseconds: 7) == TraceTime(nanoseconds: 12))
    #expect(TraceTime.max.adding(nanoseconds: 1) == .max)
    #expect(TraceTime(nanoseconds: 10).adding(nanoseconds: .max) == .max)
    #expect(TraceTime(nanoseconds: 10).adding(nanoseconds: TraceTime.max.nanoseconds - 10) == .max)
  }

  @Test func timesOrderByNanoseconds() {
    #expect(TraceTime(nanoseconds: 1) < TraceTime(nanoseconds: 2))
    #expect(!(TraceTime(nanoseconds: 2) < TraceTime(nanoseconds: 2)))
    #expect([TraceTime(nanoseconds: 3), .zero, .max].sorted() == [.zero, TraceTime(nanoseconds: 3), .max])
  }
}
