import BackgroundTrace

/// The graces after which AOSP `QuotaController` charges an Android app's expedited
/// work to its quota again (`QcConstants`, Android 12 and later): while the app is on
/// top, the device charging (outside the restricted bucket) or the app on the temporary
/// allowlist (outside the restricted bucket), its expedited time is free
/// (docs/platform-model.md, "Expedited work").
public enum ExpeditedQuotaExemption: Sendable {
  /// `DEFAULT_EJ_GRACE_PERIOD_TOP_APP_MS`: free time after the app leaves the top.
  public static let topAppGrace: Duration = .seconds(60)
  /// `DEFAULT_EJ_GRACE_PERIOD_TEMP_ALLOWLIST_MS`: free time after the temporary
  /// allowlist ends.
  public static let temporaryAllowlistGrace: Duration = .seconds(180)
}

/// The expedited quota (AOSP `QuotaController`'s expedited timer): what is left of it,
/// and when running expedited work is charged to it.
extension SimulatedSystem {
  /// Whether expedited work's time is free now, as `QuotaController`'s expedited
  /// `Timer.shouldTrackLocked` finds it untracked: the device charging outside the
  /// restricted bucket (`isQuotaFreeLocked`), the app on top or within
  /// ``ExpeditedQuotaExemption/topAppGrace`` of leaving it (`mTopAppCache`,
  /// `mTopAppGraceCache`), or on the temporary allowlist or within
  /// ``ExpeditedQuotaExemption/temporaryAllowlistGrace`` of its end, outside the
  /// restricted bucket (`hasTempAllowlistExemptionLocked`). Before Android 16 a
  /// foreground service frees it too, as it frees the job quota (`mForegroundUids`,
  /// ``foregroundServiceFreesQuota``).
  var expeditedTimeIsFree: Bool {
    guard configuration.platform == .android else { return false }
    if quotaIsFree || onTopSince != nil || foregroundServiceFreesQuota { return true }
    return [topGraceEnd, temporaryAllowlistGraceEnd].contains { $0.map { now < $0 } ?? false }
  }

  /// When the temporary allowlist's exemption ends: its latest end, plus the grace;
  /// `nil` in the restricted bucket, which it does not exempt.
  private var temporaryAllowlistGraceEnd: TraceTime? {
    guard standbyBucket != .restricted else { return nil }
    return allowlistedUntil.values.max().map { $0 + TraceInterval(ExpeditedQuotaExemption.temporaryAllowlistGrace) }
  }

  /// The expedited quota left in the current 24 hours: the bucket's
  /// (``StandbyBucket/expeditedQuota(on:)``) less what expedited work used, the running
  /// attempts charged so far included.
  var expeditedQuotaLeft: Duration {
    var running = Duration.zero
    for item in works.values {
      if let since = item.expeditedSince { running += RollingBudget.elapsed(from: since, to: now) }
    }
    return expeditedBudget.left(
      of: standbyBucket.expeditedQuota(on: configuration.androidRelease), at: now, running: running)
      + pendingTopAppReward
  }

  /// Adds the running attempt's charged expedited time to the quota used.
  func chargeExpedited(_ item: inout WorkItem) {
    guard let since = item.expeditedSince else { return }
    item.expeditedSince = nil
    expeditedBudget.charge(from: since, to: now)
  }

  /// Something that decides whether expedited time is free, or how much quota is left,
  /// changed (the app's place on top, the charger, the standby bucket, the temporary
  /// allowlist, a reward): each running expedited attempt stops or starts being charged,
  /// as `QuotaController`'s timer does on `onStateChangedLocked`, and its quota stop is
  /// scheduled anew. While its time is free, the end of the grace that frees it is
  /// watched.
  func reviseExpeditedCharging() {
    guard configuration.platform == .android else { return }
    if let timer = expeditedRevision {
      scheduler.cancel(timer)
      expeditedRevision = nil
    }
    let free = expeditedTimeIsFree
    var running = false
    for work in workOrder {
      guard var item = works[work], item.phase == .running, item.expedited, item.limitEnd != nil else { continue }
      running = true
      if free {
        chargeExpedited(&item)
      } else if item.expeditedSince == nil && !item.startedOnTop {
        item.expeditedSince = now
      }
      works[work] = item
      scheduleJobLimit(work)
    }
    guard running, free else { return }
    guard let next = [topGraceEnd, temporaryAllowlistGraceEnd].compactMap({ $0 }).filter({ $0 > now }).min() else {
      return
    }
    expeditedRevision = scheduler.schedule(at: next) { [self] in
      expeditedRevision = nil
      reviseExpeditedCharging()
    }
  }
}
