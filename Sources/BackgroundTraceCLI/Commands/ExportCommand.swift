import BackgroundTrace
import BackgroundTraceExport
import BackgroundTraceImport

/// `bgtrace export PATH --format …`: the trace in formats other tools open, written to
/// standard output or to `--out PATH`. `--from`/`--to` keep the part of the trace
/// between them.
enum ExportCommand {
  static func run(
    path: String, format: ExportFormat, from: TraceTime?, to: TraceTime?, output: String? = nil,
    platform: LogPlatform? = nil, console: some Console
  ) throws -> ExitStatus {
    if let from, let to, from > to {
      throw UsageError("'--from' (\(from)s) is after '--to' (\(to)s); give a window that starts before it ends")
    }
    if let imported = try InMemoryImport.log(at: path, platform: platform) {  // a device log, imported in memory
      console.writeError("bgtrace: \(imported.note)\n")
      let text = format.render(imported.trace, named: path, from: from, to: to)
      guard let output else {
        console.write(text)
        return .success
      }
      let file = try OutputFile(path: output)
      try file.write(text)
      try file.close()
      return .success
    }
    var reader = try TraceReader(path: path)
    guard let output else {
      try format.write(&reader, from: from, to: to) { console.write($0) }
      return BGTrace.reportDamage(reader.damage, console: console)
    }
    let file = FileSink(try OutputFile(path: output))
    try format.write(&reader, from: from, to: to) { file.write($0) }
    try file.close()
    return BGTrace.reportDamage(reader.damage, console: console)
  }

  /// An output file written from the exporters' non-throwing sink: the first write that
  /// fails is kept, later ones are dropped, and ``close()`` throws it.
  private final class FileSink {
    private let file: OutputFile
    private var failure: OutputError?

    init(_ file: OutputFile) {
      self.file = file
    }

    func write(_ text: String) {
      guard failure == nil else { return }
      do throws(OutputError) {
        try file.write(text)
      } catch {
        failure = error
      }
    }

    func close() throws(OutputError) {
      if let failure { throw failure }
      try file.close()
    }
  }
}
