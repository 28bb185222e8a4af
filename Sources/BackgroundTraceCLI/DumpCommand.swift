import BackgroundTrace

/// `bgtrace dump PATH`: the canonical text form, streamed.
enum DumpCommand {
  static func run(path: String, console: some Console) throws -> ExitStatus {
    var reader = try TraceReader(path: path)
    var text = TextTraceWriter.headerAndMeta(reader.meta)
    while let located = try reader.next() {
      TextTraceWriter.appendLine(for: located.event, to: &text)
      if text.utf8.count >= 64 * 1024 {
        console.write(text)
        text = ""
      }
    }
    console.write(text)
    return BGTrace.reportDamage(reader.damage, console: console)
  }
}
