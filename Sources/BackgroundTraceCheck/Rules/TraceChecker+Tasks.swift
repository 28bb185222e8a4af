import BackgroundTrace

/// The UIKit background task rules.
extension TraceChecker {
  func describe(task id: Int, _ task: OpenTask) -> String {
    task.name.map { "task \(id) (\(TextTraceWriter.quoted($0)))" } ?? "task \(id)"
  }

  mutating func enterBackground() {
    process.backgroundEpoch += 1
    for id in process.openTasks.keys.sorted() where process.openTasks[id]!.expiredAt == nil {
      startBudget(for: id)
    }
  }

  /// Starts counting a task's background time now.
  private mutating func startBudget(for id: Int) {
    process.openTasks[id]!.backgroundSince = now
    deadlines.insert(
      .taskBudget(generation: process.generation, epoch: process.backgroundEpoch, id: id),
      at: now.adding(nanoseconds: budget.nanoseconds))
  }

  mutating func beginTask(_ id: Int, name: String?) {
    guard id != 0 else { return }  // `.invalid`: the system refused; nothing to end
    process.openTasks[id] = OpenTask(name: name, begin: now)
    if process.state == .background { startBudget(for: id) }
  }

  mutating func endTask(_ id: Int, into findings: inout [Finding]) {
    if id == 0 {
      report(
        .taskUnknownEnd,
        "task.end for .invalid (id 0): no task has that id; the begin was refused or the stored id was already reset",
        into: &findings)
      return
    }
    if process.openTasks.removeValue(forKey: id) != nil || process.quietTasks.remove(id) != nil {
      process.endedTasks.insert(id)
      process.recentEnds.record(id, at: now)
      return
    }
    if process.endedTasks.contains(id) {
      let first = process.recentEnds.time(of: id).map { "first end at \($0.seconds)" } ?? "it had already ended"
      report(.taskDoubleEnd, "task \(id) ended twice (\(first))", into: &findings)
      return
    }
    report(
      .taskUnknownEnd,
      "task \(id) ended but was never begun in this process (launched at \(process.launchedAt.seconds))",
      into: &findings)
  }

  mutating func expireTask(_ id: Int) {
    guard var task = process.openTasks[id], task.expiredAt == nil else { return }
    task.expiredAt = now
    process.openTasks[id] = task
    deadlines.insert(.taskEnd(generation: process.generation, id: id), at: now.adding(nanoseconds: grace.nanoseconds))
  }
}
