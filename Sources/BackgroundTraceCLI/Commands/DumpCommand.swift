import BackgroundTrace
import BackgroundTraceExport

/// `bgtrace dump PATH`: the canonical text form, streamed.
enum DumpCommand {
  static func run(path: String, console: some Console) throws -> ExitStatus {
    var reader = try TraceReader(path: path)
    try StreamedText<any Error>.canonical(&reader) { console.write($0) }
    return BGTrace.reportDamage(reader.damage, console: console)
  }
}
