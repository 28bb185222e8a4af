/// A unique token that identifies a request to run in the background.
///
/// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
/// (`struct UIBackgroundTaskIdentifier`: RawRepresentable, Hashable, Sendable;
/// UIApplication.h: `typedef NSUInteger UIBackgroundTaskIdentifier`, which Swift imports
/// as a struct wrapping `Int`).
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
  /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/invalid
  /// (`static let invalid: UIBackgroundTaskIdentifier`; UIApplication.h: `UIKIT_EXTERN const
  /// UIBackgroundTaskIdentifier UIBackgroundTaskInvalid API_AVAILABLE(ios(4.0))`, 0).
  public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)

  /// The raw token (UIApplication.h's `NSUInteger`, imported as `Int`).
  public var rawValue: Int

  /// Apple: https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/init(rawvalue:)
  /// (`init(rawValue: Int)`, as Swift imports UIApplication.h's typedef).
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }
}
