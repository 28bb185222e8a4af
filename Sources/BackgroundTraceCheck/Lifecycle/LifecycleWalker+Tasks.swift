import BackgroundTrace

/// UIKit background tasks: ids belong to a process; an end matches the open task with
/// its id, else says why it matches none.
extension LifecycleWalker {
  // Both steps are inlined: most events of a typical trace begin or end a task, and the
  // checker's loop takes them through applyFrequentEvent(_:strings:to:), where a call
  // for each cost about a twentieth of the checker's time.
  @inline(__always)
  mutating func beginTask(_ id: Int, name: consuming TaskName, into observer: inout some LifecycleObserver) {
    guard id != 0 else {
      observer.observe(.taskRefused(name: name.name), in: process)
      return
    }
    let task = TaskLife(name: name, begin: now)
    // Observed before it is stored, so that storing it moves it: observers do not see
    // the walker's tables while it applies an event.
    observer.observeTaskBegun(id: id, task, in: process)
    tasks.updateValue(task, forKey: id)
    endedTasks.reopen(id)
  }

  @inline(__always)
  mutating func endTask(_ id: Int, into observer: inout some LifecycleObserver) {
    if id == 0 {
      observer.observe(.taskEndUnmatched(id: 0, .invalid), in: process)
    } else if let index = tasks.index(forKey: id) {
      // Observed in place, then destroyed in place: no optional copy of the task.
      tasks.update(at: index) { observer.observeTaskEnded(id: id, $0, in: process) }
      tasks.remove(at: index)
      endedTasks.end(id, at: now)
    } else {
      let mismatch: TaskEndMismatch =
        switch endedTasks.endUnmatched(id, at: now) {
        case .closedEarlier: .closedEarlier
        case .alreadyEnded(let firstAt): .alreadyEnded(firstAt: firstAt)
        case .unknown: .neverBegun(processLaunchedAt: process.launchedAt)
        }
      observer.observe(.taskEndUnmatched(id: id, mismatch), in: process)
    }
  }

  mutating func expireTask(_ id: Int, into observer: inout some LifecycleObserver) {
    guard var task = tasks[id], task.expiredAt == nil else {
      observer.observe(.taskExpireUnmatched(id: id), in: process)
      return
    }
    task.expiredAt = now
    tasks.updateValue(task, forKey: id)
    observer.observe(.taskExpired(id: id, task), in: process)
  }
}
