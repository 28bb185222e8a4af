import BackgroundExamples
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Foundation
import TestSupport

/// What the `…ExampleTests` suites share: where their goldens live, and the checker's
/// findings and the trace's events as the text lines a reviewer reads in the golden.
///
/// Each suite runs one seed article's code (ported to the platform protocols) in a
/// `SimulatedSystem`, asserts by hand what the checker finds, and compares the trace
/// with a golden under `Traces/golden/ios/` or `Traces/golden/android/`.
enum ExampleTrace {
  /// `Traces/golden` in the repository: one folder per platform.
  private static let goldens = Repository.goldens

  /// `Traces/golden/ios`: the iPhone examples' goldens (`meta platform=ios`).
  static let iosGoldens = goldens.appendingPathComponent("ios").path
  /// `Traces/golden/android`: the Android examples' goldens (`meta platform=android`).
  static let androidGoldens = goldens.appendingPathComponent("android").path

  /// Every rule, warnings included: for the scenarios whose code is right.
  static let clean = GoldenChecks(rules: Set(Rule.allCases), strict: true)

  /// The checker's findings (default configuration), each as `rule-id @ EVENT`, where
  /// EVENT is the text line of the event the finding is located at.
  static func findings(in trace: RecordedTrace) -> [String] {
    TraceChecker.check(trace).map { finding in
      "\(finding.rule.id) @ \(handWrittenLine(for: trace.events[finding.location - 1]))"
    }
  }

  /// The checker's messages, for tests that check what a finding says.
  static func messages(in trace: RecordedTrace) -> [String] {
    TraceChecker.check(trace).map(\.message)
  }

  /// The severities of the checker's findings.
  static func severities(in trace: RecordedTrace) -> [Severity] {
    TraceChecker.check(trace).map(\.severity)
  }

  /// The text lines of the events whose line contains `fragment` (such as
  /// `" task.expire "` or `" work.start "`), in trace order.
  static func lines(_ fragment: String, in trace: RecordedTrace) -> [String] {
    trace.events.map(handWrittenLine(for:)).filter { ($0 + " ").contains(fragment) }
  }
}

/// An app whose code runs only when the user does something: each user action
/// (`SimulatedSystem.userAction`, recorded as `mark label=user:…`) runs `perform`, in
/// the simulation and again in a replay.
final class UserActionApp: BackgroundAppDelegate {
  let perform: (String) -> Void

  init(_ perform: @escaping (String) -> Void) {
    self.perform = perform
  }

  func perform(userAction action: String) { perform(action) }
}

/// The user actions of the example scenarios, shared by the simulation and the replay.
enum ExampleActions {
  /// `send:SECONDS` or `send:SECONDS:fail`: the seed's `sendCriticalData`.
  static func criticalData(_ action: String, _ sender: CriticalDataSender) {
    let parts = action.split(separator: ":")
    guard parts.first == "send", parts.count >= 2, let seconds = Int(parts[1]) else { return }
    sender.sendCriticalData(taking: .seconds(seconds), fails: parts.count == 3 && parts[2] == "fail")
  }

  /// `start:NAME`, `start-noting:NAME` (its expiration handler calls `noteExpiration`),
  /// `end:NAME`: the seed's `BackgroundTaskManager`.
  static func taskManager(
    _ action: String, _ manager: BackgroundTaskManager, noteExpiration: @escaping @Sendable (String) -> Void
  ) {
    let parts = action.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return }
    switch parts[0] {
    case "start": manager.startTask(name: parts[1])
    case "start-noting": manager.startTask(name: parts[1]) { noteExpiration(parts[1]) }
    case "end": manager.endTask(name: parts[1])
    default: break
    }
  }
}
