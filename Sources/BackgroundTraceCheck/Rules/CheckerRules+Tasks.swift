import BackgroundTrace

/// The UIKit background task rules.
extension CheckerRules {
  /// Starts counting the background time of every open task that has not expired: the
  /// event just applied moved the app into the background.
  mutating func startOwedBudgets(tasks: borrowing OpenTaskTable, process: ProcessLife) {
    budgetsOwed = false
    for (id, task) in tasks where task.expiredAt == nil { startBudget(for: id, in: process) }
  }

  private mutating func startBudget(for id: Int, in process: ProcessLife) {
    insertDeadline(
      .taskBudget(process: process.number, epoch: process.backgroundEpoch, id: id),
      at: now + budget)
  }

  /// Forgets what was reported about task `id` (the sets are nearly always empty: skip
  /// hashing then).
  mutating func forgetReports(ofTask id: Int) {
    if !reportedTasks.isEmpty { reportedTasks.remove(id) }
    if !overBudgetTasks.isEmpty { overBudgetTasks.remove(id) }
  }

  mutating func taskBegun(_ id: Int, in process: ProcessLife) {
    forgetReports(ofTask: id)
    if process.backgroundSince != nil { startBudget(for: id, in: process) }
  }

  mutating func taskEndUnmatched(_ id: Int, _ mismatch: TaskEndMismatch, in process: ProcessLife) {
    switch mismatch {
    case .invalid:
      report(
        .taskUnknownEnd,
        "task.end for .invalid (id 0): no task has that id; the begin was refused or the stored id was already reset")
    case .alreadyEnded(let firstAt):
      let first = firstAt.map { "first end at \($0.seconds)" } ?? "it had already ended"
      report(.taskDoubleEnd, "task \(id) ended twice (\(first))")
    case .closedEarlier:
      reportedTasks.remove(id)  // already reported when its process gave it up
    case .neverBegun(let launchedAt):
      guard !endsTaskBegunBeforeLog(id, in: process) else { return }
      report(
        .taskUnknownEnd,
        "task \(id) ended but was never begun in this process (launched at \(launchedAt.seconds))")
    }
  }

  /// A task its process gave up: leaked, or expired and not ended (one finding per task).
  mutating func taskClosed(_ id: Int, _ task: TaskLife, _ end: ProcessEnd) {
    overBudgetTasks.remove(id)
    guard reportedTasks.remove(id) == nil, !openAtLogEnd(end, expired: task.expiredAt != nil) else { return }
    if let expiredAt = task.expiredAt {
      report(
        .taskExpiredNotEnded,
        "\(task.describe(id: id)) expired at \(expiredAt.seconds) and was not ended \(end.phrase)")
    } else {
      report(
        .taskLeaked, "\(task.describe(id: id)) begun at \(task.begin.seconds) was not ended \(end.phrase)")
    }
  }
}
