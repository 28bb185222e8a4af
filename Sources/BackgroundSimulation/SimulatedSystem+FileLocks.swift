public import BackgroundTrace

/// Which locked files get an app terminated at its suspension on iOS (docs/platform-model.md,
/// "File locks at suspension").
public enum FileLockTermination: Sendable, Hashable {
  /// Any file the app holds a lock on, as Apple's description of `0xdead10cc` reads
  /// ("held on to a file lock or SQLite database lock during suspension"): the strict
  /// model, and the default.
  case anyFile
  /// Only files in a container shared with other processes (an app group), where
  /// reports of the termination come from.
  case sharedContainersOnly
}

/// File locks: iOS terminates an app suspended while it holds one (`0xdead10cc`).
extension SimulatedSystem: FileLocks {
  /// Records `file.lock` and keeps the lock until ``didUnlockFile(atPath:)``.
  public func didLockFile(atPath path: String, shared: Bool) {
    guard processRunning, !unwindingCrash else { return }
    record(.fileLock(path: path, shared: shared))
    if heldFileLocks[path] == nil { heldFileLocks[path] = shared }
  }

  /// Records `file.unlock` and forgets the lock.
  public func didUnlockFile(atPath path: String) {
    guard processRunning, !unwindingCrash else { return }
    record(.fileUnlock(path: path))
    heldFileLocks[path] = nil
  }

  /// The app was just suspended: on iOS, a lock it still holds on a file the
  /// configuration's ``SimulationConfiguration/fileLockTermination`` covers gets it
  /// terminated (`app.terminate reason=file-lock`; the crash report's termination reason
  /// `0xdead10cc`).
  func terminateIfSuspendedHoldingFileLocks() {
    guard configuration.platform == .ios else { return }
    let fatal = heldFileLocks.values.contains { shared in
      switch configuration.fileLockTermination {
      case .anyFile: true
      case .sharedContainersOnly: shared
      }
    }
    if fatal { terminate(reason: "file-lock") }
  }
}
