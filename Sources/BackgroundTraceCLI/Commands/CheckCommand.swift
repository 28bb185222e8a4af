package import BackgroundTrace
package import BackgroundTraceCheck
import BackgroundTraceExport
package import BackgroundTraceImport
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bgtrace check PATH…`: runs the checker over files and directories, in parallel on
/// all cores, printing findings in a stable order (the order of the expanded paths),
/// less ignored rules and the known findings of a baseline (docs/cli.md).
package enum CheckCommand {
  /// What checking one file gave.
  package struct FileResult: Sendable {
    package var name: String
    package var findings: [Finding] = []
    package var damage: [TraceDamage] = []
    package var error: String?
    /// For a device log, checked as the trace it imports to: what was imported.
    package var note: String?
    /// The log lines the events of a text trace's findings note they were imported from
    /// (``EventSource``), by the trace line of the event.
    package var sources: [Int: EventSource] = [:]
  }

  static func run(paths: [String], options: CheckOptions, console: some Console) throws -> ExitStatus {
    let files = try TraceFiles.expand(paths)
    var baseline = try options.baseline.map { try CheckBaseline.read(path: $0) }
    let configuration = options.checker.applied()
    let results = checkAll(
      files, configuration: configuration, platform: options.platform, progress: isatty(2) == 1 ? console : nil)
    var status = ExitStatus.success
    var suppressed = 0
    var known: [CheckBaseline.Entry] = []
    for result in results {
      if let error = result.error {
        console.writeError("bgtrace: \(EscapedText.of(error))\n")
        status = .badInput
        continue
      }
      if let note = result.note { console.writeError("bgtrace: \(EscapedText.of(note))\n") }
      var text = ""
      for finding in result.findings {
        let entry = CheckBaseline.Entry(finding, path: result.name)
        if options.writeBaseline != nil {
          known.append(entry)
          continue
        }
        if baseline?.suppresses(entry) == true {
          suppressed += 1
          continue
        }
        let source = result.sources[finding.location]
        switch options.format {
        case .text:
          text += finding.line(path: result.name) + "\n"
          if let source { text += "\(source): note: the log line this event was imported from\n" }
        case .jsonl: text += json(finding, path: result.name, source: source) + "\n"
        }
        if status == .success && (finding.severity == .error || options.strict) { status = .findings }
      }
      console.write(text)
      if BGTrace.reportDamage(result.damage, console: console) != .success { status = .badInput }
    }
    if let path = options.writeBaseline {
      guard status == .success else {
        console.writeError("bgtrace: \(path): not written, as not every trace could be checked\n")
        return status
      }
      let file = try OutputFile(path: path)
      try file.write(CheckBaseline.text(for: known))
      try file.close()
      console.writeError("bgtrace: wrote \(count(known.count, "known finding")) to \(path)\n")
    }
    if let path = options.baseline, let baseline {
      console.writeError("bgtrace: suppressed \(count(suppressed, "known finding")) listed in \(path)\n")
      if baseline.unmatched > 0 {
        console.writeError(
          "bgtrace: \(count(baseline.unmatched, "entry", "entries")) of \(path) matched no finding; "
            + "rewrite it with --write-baseline\n")
      }
    }
    return status
  }

  /// `1 entry`, `2 entries`.
  private static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
  }

  /// Checks every file, on all cores when there are several.
  package static func checkAll(
    _ files: [String], configuration: CheckerConfiguration, platform: LogPlatform? = nil, progress: (any Console)?
  ) -> [FileResult] {
    guard files.count > 1 else { return files.map { check($0, configuration: configuration, platform: platform) } }
    let results = Mutex([FileResult?](repeating: nil, count: files.count))
    let done = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: files.count) { index in
      let result = check(files[index], configuration: configuration, platform: platform)
      results.withLock { $0[index] = result }
      let finished = done.add(1, ordering: .relaxed).newValue
      if let progress, finished % 16 == 0 || finished == files.count {
        progress.writeError("\rchecked \(finished)/\(files.count) traces")
      }
    }
    if progress != nil { progress?.writeError("\r\u{1B}[K") }
    return results.withLock { $0.map { $0! } }
  }

  /// Checks one file, turning every error into a result: a trace, or a device log
  /// (a file that does not start like a trace), imported in memory.
  package static func check(
    _ path: String, configuration: CheckerConfiguration, platform: LogPlatform? = nil
  ) -> FileResult {
    var result = FileResult(name: path == "-" ? "<stdin>" : path)
    if path != "-" && !TraceFiles.startsLikeATrace(path) {
      do {
        try checkLog(path, configuration: configuration, platform: platform, into: &result)
        return result
      } catch let error as LogImportError where error.isInNoKnownStyle && platform == nil {
        // Neither a trace nor a log: the trace reader says what the first line should be.
      } catch {
        result.error = "\(error)"
        return result
      }
    }
    do {
      var reader = try TraceReader(path: path)
      result.name = reader.file
      var checker = TraceChecker(configuration: configuration, meta: reader.meta)
      try checker.checkRemainingEvents(of: &reader, into: &result.findings)
      result.damage = reader.damage
      checker.finish(into: &result.findings, after: reader.damage)
      if reader.format == .text && path != "-" && !result.findings.isEmpty {
        result.sources = try sources(in: path, atLines: Set(result.findings.map(\.location)))
      }
    } catch {
      result.error = "\(error)"
    }
    return result
  }

  /// The log lines the events at `lines` of the text trace at `path` note they were
  /// imported from: a second read, for the findings' lines only, so that checking keeps
  /// no note of the events it passes (standard input, read once, gets none).
  private static func sources(in path: String, atLines lines: Set<Int>) throws -> [Int: EventSource] {
    var reader = try TraceReader(path: path)
    var sources: [Int: EventSource] = [:]
    while let located = try reader.next() {
      if lines.contains(located.location), let source = located.source { sources[located.location] = source }
    }
    return sources
  }

  /// Imports the device log at `path` in memory (docs/import.md) and checks its trace,
  /// each finding at the log line its event came from.
  private static func checkLog(
    _ path: String, configuration: CheckerConfiguration, platform: LogPlatform?, into result: inout FileResult
  ) throws {
    var checker: TraceChecker?
    var findings: [Finding] = []
    let summary: ImportSummary
    do {
      summary = try LogImporter.run(
        [.file(path)], options: LogImportOptions(platform: platform),
        meta: { checker = TraceChecker(configuration: configuration, meta: $0) },
        located: { event, location in
          checker?.check(LocatedEvent(event: event, location: location.line), into: &findings)
        })
    } catch {
      throw error.underlying
    }
    guard summary.events > 0 else {
      throw LogImportError(file: path, message: ImportCommand.emptyImportMessage(summary))
    }
    checker?.finish(into: &findings)
    result.findings = findings
    let style = summary.styles.first.map { " (\($0.style.rawValue))" } ?? ""
    result.note =
      "\(path): a device log\(style), checked as the trace `bgtrace import` writes: "
      + "\(summary.events) \(summary.events == 1 ? "event" : "events") of \(summary.app ?? "no app"); "
      + "findings cite the log's lines"
  }

  /// A finding as one JSON object; `source` is the log line its event was imported
  /// from, when the trace notes one.
  static func json(_ finding: Finding, path: String, source: EventSource? = nil) -> String {
    var members = [
      ("path", JSONText.string(path)),
      ("location", String(finding.location)),
      ("time", finding.time.description),
      ("severity", JSONText.string(finding.severity.rawValue)),
      ("rule", JSONText.string(finding.rule.id)),
      ("message", JSONText.string(finding.message)),
    ]
    if let source { members.append(("source", JSONText.string(source.description))) }
    return JSONText.object(members)
  }
}
