import BackgroundTrace

/// The BGTaskScheduler rules.
extension CheckerRules {
  mutating func registered(_ ident: String, first: TraceTime?, in process: ProcessLife) {
    if let leftLaunch = process.leftLaunchAt, enabled.contains(.schedLateRegister) {
      releaseHeldRegistration(continuedSubmitOf: nil)
      let message =
        "\(ident) registered at \(now.seconds), after launch ended at \(leftLaunch.seconds); iOS requires every launch handler to be registered before the app finishes launching"
      // Held for one event: a continued-processing submission of it next is no finding.
      heldLateRegistration = (
        ident, Finding(rule: .schedLateRegister, location: location, time: now, message: message)
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

  /// How a finding says a run expired: `sched.expire`'s reason in words.
  static func expiredPhrase(_ reason: ExpirationReason?) -> String {
    switch reason {
    case nil: "expired"
    case .stalled: "expired as stalled"
    case .user: "cancelled by the user"
    }
  }

  /// A run its process gave up: not completed (once per run).
  mutating func runClosed(_ run: Int, _ life: RunLife, _ end: ProcessEnd) {
    guard reportedRuns.remove(run) == nil, !openAtLogEnd(end, expired: life.expiredAt != nil) else { return }
    let expiry = life.expiredAt.map { ", \(Self.expiredPhrase(life.expiredBy)) at \($0.seconds)" } ?? ""
    report(
      .schedNotCompleted,
      "run \(run) (\(life.identifier), launched at \(life.launchedAt.seconds)\(expiry)) was not completed \(end.phrase)"
    )
  }
}

/// The continued-processing rule, `sched-progress-stalled`, and continued processing's
/// exemption from `sched-late-register`.
extension CheckerRules {
  /// Reports the held late registration, unless `event` submits a continued-processing
  /// request for its identifier (BackgroundTasks/BGTaskScheduler.h exempts those from
  /// registering at launch).
  mutating func releaseHeldRegistration(before event: TraceEvent.Kind) {
    guard case .schedSubmit(let submission) = event, submission.type == .continued else {
      return releaseHeldRegistration(continuedSubmitOf: nil)
    }
    releaseHeldRegistration(continuedSubmitOf: submission.identifier)
  }

  /// Reports the held late registration unless `identifier` (the identifier of a
  /// continued-processing submission that follows it) is its identifier.
  mutating func releaseHeldRegistration(continuedSubmitOf identifier: String?) {
    guard let held = heldLateRegistration else { return }
    heldLateRegistration = nil
    guard held.identifier != identifier else { return }
    findings.append(held.finding)
    owesWork = true
  }

  /// A continued run launched or moved its progress: it must move again within the
  /// stall window.
  mutating func runProgressed(_ run: Int, _ life: RunLife) {
    insertDeadline(.runProgress(run: run, since: life.progressedAt), at: life.progressedAt + stallWindow)
  }

  /// A continued run stops being judged (it expires or completes): stalled when its
  /// progress had not moved for the whole window by then. A user's cancel
  /// (`sched.expire reason=user`) is not a stall: the run is stalled only if its window
  /// had passed before the cancel, not when the cancel came at the window's end.
  mutating func runStopped(_ run: Int, _ life: RunLife) {
    let due = life.progressedAt + stallWindow
    guard life.expiredBy == .user ? due < now : due <= now else { return }
    reportStall(run, life, at: life.progressedAt + stallWindow)
  }

  /// Reports run `run` as stalled since its progress last moved (once per run).
  mutating func reportStall(_ run: Int, _ life: RunLife, at due: TraceTime) {
    guard stalledRuns.insert(run).inserted else { return }
    let since = life.progress == nil ? "its launch" : "its last progress"
    report(
      .schedProgressStalled,
      "continued-processing run \(run) (\(life.identifier)) reported no progress for \(stallWindow.seconds), from \(since) at \(life.progressedAt.seconds) to \(due.seconds); iOS may expire a task that appears stalled"
    )
  }
}
