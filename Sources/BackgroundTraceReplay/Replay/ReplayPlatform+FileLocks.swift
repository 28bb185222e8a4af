public import BackgroundTrace

extension ReplayPlatform: FileLocks {
  /// Records `file.lock`, an app action the replay compares with the recording's.
  public func didLockFile(atPath path: String, shared: Bool) { record(.fileLock(path: path, shared: shared)) }
  /// Records `file.unlock`.
  public func didUnlockFile(atPath path: String) { record(.fileUnlock(path: path)) }
}
