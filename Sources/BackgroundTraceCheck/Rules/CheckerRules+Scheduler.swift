import BackgroundTrace

/// The BGTaskScheduler rules.
extension CheckerRules {
  mutating func registered(_ ident: String, first: TraceTime?, in process: ProcessLife) {
    if let leftLaunch = process.leftLaunchAt {
      report(
        .schedLateRegister,
        "\(ident) registered at \(now.seconds), after launch ended at \(leftLaunch.seconds); iOS requires every launch handler to be registered before the app finishes launching"
      )
    }
    if let first {
      report(
        .schedDuplicateRegister,
        "\(ident) registered twice in one process (first at \(first.seconds)); iOS terminates the app")
    }
  }

  mutating func unregistered(_ ident: String, action: String, in process: ProcessLife) {
    guard !registrationNotInLog(ident) else { return }
    report(
      .schedUnregistered,
      "\(action) for \(ident), which has no successful sched.register in this process (launched at \(process.launchedAt.seconds))"
    )
  }

  mutating func runCompleted(_ run: Int, _ life: RunLife) {
    guard reportedRuns.remove(run) == nil else { return }  // already reported as not completed
    if life.type == .refresh && !life.resubmitted {
      report(
        .schedRefreshNotRescheduled,
        "refresh run \(run) (\(life.identifier), launched at \(life.launchedAt.seconds)) completed without submitting a new request for \(life.identifier); no further refresh will run"
      )
    }
  }

  mutating func runCompleteUnmatched(_ run: Int, _ mismatch: RunCompleteMismatch) {
    switch mismatch {
    case .alreadyCompleted(let firstAt):
      let first = firstAt.map { "first at \($0.seconds)" } ?? "it had already completed"
      report(.schedDoubleComplete, "run \(run) completed twice (\(first))")
    case .closedEarlier:
      reportedRuns.remove(run)
    case .neverLaunched:
      break
    }
  }

  /// A run its process gave up: not completed (once per run).
  mutating func runClosed(_ run: Int, _ life: RunLife, _ end: ProcessEnd) {
    guard reportedRuns.remove(run) == nil, !openAtLogEnd(end, expired: life.expiredAt != nil) else { return }
    let expiry = life.expiredAt.map { ", expired at \($0.seconds)" } ?? ""
    report(
      .schedNotCompleted,
      "run \(run) (\(life.identifier), launched at \(life.launchedAt.seconds)\(expiry)) was not completed \(end.phrase)"
    )
  }
}
