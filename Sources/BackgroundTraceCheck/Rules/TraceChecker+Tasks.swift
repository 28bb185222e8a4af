import BackgroundTrace

/// The UIKit background task rules.
extension TraceChecker {
  /// Starts counting the background time of every open task that has not expired.
  mutating func startBudgets() {
    for (id, task) in walker.tasks where task.expiredAt == nil { startBudget(for: id) }
  }

  private mutating func startBudget(for id: Int) {
    insertDeadline(
      .taskBudget(process: walker.process.number, epoch: walker.process.backgroundEpoch, id: id),
      at: now + budget)
  }

  /// Forgets what was reported about task `id` (the sets are nearly always empty: skip
  /// hashing then).
  mutating func forgetReports(ofTask id: Int) {
    if !reportedTasks.isEmpty { reportedTasks.remove(id) }
    if !overBudgetTasks.isEmpty { overBudgetTasks.remove(id) }
  }

  mutating func taskBegun(_ id: Int) {
    forgetReports(ofTask: id)
    if walker.process.backgroundSince != nil { startBudget(for: id) }
  }

  mutating func taskEndUnmatched(_ id: Int, _ mismatch: TaskEndMismatch, into findings: inout [Finding]) {
    switch mismatch {
    case .invalid:
      report(
        .taskUnknownEnd,
        "task.end for .invalid (id 0): no task has that id; the begin was refused or the stored id was already reset",
        into: &findings)
    case .alreadyEnded(let firstAt):
      let first = firstAt.map { "first end at \($0.seconds)" } ?? "it had already ended"
      report(.taskDoubleEnd, "task \(id) ended twice (\(first))", into: &findings)
    case .closedEarlier:
      reportedTasks.remove(id)  // already reported when its process gave it up
    case .neverBegun(let launchedAt):
      report(
        .taskUnknownEnd,
        "task \(id) ended but was never begun in this process (launched at \(launchedAt.seconds))",
        into: &findings)
    }
  }

  /// A task its process gave up: leaked, or expired and not ended (one finding per task).
  mutating func taskClosed(_ id: Int, _ task: TaskLife, _ end: ProcessEnd, into findings: inout [Finding]) {
    overBudgetTasks.remove(id)
    guard reportedTasks.remove(id) == nil else { return }
    if let expiredAt = task.expiredAt {
      report(
        .taskExpiredNotEnded,
        "\(task.describe(id: id)) expired at \(expiredAt.seconds) and was not ended \(end.phrase)",
        into: &findings)
    } else {
      report(
        .taskLeaked, "\(task.describe(id: id)) begun at \(task.begin.seconds) was not ended \(end.phrase)",
        into: &findings)
    }
  }
}
