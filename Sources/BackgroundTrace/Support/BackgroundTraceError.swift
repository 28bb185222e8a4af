/// What kind of problem a ``BackgroundTraceError`` reports.
///
/// A set that grows: a later version may add a kind as a new static member, so code that
/// switches over it ends with a `default` (as swift-nio's `FileSystemError.Code`).
public struct TraceErrorKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The kind's name (`malformedTrace`).
  public let rawValue: String

  /// The kind named `rawValue`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The kind's name.
  public var description: String { rawValue }

  /// Input that is not a valid trace: bad text syntax, a wrong binary header, an event
  /// out of time order.
  public static let malformedTrace = TraceErrorKind(rawValue: "malformedTrace")
  /// A read or write that failed below the trace format: a missing file, no
  /// permission, an I/O error.
  public static let io = TraceErrorKind(rawValue: "io")
  /// A trace file another recorder is writing (in this process or another).
  public static let fileInUse = TraceErrorKind(rawValue: "fileInUse")
  /// An event that has no encoding: out of time order, a negative field, a time past
  /// ``TraceTime/max``.
  public static let unencodableEvent = TraceErrorKind(rawValue: "unencodableEvent")
  /// The BackgroundTasks scheduler refused a request (`BGTaskScheduler.Error`).
  public static let schedulerRejection = TraceErrorKind(rawValue: "schedulerRejection")
  /// Android refused to start a foreground service (the exception
  /// `startForegroundService` or `startForeground` threw).
  public static let foregroundServiceRefusal = TraceErrorKind(rawValue: "foregroundServiceRefusal")
  /// A setting that is not valid: an environment variable or an option given to the
  /// library or its tools, such as a command line that does not parse.
  public static let configuration = TraceErrorKind(rawValue: "configuration")
  /// A work request WorkManager's builder refuses (``WorkRequestError``):
  /// `WorkRequest.Builder.build()` throws `IllegalArgumentException`.
  public static let invalidWorkRequest = TraceErrorKind(rawValue: "invalidWorkRequest")
  /// Android refused to set an exact alarm: the app holds neither
  /// `SCHEDULE_EXACT_ALARM` nor `USE_EXACT_ALARM` (``AlarmPermissionError``).
  public static let alarmRefusal = TraceErrorKind(rawValue: "alarmRefusal")
}

/// The one shape every error of the library has: what kind of problem, in which input,
/// where in it, and one sentence saying what was expected.
///
/// A tool needs one `catch` for all of them:
///
/// ```swift
/// do {
///   let trace = try TraceReader(path: path).readAll()
/// } catch {
///   print(error)  // golden.txt:4:17: expected an integer for 'id', found "x"
/// }
/// ```
///
/// Each throwing function names the one concrete type it throws (typed throws): the trace
/// readers throw ``TraceReadError``, a ``TraceFormatError`` or a ``ByteSourceError``
/// within; the encoder ``TraceEncodingError``; the recorder ``TraceRecordingError``. The
/// concrete types (with ``FieldError``, ``TaskSchedulerError``, ``ForegroundServiceError``
/// and the others) carry the same four facts.
public protocol BackgroundTraceError: Error, Sendable, CustomStringConvertible {
  /// What kind of problem it is.
  var kind: TraceErrorKind { get }
  /// The input's name (a path, or `<stdin>`), if the problem is in one.
  var file: String? { get }
  /// Where in the input, if it is known.
  var position: TracePosition? { get }
  /// One sentence saying what was expected and what was found.
  var message: String { get }
}

extension BackgroundTraceError {
  /// The diagnostic, in the form compilers use: `FILE:LINE:COLUMN: message` in a text
  /// trace, `FILE: at byte N: message` in a binary one, `FILE: event N: message` for an
  /// event, `FILE: message` when there is no position.
  public var description: String {
    switch (file, position) {
    case (let file, .text(let line, let column)?): return "\(file ?? "<input>"):\(line):\(column): \(message)"
    case (let file, .byte(let offset)?): return "\(file ?? "<input>"): at byte \(offset): \(message)"
    case (let file?, .event(let number)?): return "\(file): event \(number): \(message)"
    case (nil, .event(let number)?): return "event \(number): \(message)"
    case (let file?, nil): return "\(file): \(message)"
    case (nil, nil): return message
    }
  }
}
