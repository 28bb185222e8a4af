import BackgroundTrace
import BackgroundTraceCheck
import Foundation

/// Known findings for `bgtrace check --baseline FILE`, so a CI gate fails only on new
/// ones (docs/cli.md, "Baselines").
///
/// The file is text, one finding a line, sorted by path, then location, then rule:
///
///     PATH:LOCATION: [RULE-ID]
///
/// PATH is as `check` prints it, without a leading `./`; LOCATION is the line (text
/// traces) or event number (binary traces). Blank lines and lines starting with `#` are
/// ignored. A finding is known when an entry has its path, location and rule; each entry
/// suppresses one finding.
struct CheckBaseline {
  /// One known finding.
  struct Entry: Hashable, Comparable {
    var path: String
    var location: Int
    var rule: Rule

    /// The entry for `finding` in the trace at `path`.
    init(_ finding: Finding, path: String) {
      self.init(path: path, location: finding.location, rule: finding.rule)
    }

    init(path: String, location: Int, rule: Rule) {
      self.path = CheckBaseline.normalized(path)
      self.location = location
      self.rule = rule
    }

    /// `PATH:LOCATION: [RULE-ID]`.
    var line: String { "\(path):\(location): [\(rule.id)]" }

    static func < (a: Entry, b: Entry) -> Bool {
      (a.path, a.location, a.rule.id) < (b.path, b.location, b.rule.id)
    }
  }

  /// How many findings each entry may still suppress.
  private var remaining: [Entry: Int] = [:]

  /// The baseline file's text for `entries`: a comment line, then the sorted entries.
  static func text(for entries: [Entry]) -> String {
    "# bgtrace check baseline: known findings, one 'PATH:LOCATION: [RULE-ID]' a line (bgtrace help check)\n"
      + entries.sorted().map { $0.line + "\n" }.joined()
  }

  /// Reads the baseline at `path`.
  ///
  /// - Throws: ``ByteSourceError`` when it cannot be read, ``TraceFormatError`` naming
  ///   the line and column of an entry that does not parse or names no rule.
  static func read(path: String) throws -> CheckBaseline {
    let source = try FileByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, count: 64 * 1024) > 0 {}
    var baseline = CheckBaseline()
    for (index, line) in String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      let text = line.hasSuffix("\r") ? line.dropLast() : line
      if text.allSatisfy({ $0 == " " || $0 == "\t" }) || text.hasPrefix("#") { continue }
      let entry = try entry(String(text), file: path, line: index + 1)
      baseline.remaining[entry, default: 0] += 1
    }
    return baseline
  }

  /// Parses `PATH:LOCATION: [RULE-ID]`, from the right, so PATH may hold colons.
  private static func entry(_ text: String, file: String, line: Int) throws(TraceFormatError) -> Entry {
    func error(_ message: String, column: Int = 1) -> TraceFormatError {
      TraceFormatError(file: file, position: .text(line: line, column: column), message: message)
    }
    let expected = "expected 'PATH:LOCATION: [RULE-ID]', found \(text.debugDescription)"
    guard text.hasSuffix("]"), let open = text.range(of: ": [", options: .backwards) else { throw error(expected) }
    let id = String(text[open.upperBound..<text.index(before: text.endIndex)])
    guard let rule = Rule(rawValue: id) else {
      let known = Rule.allCases.map(\.id).joined(separator: ", ")
      throw error(
        "unknown rule '\(id)'; the rules are \(known)",
        column: text.utf8.distance(from: text.startIndex, to: open.upperBound) + 1)
    }
    let place = text[..<open.lowerBound]
    guard let colon = place.lastIndex(of: ":"), colon > place.startIndex,
      let location = Int(place[place.index(after: colon)...]), location > 0
    else { throw error(expected) }
    return Entry(path: String(place[..<colon]), location: location, rule: rule)
  }

  /// Whether `entry` is known; if so it uses up one of its entry's matches.
  mutating func suppresses(_ entry: Entry) -> Bool {
    guard let count = remaining[entry], count > 0 else { return false }
    remaining[entry] = count - 1
    return true
  }

  /// How many entries matched no finding.
  var unmatched: Int { remaining.values.reduce(0, +) }

  /// `path` without leading `./`, so `check .` and `check Traces` name files alike.
  static func normalized(_ path: String) -> String {
    var path = Substring(path)
    while path.hasPrefix("./") { path = path.dropFirst(2) }
    return String(path)
  }
}
