import BackgroundTrace
import _BackgroundTraceStorage

/// Android's foreground services: the `startForeground` a start owes, the stop a
/// timeout owes, where a start is allowed, and the type a release requires
/// (docs/rules.md, `fgs-*`).
extension CheckerRules {
  /// Applies the rules to a transition of a foreground service.
  mutating func observeForegroundService(_ transition: LifecycleTransition, in process: ProcessLife) {
    switch transition {
    case .serviceStarted(let service, let inBackground):
      serviceReported.remove(service)
      if inBackground && androidRelease.forbidsBackgroundServiceStarts {
        // ActiveServices: "startForegroundService() not allowed due to mAllowStartForeground false".
        report(
          .fgsStartedInBackground,
          "foreground service \(service) was started while the app was in the background on "
            + "\(androidRelease): startForegroundService throws ForegroundServiceStartNotAllowedException")
      }
      insertDeadline(
        .servicePromotion(process: process.number, service: service, startedAt: now), at: now + foregroundDeadline)
    case .servicePromoted(let service, nil, _) where androidRelease.requiresServiceType:
      report(
        .fgsUntyped,
        "foreground service \(service) called startForeground without a type on \(androidRelease): it throws "
          + "MissingForegroundServiceTypeException (\"Starting FGS without a type\")")
    case .serviceTimedOut(let service, let type):
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

  /// A service's deadline passed: reported when the walker's service still owes what
  /// the deadline asked.
  mutating func expireService(
    _ deadline: Deadline, services: borrowing StringKeyedTable<ServiceLife>, running: ProcessLife?
  ) {
    switch deadline {
    case .servicePromotion(let number, let service, let startedAt):
      guard let running, running.number == number, let life = services[service],
        life.awaitingForegroundSince == startedAt
      else { return }
      reportNotPromoted(service, startedAt: startedAt)
    case .serviceStop(let number, let service, let timedOutAt):
      guard let running, running.number == number, let life = services[service], life.timedOutAt == timedOutAt
      else { return }
      reportTimeoutIgnored(service, timedOutAt: timedOutAt)
    default:
      break
    }
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
