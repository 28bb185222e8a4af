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
  /// once; otherwise there is no recorder and the app runs untraced. A file left by an
  /// earlier run is replaced; when another recorder is writing the path (an app and its
  /// extension, or parallel test runs, sharing a template without `%p`), this one takes
  /// the first free name of the form `run-2.bgtrace`, `run-3.bgtrace`, … instead.
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
  ///   - privacy: whether private fields are kept or redacted (``TracePrivacy``); an app
  ///     that records outside the lab passes `.redacted`.
  /// - Returns: the recorder, or `nil` when the variable is unset or empty.
  /// - Throws: ``TraceRecordingError`` when the file cannot be created.
  public static func fromEnvironment(
    _ environment: [String: String]? = nil, meta: TraceMetadata = ["source": "BGTRACE_OUTPUT"],
    privacy: TracePrivacy = .visible
  ) throws(TraceRecordingError) -> TraceRecorder? {
    let value: String?
    if let environment {
      value = environment[outputVariable]
    } else {
      value = getenv(outputVariable).map { String(cString: $0) }
    }
    guard let template = value, !template.isEmpty else { return nil }
    let path = template.replacing("%p", with: String(getpid()))
    var attempt = 1
    let recorder: TraceRecorder
    while true {
      do throws(TraceRecordingError) {
        recorder = try TraceRecorder(
          writingTo: numbered(path, attempt), replacing: true, meta: meta, privacy: privacy)
        break
      } catch  where error.kind == .fileInUse && attempt < 1_000 {
        attempt += 1
      }
    }
    recorder.record(.appLaunch)
    try recorder.flush()
    return recorder
  }
}

/// `path` with `-number` before its extension (`run.bgtrace` → `run-2.bgtrace`), or
/// `path` itself for 1.
private func numbered(_ path: String, _ number: Int) -> String {
  guard number > 1 else { return path }
  let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
  guard let dot = path[slash...].lastIndex(of: "."), dot != slash else { return "\(path)-\(number)" }
  return "\(path[..<dot])-\(number)\(path[dot...])"
}
