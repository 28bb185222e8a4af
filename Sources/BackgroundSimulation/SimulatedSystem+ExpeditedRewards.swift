public import BackgroundTrace

/// What AOSP `QuotaController` pays back into an Android app's expedited quota, when
/// ``SimulationConfiguration/expeditedQuotaRewards`` is on: its `QcConstants` defaults
/// from Android 12, where expedited jobs came, and from Android 16 the values of its
/// `adjust_quota_default_constants` (``/BackgroundTrace/AndroidRelease/hasAdjustedJobQuotas``).
public enum ExpeditedQuotaReward: Sendable {
  /// `DEFAULT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`: the time on top each reward pays for, 30 s;
  /// from Android 16 `DEFAULT_CURRENT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`, 5 minutes.
  public static func topAppChunk(on release: AndroidRelease) -> Duration {
    release.hasAdjustedJobQuotas ? .seconds(300) : .seconds(30)
  }
  /// `DEFAULT_EJ_REWARD_TOP_APP_MS`: the reward per chunk on top, 10 s.
  public static let topApp: Duration = .seconds(10)
  /// `DEFAULT_EJ_REWARD_INTERACTION_MS`: the reward per user interaction, 15 s; from
  /// Android 16 `DEFAULT_CURRENT_EJ_REWARD_INTERACTION_MS`, 5 s.
  public static func interaction(on release: AndroidRelease) -> Duration {
    release.hasAdjustedJobQuotas ? .seconds(5) : .seconds(15)
  }

  /// The reward for `time` on top on `release`: one ``topApp`` per
  /// ``topAppChunk(on:)``, a last part of at least a second counted as a chunk
  /// (`TopAppTimer.calculateTimeChunks`, "round up").
  public static func forTimeOnTop(_ time: Duration, on release: AndroidRelease) -> Duration {
    let chunk = topAppChunk(on: release)
    var chunks = Int(time / chunk)
    if time - chunk * chunks >= .seconds(1) { chunks += 1 }
    return topApp * chunks
  }
}

extension SimulatedSystem {
  /// Whether the app's expedited quota earns rewards: an Android app, with
  /// ``SimulationConfiguration/expeditedQuotaRewards`` on.
  var earnsExpeditedRewards: Bool {
    configuration.platform == .android && configuration.expeditedQuotaRewards
  }

  /// The reward the app's time on top so far will earn when it leaves (`QuotaController`
  /// counts it in the quota left meanwhile: `getPendingReward`).
  var pendingTopAppReward: Duration {
    guard earnsExpeditedRewards, let since = onTopSince else { return .zero }
    return ExpeditedQuotaReward.forTimeOnTop(
      RollingBudget.elapsed(from: since, to: now), on: configuration.androidRelease)
  }

  /// The app comes to the top, or leaves it (its last activity paused): the time on top
  /// is rewarded as it leaves, and its expedited time stays free for the grace after
  /// (``ExpeditedQuotaExemption/topAppGrace``).
  func noteOnTop(_ onTop: Bool) {
    if onTop {
      guard onTopSince == nil else { return }
      onTopSince = now
      reviseExpeditedCharging()
      return
    }
    guard onTopSince != nil else { return }
    let reward = pendingTopAppReward
    onTopSince = nil
    topGraceEnd = now + TraceInterval(ExpeditedQuotaExemption.topAppGrace)
    grantExpeditedReward(reward)
    reviseExpeditedCharging()
  }

  /// A user interaction in the app (`UsageEvents.Event.USER_INTERACTION`).
  func noteUserInteraction() {
    guard earnsExpeditedRewards, appInForeground else { return }
    grantExpeditedReward(ExpeditedQuotaReward.interaction(on: configuration.androidRelease))
  }

  /// Pays `reward` back into the expedited quota used (`grantRewardForInstantEvent`);
  /// what exceeds it is lost.
  private func grantExpeditedReward(_ reward: Duration) {
    guard earnsExpeditedRewards, reward > .zero else { return }
    _ = expeditedBudget.forgive(reward)
    reviseExpeditedCharging()
  }
}
