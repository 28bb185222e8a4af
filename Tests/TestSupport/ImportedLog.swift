import BackgroundTrace
package import BackgroundTraceImport

/// Imports `log` (held in memory) as `bgtrace import` would, returning the trace's text
/// and the summary: what the import tests compare with hand-written expectations.
package func imported(
  _ log: String, name: String = "test.log", options: LogImportOptions = LogImportOptions()
) throws -> (trace: String, summary: ImportSummary) {
  try imported(Array(log.utf8), name: name, options: options)
}

/// Imports the bytes `log`, as ``imported(_:name:options:)`` does.
package func imported(
  _ log: [UInt8], name: String = "test.log", options: LogImportOptions = LogImportOptions()
) throws -> (trace: String, summary: ImportSummary) {
  var text = ""
  do {
    let summary = try LogImporter.run(
      [.bytes(log, name: name)], options: options,
      meta: { text = TextTraceWriter.headerAndMeta($0) },
      event: { TextTraceWriter.appendLine(for: $0, to: &text) })
    return (text, summary)
  } catch {
    throw error.underlying
  }
}
