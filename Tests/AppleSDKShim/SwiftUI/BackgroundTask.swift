// SwiftUI has no headers: each declaration cites Apple's documentation of the current SDK,
// which gives the Swift declaration and its availability.

/// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask
/// (`struct BackgroundTask<Request, Response>`, iOS 16, iPadOS 16, Mac Catalyst 16,
/// macOS 13, tvOS 16, visionOS 1, watchOS 9: "The kinds of background tasks that your
/// app or extension can handle"). The shim declares the kinds the adapter uses.
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct BackgroundTask<Request, Response>: Sendable {
  /// Fake: where ``FakeBackgroundTasks`` keeps the kind's action: a scene built again
  /// replaces it (not SwiftUI API).
  let key: String
  /// Fake: which launches the kind matches (not SwiftUI API).
  let matches: @Sendable (FakeBackgroundTasks.Launch) -> Bool
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension BackgroundTask where Request == Void, Response == Void {
  /// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask/apprefresh(_:)
  /// (`static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void>`, iOS
  /// 16, iPadOS 16, Mac Catalyst 16, tvOS 16, visionOS 1, watchOS 9; not macOS).
  @available(macOS, unavailable)
  public static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void> {
    BackgroundTask(key: "appRefresh:\(identifier)") { $0 == .appRefresh(identifier) }
  }

  /// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession(_:)
  /// (`static func urlSession(_ identifier: String) -> BackgroundTask<Void, Void>`, iOS
  /// 16, iPadOS 16, Mac Catalyst 16, macOS 13, tvOS 16, visionOS 1, watchOS 9): "A task
  /// that responds to background URL sessions matching the given identifier".
  public static func urlSession(_ identifier: String) -> BackgroundTask<Void, Void> {
    BackgroundTask(key: "urlSession:\(identifier)") { $0 == .urlSession(identifier) }
  }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension BackgroundTask where Request == String, Response == Void {
  /// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession
  /// (`static var urlSession: BackgroundTask<String, Void> { get }`, same availability as
  /// `urlSession(_:)`): "A task that responds to background URL sessions"; the action
  /// gets the session's identifier.
  public static var urlSession: BackgroundTask<String, Void> {
    BackgroundTask(key: "urlSession") {
      if case .urlSession = $0 { true } else { false }
    }
  }

  /// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask/urlsession(matching:)
  /// (`static func urlSession(matching: @escaping @Sendable (String) -> Bool) ->
  /// BackgroundTask<String, Void>`, same availability): "A task that responds to
  /// background URL sessions matching the given predicate".
  public static func urlSession(matching: @escaping @Sendable (String) -> Bool) -> BackgroundTask<String, Void> {
    // A predicate has no identity to key on: each kind made is kept apart (the fake's
    // choice; SwiftUI keys a modifier by its place in the scene).
    BackgroundTask(key: "urlSession(matching:)#\(FakeBackgroundTasks.nextKey())") {
      if case .urlSession(let identifier) = $0 { matching(identifier) } else { false }
    }
  }
}
