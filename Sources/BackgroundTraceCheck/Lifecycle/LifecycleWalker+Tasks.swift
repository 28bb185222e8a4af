import BackgroundTrace

/// UIKit background tasks: ids belong to a process; an end matches the open task with
/// its id, else says why it matches none.
extension LifecycleWalker {
  mutating func beginTask(_ id: Int, name: String?, into transitions: inout [LifecycleTransition]) {
    guard id != 0 else {
      transitions.append(.taskRefused(name: name))
      return
    }
    let task = TaskLife(process: process.number, name: name, begin: now)
    tasks[id] = task
    closedTasks.remove(id)
    transitions.append(.taskBegun(id: id, task))
  }

  mutating func endTask(_ id: Int, into transitions: inout [LifecycleTransition]) {
    if id == 0 {
      transitions.append(.taskEndUnmatched(id: 0, .invalid))
    } else if let task = tasks.removeValue(forKey: id) {
      endedTasks.insert(id)
      recentEnds.record(id, at: now)
      transitions.append(.taskEnded(id: id, task))
    } else if closedTasks.remove(id) != nil {
      endedTasks.insert(id)
      recentEnds.record(id, at: now)
      transitions.append(.taskEndUnmatched(id: id, .closedEarlier))
    } else if endedTasks.contains(id) {
      transitions.append(.taskEndUnmatched(id: id, .alreadyEnded(firstAt: recentEnds.time(of: id))))
    } else {
      transitions.append(.taskEndUnmatched(id: id, .neverBegun(processLaunchedAt: process.launchedAt)))
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
