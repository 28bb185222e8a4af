import BackgroundTasks
import BackgroundTrace
import Dispatch
import Foundation
import Testing
import UIKit

/// The closure parameters of the protocols app code calls carry the isolation,
/// sendability and effects the iOS 26 SDK declares (as the shim, Tests/AppleSDKShim,
/// copies them from its headers), so that Swift 6 refuses against the protocols what it
/// refuses against the SDK, and accepts what it accepts. Each comparison reads both
/// types at run time: `String(describing:)` prints a function type with its attributes
/// (`@MainActor @Sendable () -> ()`).
@Suite struct SDKClosureTypeTests {
  /// A function type's attributes and effects, without its parameters and result:
  /// `Optional<@MainActor @Sendable () -> ()>` is `@MainActor @Sendable`,
  /// `@Sendable () async -> ()` is `@Sendable async`, and `(BGTask) -> ()` is `plain`.
  static func shape(_ type: Any.Type) -> String {
    var text = String(describing: type)
    if text.hasPrefix("Optional<"), text.hasSuffix(">") { text = String(text.dropFirst("Optional<".count).dropLast()) }
    guard let open = text.firstIndex(of: "(") else { return "not a function: \(text)" }
    var depth = 0
    var close = open
    for index in text[open...].indices {
      if text[index] == "(" { depth += 1 }
      if text[index] == ")" { depth -= 1 }
      if depth == 0 {
        close = index
        break
      }
    }
    let effects = text[text.index(after: close)...].components(separatedBy: "->").first ?? ""
    let parts = [text[..<open], Substring(effects)].map { $0.trimmingCharacters(in: .whitespaces) }
    return parts.allSatisfy(\.isEmpty) ? "plain" : parts.filter { !$0.isEmpty }.joined(separator: " ")
  }

  private static func secondParameter<Base, First, Second, Result>(
    of method: (Base) -> (First, Second) -> Result
  ) -> Any.Type { Second.self }

  private static func lastParameter<Base, A, B, C, Result>(of method: (Base) -> (A, B, C) -> Result) -> Any.Type {
    C.self
  }

  private static func lastParameter<Base, A, B, C, D, Result>(of method: (Base) -> (A, B, C, D) -> Result)
    -> Any.Type
  { D.self }

  private static func hostHandler<Host: BackgroundTaskHost>(_: Host.Type) -> Any.Type {
    secondParameter(of: Host.beginBackgroundTask(withName:expirationHandler:))
  }

  private static func launchHandler<Scheduler: TaskScheduling>(_: Scheduler.Type) -> Any.Type {
    lastParameter(of: Scheduler.register(forTaskWithIdentifier:using:registeredFrom:launchHandler:))
  }

  private static func value<Root, Value>(_: KeyPath<Root, Value>) -> Any.Type { Value.self }

  /// UIApplication.h, iOS 26 SDK: `beginBackgroundTaskWithName:expirationHandler:`'s
  /// handler is `NS_SWIFT_UI_ACTOR` and the method `NS_SWIFT_NONISOLATED`: in Swift
  /// `(@MainActor @Sendable () -> Void)?`.
  @Test func theBackgroundTaskHandlerIsUIKits() {
    let uikit = Self.shape(Self.secondParameter(of: UIApplication.beginBackgroundTask(withName:expirationHandler:)))
    #expect(uikit == "@MainActor @Sendable")
    #expect(Self.shape(Self.hostHandler(TracingBackgroundTaskHost.self)) == uikit)
  }

  /// BGTask.h, iOS 26 SDK: `@property (nullable, strong) void (^expirationHandler)(void)`:
  /// a plain closure, neither `@Sendable` nor main-actor.
  @Test func theTaskExpirationHandlerIsBGTasks() {
    let sdk = Self.shape(Self.value(\BGTask.expirationHandler))
    #expect(sdk == "plain")
    #expect(Self.shape(Self.value(\(any ScheduledTask).expirationHandler)) == sdk)
  }

  /// BGTaskScheduler.h, iOS 26 SDK: `registerForTaskWithIdentifier:usingQueue:launchHandler:`'s
  /// handler has no annotation: a plain `(BGTask) -> Void`.
  @Test func theLaunchHandlerIsBGTaskSchedulers() {
    let sdk = Self.shape(Self.lastParameter(of: BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)))
    #expect(sdk == "plain")
    #expect(Self.shape(Self.launchHandler(TracingTaskScheduler.self)) == sdk)
  }

  /// SwiftUI, `Scene.backgroundTask(_:action:)` (the shim's declaration, from Apple's
  /// page): `action: @escaping @Sendable (D) async -> R`.
  @Test func theSwiftUIActionIsSwiftUIs() {
    func action<Scheduler: TaskScheduling>(_: Scheduler.Type) -> Any.Type {
      Self.secondParameter(of: Scheduler.backgroundTask(_:action:))
    }
    #expect(Self.shape(action(TracingTaskScheduler.self)) == "@Sendable async")
  }
}
