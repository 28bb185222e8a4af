import BackgroundSimulation
import BackgroundTrace
import Testing

/// `NetworkType.TEMPORARILY_UNMETERED`. androidx `SystemJobInfoConverter.setRequiredNetwork`
/// asks JobScheduler, from API 30 (Android 11), for a network with
/// `NetworkCapabilities.NET_CAPABILITY_TEMPORARILY_NOT_METERED`, a capability a carrier
/// sets on a network metered in general while it lifts the metering (unmetered Wi-Fi does
/// not carry it); before API 30 `convertNetworkType` has no case for it and falls back to
/// `JobInfo.NETWORK_TYPE_ANY` ("API version too low. Cannot convert network type
/// value"). Expected lines are worked out by hand, as in `WorkConstraintTests`.
@Suite struct TemporarilyUnmeteredTests {
  static func system(release: Int) -> SimulatedSystem {
    var configuration = SimulationConfiguration(platform: .android)
    configuration.androidRelease = AndroidRelease(release)
    return SimulatedSystem(seed: 1, configuration: configuration)
  }

  static func lines(_ system: SimulatedSystem) -> [String] {
    system.trace.events.map(handWrittenLine(for:)).filter { $0.contains(" work.") || $0.contains(" env.set") }
  }

  static func sync(_ system: SimulatedSystem, expedited: ExpeditedPolicy? = nil) -> WorkRequest {
    var request = WorkRequest(work: "sync", worker: TimedWorker(clock: system.clock, duration: .seconds(300)))
    request.requiredNetworkType = .temporarilyUnmetered
    request.expedited = expedited
    return request
  }

  /// On Wi-Fi the work waits for the capability; it starts when the carrier lifts its
  /// metering and is stopped when it is back (`STOP_REASON_CONSTRAINT_CONNECTIVITY`, 7).
  /// The stopped attempt's backoff runs from the enqueue, so it is due again at once,
  /// and waits.
  @Test func fromAndroidElevenTheWorkWaitsForATemporarilyUnmeteredNetwork() throws {
    let system = Self.system(release: 14)
    try system.enqueue(Self.sync(system), policy: nil)
    system.advance(to: TraceTime(seconds: 100))
    system.setNetworkTemporarilyUnmetered(true)
    system.advance(to: TraceTime(seconds: 200))
    system.setNetworkTemporarilyUnmetered(false)
    system.advance(to: TraceTime(seconds: 250))
    #expect(
      Self.lines(system) == [
        "0 work.enqueue work=sync needs=temporarily-unmetered",
        "0 work.wait work=sync reasons=network",
        "100 env.set temporarily-unmetered=true",
        "100 work.start work=sync attempt=0",
        "200 env.set temporarily-unmetered=false",
        "200 work.stop work=sync attempt=0 reason=constraint",
        "200 work.wait work=sync reasons=network",
      ])
    let info = try #require(system.workInfos(forUniqueWork: "sync").first)
    #expect(info.stopReason == .constraintConnectivity && info.stopReason.code == 7)
  }

  /// Before Android 11 JobScheduler is asked for any network: the work runs at once.
  @Test func beforeAndroidElevenAnyNetworkDoes() throws {
    let system = Self.system(release: 10)
    try system.enqueue(Self.sync(system), policy: nil)
    system.advance(to: TraceTime(seconds: 400))
    #expect(
      Self.lines(system) == [
        "0 work.enqueue work=sync needs=temporarily-unmetered",
        "0.1 work.start work=sync attempt=0",
        "300.1 work.result work=sync attempt=0 outcome=success",
      ])
  }

  /// A network constraint, so expedited work may have it (androidx `WorkRequest.Builder
  /// .build()`: "Expedited jobs only support network and storage constraints"), and it is
  /// written once, last, in `needs=` and the binary form's bit 8.
  @Test func expeditedWorkMayAskForItAndTheTraceKeepsIt() throws {
    let system = Self.system(release: 14)
    try system.enqueue(Self.sync(system, expedited: .runAsRegular), policy: nil)
    let trace = system.trace
    let decoded = try RecordedTrace.decode(binary: try BinaryTraceEncoder.encode(trace))
    #expect(decoded.trace == trace)
    #expect(WorkConstraint.bits([.temporarilyUnmetered]) == 1 << 8)
  }
}
