import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// A log pasted into an issue or a forum often arrives hard-wrapped: each long line
/// cut at a blank into several, the blank left at the end of the first part (as a text
/// box wraps it on copy, or `fold -s`). In a style whose entries are one line each, a
/// line not in the style right after an entry continues its message (docs/import.md,
/// "Hard-wrapped logs").
@Suite struct HardWrappedLogTests {
  /// `text` with each line longer than `width` cut after its last blank within the
  /// width (a word longer than the width is cut at the width), as `fold -s -w WIDTH`.
  static func wrapped(_ text: String, width: Int) -> String {
    var output: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var rest = line
      while rest.count > width {
        let window = rest.prefix(width)
        let cut = window.lastIndex(of: " ").map { rest.index(after: $0) } ?? window.endIndex
        output.append(rest[..<cut])
        rest = rest[cut...]
      }
      output.append(rest)
    }
    return output.joined(separator: "\n")
  }

  /// The events of `arguments`' import, without the log lines they note.
  static func events(_ arguments: String...) -> String {
    run(["import", "--allow-empty"] + arguments).output.split(separator: "\n").map { line in
      line.range(of: " # from ").map { line[..<$0.lowerBound] } ?? line
    }.joined(separator: "\n")
  }

  @Test func wrappingCutsAtTheLastBlankAndKeepsIt() {
    #expect(Self.wrapped("aaa bbb ccc", width: 8) == "aaa bbb \nccc")
    #expect(Self.wrapped("aaaaaaaaaaaa b", width: 5) == "aaaaa\naaaaa\naa b")
  }

  /// Every excerpt under `Traces/import/`, wrapped at 100 columns, imports to the events
  /// the excerpt does: the wrapped lines of WorkManager's, ActivityManager's and UIKit's
  /// messages are read whole, whatever the style.
  @Test(arguments: ImportExcerptTests.excerpts)
  func aWrappedExcerptImportsToTheSameEvents(_ log: String) throws {
    let text = try String(contentsOfFile: Repository.path(log), encoding: .utf8)
    let folder = try TraceFolder()
    let wrapped = try folder.write(Self.wrapped(text, width: 100), to: "wrapped.log")
    let expected = Self.events(Repository.path(log))
    let read = Self.events(wrapped)
    #expect(read == expected, "\(log)")
  }

  /// Bare messages (no header: Xcode's console without metadata), the verbatim
  /// OneSignal excerpt wrapped at 100 columns and the Firebase one after it: the first
  /// part ends in the blank the wrap left, so the next line goes on with it, and the
  /// task is the whole message's, at its first line. The message after a part that
  /// ends in no blank is a message of its own.
  @Test func aBareMessageThatEndsInABlankGoesOn() throws {
    let onesignal = try String(
      contentsOfFile: Repository.path("Traces/import/ios/bare-onesignal-created-over-30s.log"), encoding: .utf8)
    let firebase = try String(
      contentsOfFile: Repository.path("Traces/import/ios/bare-firebase-cant-end.log"), encoding: .utf8)
    let wrapped = Self.wrapped(onesignal, width: 100)
    let lines = wrapped.split(separator: "\n")
    #expect(
      lines[0] == #"[BackgroundTask] Background Task 25 ("Called by OneSignal, from +[OneSignalLocation beginTask]"), "#
    )
    #expect(lines[1].hasPrefix("was created over 30 seconds ago. "))
    let folder = try TraceFolder()
    let path = try folder.write(wrapped + firebase, to: "wrapped.log")
    #expect(
      Self.events(path) == """
        bgtrace 1
        meta platform=ios source=ios-log process="(unnamed)"
        0 task.begin id=25 name="Called by OneSignal, from +[OneSignalLocation beginTask]"
        0 task.end id=344
        0 task.end id=344
        """)
    let output = run("import", path).output.split(separator: "\n")
    #expect(output[2].hasSuffix("# from \(path):1"))
    #expect(output[3].hasSuffix("# from \(path):\(lines.count + 1)"))
  }

  /// Console.app's copy wrapped at 100 columns: FrontBoard's `… [application<…>:432]
  /// Setting ` / `process visibility to: Foreground` holds the words the import looks
  /// for (`] Setting process visibility to: `) only across the cut, so neither part
  /// holds them; the two are read as one line, at the first part's line.
  @Test func wordsAcrossTheCutAreReadWhole() throws {
    let log = Repository.path("Traces/import/ios/consoleapp-intune-frontboard-foreground.log")
    let wrapped = Self.wrapped(try String(contentsOfFile: log, encoding: .utf8), width: 100)
    let lines = wrapped.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[10].hasSuffix("[application<com.AppCo.MyApp>:432] Setting "))
    #expect(lines[11] == "process visibility to: Foreground")
    let folder = try TraceFolder()
    let path = try folder.write(wrapped, to: "wrapped.log")
    let output = run("import", path).output.split(separator: "\n")
    #expect(output.dropFirst(2).first == "0.00105 app.state to=active # from \(path):11")
  }

  /// A verbatim threadtime excerpt wrapped at 100 columns: WorkManager's `Starting work
  /// for ` ends its line, and the work's id is the next line's whole text.
  @Test func aWorkIdOnTheNextLineIsTheWorks() throws {
    let log = Repository.path("Traces/import/android/threadtime-lavender-cancel-reschedule.log")
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let wrapped = Self.wrapped(text, width: 100)
    #expect(wrapped.hasPrefix("03-10 10:31:50.407 24754 25552 D WM-GreedyScheduler: Starting work for \n0f0f7aa0-"))
    let folder = try TraceFolder()
    let path = try folder.write(wrapped, to: "wrapped.log")
    let lines = run("import", path).output.split(separator: "\n")
    #expect(lines[2] == "0 work.start work=0f0f7aa0-5012-4479-a593-58b2cc1cc621 attempt=0 # from \(path):1")
  }
}
