import BackgroundTrace
import BackgroundTraceExport

/// `bgtrace convert IN OUT`: text ↔ binary, streamed in constant memory.
enum ConvertCommand {
  static func run(input: String, output: String, format: OutputFormat, console: some Console) throws -> ExitStatus {
    var reader = try TraceReader(path: input)
    let file = try OutputFile(path: output)
    switch format {
    case .text:
      try StreamedText<any Error>.canonical(&reader) { try file.write($0) }
    case .binary:
      var encoder = BinaryTraceEncoder(meta: reader.meta)
      var bytes = encoder.header()
      while let located = try reader.next() {
        try encoder.append(located.event, into: &bytes)
        if !bytes.isEmpty {  // the header, or a chunk just sealed (OutputFile buffers)
          try file.write(bytes)
          bytes.removeAll(keepingCapacity: true)
        }
      }
      encoder.flush(into: &bytes)
      try file.write(bytes)
    }
    try file.close()
    return BGTrace.reportDamage(reader.damage, console: console)
  }
}
