import BackgroundTrace
import BackgroundTraceCLI
import Foundation
import TestSupport
import Testing

/// Every snippet and command in README.md and docs/guides/*.md is compiled or run: each
/// ```` ```swift ```` block is marked with the compiled file that holds it
/// (`<!-- snippet: PATH -->`) and must appear there, line for line; each `bgtrace` line
/// of a ```` ```sh ```` block runs in process on the files it names and must exit as its
/// comment says (`# exit 1`, else 0), printing the lines a `$ ` block shows after it (in
/// order; `…` for lines left out); lines that cannot run here (a device, Xcode, the
/// user's own repository) sit in a block marked `<!-- not run: REASON -->`, and the test
/// insists on that mark for `xcrun`, `adb` and `xcodebuild` (``DocBlock``).
@Suite struct DocSnippetTests {
  /// The pages checked.
  static let pages: [String] = {
    let guides = Repository.files(under: Repository.root.appendingPathComponent("docs/guides"), suffix: "md")
    return ["README.md", "CONTRIBUTING.md"] + guides.map { "docs/guides/" + $0.lastPathComponent }
  }()

  /// What a manifest snippet spells differently from the manifest CI builds: the
  /// dependent package reads the package's URL from the environment, so that
  /// Tools/check-dependent-package.sh can point it at a tagged clone.
  static let manifestPlaceholders = [#""https://github.com/<owner>/BackgroundTrace.git""#: "backgroundTrace"]

  static func text(_ relativePath: String) throws -> String {
    try String(contentsOf: Repository.root.appendingPathComponent(relativePath), encoding: .utf8)
  }

  @Test func theGuidesAreThere() {
    #expect(
      Self.pages == [
        "README.md", "CONTRIBUTING.md", "docs/guides/android.md", "docs/guides/capturing.md", "docs/guides/checking.md",
        "docs/guides/exploration.md",
        "docs/guides/golden-traces.md", "docs/guides/replaying.md",
      ])
  }

  @Test(arguments: pages) func everySnippetIsInItsFile(page: String) throws {
    for block in DocBlock.blocks(in: try Self.text(page)) where block.language != "sh" {
      guard case .snippet(let path) = block.mark else {
        if block.language == "swift" {
          Issue.record("\(page):\(block.line): a swift block needs <!-- snippet: PATH --> on the line before")
        }
        continue
      }
      let file = try Self.text(path)
      var checked = block
      if path.hasSuffix("Package.swift") {
        for (placeholder, value) in Self.manifestPlaceholders {
          checked.lines = checked.lines.map { $0.replacingOccurrences(of: placeholder, with: value) }
        }
      }
      let found = checked.isContained(in: file)
      #expect(found, "\(page):\(block.line): the snippet is not in \(path), line for line; edit both")
    }
  }

  /// A block that shows a trace's text (its first line `bgtrace 1`) is a trace.
  @Test(arguments: pages) func everyTraceShownReads(page: String) throws {
    for block in DocBlock.blocks(in: try Self.text(page))
    where block.language.isEmpty && block.lines.first == "bgtrace 1" {
      #expect(throws: Never.self, "\(page):\(block.line)") {
        _ = try RecordedTrace(text: block.lines.joined(separator: "\n") + "\n", file: page)
      }
    }
  }

  /// How many `bgtrace` invocations each page runs, counted by hand: a block that stops
  /// being run (a lost mark, a misspelt fence) shows here.
  static let invocationCounts = [
    "README.md": 4, "CONTRIBUTING.md": 0, "docs/guides/android.md": 1, "docs/guides/capturing.md": 2,
    "docs/guides/checking.md": 9,
    "docs/guides/exploration.md": 3, "docs/guides/golden-traces.md": 0, "docs/guides/replaying.md": 1,
  ]

  @Test(arguments: pages) func everyBGTraceCommandRunsAsTheDocSays(page: String) throws {
    let folder = try TemporaryDirectory()
    var mapped: [String: String] = [:]
    var invocations = 0
    defer { #expect(invocations == Self.invocationCounts[page], "\(page) ran \(invocations) bgtrace commands") }
    for block in DocBlock.blocks(in: try Self.text(page)) {
      let lines = block.lines.map(\.trimmingSpaces)
      if !["sh", "swift"].contains(block.language) {
        #expect(
          !lines.contains { $0.hasPrefix("$ ") || DocCommand.isBGTrace($0) },
          "\(page):\(block.line): commands belong in a ```sh block")
        continue
      }
      guard block.language == "sh" else { continue }
      let needsDevice = lines.contains { $0.contains("xcrun") || $0.contains("adb ") || $0.contains("xcodebuild") }
      if case .notRun(let reason) = block.mark {
        #expect(!reason.isEmpty, "\(page):\(block.line): say why the block is not run")
        continue
      }
      #expect(!needsDevice, "\(page):\(block.line): a device's or Xcode's command needs <!-- not run: REASON -->")
      var partly = false
      if case .partlyRun = block.mark { partly = true }
      for (line, shown) in DocCommand.commandsWithOutput(of: block) {
        guard DocCommand.isBGTrace(line) else {
          #expect(
            partly, "\(page):\(block.line): '\(line)' is not a bgtrace command; mark the block partly run or not run")
          continue
        }
        let command = DocCommand(line)
        for invocation in command.invocations {
          let arguments = invocation.arguments.indices.map { index in
            let word = invocation.arguments[index]
            // A request's name (`--why com.example.refresh`) is a name, not a file.
            if index > 0, Self.nameOptions.contains(invocation.arguments[index - 1]) { return word }
            return Self.resolve(word, in: folder.url.path, mapped: &mapped)
          }
          let console = CapturingConsole()
          let status = BGTrace.run(arguments, console: console)
          invocations += 1
          if let output = invocation.output {
            try console.output.write(
              toFile: Self.resolve(output, in: folder.url.path, mapped: &mapped), atomically: true, encoding: .utf8)
          }
          let exited = status.rawValue
          #expect(
            exited == command.expectedStatus,
            "\(page):\(block.line): '\(line)' exited \(exited): \(console.errors.prefix(400))")
          // What it printed, with the paths as the doc names them: relative to the root,
          // and the test's folder for the /tmp the doc writes to.
          let printed = (console.output + console.errors)
            .replacingOccurrences(of: Repository.root.path + "/", with: "")
            .replacingOccurrences(of: folder.url.path, with: "/tmp")
          let matches = DocCommand.shows(shown, in: printed)
          #expect(matches, "\(page):\(block.line): '\(line)' printed otherwise than shown:\n\(printed.prefix(2_000))")
        }
      }
    }
  }

  /// README's command table has a row for every command `bgtrace help` lists.
  @Test func theCommandTableListsEveryCommand() throws {
    let readme = try Self.text("README.md")
    for command in CommandName.allCases {
      #expect(readme.contains("| `bgtrace \(command.rawValue)"), "README's command table has no row for \(command)")
    }
  }

  /// CONTRIBUTING.md's layout names every folder under Sources/ (each module and its
  /// folders) and Tools/; a DocC catalog (`*.docc`) is covered by its one line.
  @Test func theLayoutNamesEveryFolder() throws {
    let page = try Self.text("CONTRIBUTING.md")
    let layout = try #require(page.components(separatedBy: "## Layout").last)
    let manager = FileManager.default
    func folders(_ relativePath: String) -> [String] {
      let entries = (try? manager.contentsOfDirectory(atPath: Repository.path(relativePath))) ?? []
      return entries.filter { name in
        var isDirectory: ObjCBool = false
        return !name.hasPrefix(".") && !name.hasSuffix(".docc")
          && manager.fileExists(atPath: Repository.path(relativePath + "/" + name), isDirectory: &isDirectory)
          && isDirectory.boolValue
      }.sorted()
    }
    for tool in folders("Tools") {
      #expect(layout.contains("Tools/\(tool)/"), "CONTRIBUTING.md's layout does not list Tools/\(tool)/")
    }
    for module in folders("Sources") {
      #expect(layout.contains("Sources/\(module)/"), "CONTRIBUTING.md's layout does not list Sources/\(module)/")
      for folder in folders("Sources/" + module) {
        #expect(
          layout.contains(folder), "CONTRIBUTING.md's layout does not name Sources/\(module)/\(folder)")
      }
    }
  }

  /// The options whose value is a name, passed as written.
  static let nameOptions: Set<String> = ["--why"]

  /// An argument as the test passes it: a path in the repository becomes absolute, a
  /// file the command writes (under `/tmp/`, or a relative path the repository does not
  /// have) goes into the test's folder, the same one each time it is named; any other
  /// word (an option, a number, a scenario's name, `2/4`) stays.
  static func resolve(_ word: String, in folder: String, mapped: inout [String: String]) -> String {
    if let known = mapped[word] { return known }
    if word.hasPrefix("-") || Double(word) != nil || word.wholeMatch(of: /\d+\/\d+/) != nil { return word }
    let inRepository = Repository.path(word)
    if !word.hasPrefix("/"), FileManager.default.fileExists(atPath: inRepository) { return inRepository }
    let written: String
    if word.hasPrefix("/tmp/") {
      written = (folder as NSString).appendingPathComponent(String(word.dropFirst(5)))
    } else if !word.hasPrefix("/"), word.contains("/") || word.contains(".") {
      written = (folder as NSString).appendingPathComponent(word)
    } else {
      return word
    }
    try? FileManager.default.createDirectory(
      atPath: (written as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    mapped[word] = written
    return written
  }
}

/// The snippet check itself: a changed snippet, a missing mark, a device's command
/// without its mark are each caught (the check of the check, on a page written here).
@Suite struct DocBlockTests {
  static let file = """
    import BackgroundTrace
    import Testing

    @Test func example() {
      let system = SimulatedSystem(seed: 7)
      system.advance(by: .seconds(60))
    }
    """

  @Test func aSnippetAsWrittenIsFound() {
    let page = """
      Text.

      <!-- snippet: Tests/X.swift -->
      ```swift
      import BackgroundTrace

      let system = SimulatedSystem(seed: 7)
          system.advance(by: .seconds(60))
      ```
      """
    let blocks = DocBlock.blocks(in: page)
    #expect(blocks.map(\.mark) == [.snippet(path: "Tests/X.swift")])
    #expect(blocks.map(\.line) == [4])
    #expect(blocks[0].isContained(in: Self.file))
  }

  @Test func aChangedSnippetIsNot() {
    for changed in [
      "let system = SimulatedSystem(seed: 8)\nsystem.advance(by: .seconds(60))",
      "system.advance(by: .seconds(60))\nlet system = SimulatedSystem(seed: 7)",
      "import BackgroundSimulation\nlet system = SimulatedSystem(seed: 7)",
    ] {
      let block = DocBlock.blocks(in: "```swift\n\(changed)\n```\n")[0]
      #expect(!block.isContained(in: Self.file), "\(changed)")
    }
  }

  @Test func marksAreRead() {
    let page = """
      <!-- not run: needs a device -->
      ```sh
      adb logcat -v threadtime > run.log
      ```

      <!-- partly run: swift test is CI's -->
      ```sh
      swift run bgtrace demo
      swift test
      ```
      ```
      no mark
      ```
      """
    #expect(
      DocBlock.blocks(in: page).map(\.mark) == [
        .notRun(reason: "needs a device"), .partlyRun(reason: "swift test is CI's"), nil,
      ])
  }

  @Test func commandLinesAreSplitAsAShellSplitsThem() {
    #expect(
      DocCommand(#"swift run bgtrace export a.txt --format jsonl | jq 'select(.kind == "task.end")'"#)
        == DocCommand(invocations: [(["export", "a.txt", "--format", "jsonl"], nil)], expectedStatus: 0))
    #expect(
      DocCommand("bgtrace import run.log > run.txt && bgtrace check run.txt   # exit 1: findings")
        == DocCommand(
          invocations: [(["import", "run.log"], "run.txt"), (["check", "run.txt"], nil)], expectedStatus: 1))
    #expect(
      DocCommand(#"bgtrace check "my traces" # exit status 2"#)
        == DocCommand(invocations: [(["check", "my traces"], nil)], expectedStatus: 2))
  }

  @Test func promptedBlocksRunOnlyTheirPromptedLines() {
    let block = DocBlock.blocks(in: "```sh\n$ bgtrace explore --list\ndocument-save\n$ cat x.txt\n```\n")[0]
    #expect(DocCommand.commandLines(of: block) == ["bgtrace explore --list", "cat x.txt"])
  }
}
