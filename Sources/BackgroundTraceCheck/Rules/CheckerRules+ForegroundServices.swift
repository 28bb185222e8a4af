import BackgroundTrace
import _BackgroundTraceStorage

/// Android's foreground services and long-running work: the `startForeground` a start
/// owes, the stop a timeout owes, where a start is allowed, the type a release
/// requires, a type's spent daily time, a worker's refused `setForeground`, and
/// expedited work out of quota (docs/rules.md, `fgs-*`, `work-foreground-refused`,
/// `work-expedited-*`).
extension CheckerRules {
  /// Applies the rules to a transition of a foreground service.
  mutating func observeForegroundService(_ transition: LifecycleTransition, in process: ProcessLife) {
    switch transition {
    case .serviceStarted(let service, let inBackground):
      serviceReported.remove(service)
      if inBackground && androidRelease.forbidsBackgroundServiceStarts && !backgroundStartExempt {
        // ActiveServices: "startForegroundService() not allowed due to mAllowStartForeground false".
        report(
          .fgsStartedInBackground,
          "foreground service \(service) was started while the app was in the background on "
            + "\(androidRelease): startForegroundService throws ForegroundServiceStartNotAllowedException")
      }
      insertDeadline(
        .servicePromotion(process: process.number, service: service, startedAt: now), at: now + foregroundDeadline)
    case .servicePromoted(let service, nil) where androidRelease.requiresServiceType:
      report(
        .fgsUntyped,
        "foreground service \(service) called startForeground without a type on \(androidRelease): it throws "
          + "MissingForegroundServiceTypeException (\"Starting FGS without a type\")")
    case .serviceRefused(let service, .permission):
      report(
        .fgsMissingPermission,
        "foreground service \(service) was refused the foreground: the app's manifest does not declare its type's "
          + "FOREGROUND_SERVICE_* permission (SecurityException: \"Starting FGS with type … requires permissions\")")
    case .serviceRefused(let service, .whileInUse):
      report(
        .fgsWhileInUseFromBackground,
        "foreground service \(service) was refused the foreground: it was created from the background with a type "
          + "whose permission the app holds only while in use (SecurityException: \"Starting FGS with type … requires "
          + "permissions\")")
    case .serviceRefused(let service, .bootCompleted):
      report(
        .fgsBootCompletedType,
        "foreground service \(service) was refused the foreground: it was started from BOOT_COMPLETED and asked "
          + "for a type \(androidRelease) bars there (\"not allowed to start from BOOT_COMPLETED!\", "
          + "ForegroundServiceStartNotAllowedException)")
    case .serviceRefused(let service, .exhausted):
      report(
        .fgsBudgetExhausted,
        "foreground service \(service) was refused: its type's daily time is spent (\"Time limit already exhausted "
          + "for foreground service type\", ForegroundServiceStartNotAllowedException); it cannot start until the user "
          + "brings the app to the foreground")
    case .workPromoted(let work, let attempt, let inBackground):
      guard inBackground && androidRelease.forbidsBackgroundServiceStarts && !backgroundStartExempt else { break }
      workForegroundReported.insert(work)
      report(
        .workForegroundRefused,
        "work \(work) attempt \(attempt) called setForeground while the app was in the background on "
          + "\(androidRelease): it throws ForegroundServiceStartNotAllowedException, and the worker stays a job, "
          + "stopped at its job time limit")
    case .workRefused(let work, let attempt, let reason):
      if workForegroundReported.remove(work) != nil && reason == .background { break }  // reported at work.foreground
      report(
        reason == .permission
          ? .fgsMissingPermission : reason == .whileInUse ? .fgsWhileInUseFromBackground : .workForegroundRefused,
        Self.workRefusal(work, attempt: attempt, reason))
    case .expeditedOutOfQuota(let work, .drop):
      report(
        .workExpeditedDropped,
        "expedited work \(work) was dropped: the app's expedited quota was spent and its OutOfQuotaPolicy is "
          + "DROP_WORK_REQUEST (\"no work requests are enqueued\"); the work never runs")
    case .expeditedOutOfQuota(let work, .runAsRegular):
      report(
        .workExpeditedDemoted,
        "expedited work \(work) was enqueued as regular work: the app's expedited quota was spent "
          + "(RUN_AS_NON_EXPEDITED_WORK_REQUEST); it runs deferred, when the system lets regular work run")
    case .serviceTimedOut(let service, _):
      serviceReported.remove(service)
      insertDeadline(
        .serviceStop(process: process.number, service: service, timedOutAt: now),
        at: now + TraceMetadata.foregroundServiceStopWait)
    case .serviceStopped(let service, let life?):
      if let startedAt = life.awaitingForegroundSince, serviceReported.insert(service).inserted {
        // ActiveServices posts SERVICE_FOREGROUND_CRASH_MSG when a service that owes
        // startForeground is brought down first.
        report(
          .fgsNotPromoted,
          "foreground service \(service) (started at \(startedAt.seconds)) was stopped before it called "
            + "startForeground: \"Context.startForegroundService() did not then call Service.startForeground()\"")
      }
    case .serviceClosed(let service, let life, _):
      if let startedAt = life.awaitingForegroundSince, now >= startedAt + foregroundDeadline {
        reportNotPromoted(service, startedAt: startedAt)
      }
      if let timedOutAt = life.timedOutAt, now >= timedOutAt + TraceMetadata.foregroundServiceStopWait {
        reportTimeoutIgnored(service, timedOutAt: timedOutAt)
      }
    default:
      break
    }
  }

  /// A service's `startForeground` deadline passed: reported when the walker's service
  /// still owes the `startForeground` of that start.
  mutating func expireServicePromotion(
    process number: Int, service: String, startedAt: TraceTime, services: borrowing StringKeyedTable<ServiceLife>,
    running: ProcessLife?
  ) {
    guard let running, running.number == number, let life = services[service],
      life.awaitingForegroundSince == startedAt
    else { return }
    reportNotPromoted(service, startedAt: startedAt)
  }

  /// A service's stop deadline after `onTimeout` passed: reported when the walker's
  /// service still runs from that timeout.
  mutating func expireServiceStop(
    process number: Int, service: String, timedOutAt: TraceTime, services: borrowing StringKeyedTable<ServiceLife>,
    running: ProcessLife?
  ) {
    guard let running, running.number == number, let life = services[service], life.timedOutAt == timedOutAt
    else { return }
    reportTimeoutIgnored(service, timedOutAt: timedOutAt)
  }

  /// The finding's message for a refused `setForeground`.
  private static func workRefusal(_ work: String, attempt: Int, _ reason: ForegroundServiceRefusal) -> String {
    let what =
      switch reason {
      case .background:
        "the app was in the background: it throws ForegroundServiceStartNotAllowedException, and the worker stays a "
          + "job, stopped at its job time limit"
      case .noType:
        "its ForegroundInfo has no type: SystemForegroundService's startForeground throws "
          + "MissingForegroundServiceTypeException, which crashes the app"
      case .exhausted:
        "its type's daily time is spent (\"Time limit already exhausted\"): WorkManager logs \"Unable to start "
          + "foreground service\", and the worker stays a job, stopped at its job time limit"
      case .notRunning:
        "the attempt had already ended: WorkForegroundUpdater throws IllegalStateException (\"Calls to "
          + "setForegroundAsync() must complete before a ListenableWorker signals completion of work\")"
      case .bootCompleted:
        "it was started from BOOT_COMPLETED with a type Android 15 bars there: it throws "
          + "ForegroundServiceStartNotAllowedException"
      case .permission:
        "the app's manifest does not declare its type's FOREGROUND_SERVICE_* permission: SystemForegroundService's "
          + "startForeground throws SecurityException, which crashes the app"
      case .whileInUse:
        "its type needs a permission the app holds only while in use, and the app is in the background: "
          + "SystemForegroundService's startForeground throws SecurityException, which crashes the app"
      }
    return "work \(work) attempt \(attempt) was refused the foreground: " + what
  }

  private mutating func reportNotPromoted(_ service: String, startedAt: TraceTime) {
    guard serviceReported.insert(service).inserted else { return }
    report(
      .fgsNotPromoted,
      "foreground service \(service) (started at \(startedAt.seconds)) did not call startForeground within "
        + "\(foregroundDeadline.seconds): Android stops it and the app gets an ANR "
        + "(\"Context.startForegroundService() did not then call Service.startForeground()\")")
  }

  private mutating func reportTimeoutIgnored(_ service: String, timedOutAt: TraceTime) {
    guard serviceReported.insert(service).inserted else { return }
    report(
      .fgsTimeoutIgnored,
      "foreground service \(service) did not stop within \(TraceMetadata.foregroundServiceStopWait.seconds) of its "
        + "onTimeout at \(timedOutAt.seconds): the app crashes (ForegroundServiceDidNotStopInTimeException)")
  }
}
