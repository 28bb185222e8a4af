extension BGTaskScheduler {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error
  /// (`struct Error: CustomNSError, Hashable, Error`: the errors of
  /// `BGTaskSchedulerErrorDomain`, imported from BGTaskScheduler.h's (iOS 26.0 SDK)
  /// `typedef NS_ERROR_ENUM(BGTaskSchedulerErrorDomain, BGTaskSchedulerErrorCode) {…}
  /// API_AVAILABLE(ios(13.0), tvos(13.0)) API_UNAVAILABLE(macos) API_UNAVAILABLE(watchos)`).
  public struct Error: CustomNSError, Hashable, Sendable {
    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code
    /// (`enum Code: Int`; BGTaskScheduler.h, iOS 26.0 SDK: `BGTaskSchedulerErrorCodeUnavailable = 1`,
    /// `…TooManyPendingTaskRequests = 2`, `…NotPermitted = 3`, `…ImmediateRunIneligible = 4`).
    public enum Code: Int, Hashable, Sendable {
      /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/unavailable
      case unavailable = 1
      /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/toomanypendingtaskrequests
      case tooManyPendingTaskRequests = 2
      /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/notpermitted
      case notPermitted = 3
      /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/immediaterunineligible
      /// (iOS 26).
      case immediateRunIneligible = 4
    }

    /// The error's code, as on every bridged `NSError` struct (Swift's import of
    /// BGTaskScheduler.h's `NS_ERROR_ENUM`, iOS 26.0 SDK).
    public let code: Code

    /// Creates an error with `code`, as bridged `NSError` structs allow (Swift's import of
    /// BGTaskScheduler.h's `NS_ERROR_ENUM`).
    public init(_ code: Code) {
      self.code = code
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskschedulererrordomain
    /// (BGTaskScheduler.h, iOS 26.0 SDK: `NSErrorDomain const BGTaskSchedulerErrorDomain`; in Swift
    /// `static var errorDomain: String { get }`, its value as iOS creates the errors,
    /// `errorWithDomain:@"BGTaskSchedulerErrorDomain"` in BGTaskScheduler.m).
    public static var errorDomain: String { "BGTaskSchedulerErrorDomain" }

    /// `CustomNSError`: the code's raw value, what `NSError.code` reads
    /// (BGTaskScheduler.h's `BGTaskSchedulerErrorCode` values).
    public var errorCode: Int { code.rawValue }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/unavailable
    /// (`static var unavailable: BGTaskScheduler.Error.Code { get }`; BGTaskScheduler.h's
    /// `BGTaskSchedulerErrorCodeUnavailable`).
    public static var unavailable: Code { .unavailable }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/toomanypendingtaskrequests
    /// (`static var tooManyPendingTaskRequests: BGTaskScheduler.Error.Code { get }`;
    /// BGTaskScheduler.h's `BGTaskSchedulerErrorCodeTooManyPendingTaskRequests`).
    public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/notpermitted
    /// (`static var notPermitted: BGTaskScheduler.Error.Code { get }`; BGTaskScheduler.h's
    /// `BGTaskSchedulerErrorCodeNotPermitted`).
    public static var notPermitted: Code { .notPermitted }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/immediaterunineligible
    /// (`static var immediateRunIneligible: BGTaskScheduler.Error.Code { get }`, iOS 26;
    /// BGTaskScheduler.h's `BGTaskSchedulerErrorCodeImmediateRunIneligible`).
    public static var immediateRunIneligible: Code { .immediateRunIneligible }

  }
}

/// Matches an error against a code, as `catch BGTaskScheduler.Error.notPermitted` does: the
/// SDK's Foundation overlay declares `~=` for every bridged `NSError` code
/// (`_ErrorCodeProtocol`), which the shim's codes, BGTaskScheduler.h's
/// `BGTaskSchedulerErrorCode`, stand in for.
public func ~= (code: BGTaskScheduler.Error.Code, error: any Error) -> Bool {
  (error as? BGTaskScheduler.Error)?.code == code
}
