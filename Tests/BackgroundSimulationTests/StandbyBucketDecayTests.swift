import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceReplay
import Testing

/// An Android app's standby bucket follows its use (docs/platform-model.md, "Standby
/// buckets"). AOSP `AppStandbyController`: `DEFAULT_ELAPSED_TIME_THRESHOLDS` {0, 12 h,
/// 24 h, 48 h, 8 days (45 days on Android 12)} and `DEFAULT_SCREEN_TIME_THRESHOLDS` {0,
/// 0, 1 h, 2 h, 6 h} for {active, working_set, frequent, rare, restricted}, both to pass
/// (`AppIdleHistory.getThresholdIndex`); developer.android.com, "App Standby Buckets":
/// "On Android 12 (API level 31) and 12L (API level 32), the number of days is 45.
/// Android 13 reduces the number of days to 8."
@Suite struct StandbyBucketDecayTests {
  static func bucketMoves(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(TextTraceWriter.line(for:)).filter { $0.contains(" env.set bucket=") }
  }

  /// The user opens the app at 0 s and leaves it at 60 s; the screen stays on.
  static func leftAlone(release: AndroidRelease = .current, days: Int) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = release
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 60))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: Double(days * 86_400)))
    return system
  }

  /// Last used at 60 s: working_set 12 h later (43,260 s), frequent at 24 h (86,460 s),
  /// rare at 48 h (172,860 s), restricted at 8 days (691,260 s).
  @Test func anUnusedAppFallsThroughTheBucketsAsAOSPTimesThem() {
    let system = Self.leftAlone(days: 10)
    #expect(
      Self.bucketMoves(system) == [
        "43260 env.set bucket=working_set", "86460 env.set bucket=frequent", "172860 env.set bucket=rare",
        "691260 env.set bucket=restricted",
      ])
  }

  /// Android 12 moves an unused app to restricted after 45 days (3,888,060 s), and
  /// Android 11 has no restricted bucket to move it to.
  @Test func theRestrictedBucketFollowsTheRelease() {
    #expect(
      Self.bucketMoves(Self.leftAlone(release: AndroidRelease(12), days: 46)).last
        == "3888060 env.set bucket=restricted")
    #expect(
      Self.bucketMoves(Self.leftAlone(release: AndroidRelease(11), days: 46)).last == "172860 env.set bucket=rare")
  }

  /// Screen-on time counts too: with the screen off from 60 s the app reaches
  /// working_set (no screen time needed) but not frequent, which needs an hour of screen
  /// since the last use; the screen on again at 30 h (108,000 s) gives that hour at
  /// 111,600 s, and rare comes at 48 h (172,860 s), its 2 hours of screen passed by then.
  @Test func screenOnTimeMustPassToo() {
    let system = SimulatedSystem(seed: 1, configuration: SimulationConfiguration(platform: .android))
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 60))
    system.moveToBackground()
    system.setDeviceState(screenOn: false)
    system.advance(to: TraceTime(seconds: 108_000))
    system.setDeviceState(screenOn: true)
    system.advance(to: TraceTime(seconds: 3 * 86_400))
    #expect(
      Self.bucketMoves(system) == [
        "43260 env.set bucket=working_set", "111600 env.set bucket=frequent", "172860 env.set bucket=rare",
      ])
  }

  /// Opening the app makes it active again, and the clock starts from its leaving.
  @Test func usingTheAppMakesItActiveAgain() {
    let system = Self.leftAlone(days: 3)
    system.moveToForeground()
    system.advance(by: .seconds(60))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 4 * 86_400))
    #expect(
      Self.bucketMoves(system).suffix(2) == [
        "259200 env.set bucket=active", "302460 env.set bucket=working_set",
      ])
  }

  final class IdleApp: BackgroundAppDelegate {}

  /// The bucket's moves are the system's: a replay takes them from the trace.
  @Test func theMovesReplay() {
    let system = Self.leftAlone(days: 10)
    let replay = Replayer.replay(system.trace, timing: .exact) { _ in IdleApp() }
    #expect(replay.divergence == nil, "\(String(describing: replay.divergence))")
    #expect(
      Self.bucketMoves(system)
        == replay.trace.events.map(TextTraceWriter.line(for:)).filter {
          $0.contains(" env.set bucket=")
        })
  }

  /// Pinned, the bucket stays as configured whatever the app's use: the trace records
  /// it once, as the simulation starts, so that what it limits can be explained.
  @Test func aPinnedBucketStays() {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.standbyBucket = .rare
    configuration.standbyBucketFollowsUse = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { _ in }
    system.advance(to: TraceTime(seconds: 10 * 86_400))
    #expect(Self.bucketMoves(system) == ["0 env.set bucket=rare"])
  }
}
