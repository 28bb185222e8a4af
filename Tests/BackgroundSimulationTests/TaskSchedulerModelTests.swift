import BackgroundSimulation
import BackgroundTrace
import Testing

/// The canonical text lines of a trace's events (no header, no meta).
private func eventLines(_ trace: RecordedTrace) -> [String] {
  trace.events.map(TextTraceWriter.line(for:))
}

/// The `sched.launch` events of a trace: (time, identifier).
private func launches(_ trace: RecordedTrace) -> [(time: TraceTime, ident: String)] {
  trace.events.compactMap { event in
    if case .schedLaunch(let ident, _) = event.kind { (event.time, ident) } else { nil }
  }
}

/// A configuration whose scheduler launches an eligible request at once (no random delay).
private func immediateLaunches() -> SimulationConfiguration {
  var configuration = SimulationConfiguration()
  configuration.launchPolicy = .immediate
  return configuration
}

/// Registers a handler that completes each launch at once, for every identifier: iOS
/// raises on a submit for an identifier with no handler registered.
private func registerCompleting(_ identifiers: [String], on system: SimulatedSystem) {
  for identifier in identifiers {
    system.register(forTaskWithIdentifier: identifier, using: nil) { $0.setTaskCompleted(success: true) }
  }
}

/// The tasks the app's handlers were launched with, kept as an app keeps a task it is
/// working on.
final class HeldTasks {
  var tasks: [any ScheduledTask] = []
}

/// BGTaskScheduler against docs/platform-model.md "BGTaskScheduler".
@Suite struct TaskSchedulerModelTests {
  @Test func aSecondPendingRefreshIsRejectedWhileResubmittingTheSameIdentifierReplacesIt() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { system in registerCompleting(["a", "b"], on: system) }
    try system.submit(.refresh("a", earliestBeginDelay: .seconds(600)))
    #expect(throws: TaskSchedulerError(.tooManyPendingTaskRequests)) {
      try system.submit(.refresh("b"))
    }
    try system.submit(.refresh("a", earliestBeginDelay: .seconds(900)))
    #expect(system.pendingTaskRequests() == [.refresh("a", earliestBeginDelay: .seconds(900))])
    #expect(
      eventLines(system.trace).suffix(4) == [
        "0 sched.submit ident=a type=refresh earliest=600",
        "0 sched.submit ident=b type=refresh",
        "0 sched.reject ident=b error=tooManyPendingTaskRequests",
        "0 sched.submit ident=a type=refresh earliest=900",
      ])
    // Only the replacement launches: once, no earlier than 900 (and, with the realistic
    // policy's delay of at most 8 h, before 900 + 8 h).
    system.moveToBackground()
    system.advance(by: .seconds(9 * 3600))
    let launched = launches(system.trace)
    #expect(launched.map(\.ident) == ["a"])
    #expect(launched.allSatisfy { $0.time >= TraceTime(seconds: 900) })
  }

  @Test func anEleventhPendingProcessingRequestIsRejected() throws {
    let system = SimulatedSystem(seed: 1)
    system.launch { system in registerCompleting((1...11).map { "p\($0)" } + ["r"], on: system) }
    for index in 1...10 { try system.submit(.processing("p\(index)")) }
    #expect(throws: TaskSchedulerError(.tooManyPendingTaskRequests)) {
      try system.submit(.processing("p11"))
    }
    #expect(
      eventLines(system.trace).suffix(2) == [
        "0 sched.submit ident=p11 type=processing",
        "0 sched.reject ident=p11 error=tooManyPendingTaskRequests",
      ])
    #expect(system.pendingTaskRequests().count == 10)
    // Replacing one of the ten is not an eleventh, and refresh has its own limit.
    try system.submit(.processing("p1", requiresExternalPower: true))
    try system.submit(.refresh("r"))
    #expect(system.pendingTaskRequests().count == 11)
  }

  @Test func registeringAnIdentifierTwiceKillsTheApp() {
    let system = SimulatedSystem(seed: 1)
    var results: [Bool] = []
    system.launch { system in
      results.append(system.register(forTaskWithIdentifier: "refresh", using: nil) { _ in })
      results.append(system.register(forTaskWithIdentifier: "refresh", using: nil) { _ in })
    }
    #expect(results == [true, false])
    #expect(system.state == nil)
    #expect(
      eventLines(system.trace).prefix(4) == [
        "0 app.launch",
        "0 sched.register ident=refresh",
        "0 sched.register ident=refresh",
        "0 app.terminate reason=crash",
      ])
  }

  @Test
  func anAppKilledWhileLaunchingNeverBecomesActive() {
    let system = SimulatedSystem(seed: 1)
    system.launch { system in
      system.register(forTaskWithIdentifier: "refresh", using: nil) { _ in }
      system.register(forTaskWithIdentifier: "refresh", using: nil) { _ in }
    }
    system.advance(by: .seconds(10))
    #expect(
      eventLines(system.trace) == [
        "0 app.launch",
        "0 sched.register ident=refresh",
        "0 sched.register ident=refresh",
        "0 app.terminate reason=crash",
      ])
  }

  @Test func registeringAfterLaunchEndedKillsTheApp() {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    system.advance(by: .seconds(5))
    let registered = system.register(forTaskWithIdentifier: "late", using: nil) { _ in }
    #expect(!registered)
    #expect(system.state == nil)
    #expect(
      eventLines(system.trace).suffix(2) == [
        "5 sched.register ident=late",
        "5 app.terminate reason=crash",
      ])
  }

  @Test func anIdentifierMissingFromThePermittedListCannotRegisterOrSubmit() {
    var configuration = SimulationConfiguration()
    configuration.permittedIdentifiers = ["com.example.refresh"]
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    var registered: [Bool] = []
    system.launch { system in
      registered.append(system.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { _ in })
      registered.append(system.register(forTaskWithIdentifier: "com.example.other", using: nil) { _ in })
    }
    #expect(registered == [true, false])
    #expect(system.state == .active)  // not permitted is not a crash
    #expect(throws: TaskSchedulerError(.notPermitted)) {
      try system.submit(.refresh("com.example.other"))
    }
    #expect(system.pendingTaskRequests().isEmpty)
    #expect(
      eventLines(system.trace) == [
        "0 app.launch",
        "0 sched.register ident=com.example.refresh",
        "0 sched.register ident=com.example.other ok=false",
        "0 app.state to=active",
        "0 sched.submit ident=com.example.other type=refresh",
        "0 sched.reject ident=com.example.other error=notPermitted",
      ])
  }

  @Test func submittingWithBackgroundRefreshOffFailsWithUnavailable() {
    var configuration = SimulationConfiguration()
    configuration.backgroundRefreshEnabled = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { system in registerCompleting(["r"], on: system) }
    #expect(throws: TaskSchedulerError(.unavailable)) { try system.submit(.refresh("r")) }
    #expect(system.pendingTaskRequests().isEmpty)
    #expect(eventLines(system.trace).last == "0 sched.reject ident=r error=unavailable")
  }

  @Test func earliestBeginDateIsALowerBound() throws {
    var launchTimes: Set<TraceTime> = []
    for seed in UInt64(1)...20 {
      let system = SimulatedSystem(seed: seed)
      system.launch { system in
        system.register(forTaskWithIdentifier: "r", using: nil) { $0.setTaskCompleted(success: true) }
      }
      system.advance(by: .seconds(100))
      try system.submit(.refresh("r", earliestBeginDelay: .seconds(600)))
      system.moveToBackground()
      system.advance(by: .seconds(9 * 3600))
      // Submitted at 100 with a 600 s delay: never before 100 + 600 = 700.
      let launched = launches(system.trace)
      #expect(launched.count == 1, "seed \(seed)")
      #expect(launched.allSatisfy { $0.time >= TraceTime(seconds: 700) }, "seed \(seed)")
      launchTimes.formUnion(launched.map(\.time))
    }
    #expect(launchTimes.count > 1)  // the seeded delay really varies the launch time
  }

  @Test func processingRequestsWaitForNetworkAndPower() throws {
    var configuration = immediateLaunches()
    configuration.networkAvailable = false
    configuration.charging = false
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { system in
      system.register(forTaskWithIdentifier: "p", using: nil) { $0.setTaskCompleted(success: true) }
    }
    try system.submit(.processing("p", requiresNetworkConnectivity: true, requiresExternalPower: true))
    system.moveToBackground()
    system.advance(by: .seconds(3600))
    system.setEnvironment(network: true)  // power still missing
    system.advance(by: .seconds(600))
    #expect(launches(system.trace).isEmpty)
    system.setEnvironment(network: true, charging: true)
    system.advance(by: .seconds(600))
    // Both requirements hold from 3600 + 600 = 4200 on.
    let launched = launches(system.trace)
    #expect(launched.map(\.ident) == ["p"])
    #expect(launched.map(\.time) == [TraceTime(seconds: 4200)])
    #expect(eventLines(system.trace).contains("0 sched.submit ident=p type=processing network=true power=true"))
  }

  @Test func aLaunchedTaskWithNoExpirationHandlerIsExpiredThirtySecondsAfterLaunch() throws {
    let system = SimulatedSystem(seed: 1, configuration: immediateLaunches())
    // The app keeps the task (a task it lets go of can never complete), with no
    // expiration handler: the system completes it, unsuccessfully, and kills nothing.
    let held = HeldTasks()
    system.launch { system in system.register(forTaskWithIdentifier: "r", using: nil) { held.tasks.append($0) } }
    try system.submit(.refresh("r"))
    system.advance(by: .seconds(10))
    system.moveToBackground()
    system.advance(by: .seconds(600))
    // Launched on entering the background (10); the immediate policy gives the full 30 s: 10 + 30 = 40.
    let scheduled = eventLines(system.trace).filter { $0.contains(" sched.launch") || $0.contains(" sched.expire") }
    #expect(scheduled == ["10 sched.launch ident=r run=1", "40 sched.expire run=1"])
    #expect(!eventLines(system.trace).contains { $0.contains("app.terminate") })
  }

  @Test func aRefreshLaunchesOnlyWhileTheAppIsInTheBackground() throws {
    var configuration = SimulationConfiguration()
    configuration.launchPolicy.refreshDelay = .seconds(5) ... .seconds(5)
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launch { system in
      system.register(forTaskWithIdentifier: "r", using: nil) { $0.setTaskCompleted(success: true) }
    }
    try system.submit(.refresh("r"))
    system.advance(by: .seconds(100))
    // Due at 0 + 5 = 5, but the app is active until 100: it launches as the app enters
    // the background.
    #expect(launches(system.trace).isEmpty)
    system.moveToBackground()
    system.advance(by: .seconds(100))
    let launched = launches(system.trace)
    #expect(launched.map(\.ident) == ["r"])
    #expect(launched.map(\.time) == [TraceTime(seconds: 100)])
  }
}
