extension BGTaskScheduler {
  /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error
  /// (`struct Error`: the errors of the `BGTaskSchedulerErrorDomain`, with a ``Code``).
  public struct Error: Swift.Error, Hashable, Sendable {
    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code
    /// (`enum Code`; `Int` raw values 1 to 4 as in `BGTaskSchedulerErrorCode`).
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

    /// The error's code, as on every bridged `NSError` struct.
    public let code: Code

    /// Creates an error with `code`, as bridged `NSError` structs allow.
    public init(_ code: Code) {
      self.code = code
    }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/unavailable
    /// (`static var unavailable: BGTaskScheduler.Error.Code { get }`).
    public static var unavailable: Code { .unavailable }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/toomanypendingtaskrequests
    /// (`static var tooManyPendingTaskRequests: BGTaskScheduler.Error.Code { get }`).
    public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }

    /// Apple: https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/notpermitted
    /// (`static var notPermitted: BGTaskScheduler.Error.Code { get }`).
    public static var notPermitted: Code { .notPermitted }
  }
}
