#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TraceRecorder {
  /// The environment variable that names the file a process's trace streams to.
  public static let outputVariable = "BGTRACE_OUTPUT"

  /// A recorder configured from the environment, so an integration or UI test run of
  /// an app leaves its trace in a file with no other plumbing.
  ///
  /// When `BGTRACE_OUTPUT` is set, the recorder streams to that path (`%p` in it
  /// becomes the process id, for one file per launch) and records `app.launch` at
  /// once; otherwise there is no recorder and the app runs untraced.
  ///
  /// ```swift
  /// // App start-up:
  /// let recorder = TraceRecorder.fromEnvironment()
  /// let host: any BackgroundTaskHost = recorder.map { TracingBackgroundTaskHost(base: uikit, recorder: $0) } ?? uikit
  /// ```
  ///
  /// - Parameters:
  ///   - environment: the variables to read; the process's by default.
  ///   - meta: metadata for the trace header.
  /// - Returns: the recorder, or `nil` when the variable is unset or empty.
  /// - Throws: ``TraceRecordingError`` when the file cannot be created.
  public static func fromEnvironment(
    _ environment: [String: String]? = nil, meta: TraceMetadata = ["source": "BGTRACE_OUTPUT"]
  ) throws(TraceRecordingError) -> TraceRecorder? {
    let value: String?
    if let environment {
      value = environment[outputVariable]
    } else {
      value = getenv(outputVariable).map { String(cString: $0) }
    }
    guard let template = value, !template.isEmpty else { return nil }
    let path = template.replacing("%p", with: String(getpid()))
    let recorder = try TraceRecorder(writingTo: path, meta: meta)
    recorder.record(.appLaunch)
    try recorder.flush()
    return recorder
  }
}
