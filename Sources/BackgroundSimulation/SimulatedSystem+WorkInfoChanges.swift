public import BackgroundTrace
import Synchronization

/// One request's ``/BackgroundTrace/WorkInfo`` as it changes while the simulation runs
/// (androidx `WorkManager.getWorkInfoByIdFlow`): its value when watched, then each
/// different value a step of the simulation left, in order. Each step is read once it
/// has run, so the values are the states WorkManager's database passes through, not
/// the moves within one step. Get one from ``SimulatedSystem/watchWorkInfo(id:)``.
public final class WorkInfoChanges: Sendable {
  /// The request watched.
  public let id: WorkRequestID
  private let seen = Mutex<[WorkInfo?]>([])

  init(id: WorkRequestID, first: WorkInfo?) {
    self.id = id
    seen.withLock { $0 = [first] }
  }

  /// The values seen, oldest first: `nil` while the queue holds no request with the id
  /// (androidx emits `null`).
  public var values: [WorkInfo?] { seen.withLock { $0 } }

  /// Adds `value` unless it is the last one seen.
  func note(_ value: WorkInfo?) {
    seen.withLock { values in
      if values.last != value { values.append(value) }
    }
  }
}

extension SimulatedSystem {
  /// Watches the request `id`'s WorkInfo: the returned ``WorkInfoChanges`` holds its
  /// value now, and each change as the simulation runs (androidx
  /// `getWorkInfoByIdFlow`), progress included.
  public func watchWorkInfo(id: WorkRequestID) -> WorkInfoChanges {
    let changes = WorkInfoChanges(id: id, first: workInfo(id: id))
    workInfoWatches.append(changes)
    return changes
  }

  /// Reads the watched WorkInfos once the current step has run (a zero-delay timer, as
  /// the waits are noted): a step that changes a request records an event or sets its
  /// progress, and either calls this.
  func readWatchedWorkInfosSoon() {
    guard !workInfoReadPending else { return }
    workInfoReadPending = true
    scheduler.schedule(after: .zero) { [self] in
      workInfoReadPending = false
      for watch in workInfoWatches { watch.note(workInfo(id: watch.id)) }
    }
  }
}
