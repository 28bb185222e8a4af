public import BackgroundTrace

/// What an import read and wrote, for the summary on standard error.
public struct ImportSummary: Sendable {
  /// One app the log showed.
  public struct App: Sendable, Hashable {
    /// Its process name (`(unnamed)` when the log names none).
    public var name: String
    /// Its process ids, in the order seen.
    public var pids: [Int]
    /// How many background-work messages it wrote.
    public var backgroundMessages: Int
  }

  /// Each log's name and detected style.
  public var styles: [(file: String, style: LogStyle)] = []
  /// The platform.
  public var platform: LogPlatform = .ios
  /// The app imported.
  public var app: String?
  /// Every app seen, in the order seen.
  public var apps: [App] = []
  /// Events written, by kind.
  public var eventsByKind: [EventTag: Int] = [:]
  /// Lines read.
  public var lines = 0
  /// Lines that became no event (other sources, other apps, messages that carry no event).
  public var skippedLines = 0
  /// Lines longer than the importer reads (1 MiB), skipped.
  public var overlongLines = 0
  /// Lines in none of the log's style (binary garbage, other tools' output).
  public var unrecognisedLines = 0
  /// Lines of a recognised source whose message did not parse.
  public var malformedLines = 0
  /// Entries of the log's style that the import deliberately does not read, by what
  /// they are (`job history entries of Android 7, which name no job`): docs/import.md
  /// says why each is left out.
  public var unreadEntries: [String: Int] = [:]
  /// Lines whose time was earlier than the line before (their events keep the earlier time).
  public var outOfOrderLines = 0
  /// Lines of a process replaced by a later one before them.
  public var interleavedLines = 0
  /// What the log could not tell, one sentence each.
  public var couldNotTell: [String] = []

  /// Creates an empty summary.
  public init() {}

  /// Events written in all.
  public var events: Int { eventsByKind.values.reduce(0, +) }

  /// The summary's text: a few lines, each starting `bgtrace: `.
  public var text: String {
    var lines: [String] = []
    let files = styles.map { "\($0.file) (\($0.style.rawValue))" }.joined(separator: ", ")
    lines.append("imported \(events) \(events == 1 ? "event" : "events") of \(app ?? "no app") from \(files)")
    if !eventsByKind.isEmpty {
      let kinds = EventTag.allCases.compactMap { tag in eventsByKind[tag].map { "\(tag.name) \($0)" } }
      lines.append("events: " + kinds.joined(separator: ", "))
    }
    var skipped = "lines: \(self.lines) read, \(skippedLines) skipped"
    var parts: [String] = []
    if unrecognisedLines > 0 { parts.append("\(unrecognisedLines) not in the log's style") }
    if malformedLines > 0 { parts.append("\(malformedLines) not parsed") }
    for (what, count) in unreadEntries.sorted(by: { $0.key < $1.key }) { parts.append("\(count) \(what), not read") }
    if overlongLines > 0 { parts.append("\(overlongLines) over 1 MiB") }
    if interleavedLines > 0 { parts.append("\(interleavedLines) of a process already replaced") }
    if outOfOrderLines > 0 { parts.append("\(outOfOrderLines) out of time order, kept at the time before") }
    if !parts.isEmpty { skipped += " (" + parts.joined(separator: "; ") + ")" }
    lines.append(skipped)
    if !apps.isEmpty {
      let seen = apps.map { app in
        let pids = app.pids.isEmpty ? "" : "pid \(app.pids.map(String.init).joined(separator: ", ")), "
        let messages = app.backgroundMessages
        return "\(app.name) (\(pids)\(messages) background-work \(messages == 1 ? "message" : "messages"))"
      }
      lines.append("processes: " + seen.joined(separator: "; "))
    }
    for sentence in couldNotTell { lines.append("the log could not tell: \(sentence)") }
    return lines.map { "bgtrace: \($0)\n" }.joined()
  }
}
