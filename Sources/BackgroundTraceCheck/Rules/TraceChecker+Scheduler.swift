import BackgroundTrace

/// The BGTaskScheduler rules.
extension TraceChecker {
  mutating func register(_ ident: String, ok: Bool, into findings: inout [Finding]) {
    if let leftLaunch = process.leftLaunchAt {
      report(
        .schedLateRegister,
        "\(ident) registered at \(now.seconds), after launch ended at \(leftLaunch.seconds); iOS requires every launch handler to be registered before the app finishes launching",
        into: &findings)
    }
    if let first = process.registrations[ident] {
      report(
        .schedDuplicateRegister,
        "\(ident) registered twice in one process (first at \(first.seconds)); iOS terminates the app",
        into: &findings)
      return
    }
    if ok { process.registrations[ident] = now }
  }

  private mutating func requireRegistration(
    _ ident: String, for action: String, into findings: inout [Finding]
  ) -> Bool {
    guard process.registrations[ident] == nil else { return true }
    report(
      .schedUnregistered,
      "\(action) for \(ident), which has no successful sched.register in this process (launched at \(process.launchedAt.seconds))",
      into: &findings)
    return false
  }

  mutating func submit(_ submission: SchedulerSubmission, into findings: inout [Finding]) {
    _ = requireRegistration(submission.ident, for: "sched.submit", into: &findings)
    submittedTypes[submission.ident] = submission.type
    for (run, open) in openRuns where open.ident == submission.ident {
      openRuns[run]!.resubmitted = true
    }
  }

  mutating func launch(_ ident: String, run: Int, into findings: inout [Finding]) {
    // A launch of an unregistered identifier is that finding only: its run is not tracked.
    guard requireRegistration(ident, for: "sched.launch run=\(run)", into: &findings) else { return }
    openRuns[run] = OpenRun(ident: ident, type: submittedTypes[ident], launchedAt: now)
  }

  mutating func expireRun(_ run: Int) {
    guard var open = openRuns[run], open.expiredAt == nil else { return }
    open.expiredAt = now
    openRuns[run] = open
    deadlines.insert(.runComplete(run: run), at: now.adding(nanoseconds: grace.nanoseconds))
  }

  mutating func complete(_ run: Int, into findings: inout [Finding]) {
    if let open = openRuns.removeValue(forKey: run) {
      finishedRuns.insert(run)
      recentCompletes.record(run, at: now)
      if open.type == .refresh && !open.resubmitted {
        report(
          .schedRefreshNotRescheduled,
          "refresh run \(run) (\(open.ident), launched at \(open.launchedAt.seconds)) completed without submitting a new request for \(open.ident); no further refresh will run",
          into: &findings)
      }
    } else if quietRuns.remove(run) != nil {
      finishedRuns.insert(run)  // already reported as not completed
    } else if finishedRuns.contains(run) {
      let first = recentCompletes.time(of: run).map { "first at \($0.seconds)" } ?? "it had already completed"
      report(.schedDoubleComplete, "run \(run) completed twice (\(first))", into: &findings)
    }
  }
}
