import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// The edges of the command line: no command, a misspelt command, `stats` over a
/// directory with an unreadable file, `export` without a path, and messages that quote
/// bytes a terminal would not show as text.
@Suite struct CommandLineEdgesTests {
  let folder: TraceFolder

  init() throws { folder = try TraceFolder() }

  @Test func noCommandPrintsTheUsageToStandardErrorAndExitsTwo() {
    let result = run()
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors.hasPrefix("bgtrace: check, compare, explain, export and convert traces"))
    #expect(result.errors == run("help").output)
  }

  @Test func aMisspeltCommandGetsTheNearestCommand() {
    let result = run("chek", "trace.txt")
    #expect(result.status == .badInput)
    #expect(result.output == "")
    #expect(result.errors == "bgtrace: unknown command 'chek'; did you mean 'check'?\n")
    #expect(run("explian", "t.txt").errors == "bgtrace: unknown command 'explian'; did you mean 'explain'?\n")
    #expect(run("stat", "t.txt").errors == "bgtrace: unknown command 'stat'; did you mean 'stats'?\n")
  }

  @Test func statsOfADirectoryReportsEveryFileAndExitsTwoWhenOneFailed() throws {
    _ = try folder.write("bgtrace 1\n0 app.launch\n1 task.begin id=1 name=Save\n2 task.end id=1\n", to: "a.txt")
    let bad = try folder.write("bgtrace 1\n0 task.begin id=x\n", to: "b.txt")
    _ = try folder.write("bgtrace 1\n0 app.launch\n", to: "c.txt")
    let result = run("stats", folder.path)
    #expect(result.status == .badInput)
    #expect(result.errors == "bgtrace: \(bad):2:17: expected a non-negative integer for 'id', found 'x'\n")
    #expect(
      result.output == """
        \(folder.path)/a.txt (text, 67 bytes)
          events      3  (22.33 bytes/event)
          duration    2.000s
          processes   1
          tasks       begun 1, refused 0, ended 1, expired 0; longest: task 1 "Save", 1.000s; open p50 1.000s, p95 1.000s
          scheduler   submitted 0, rejected 0, launched 0, expired 0, completed 0
          work        enqueued 0, attempts 0, retries 0, succeeded 0, failed 0, stopped 0
          events by kind
            app.launch      1
            task.begin      1
            task.end        1

        \(folder.path)/c.txt (text, 23 bytes)
          events      1  (23.00 bytes/event)
          duration    0.000s
          processes   1
          tasks       begun 0, refused 0, ended 0, expired 0
          scheduler   submitted 0, rejected 0, launched 0, expired 0, completed 0
          work        enqueued 0, attempts 0, retries 0, succeeded 0, failed 0, stopped 0
          events by kind
            app.launch      1

        """)
  }

  @Test func exportWithoutAPathNamesThePath() {
    let neither = run("export")
    #expect(neither.status == .badInput)
    #expect(
      neither.errors
        == "bgtrace: 'bgtrace export' needs a PATH and --format chrome|jsonl|svg|html; see 'bgtrace help export'\n")
    #expect(
      run("export", "--format", "svg").errors
        == "bgtrace: 'bgtrace export' needs a PATH; see 'bgtrace help export'\n")
    #expect(
      run("export", "--from", "1", "--format=svg").errors
        == "bgtrace: 'bgtrace export' needs a PATH; see 'bgtrace help export'\n")
    #expect(
      run("export", "trace.txt").errors
        == "bgtrace: 'bgtrace export' needs --format chrome|jsonl|svg|html; see 'bgtrace help export'\n")
  }

  /// Random bytes read as text fail at the header; the message escapes the control
  /// characters and the bytes that are not UTF-8 it quotes.
  @Test func randomBytesAreEscapedInTheHeaderError() throws {
    let path = try folder.write(
      [0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x68, 0x69, 0xFF, 0xFE, 0x00, 0x7A, 0x0A, 0x62], to: "random.bin")
    for command in ["dump", "stats", "check", "explain"] {
      let result = run(command, path)
      #expect(result.status == .badInput)
      #expect(
        result.errors
          == #"bgtrace: \#(path):1:1: expected the header 'bgtrace 1' on the first line, found "\x1b[31mhi\xff\xfe\x00z""#
          + "\n", "\(command)")
    }
  }

  @Test func anEventKindWithControlBytesIsEscaped() throws {
    let path = try folder.write(
      Array("bgtrace 1\n0 task.b".utf8) + [0x1B, 0x5B, 0x32, 0x4A, 0xC2, 0x85, 0xE2, 0x82] + Array(" id=1\n".utf8),
      to: "kind.txt")
    let result = run("dump", path)
    #expect(result.status == .badInput)
    #expect(result.errors == #"bgtrace: \#(path):2:3: unknown event kind 'task.b\x1b[2J\u{85}\xe2\x82'"# + "\n")
  }

  /// A path that holds an escape code is escaped too: every error line goes through
  /// the same escaping.
  @Test func aPathWithAnEscapeCodeIsEscaped() {
    let result = run("dump", "no\u{1B}[2Jsuch.txt")
    #expect(result.status == .badInput)
    #expect(result.errors == #"bgtrace: no\x1b[2Jsuch.txt: cannot open: No such file or directory"# + "\n")
  }
}
