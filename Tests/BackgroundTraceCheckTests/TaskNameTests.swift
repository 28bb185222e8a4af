import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// The checker keeps an open task's name of at most 15 UTF-8 bytes read from a binary
/// trace in place (`ShortString`), and any other as a string: every name reads back as
/// the trace wrote it, in findings from either way of reading a binary trace.
@Suite struct TaskNameTests {
  /// `text` as a short string, from its UTF-8 bytes as the reader interns them.
  static func short(_ text: String) -> ShortString? {
    var text = text
    return text.withUTF8 { ShortString(utf8: UnsafeRawBufferPointer($0)) }
  }

  @Test func shortStringsHoldUpToFifteenBytes() {
    for text in ["", "a", "SaveDocument", "abcdefghijklmno", "Sync ✓ done", "日本語テキ"] {
      #expect(text.utf8.count <= 15)
      #expect(Self.short(text)?.string == text)
      #expect(Self.short(text)?.count == text.utf8.count)
    }
    for text in ["abcdefghijklmnop", "ééééééééé", "UploadPhotosInBackground"] {
      #expect(text.utf8.count > 15)
      #expect(Self.short(text) == nil)
    }
    #expect(Self.short("Upload") == Self.short("Upload"))
    #expect(Self.short("Upload") != Self.short("Uploa"))
    #expect(Self.short("") != Self.short("a"))
  }

  @Test func aTaskKeepsItsNameWhateverItsLength() throws {
    for name in [nil, "", "FlushLogs", "abcdefghijklmno", "abcdefghijklmnop", "Sync ✓"] {
      var task = TaskLife(name: name, begin: TraceTime(nanoseconds: 1))
      #expect(task.name == name)
      task.name = "renamed"
      #expect(task.name == "renamed")
    }
    // A name held in place, as a task begun from a binary trace keeps it.
    for name in ["", "FlushLogs", "abcdefghijklmno", "Sync ✓"] {
      let short = try #require(Self.short(name))
      var task = TaskLife(name: TaskName.inline(short), begin: TraceTime(nanoseconds: 1))
      #expect(task.name == name)
      task.name = nil
      #expect(task.name == nil)
    }
  }

  /// Tasks left open at a suspension, named with a short name, a name of exactly 15
  /// bytes, one of 16, a long one, an empty one, none, and one of multi-byte
  /// characters: each finding names its task as the trace does, read as compact
  /// events (as `bgtrace check` reads a binary trace) and as full events.
  @Test func leakedTasksAreReportedByTheirNames() throws {
    let text = """
      bgtrace 1
      0 app.launch
      0 app.state to=active
      1 task.begin id=1 name=FlushLogs
      2 task.begin id=2 name=abcdefghijklmno
      3 task.begin id=3 name=abcdefghijklmnop
      4 task.begin id=4 name=UploadPhotosInBackground
      5 task.begin id=5 name=""
      6 task.begin id=6
      7 task.begin id=7 name="Sync ✓"
      8 app.state to=background
      9 app.state to=suspended

      """
    let trace = try RecordedTrace(text: text)
    let expected = [
      #"task 1 ("FlushLogs") begun at 1s was not ended before the app was suspended"#,
      #"task 2 ("abcdefghijklmno") begun at 2s was not ended before the app was suspended"#,
      #"task 3 ("abcdefghijklmnop") begun at 3s was not ended before the app was suspended"#,
      #"task 4 ("UploadPhotosInBackground") begun at 4s was not ended before the app was suspended"#,
      #"task 5 ("") begun at 5s was not ended before the app was suspended"#,
      #"task 6 begun at 6s was not ended before the app was suspended"#,
      #"task 7 ("Sync ✓") begun at 7s was not ended before the app was suspended"#,
    ]
    let bytes = try BinaryTraceEncoder.encode(trace)
    let compact = try CompactCheckTests.findings(ofBinary: bytes, compact: true)
    #expect(compact.map(\.message) == expected)
    #expect(compact.allSatisfy { $0.rule.id == "task-leaked" })
    #expect(try CompactCheckTests.findings(ofBinary: bytes, compact: false) == compact)
    #expect(TraceChecker.check(trace) == compact)
  }
}
