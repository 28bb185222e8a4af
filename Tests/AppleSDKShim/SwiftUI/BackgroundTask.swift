/// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask
/// (`struct BackgroundTask<Request, Response>`: "The kinds of background tasks that your
/// app or extension can handle"). The shim declares the one kind the adapter uses.
public struct BackgroundTask<Request, Response>: Sendable {
  /// Fake: the identifier the kind matches (not SwiftUI API).
  public let identifier: String
}

extension BackgroundTask where Request == Void, Response == Void {
  /// Apple: https://developer.apple.com/documentation/swiftui/backgroundtask/apprefresh(_:)
  /// (`static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void>`).
  public static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void> {
    BackgroundTask(identifier: identifier)
  }
}
