import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceReplay
import Foundation
import Testing

// Three background-task helpers from public apps, ported to the protocols as their
// authors wrote them (bugs included): `UIApplication.shared` becomes the injected
// `host`, and a static identifier becomes an instance property so tests do not share
// it. Each runs in the simulation, then its trace replays against the same code.

/// MetaMask iOS SDK, metamask-ios-sdk/Classes/backgroundtaskmanager/BackgroundTaskManager.swift:
/// `start()` begins a task whose expiration handler calls `stop()`; `stop()` ends the
/// stored identifier and resets it to `.invalid` — without checking it first.
final class MetaMaskBackgroundTaskManager: @unchecked Sendable {
  let host: any BackgroundTaskHost
  var task = BackgroundTaskID(rawValue: 0)
  init(host: any BackgroundTaskHost) { self.host = host }

  func start() {
    task = host.beginBackgroundTask(expirationHandler: { self.stop() })
  }

  func stop() {
    host.endBackgroundTask(task)
    task = .invalid
  }
}

/// WalletConnectSwiftV2, Sources/WalletConnectRelay/SocketConnectionHandler/BackgroundTaskRegistering.swift:
/// `register(name:completion:)` resets the stored identifier, begins a task, and ends
/// it only in the expiration handler (which then calls `completion`, disconnecting).
final class WalletConnectBackgroundTaskRegistrar: @unchecked Sendable {
  let host: any BackgroundTaskHost
  private var backgroundTaskID = BackgroundTaskID.invalid
  init(host: any BackgroundTaskHost) { self.host = host }

  /// `completion` is `@Sendable` here: UIKit's handler, `@MainActor @Sendable`, calls it,
  /// and Swift 6 refuses a plain closure there.
  func register(name: String, completion: @escaping @Sendable () -> Void) {
    backgroundTaskID = .invalid
    backgroundTaskID = host.beginBackgroundTask(withName: name) { [unowned self] in
      host.endBackgroundTask(backgroundTaskID)
      backgroundTaskID = .invalid
      completion()
    }
  }
}

/// fireengine-ios/iCarousel (Depo), Depo/Business/Services/BackgroundTaskService.swift:
/// one task at a time, named with a fresh `UUID().uuidString` — read here through
/// `RecordedInputs.valueNow`, so the trace records the name and a replay gets it back.
final class DepoBackgroundTaskService: @unchecked Sendable {
  let host: any BackgroundTaskHost
  let inputs: any RecordedInputs
  private var backgroundTaskId = BackgroundTaskID.invalid
  init(host: any BackgroundTaskHost, inputs: any RecordedInputs) {
    self.host = host
    self.inputs = inputs
  }

  func beginBackgroundTask() {
    guard backgroundTaskId == .invalid else { return }
    let name = inputs.valueNow(for: "task.name") { UUID().uuidString }
    backgroundTaskId = host.beginBackgroundTask(withName: name) { [weak self] in
      self?.endBackgroundTask()
    }
  }

  func endBackgroundTask() {
    if backgroundTaskId != .invalid {
      host.endBackgroundTask(backgroundTaskId)
      backgroundTaskId = .invalid
    }
  }
}

/// The app around each helper: what it does as the user leaves and returns.
final class PatternApp: BackgroundAppDelegate, @unchecked Sendable {
  let onBackground: () -> Void
  let onForeground: () -> Void
  init(onBackground: @escaping () -> Void, onForeground: @escaping () -> Void = {}) {
    self.onBackground = onBackground
    self.onForeground = onForeground
  }
  func didEnterBackground() { onBackground() }
  func didBecomeActive() { onForeground() }
}

@Suite struct RealWorldPatternTests {
  /// Runs `scenario` on a fresh system with `makeApp`, then replays the trace against a
  /// fresh app; the replay must reproduce the run exactly.
  private func simulateAndReplay(
    seed: UInt64, makeApp: @escaping (any BackgroundTaskHost, any RecordedInputs) -> PatternApp,
    _ scenario: (SimulatedSystem) -> Void
  ) -> (trace: RecordedTrace, replay: ReplayResult) {
    let system = SimulatedSystem(seed: seed)
    system.launchApp { makeApp($0, $0.inputs) }
    scenario(system)
    let trace = system.trace
    let replay = Replayer.replay(trace, timing: .exact) { makeApp($0, $0.inputs) }
    return (trace, replay)
  }

  /// The SDK stops its task when the app returns; after an expiration already stopped
  /// it, the second stop ends `.invalid`.
  @Test func metaMaskStopsTwiceAfterAnExpiration() {
    let (trace, replay) = simulateAndReplay(seed: 1) { host, _ in
      let manager = MetaMaskBackgroundTaskManager(host: host)
      return PatternApp(onBackground: manager.start, onForeground: manager.stop)
    } _: { system in
      system.advance(by: .seconds(1))
      system.moveToBackground()
      system.advance(by: .seconds(40))  // expires at 30: stop(); suspended
      system.moveToForeground()  // stop() again
    }
    // didBecomeActive also comes at launch, so the first stop() ends id 0 before any
    // start; the expiration's stop() ends task 1 at 30; returning stops `.invalid`.
    #expect(
      trace.events(.taskEnd).map(\.kind) == [.taskEnd(id: 0), .taskEnd(id: 1), .taskEnd(id: 0)])
    #expect(trace.events(.taskEnd).map(\.time) == [.zero, TraceTime(seconds: 30), TraceTime(seconds: 41)])
    #expect(trace.findings().map(\.rule) == [.taskUnknownEnd, .taskUnknownEnd])
    #expect(replay.divergence == nil)
    #expect(replay.trace.events == trace.events)
    #expect(replay.findings.map(\.rule) == [.taskUnknownEnd, .taskUnknownEnd])
  }

  /// Registering again while the first task is open overwrites its identifier: at the
  /// expiration the first task's handler ends the second task (which therefore never
  /// expires), and the first task is never ended — the watchdog kills the app.
  @Test func walletConnectRegisteringTwiceLeaksTheFirstTask() {
    let (trace, replay) = simulateAndReplay(seed: 2) { host, _ in
      let registrar = WalletConnectBackgroundTaskRegistrar(host: host)
      return PatternApp(onBackground: { registrar.register(name: "socket") {} })
    } _: { system in
      system.moveToBackground()  // register: task 1
      system.advance(by: .seconds(2))
      system.moveToForeground()
      system.advance(by: .seconds(1))
      system.moveToBackground()  // register again: task 2 overwrites task 1's id
      system.advance(by: .seconds(60))
    }
    #expect(
      trace.taskLifetimes.map(\.ending) == [
        .closed(at: TraceTime(seconds: 33), reason: "before the app terminated"),
        .ended(at: TraceTime(seconds: 32)),
      ])
    #expect(trace.events(.appTerminate).map(\.kind) == [.appTerminate(reason: "watchdog")])
    #expect(trace.findings().map(\.rule) == [.taskExpiredNotEnded])
    #expect(replay.divergence == nil)
    #expect(replay.trace.events == trace.events)
  }

  /// A fresh UUID names every task, so two runs differ; the replay takes the recorded
  /// name instead of making a new one.
  @Test func depoNamesItsTaskWithAUUIDThatReplays() throws {
    var services: [DepoBackgroundTaskService] = []
    let run: (UInt64) -> (trace: RecordedTrace, replay: ReplayResult) = { seed in
      self.simulateAndReplay(seed: seed) { host, inputs in
        let service = DepoBackgroundTaskService(host: host, inputs: inputs)
        services.append(service)
        return PatternApp(onBackground: service.beginBackgroundTask, onForeground: service.endBackgroundTask)
      } _: { system in
        system.moveToBackground()
        system.advance(by: .seconds(10))
        system.moveToForeground()
      }
    }
    let first = run(3)
    let second = run(3)
    let names = [first.trace, second.trace].map { trace in
      trace.events(.taskBegin).compactMap { if case .taskBegin(_, let name) = $0.kind { name } else { nil } }
    }
    #expect(names[0].count == 1 && names[1].count == 1)
    #expect(names[0] != names[1])  // a fresh UUID each run
    #expect(first.trace.findings().isEmpty)
    #expect(first.replay.divergence == nil)
    #expect(first.replay.trace.events == first.trace.events)  // the recorded UUID again
  }
}
