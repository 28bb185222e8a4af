import BackgroundTraceCLI

/// The fenced code blocks of a Markdown page, with the mark written on the line before
/// each: what ``DocSnippetTests`` checks in README.md and docs/guides/*.md.
///
/// The marks (an HTML comment, invisible on the rendered page):
/// - `<!-- snippet: PATH -->` before a ```` ```swift ```` block: the block is in the compiled
///   file PATH (relative to the repository's root).
/// - `<!-- not run: REASON -->` before a ```` ```sh ```` block: none of its lines is run
///   (a device, Xcode, the user's own repository).
/// - `<!-- partly run: REASON -->` before a ```` ```sh ```` block: its `bgtrace` lines are
///   run, the others (REASON says why) are not.
struct DocBlock: Equatable {
  /// The word after the opening fence (`swift`, `sh`), empty for none.
  var language: String
  /// The mark on the line before the fence, if any.
  var mark: Mark?
  /// The 1-based line of the opening fence.
  var line: Int
  /// The block's lines, without the fences and without the fence's indentation.
  var lines: [String]

  /// A mark before a block.
  enum Mark: Equatable {
    case snippet(path: String)
    case notRun(reason: String)
    case partlyRun(reason: String)
  }

  /// Every fenced block of `page`, in order.
  static func blocks(in page: String) -> [DocBlock] {
    let pageLines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [DocBlock] = []
    var index = 0
    while index < pageLines.count {
      let trimmed = pageLines[index].trimmingLeadingSpaces
      guard trimmed.hasPrefix("```") else {
        index += 1
        continue
      }
      let indentation = pageLines[index].count - trimmed.count
      let language = String(trimmed.dropFirst(3)).trimmingSpaces
      let mark = index > 0 ? Mark(comment: pageLines[index - 1].trimmingSpaces) : nil
      var content: [String] = []
      var end = index + 1
      while end < pageLines.count, !pageLines[end].trimmingLeadingSpaces.hasPrefix("```") {
        content.append(String(pageLines[end].dropFirst(min(indentation, pageLines[end].leadingSpaceCount))))
        end += 1
      }
      blocks.append(DocBlock(language: language, mark: mark, line: index + 1, lines: content))
      index = end + 1
    }
    return blocks
  }

  /// The block's text as the snippet check compares it: each line trimmed, blank lines
  /// dropped; `import` lines apart, since a file has them at its top.
  var normalized: (imports: [String], body: [String]) {
    let lines = lines.map(\.trimmingSpaces).filter { !$0.isEmpty }
    return (lines.filter { $0.hasPrefix("import ") }, lines.filter { !$0.hasPrefix("import ") })
  }

  /// Whether `file`'s text holds this block: its body lines in a row (each trimmed,
  /// blank lines skipped) and each of its imports as a line of the file.
  func isContained(in file: String) -> Bool {
    let fileLines = file.split(separator: "\n").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    let (imports, body) = normalized
    let fileImports = Set(fileLines.filter { $0.hasPrefix("import ") || $0.hasPrefix("public import ") })
    guard imports.allSatisfy({ fileImports.contains($0) || fileImports.contains("public " + $0) }) else {
      return false
    }
    guard !body.isEmpty else { return true }
    guard fileLines.count >= body.count else { return false }
    for start in 0...(fileLines.count - body.count) where fileLines[start] == body[0] {
      if Array(fileLines[start..<(start + body.count)]) == body { return true }
    }
    return false
  }
}

extension DocBlock.Mark {
  /// The mark an HTML comment line spells, or `nil`.
  init?(comment: String) {
    guard comment.hasPrefix("<!--"), comment.hasSuffix("-->") else { return nil }
    let inside = String(comment.dropFirst(4).dropLast(3)).trimmingSpaces
    for (prefix, make) in [
      ("snippet:", { DocBlock.Mark.snippet(path: $0) }),
      ("not run:", { DocBlock.Mark.notRun(reason: $0) }),
      ("partly run:", { DocBlock.Mark.partlyRun(reason: $0) }),
    ] as [(String, (String) -> DocBlock.Mark)] where inside.hasPrefix(prefix) {
      self = make(String(inside.dropFirst(prefix.count)).trimmingSpaces)
      return
    }
    return nil
  }
}

/// A command line of a shell block, as the doc test runs it.
struct DocCommand: Equatable {
  /// The words of each `bgtrace` invocation joined by `&&`, without `bgtrace` (or
  /// `swift run bgtrace`) itself, and the file its standard output is redirected to.
  var invocations: [(arguments: [String], output: String?)]
  /// The exit status the line's comment names (`# exit 1`), or 0.
  var expectedStatus: Int32

  init(invocations: [(arguments: [String], output: String?)], expectedStatus: Int32) {
    self.invocations = invocations
    self.expectedStatus = expectedStatus
  }

  static func == (left: DocCommand, right: DocCommand) -> Bool {
    left.expectedStatus == right.expectedStatus && left.invocations.count == right.invocations.count
      && zip(left.invocations, right.invocations).allSatisfy { $0.arguments == $1.arguments && $0.output == $1.output }
  }

  /// The commands of a shell block's line: `$ ` lines only when the block has any
  /// (the others are output), every other non-comment line otherwise.
  static func commandLines(of block: DocBlock) -> [String] {
    let lines = block.lines.filter { !$0.trimmingSpaces.isEmpty && !$0.trimmingSpaces.hasPrefix("#") }
    let prompted = lines.filter { $0.hasPrefix("$ ") }
    return prompted.isEmpty ? lines.map(\.trimmingSpaces) : prompted.map { String($0.dropFirst(2)).trimmingSpaces }
  }

  /// The commands of a shell block with what the block shows each printing: for a block
  /// of `$ ` lines, the lines after each up to the next; for any other block, nothing.
  static func commandsWithOutput(of block: DocBlock) -> [(command: String, output: [String])] {
    guard block.lines.contains(where: { $0.hasPrefix("$ ") }) else {
      return commandLines(of: block).map { ($0, []) }
    }
    var commands: [(command: String, output: [String])] = []
    for line in block.lines {
      if line.hasPrefix("$ ") {
        commands.append((String(line.dropFirst(2)).trimmingSpaces, []))
      } else if !commands.isEmpty {
        commands[commands.count - 1].output.append(line)
      }
    }
    return commands
  }

  /// Whether `shown` (a doc's output lines; `…` stands for lines left out) appears in
  /// `printed` in order, each line compared trimmed.
  static func shows(_ shown: [String], in printed: String) -> Bool {
    var printedLines = printed.split(separator: "\n").map { String($0).trimmingSpaces }[...]
    for line in shown.map(\.trimmingSpaces) where !line.isEmpty && line != "…" {
      guard let index = printedLines.firstIndex(of: line) else { return false }
      printedLines = printedLines[(index + 1)...]
    }
    return true
  }

  /// Whether a command line invokes bgtrace: `bgtrace` (or `swift run bgtrace`) and a
  /// command or an option, so that a trace's header line, `bgtrace 1`, is not one.
  static func isBGTrace(_ line: String) -> Bool {
    let words = line.split(separator: " ").map(String.init)
    let rest = words.first == "swift" && words.dropFirst().first == "run" ? Array(words.dropFirst(2)) : words
    guard rest.first == "bgtrace", let word = rest.dropFirst().first else { return false }
    return word.hasPrefix("-") || CommandName(rawValue: word) != nil || word == "replay"
  }

  /// Parses a bgtrace command line: words split as a POSIX shell splits them (single and
  /// double quotes), a trailing `# comment`, `&&` between invocations, `| …` dropped (the
  /// test runs bgtrace, not `jq`), `> FILE` kept as the output file.
  init(_ line: String) {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var comment = ""
    var characters = Array(line)[...]
    while let character = characters.popFirst() {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        inWord = true
      } else if character == " " {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else if character == "#" && !inWord {
        comment = String(characters)
        break
      } else {
        current.append(character)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    var invocations: [(arguments: [String], output: String?)] = []
    var arguments: [String] = []
    var output: String?
    var skipping = false
    var redirecting = false
    func close() {
      if arguments.first == "swift" && arguments.dropFirst().first == "run" { arguments.removeFirst(2) }
      if arguments.first == "bgtrace" { arguments.removeFirst() }
      invocations.append((arguments, output))
      arguments = []
      output = nil
    }
    for word in words {
      if word == "&&" {
        close()
        skipping = false
      } else if skipping {
        continue
      } else if word == "|" {
        skipping = true
      } else if word == ">" {
        redirecting = true
      } else if redirecting {
        output = word
        redirecting = false
      } else {
        arguments.append(word)
      }
    }
    close()
    self.invocations = invocations
    let status = comment.firstMatch(of: /exit (?:status )?(\d)/).map { Int32($0.1)! }
    expectedStatus = status ?? 0
  }
}

extension String {
  var trimmingSpaces: String {
    String(trimmingLeadingSpaces.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }

  var trimmingLeadingSpaces: String { String(drop { $0 == " " || $0 == "\t" }) }

  var leadingSpaceCount: Int { prefix { $0 == " " || $0 == "\t" }.count }
}
