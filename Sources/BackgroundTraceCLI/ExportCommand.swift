import BackgroundTrace

/// `bgtrace export PATH --format …`: the trace in formats other tools open.
enum ExportCommand {
  static func run(
    path: String, format: ExportFormat, from: TraceTime?, to: TraceTime?, console: some Console
  ) throws -> ExitStatus {
    throw UsageError("'bgtrace export --format \(format.rawValue)' is not implemented yet")
  }
}
