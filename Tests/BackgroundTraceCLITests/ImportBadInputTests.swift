import BackgroundTraceCLI
import BackgroundTraceImport
import Foundation
import TestSupport
import Testing

/// What `bgtrace import` does with bad input: a clear error naming the file, the line
/// and what was expected, or a counted skip; never a crash or a hang.
@Suite struct ImportBadInputTests {
  static let threadtimeLine =
    "04-26 20:30:09.422  4171  4194 I WM-WorkerWrapper: Worker result SUCCESS for Work [ id=70191183-9898-4996-8a3c-14668628fb66, tags={ com.example.MyWorker } ]"

  @Test func binaryGarbageIsALogInNoKnownStyle() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("garbage.log")
    var bytes: [UInt8] = []
    var state: UInt32 = 12345
    for _ in 0..<100_000 {
      state = state &* 1_103_515_245 &+ 12345
      bytes.append(UInt8(truncatingIfNeeded: state >> 16))
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = run("import", path)
    #expect(result.status == .badInput)
    #expect(
      result.errors
        == "bgtrace: \(path): no line is in a known log style: expected an iOS log (Xcode's console, Console.app's copy, log show / log stream) or an Android log (adb logcat, Android Studio's Logcat)\n"
    )
    #expect(result.output.isEmpty)
  }

  @Test func anEmptyLogAndTheWrongPlatformAreErrorsToo() throws {
    #expect(throws: LogImportError.self) { try imported("") }
    #expect(throws: LogImportError.self) {
      try imported(Self.threadtimeLine + "\n", options: LogImportOptions(platform: .ios))
    }
  }

  @Test func invalidUTF8InAMessageIsReadWithReplacementCharacters() throws {
    // A line of invalid UTF-8 naming WorkManager's tag (so it is read, not skipped
    // unread as a line with none of the words messages hold): in no style, counted. It
    // comes first: after an entry it would go on with that entry, as a hard-wrapped
    // line does.
    var bytes = Array("WM-".utf8) + [0xC3, 0x28, 0x0A]
    bytes += Array(
      "04-26 20:30:09.422  4171  4194 I WM-WorkerWrapper: Worker result SUCCESS for Work [ id=70191183-9898-4996-8a3c-14668628fb66, tags={ com."
        .utf8)
    bytes += [0xFF, 0xFE, 0xC3]
    bytes += Array(" } ]\n".utf8)
    let result = try imported(bytes)
    // The tags keep the three bytes as three replacement characters.
    #expect(
      result.trace.hasSuffix(
        """
        0 work.result work=70191183-9898-4996-8a3c-14668628fb66 attempt=0 outcome=success tags="com.\u{FFFD}\u{FFFD}\u{FFFD}"

        """))
    #expect(result.summary.unrecognisedLines == 1)
  }

  @Test func aTenMegabyteLineIsSkippedAndCounted() throws {
    let long = "04-26 20:30:09.000  4171  4194 I WM-WorkerWrapper: " + String(repeating: "x", count: 10 << 20)
    let result = try imported(long + "\n" + Self.threadtimeLine + "\n")
    #expect(result.summary.overlongLines == 1)
    #expect(result.summary.lines == 2)
    #expect(result.summary.events == 1, "the result, with its tags")
  }

  @Test func crlfLineEndsReadAsLF() throws {
    let lf =
      Self.threadtimeLine + "\n" + Self.threadtimeLine.replacingOccurrences(of: "70191183", with: "80191183") + "\n"
    let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(
      try imported(crlf).trace.split(separator: "\n").dropFirst(2) == [
        "0 work.result work=70191183-9898-4996-8a3c-14668628fb66 attempt=0 outcome=success tags=com.example.MyWorker",
        "0 work.result work=80191183-9898-4996-8a3c-14668628fb66 attempt=0 outcome=success tags=com.example.MyWorker",
      ])
    #expect(try imported(crlf).trace == imported(lf).trace)
  }

  @Test func outOfOrderTimesKeepTheTimeBeforeAndAreCounted() throws {
    let log = """
      04-26 20:30:10.000  4171  4194 D WM-GreedyScheduler: Starting work for 70191183-9898-4996-8a3c-14668628fb66
      04-26 20:30:09.000  4171  4194 I WM-WorkerWrapper: Worker result RETRY for Work [ id=70191183-9898-4996-8a3c-14668628fb66, tags={ A } ]
      04-26 20:30:11.500  4171  4194 D WM-GreedyScheduler: Starting work for 70191183-9898-4996-8a3c-14668628fb66

      """
    let result = try imported(log)
    #expect(
      result.trace.hasSuffix(
        """
        0 work.start work=70191183-9898-4996-8a3c-14668628fb66 attempt=0
        0 work.result work=70191183-9898-4996-8a3c-14668628fb66 attempt=0 outcome=retry tags=A
        1.5 work.start work=70191183-9898-4996-8a3c-14668628fb66 attempt=1

        """))
    #expect(result.summary.outOfOrderLines == 1)
  }

  @Test func interleavedProcessesOfOneAppAreToldApartByPid() throws {
    // The app's process 100 dies and 200 starts; a late line of 100 after 200's first
    // is dropped and counted. Another app (pid 300) is not imported.
    let log = """
      01-01 10:00:00.000   100   101 D WM-GreedyScheduler: Starting work for aaaaaaaa-0000-0000-0000-000000000001
      01-01 10:00:01.000   300   301 D WM-GreedyScheduler: Starting work for bbbbbbbb-0000-0000-0000-000000000001
      01-01 10:00:02.000  1500  1510 I ActivityManager: Start proc 200:com.example/u0a1 for service {com.example/androidx.work.impl.background.systemjob.SystemJobService}
      01-01 10:00:02.500   100   102 I WM-WorkerWrapper: Worker result SUCCESS for Work [ id=aaaaaaaa-0000-0000-0000-000000000001, tags={ A } ]
      01-01 10:00:03.000   200   201 D WM-GreedyScheduler: Starting work for aaaaaaaa-0000-0000-0000-000000000002
      01-01 10:00:04.000  1500  1510 I ActivityManager: Process com.example (pid 100) has died: cch

      """
    let named = log + "01-01 10:00:05.000  1500  1510 I ActivityManager: Killing 100:com.example/u0a1 (adj 900): gone\n"
    let result = try imported(named)
    #expect(
      result.trace == """
        bgtrace 1
        meta platform=android source=android-log process=com.example attempts=from-first-start-seen
        0 work.start work=aaaaaaaa-0000-0000-0000-000000000001 attempt=0
        2 app.launch
        3 work.start work=aaaaaaaa-0000-0000-0000-000000000002 attempt=0

        """)
    #expect(result.summary.interleavedLines == 1)
    #expect(result.summary.apps.map(\.name) == ["com.example", "(unnamed)"])

    // Times stay relative to the log's first line, whichever app is imported.
    let other = try imported(named, options: LogImportOptions(process: "300"))
    #expect(other.trace.hasSuffix("1 work.start work=bbbbbbbb-0000-0000-0000-000000000001 attempt=0\n"))
    #expect(throws: LogImportError.self) { try imported(named, options: LogImportOptions(process: "com.nothing")) }
  }

  @Test func strictFailsOnAMessageThatDoesNotParseWithItsFileAndLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("strict.log")
    let log =
      Self.threadtimeLine + "\n"
      + "04-26 20:30:10.000  4171  4194 I WM-WorkerWrapper: Worker result MAYBE for Work [ id=7019 ]\n"
    try log.write(toFile: path, atomically: true, encoding: .utf8)
    let lenient = run("import", path)
    #expect(lenient.status == .success)
    #expect(lenient.errors.contains("(1 not parsed)"))
    let strict = run("import", path, "--strict")
    #expect(strict.status == .badInput)
    #expect(
      strict.errors
        == "bgtrace: \(path):2:1: a WM-WorkerWrapper message that does not parse: expected 'Worker result "
        + "SUCCESS|RETRY|FAILURE for Work [ id=ID, tags={ … } ]' (or, before 1.0.0-alpha06, '… for ID')\n")
  }

  @Test func binaryOutputByExtensionAndUsageErrors() throws {
    let directory = try TemporaryDirectory()
    let log = directory.path("a.log")
    try (Self.threadtimeLine + "\n").write(toFile: log, atomically: true, encoding: .utf8)
    let out = directory.path("a.bgtrace")
    #expect(run("import", log, "--out", out).status == .success)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    #expect(Array(bytes.prefix(8)) == [0x89, 0x42, 0x47, 0x54, 0x0D, 0x0A, 0x1A, 0x0A], "binary, by the extension")
    #expect(
      run("dump", out).output == """
        bgtrace 1
        meta platform=android source=android-log process="(unnamed)" attempts=from-first-start-seen
        0 work.result work=70191183-9898-4996-8a3c-14668628fb66 attempt=0 outcome=success tags=com.example.MyWorker

        """)
    #expect(run("import").status == .badInput)
    #expect(
      run("import", log, "--from", "windows").errors == "bgtrace: '--from' takes 'ios' or 'android', not 'windows'\n")
    #expect(run("import", directory.path("missing.log")).status == .badInput)
  }
}
