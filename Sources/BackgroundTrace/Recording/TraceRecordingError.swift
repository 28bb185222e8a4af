/// Why a ``TraceRecorder`` could not record to its file: the file could not be created,
/// grown, mapped or synced (``TraceErrorKind/io``), another recorder holds it
/// (``TraceErrorKind/fileInUse``), or an event had no binary form
/// (``TraceErrorKind/unencodableEvent``, at its event number).
public struct TraceRecordingError: BackgroundTraceError, Hashable {
  /// ``TraceErrorKind/io``, ``TraceErrorKind/fileInUse`` or
  /// ``TraceErrorKind/unencodableEvent``.
  public var kind: TraceErrorKind
  /// The file being recorded.
  public var file: String?
  /// The event that had no binary form, if that is the problem.
  public var position: TracePosition?
  /// One sentence saying what failed.
  public var message: String

  /// A failure of the file itself (``TraceErrorKind/io``), or a file another recorder
  /// holds (``TraceErrorKind/fileInUse``).
  public init(file: String, message: String, kind: TraceErrorKind = .io) {
    self.kind = kind
    self.file = file
    self.position = nil
    self.message = message
  }

  /// An event of the recording with no binary form.
  init(file: String, encoding error: TraceEncodingError) {
    self.kind = .unencodableEvent
    self.file = file
    self.position = error.position
    self.message = error.message
  }
}
