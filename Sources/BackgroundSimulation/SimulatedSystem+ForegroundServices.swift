public import BackgroundTrace

/// A running foreground service of the simulated process.
struct SimulatedService {
  /// The service's code.
  var code: any ForegroundService
  /// When `startForeground` took it into the foreground (`nil`: not yet).
  var foregroundSince: TraceTime?
  /// Its type, once in the foreground.
  var type: ForegroundServiceType?
  /// From when its time counts against its type's daily budget.
  var countedSince: TraceTime?
  /// The system stops it if it is not in the foreground by then.
  var promotionTimer: VirtualTimeScheduler.TimerID?
  /// Started with `startForegroundService` and has not called `startForeground` since
  /// (AOSP `ServiceRecord.fgRequired`): stopping it crashes the app.
  var owesStartForeground = false
  /// Whether its start was allowed only by a `BOOT_COMPLETED` broadcast's allowlist
  /// (AOSP `mAllowStartForegroundAtEntering == REASON_BOOT_COMPLETED`).
  var startedFromBootCompleted = false
  /// Whether it was started where the app holds its while-in-use permissions (AOSP
  /// `ServiceRecord.mAllowWhileInUsePermissionInFgs`): in the foreground or just after,
  /// or from a tapped notification.
  var startedWhileInUse = false
  /// Its type's time runs out then (`onTimeout`).
  var limitTimer: VirtualTimeScheduler.TimerID?
  /// After `onTimeout`: the app crashes (or gets an ANR) if it still runs then.
  var stopTimer: VirtualTimeScheduler.TimerID?
}

/// Android's foreground services as AOSP's `ActiveServices` runs them
/// (docs/platform-model.md, "Foreground services"): a start from the background refused
/// on Android 12+, `startForeground` owed within 10 s (30 s and an ANR 10 s later from
/// Android 13), a type required on Android 14+, `dataSync` and `mediaProcessing` 6 hours
/// in 24 on Android 15+ and `shortService` 3 minutes a start, then `onTimeout` and a
/// crash 10 s later for a service still running.
extension SimulatedSystem: ForegroundServices {
  private var release: AndroidRelease { configuration.androidRelease }

  /// Records `fgs.start` and starts the service: its `onStartCommand` runs next on the
  /// main thread. Refused (`fgs.refuse reason=background`) from the background on
  /// Android 12+, more than 5 s after the app left the foreground.
  public func startForegroundService(_ name: String, _ service: any ForegroundService) throws(ForegroundServiceError) {
    record(.fgsStart(service: name))
    if refusesBackgroundStart {
      record(.fgsRefuse(service: name, reason: .background))
      throw ForegroundServiceError(.background, service: name)
    }
    var running = services[name] ?? SimulatedService(code: service)
    running.code = service
    running.startedFromBootCompleted = startAllowedOnlyByBootCompleted
    running.startedWhileInUse = holdsWhileInUsePermissions
    if running.foregroundSince == nil && running.promotionTimer == nil {
      running.owesStartForeground = true
      let process = processNumber
      running.promotionTimer = scheduler.schedule(after: release.startForegroundTimeout) { [self] in
        missedPromotion(name, process: process)
      }
    }
    services[name] = running
    // A started service's process runs (a frozen one is thawed for it).
    if appState == .suspended { wakeForBackgroundWork() }
    if let timer = suspensionTimer {
      scheduler.cancel(timer)
      suspensionTimer = nil
    }
    let control = ForegroundServiceControl(name: name, services: self)
    scheduler.schedule(after: .zero) { [self] in
      guard services[name] != nil else { return }
      service.onStartCommand(control)
    }
  }

  /// Records `fgs.foreground` and takes the service into the foreground, with its type's
  /// time limit. Refused (`fgs.refuse`) without a type on Android 14+ (`no-type`), or
  /// when the type's daily time is spent (`exhausted`).
  ///
  /// The call settles what `startForegroundService` owed even when it is refused: AOSP
  /// `ActiveServices.setServiceForegroundInnerLocked` clears `r.fgRequired` and cancels
  /// the start-foreground ANR timer (`mServiceFGAnrTimer.cancel(r)`) before it checks the
  /// type and the time limit and throws. A refused service runs on as a started service
  /// out of the foreground: no ANR at the deadline, and no crash when it is stopped.
  public func startForeground(_ name: String, type: ForegroundServiceType?) throws(ForegroundServiceError) {
    record(.fgsForeground(service: name, type: type))
    guard var running = services[name] else { return }
    if let timer = running.promotionTimer { scheduler.cancel(timer) }
    running.promotionTimer = nil
    running.owesStartForeground = false
    services[name] = running
    if type == nil && release.requiresServiceType {
      record(.fgsRefuse(service: name, reason: .noType))
      throw ForegroundServiceError(.noType, service: name)
    }
    if let type, lacksPermission(for: type) {
      // ActiveServices.validateForegroundServiceType: SecurityException.
      record(.fgsRefuse(service: name, reason: .permission))
      throw ForegroundServiceError(.permission, service: name, type: type)
    }
    if let type, lacksWhileInUsePermission(for: type, held: running.startedWhileInUse) {
      // The same check, on the type's runtime permission.
      record(.fgsRefuse(service: name, reason: .whileInUse))
      throw ForegroundServiceError(.whileInUse, service: name, type: type)
    }
    if let type, running.startedFromBootCompleted, release.restrictsBootCompletedServiceTypes,
      !type.mayStartFromBootCompleted
    {
      // ActiveServices.setServiceForegroundInnerLocked (shouldAllowBootCompletedStart):
      // "FGS type … not allowed to start from BOOT_COMPLETED!".
      record(.fgsRefuse(service: name, reason: .bootCompleted))
      throw ForegroundServiceError(.bootCompleted, service: name, type: type)
    }
    if let type {
      resetBudgetIfOnTop(type)
      if let left = timeLeft(for: type), left <= .zero {
        // ActiveServices: "Time limit already exhausted for foreground service type …".
        record(.fgsRefuse(service: name, reason: .exhausted))
        throw ForegroundServiceError(.exhausted, service: name)
      }
      running = services[name] ?? running
    }
    if running.foregroundSince == nil { running.foregroundSince = now }
    running.type = type
    services[name] = running
    scheduleLimit(name)
    noteForegroundServiceForJobs()
  }

  /// Records `fgs.stop` and stops the service. A service stopped before it called
  /// `startForeground` crashes the app: "Context.startForegroundService() did not then
  /// call Service.startForeground()" (ActiveServices' `SERVICE_FOREGROUND_CRASH_MSG`).
  public func stopService(_ name: String) {
    record(.fgsStop(service: name))
    guard let running = services.removeValue(forKey: name) else { return }
    cancelTimers(of: running)
    account(running)
    if running.foregroundSince != nil { noteForegroundServiceForJobs() }
    if running.owesStartForeground {
      let process = processNumber
      scheduler.schedule(after: .zero) { [self] in
        guard processRunning && processNumber == process else { return }
        crash("Context.startForegroundService() did not then call Service.startForeground(): \(name)")
      }
    }
    suspendIfIdle(after: idleSuspensionDelay)
  }

  // MARK: The system's side

  /// The promotion deadline passed: the system stops the service and the app gets its
  /// ANR, at once up to Android 12, 10 s later from Android 13.
  private func missedPromotion(_ name: String, process: Int) {
    guard processRunning, processNumber == process, let running = services[name], running.owesStartForeground
    else { return }
    services[name] = nil
    cancelTimers(of: running)
    scheduler.schedule(after: release.startForegroundANRDelay) { [self] in
      if processRunning && processNumber == process { terminate(reason: "anr") }
    }
  }

  /// Whether a foreground service started now would be refused for being started from
  /// the background: on Android 12+, with the app out of the foreground for more than
  /// the 5 s grace, off the temporary allowlist (``deliverTemporaryAllowlist(_:duration:)``),
  /// and no exemption of ``SimulationConfiguration/backgroundStartExemptions`` that
  /// holds on the release.
  /// Whether `startForeground` with `type` is refused for a permission the manifest
  /// does not declare (Android 14+; ``SimulationConfiguration/foregroundServicePermissions``).
  func lacksPermission(for type: ForegroundServiceType) -> Bool {
    guard release.requiresServiceType, type.permission != nil, let declared = configuration.foregroundServicePermissions
    else { return false }
    return !declared.contains(type)
  }

  /// Whether a service started now from the background is allowed only by the
  /// `BOOT_COMPLETED` allowlist: nothing else (the foreground, its grace, a standing
  /// exemption, another delivery's allowlist) allows it.
  var startAllowedOnlyByBootCompleted: Bool {
    startNeedsAllowlist && isAllowlisted { $0 == .bootCompleted } && !isAllowlisted { $0 != .bootCompleted }
  }

  /// Whether the app holds its while-in-use permissions now: in the foreground, or
  /// within the grace after it left it, or allowlisted by a tapped notification
  /// (``/BackgroundTrace/TemporaryAllowlistReason/grantsWhileInUsePermissions``).
  var holdsWhileInUsePermissions: Bool {
    appInForeground || visibleLately || isAllowlisted(\.grantsWhileInUsePermissions)
  }

  /// The permission a foreground service of `type` started now lacks, as the refusal it
  /// gets: its manifest permission, or else its while-in-use one; `nil` for none.
  func missingPermission(for type: ForegroundServiceType) -> ForegroundServiceRefusal? {
    if lacksPermission(for: type) { return .permission }
    return lacksWhileInUsePermission(for: type, held: holdsWhileInUsePermissions) ? .whileInUse : nil
  }

  /// Whether a service of `type` is refused for a while-in-use permission on Android 14+
  /// (``/BackgroundTrace/AndroidRelease/checksWhileInUsePermissions``): its type needs one,
  /// the app did not hold it (`held`), for `location` the user has not granted
  /// background location, and a `health` service relies on a body sensor
  /// (``SimulationConfiguration/healthServicePermission``).
  func lacksWhileInUsePermission(for type: ForegroundServiceType, held: Bool) -> Bool {
    guard release.checksWhileInUsePermissions, type.needsWhileInUsePermission, !held else { return false }
    switch type {
    case .location: return !configuration.backgroundLocationGranted
    case .health: return configuration.healthServicePermission.isWhileInUse
    default: return true
    }
  }

  /// Whether Android refuses a foreground service started now from the background.
  var refusesBackgroundStart: Bool {
    startNeedsAllowlist && !isAllowlisted { _ in true }
  }

  /// Whether a foreground service started now needs the temporary allowlist: the release
  /// forbids starts from the background, and neither the foreground, its 5 s grace, nor
  /// a standing exemption allows it.
  private var startNeedsAllowlist: Bool {
    release.forbidsBackgroundServiceStarts && !appInForeground && !visibleLately
      && !configuration.backgroundStartExemptions.exempt(on: release)
  }

  /// Whether the app left the foreground within the grace before now.
  private var visibleLately: Bool {
    leftForegroundAt.map { now <= $0 + AndroidRelease.foregroundToBackgroundGrace } ?? false
  }

  /// Whether the app is on the temporary allowlist now for a reason that `reasons` takes.
  private func isAllowlisted(_ reasons: (TemporaryAllowlistReason) -> Bool) -> Bool {
    allowlistedUntil.contains { reason, end in reasons(reason) && now < end }
  }

  /// How much of `type`'s time is left: its daily budget on Android 15+ for `dataSync`
  /// and `mediaProcessing`, less what the running services and promoted workers of the
  /// type have used; `nil` for a type without one.
  func timeLeft(for type: ForegroundServiceType) -> Duration? {
    guard release.limitsDataSyncServices, type == .dataSync || type == .mediaProcessing else { return nil }
    var running = Duration.zero
    for service in services.values where service.type == type {
      if let since = service.countedSince { running += RollingBudget.elapsed(from: since, to: now) }
    }
    for item in works.values where item.foregroundType == type {
      if let since = item.foregroundSince { running += RollingBudget.elapsed(from: since, to: now) }
    }
    return serviceBudgets[type, default: RollingBudget()].left(
      of: configuration.dataSyncServiceBudget, at: now, running: running)
  }

  /// Starts the service's time limit: its type's daily time left, or a `shortService`'s
  /// 3 minutes.
  private func scheduleLimit(_ name: String) {
    guard var running = services[name], let type = running.type else { return }
    if let timer = running.limitTimer { scheduler.cancel(timer) }
    running.limitTimer = nil
    let limit: Duration?
    if type == .shortService && release.hasShortServices {
      limit = configuration.shortServiceLimit
    } else if let left = timeLeft(for: type) {
      running.countedSince = running.countedSince ?? now
      limit = left
    } else {
      limit = nil
    }
    if let limit {
      running.limitTimer = scheduler.schedule(after: max(limit, .zero)) { [self] in timeOut(name) }
    }
    services[name] = running
  }

  /// The service's type's time is spent: `fgs.timeout`, its `onTimeout`, and the app
  /// crashes (a `shortService`: an ANR) if it still runs 10 s later.
  private func timeOut(_ name: String) {
    guard var running = services[name], let type = running.type else { return }
    running.limitTimer = nil
    account(running)
    running.countedSince = nil
    let process = processNumber
    running.stopTimer = scheduler.schedule(after: configuration.serviceStopWait) { [self] in
      guard processRunning, processNumber == process, services[name] != nil else { return }
      if type == .shortService {
        terminate(reason: "anr")
      } else {
        crash("ForegroundServiceDidNotStopInTimeException: \(name) did not stop within the time after onTimeout")
      }
    }
    services[name] = running
    record(.fgsTimeout(service: name, type: type))
    running.code.onTimeout(ForegroundServiceControl(name: name, services: self), type: type)
  }

  /// Adds the service's counted time to its type's budget.
  private func account(_ running: SimulatedService) {
    guard let type = running.type, let since = running.countedSince else { return }
    charge(type, from: since)
  }

  /// Adds the time from `since` to now to `type`'s daily budget.
  func charge(_ type: ForegroundServiceType, from since: TraceTime) {
    serviceBudgets[type, default: RollingBudget()].charge(from: since, to: now)
  }

  private func cancelTimers(of running: SimulatedService) {
    for timer in [running.promotionTimer, running.limitTimer, running.stopTimer] {
      if let timer { scheduler.cancel(timer) }
    }
  }

  /// The user brought the app to the foreground: the daily budgets start again (Android:
  /// "the timer resets when the user brings your app to the foreground"), and the
  /// running services' limits with them.
  func resetServiceBudgets() {
    guard !serviceBudgets.isEmpty else { return }
    serviceBudgets.removeAll()
    for name in services.keys.sorted() where services[name]?.countedSince != nil {
      services[name]?.countedSince = now
      scheduleLimit(name)
    }
    for work in workOrder where works[work]?.foregroundSince != nil {
      guard let type = works[work]?.foregroundType, timeLeft(for: type) != nil else { continue }
      works[work]?.foregroundSince = now
      scheduleForegroundLimit(work)
    }
  }

  /// A `startForeground` of `type` (a service's, or the one WorkManager makes for a
  /// worker) while the app is on top: AOSP resets the type's time then
  /// (`ActiveServices.setServiceForegroundInnerLocked`: "Reset the time limit info for
  /// this fgs type if … the app is currently in the TOP state"), and the running
  /// services' and workers' limits of the type with it.
  func resetBudgetIfOnTop(_ type: ForegroundServiceType) {
    guard appInForeground, timeLeft(for: type) != nil else { return }
    serviceBudgets[type] = nil
    for name in services.keys.sorted() where services[name]?.type == type && services[name]?.countedSince != nil {
      services[name]?.countedSince = now
      scheduleLimit(name)
    }
    for work in workOrder where works[work]?.foregroundType == type && works[work]?.foregroundSince != nil {
      works[work]?.foregroundSince = now
      scheduleForegroundLimit(work)
    }
  }

  /// The process ended: its services end with it, their time counted.
  func endServices() {
    for name in services.keys.sorted() {
      guard let running = services[name] else { continue }
      cancelTimers(of: running)
      account(running)
    }
    services.removeAll()
  }
}
