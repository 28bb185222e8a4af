import BackgroundTrace

/// What a command could not write: an output file or folder that cannot be created,
/// written or closed (``TraceErrorKind/io``, with the path and no position).
/// ``ByteSourceError`` is for the inputs a command reads.
struct OutputError: BackgroundTraceError, Hashable {
  /// Always ``TraceErrorKind/io``.
  var kind: TraceErrorKind { .io }
  /// The output's path, or `<stdout>`.
  var file: String?
  /// Outputs have no position.
  var position: TracePosition? { nil }
  /// One sentence saying what failed.
  var message: String

  init(file: String, message: String) {
    self.file = file
    self.message = message
  }
}
