/// Where app code says when it holds a lock on a file: around an SQLite, Core Data or
/// GRDB write, whose database takes a lock on its file for the length of the write.
///
/// iOS terminates an app that is suspended while it holds a file lock (exception code
/// `0xdead10cc`: "held on to a file lock or SQLite database lock during suspension",
/// Apple's "Understanding the exception types in a crash report"; MetricKit counts it as
/// `cumulativeSuspendedWithLockedFileExitCount`). The trace records `file.lock` and
/// `file.unlock`, the checker reports a suspension while a lock is held
/// (`file-locked-at-suspension`), and the simulation terminates the app as iOS does.
///
/// ```swift
/// try locks.withLock(onFileAtPath: databasePath, shared: true) {
///   try database.write { try $0.save(draft) }
/// }
/// ```
public protocol FileLocks: AnyObject {
  /// The app took a lock on the file at `path`; `shared`: the file is in a container
  /// shared with other processes (an app group).
  func didLockFile(atPath path: String, shared: Bool)
  /// The app released its lock on the file at `path`.
  func didUnlockFile(atPath path: String)
}

extension FileLocks {
  /// Runs `body` as the holder of a lock on the file at `path`: `file.lock` before it,
  /// `file.unlock` after it, also when it throws.
  public func withLock<Result>(
    onFileAtPath path: String, shared: Bool = false, _ body: () throws -> Result
  ) rethrows -> Result {
    didLockFile(atPath: path, shared: shared)
    defer { didUnlockFile(atPath: path) }
    return try body()
  }

  /// Runs the asynchronous `body` as the holder of a lock on the file at `path`, as
  /// ``withLock(onFileAtPath:shared:_:)`` does.
  public func withLock<Result>(
    onFileAtPath path: String, shared: Bool = false, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    didLockFile(atPath: path, shared: shared)
    defer { didUnlockFile(atPath: path) }
    return try await body()
  }
}

extension TraceRecorder: FileLocks {
  /// Records `file.lock path=… shared=…` at the recorder's clock.
  public func didLockFile(atPath path: String, shared: Bool) { record(.fileLock(path: path, shared: shared)) }
  /// Records `file.unlock path=…` at the recorder's clock.
  public func didUnlockFile(atPath path: String) { record(.fileUnlock(path: path)) }
}
