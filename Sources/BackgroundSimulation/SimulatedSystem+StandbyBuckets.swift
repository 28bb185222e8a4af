import BackgroundTrace

/// The app's standby bucket as its use decides it (AOSP `AppStandbyController`;
/// docs/platform-model.md, "Standby buckets"): `active` while the user has the app in
/// the foreground, then lower as device time and screen-on time pass without use
/// (``StandbyBucket/afterDisuse(elapsed:screenOn:on:)``). Each move is recorded
/// (`env.set bucket=`) and re-decides the job quota's window, the expedited quota and
/// the restricted bucket's terms; due work that waits says why (`work.wait`).
extension SimulatedSystem {
  /// The screen-on time so far.
  var screenOnTotal: Duration {
    screenOnAccumulated + (screenOnSince.map { RollingBudget.elapsed(from: $0, to: now) } ?? .zero)
  }

  /// Follows a change of the screen for the screen-on time (before `screenOn` changes).
  func noteScreen(on: Bool) {
    if on {
      if screenOnSince == nil { screenOnSince = now }
    } else if let since = screenOnSince {
      screenOnAccumulated += RollingBudget.elapsed(from: since, to: now)
      screenOnSince = nil
    }
  }

  /// Brings the bucket up to date with the app's use, and plans the next move.
  func updateStandbyBucket() {
    guard configuration.platform == .android, configuration.standbyBucketFollowsUse else { return }
    if let timer = standbyBucketTimer { scheduler.cancel(timer) }
    standbyBucketTimer = nil
    if appInForeground {
      // Strong usage: the user has the app in front of them.
      lastUsedAt = now
      screenOnAtLastUse = screenOnTotal
    }
    let used = lastUsedAt ?? TraceTime(nanoseconds: 0)
    let elapsed = RollingBudget.elapsed(from: used, to: now)
    let screen = screenOnTotal - (lastUsedAt == nil ? .zero : screenOnAtLastUse)
    var bucket = StandbyBucket.afterDisuse(elapsed: elapsed, screenOn: screen, on: configuration.androidRelease)
    // Not opened since the simulation started: no higher than the bucket it started in.
    if lastUsedAt == nil, Self.rank(configuration.standbyBucket) > Self.rank(bucket) {
      bucket = configuration.standbyBucket
    }
    if appInForeground { bucket = .active }
    if configuration.onPowerAllowlist { bucket = .exempted }  // its minimum, above every other
    if bucket != standbyBucket { moveToBucket(bucket) }
    planNextBucketMove(from: used, elapsed: elapsed, screen: screen)
  }

  /// How restricted a bucket is: `exempted` 0 to `restricted` 5.
  static func rank(_ bucket: StandbyBucket) -> Int { StandbyBucket.allCases.firstIndex(of: bucket) ?? 0 }

  private func moveToBucket(_ bucket: StandbyBucket) {
    standbyBucket = bucket
    jobBudget.window = TraceInterval(bucket.jobQuotaWindow(on: configuration.androidRelease))
    reviseJobCharging()
    record(.envSet([EnvironmentSetting(key: "bucket", value: bucket.traceName)]))
    stopJobsOutsideQuotaNoLongerAllowed()
    startEligibleWork()
    scheduleJobQuotaRecheck()
    reviseExpeditedCharging()
    noteWaits()
  }

  /// Schedules the next threshold the app will pass without use: when both its device
  /// time and, with the screen on, its screen-on time have passed.
  private func planNextBucketMove(from used: TraceTime, elapsed: Duration, screen: Duration) {
    guard !appInForeground, !configuration.onPowerAllowlist else { return }
    let lower = StandbyBucket.disuseThresholds(on: configuration.androidRelease).filter {
      Self.rank($0.bucket) > Self.rank(standbyBucket)
    }
    let times: [TraceTime] = lower.compactMap { threshold in
      let byElapsed = used + TraceInterval(threshold.elapsed)
      if screen >= threshold.screenOn { return max(byElapsed, now) }
      guard screenOn else { return nil }  // screen-on time stands still until the screen is on
      return max(byElapsed, now + TraceInterval(threshold.screenOn - screen))
    }
    guard let next = times.min() else { return }
    standbyBucketTimer = scheduler.schedule(at: next) { [self] in
      standbyBucketTimer = nil
      updateStandbyBucket()
    }
  }
}
