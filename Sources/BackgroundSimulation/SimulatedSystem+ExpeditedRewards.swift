import BackgroundTrace

/// What AOSP `QuotaController` pays back into an Android app's expedited quota, when
/// ``SimulationConfiguration/expeditedQuotaRewards`` is on: its `QcConstants` defaults
/// from Android 12, where expedited jobs came (Android 16 has other values behind the
/// `adjust_quota_default_constants` flag: a 5-minute chunk and 5 s per interaction).
public enum ExpeditedQuotaReward: Sendable {
  /// `DEFAULT_EJ_TOP_APP_TIME_CHUNK_SIZE_MS`: the time on top each reward pays for.
  public static let topAppChunk: Duration = .seconds(30)
  /// `DEFAULT_EJ_REWARD_TOP_APP_MS`: the reward per chunk on top.
  public static let topApp: Duration = .seconds(10)
  /// `DEFAULT_EJ_REWARD_INTERACTION_MS`: the reward per user interaction.
  public static let interaction: Duration = .seconds(15)

  /// The reward for `time` on top: one ``topApp`` per ``topAppChunk``, a last part of
  /// at least a second counted as a chunk (`TopAppTimer.calculateTimeChunks`, "round
  /// up").
  public static func forTimeOnTop(_ time: Duration) -> Duration {
    var chunks = Int(time / topAppChunk)
    if time - topAppChunk * chunks >= .seconds(1) { chunks += 1 }
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
    return ExpeditedQuotaReward.forTimeOnTop(RollingBudget.elapsed(from: since, to: now))
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
    grantExpeditedReward(ExpeditedQuotaReward.interaction)
  }

  /// Pays `reward` back into the expedited quota used (`grantRewardForInstantEvent`);
  /// what exceeds it is lost.
  private func grantExpeditedReward(_ reward: Duration) {
    guard earnsExpeditedRewards, reward > .zero else { return }
    _ = expeditedBudget.forgive(reward)
    reviseExpeditedCharging()
  }
}
