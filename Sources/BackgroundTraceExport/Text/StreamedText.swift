package import BackgroundTrace

/// Text written in pieces and passed on to a sink in blocks of about 64 KiB, so long
/// outputs stream in constant memory. Call ``finish()`` to pass on the rest. With a
/// sink that cannot fail (the console), appending needs no `try`.
package struct StreamedText<Failure: Error> {
  private var text = ""
  private let sink: (String) throws(Failure) -> Void

  package init(_ sink: @escaping (String) throws(Failure) -> Void) {
    self.sink = sink
  }

  package mutating func append(_ piece: String) throws(Failure) {
    text += piece
    if text.utf8.count >= 64 * 1024 { try finish() }
  }

  /// Passes on what is buffered.
  package mutating func finish() throws(Failure) {
    guard !text.isEmpty else { return }
    try sink(text)
    text = ""
  }
}

extension StreamedText where Failure == any Error {
  /// Streams a trace's canonical text form: header, meta, one line per event.
  package static func canonical(_ reader: inout TraceReader, to sink: @escaping (String) throws -> Void) throws {
    var output = StreamedText(sink)
    try output.append(TextTraceWriter.headerAndMeta(reader.meta))
    while let located = try reader.next() {
      try output.append(TextTraceWriter.line(for: located.event) + "\n")
    }
    try output.finish()
  }
}
