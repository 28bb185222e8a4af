import BackgroundTrace

/// UIKit background tasks: ids belong to a process; an end matches the open task with
/// its id, else says why it matches none.
extension LifecycleWalker {
  mutating func beginTask(_ id: Int, name: String?, into transitions: inout [LifecycleTransition]) {
    guard id != 0 else {
      transitions.append(.taskRefused(name: name))
      return
    }
    let task = TaskLife(name: name, begin: now)
    tasks[id] = task
    endedTasks.reopen(id)
    transitions.append(.taskBegun(id: id, task))
  }

  mutating func endTask(_ id: Int, into transitions: inout [LifecycleTransition]) {
    if id == 0 {
      transitions.append(.taskEndUnmatched(id: 0, .invalid))
    } else if let task = tasks.removeValue(forKey: id) {
      endedTasks.end(id, at: now)
      transitions.append(.taskEnded(id: id, task))
    } else {
      let mismatch: TaskEndMismatch =
        switch endedTasks.endUnmatched(id, at: now) {
        case .closedEarlier: .closedEarlier
        case .alreadyEnded(let firstAt): .alreadyEnded(firstAt: firstAt)
        case .unknown: .neverBegun(processLaunchedAt: process.launchedAt)
        }
      transitions.append(.taskEndUnmatched(id: id, mismatch))
    }
  }

  mutating func expireTask(_ id: Int, into transitions: inout [LifecycleTransition]) {
    guard var task = tasks[id], task.expiredAt == nil else {
      transitions.append(.taskExpireUnmatched(id: id))
      return
    }
    task.expiredAt = now
    tasks[id] = task
    transitions.append(.taskExpired(id: id, task))
  }
}
