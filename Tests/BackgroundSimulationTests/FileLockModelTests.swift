import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// iOS terminates an app that is suspended while it holds a file lock: exception code
/// `0xdead10cc`, "The operating system terminated the app because it held on to a file
/// lock or SQLite database lock during suspension" (Apple, "Understanding the exception
/// types in a crash report"); MetricKit `MXBackgroundExitData.cumulativeSuspendedWithLockedFileExitCount`.
/// docs/platform-model.md, "File locks at suspension".
@Suite struct FileLockModelTests {
  /// The lock, suspension and termination lines of `trace`.
  private func lines(_ trace: RecordedTrace) -> [String] {
    trace.text.split(separator: "\n").map(String.init).filter {
      $0.contains(" file.") || $0.contains("to=suspended") || $0.contains("app.terminate")
    }
  }

  /// A draft written into the app group's database as the user leaves, with no
  /// background task: the app is suspended 3 s after it left (the model's
  /// `suspensionDelay`) with the lock still held, and terminated then.
  @Test func anAppSuspendedHoldingALockIsTerminated() {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.didLockFile(atPath: "/AppGroup/drafts.sqlite", shared: true)
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace) == [
        "1 file.lock path=/AppGroup/drafts.sqlite shared=true", "4 app.state to=suspended",
        "4 app.terminate reason=file-lock",
      ])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fileLockedAtSuspension])
  }

  /// The same write released before the suspension: the app is only suspended, 3 s after
  /// it left (a lock does not keep an app running).
  @Test func aLockReleasedBeforeTheSuspensionIsNotTerminated() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    try system.withLock(onFileAtPath: "/AppGroup/drafts.sqlite", shared: true) {
      system.advance(by: .seconds(1))
    }
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace) == [
        "1 file.lock path=/AppGroup/drafts.sqlite shared=true", "2 file.unlock path=/AppGroup/drafts.sqlite",
        "4 app.state to=suspended",
      ])
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  /// `fileLockTermination = .sharedContainersOnly` spares a lock on the app's own file;
  /// the checker, which takes the strict reading, still reports it.
  @Test func sharedContainersOnlySparesTheAppsOwnFiles() {
    var configuration = SimulationConfiguration()
    configuration.fileLockTermination = .sharedContainersOnly
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.didLockFile(atPath: "/Documents/cache.sqlite", shared: false)
    system.advance(by: .seconds(10))
    #expect(
      lines(system.trace) == ["1 file.lock path=/Documents/cache.sqlite shared=false", "4 app.state to=suspended"])
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.fileLockedAtSuspension])
  }

  /// The recorder's scoped helper records the lock around the write, and releases it
  /// when the write throws.
  @Test func theRecordersScopedHelperRecordsLockAndUnlockEvenWhenTheWriteThrows() {
    struct WriteFailed: Error {}
    let system = SimulatedSystem(seed: 1)
    let recorder = TraceRecorder(clock: system.clock)
    #expect(throws: WriteFailed.self) {
      try recorder.withLock(onFileAtPath: "/AppGroup/drafts.sqlite", shared: true) { throw WriteFailed() }
    }
    #expect(
      recorder.trace.events.map(\.kind) == [
        .fileLock(path: "/AppGroup/drafts.sqlite", shared: true), .fileUnlock(path: "/AppGroup/drafts.sqlite"),
      ])
  }
}
