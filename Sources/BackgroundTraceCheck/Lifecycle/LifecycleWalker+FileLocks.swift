/// File locks (`file.lock`, `file.unlock`): iOS terminates an app suspended while it
/// holds one (`0xdead10cc`, docs/platform-model.md, "File locks at suspension").
extension LifecycleWalker {
  /// `file.lock`: the process holds the lock from now; a second lock on a path already
  /// held keeps the first time.
  mutating func lockFile(_ path: String, shared: Bool, into observer: inout some LifecycleObserver) {
    if fileLocks[path] == nil { fileLocks[path] = (now, shared) }
    observer.observe(.fileLocked(path: path, shared: shared), in: process)
  }

  /// `file.unlock`: the process no longer holds the lock.
  mutating func unlockFile(_ path: String, into observer: inout some LifecycleObserver) {
    fileLocks[path] = nil
    observer.observe(.fileUnlocked(path: path), in: process)
  }

  /// The app was just suspended: each lock it still holds, in path order. Inlined: out
  /// of line, a method that reads the walker from a step whose observer is `inout` was
  /// handed a copy of the whole walker (some 2.5 kB).
  @inline(__always)
  func observeSuspendedFileLocks(into observer: inout some LifecycleObserver) {
    for path in fileLocks.keys.sorted() {
      let lock = fileLocks[path]!
      observer.observe(.suspendedHoldingFileLock(path: path, lockedAt: lock.since, shared: lock.shared), in: process)
    }
  }
}
