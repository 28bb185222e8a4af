/// Android's foreground services as app code uses them: `Context.startForegroundService`
/// starts a ``ForegroundService``, whose `onStartCommand` must call `startForeground`
/// with its type in time; the service stops itself with `stopSelf`; when its type's time
/// is spent the system calls its `onTimeout`, and it must stop within seconds
/// (docs/rules.md, "Foreground services").
///
/// ```swift
/// try services.startForegroundService("sync", SyncService())
/// // fgs.start service=sync; then SyncService.onStartCommand(control):
/// try control.startForeground(type: .dataSync)  // fgs.foreground service=sync type=dataSync
/// control.stopSelf()  // fgs.stop service=sync
/// ```
public protocol ForegroundServices: AnyObject, Sendable {
  /// `Context.startForegroundService(intent)`: starts the service `name`, whose
  /// ``ForegroundService/onStartCommand(_:)`` then runs on the main thread.
  ///
  /// - Throws: ``ForegroundServiceError`` when the system refuses the start (from the
  ///   background on Android 12 and later: `ForegroundServiceStartNotAllowedException`).
  func startForegroundService(_ name: String, _ service: any ForegroundService) throws(ForegroundServiceError)

  /// `Service.startForeground(id, notification, type)` for the running service `name`;
  /// `type` `nil` is the untyped `startForeground(id, notification)`.
  ///
  /// - Throws: ``ForegroundServiceError`` when the system refuses it (no type on Android
  ///   14 and later; the type's time already spent).
  func startForeground(_ name: String, type: ForegroundServiceType?) throws(ForegroundServiceError)

  /// `Service.stopSelf()` (or `stopService`, `stopForeground(STOP_FOREGROUND_REMOVE)`)
  /// for the service `name`.
  func stopService(_ name: String)
}

/// A service's code (`android.app.Service`): what the system calls.
public protocol ForegroundService: AnyObject, Sendable {
  /// `onStartCommand`: the service started; it must call
  /// ``ForegroundServiceControl/startForeground(type:)`` within seconds.
  func onStartCommand(_ control: ForegroundServiceControl)
  /// `onTimeout(startId, fgsType)`: the service's type has used its time; stop within
  /// 10 s or the app crashes. The default does nothing, as `Service.onTimeout` does.
  func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType)
}

extension ForegroundService {
  /// Does nothing, as `Service.onTimeout` does: a service that keeps it crashes the app.
  public func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType) {}
}

/// What a running service calls on itself (the `Service` methods), bound to its name.
public struct ForegroundServiceControl: Sendable {
  /// The service's name.
  public let name: String
  /// The services it belongs to.
  public let services: any ForegroundServices

  /// Binds `name` to `services`.
  public init(name: String, services: any ForegroundServices) {
    self.name = name
    self.services = services
  }

  /// `startForeground(id, notification, type)`.
  ///
  /// - Throws: ``ForegroundServiceError`` when the system refuses it.
  public func startForeground(type: ForegroundServiceType?) throws(ForegroundServiceError) {
    try services.startForeground(name, type: type)
  }

  /// `stopSelf()`.
  public func stopSelf() { services.stopService(name) }
}

/// Why the system refused a foreground service, as the exception it threw.
public struct ForegroundServiceError: BackgroundTraceError, Hashable {
  /// The trace's `fgs.refuse reason=`.
  public var reason: ForegroundServiceRefusal
  /// The service refused.
  public var service: String
  /// The type it asked for, when the refusal names it (`boot-completed`).
  public var type: ForegroundServiceType?

  /// A refusal of `service` for `reason`.
  public init(_ reason: ForegroundServiceRefusal, service: String) {
    self.reason = reason
    self.service = service
  }

  /// A refusal of `service`, of a service of `type`, for `reason` (one that names the
  /// type, `boot-completed`).
  public init(_ reason: ForegroundServiceRefusal, service: String, type: ForegroundServiceType?) {
    self.reason = reason
    self.service = service
    self.type = type
  }

  /// Always ``TraceErrorKind/foregroundServiceRefusal``.
  public var kind: TraceErrorKind { .foregroundServiceRefusal }
  /// `nil`: the refusal is in no input.
  public var file: String? { nil }
  /// `nil`: the refusal is in no input.
  public var position: TracePosition? { nil }
  /// The exception's message, as Android words it.
  public var message: String { description }

  /// The exception's message, as Android words it.
  public var description: String {
    switch reason {
    case .background:
      "ForegroundServiceStartNotAllowedException: startForegroundService() not allowed due to "
        + "mAllowStartForeground false: service \(service)"
    case .noType: "MissingForegroundServiceTypeException: Starting FGS without a type (service \(service))"
    case .exhausted: "ForegroundServiceStartNotAllowedException: Time limit already exhausted for \(service)"
    case .notRunning:
      "IllegalStateException: Calls to setForegroundAsync() must complete before a ListenableWorker signals "
        + "completion of work by returning an instance of Result. (work \(service))"
    case .permission:
      // ActiveServices.validateForegroundServiceType, with ForegroundServiceTypePolicy's wording.
      "SecurityException: Starting FGS with type \(type?.rawValue ?? "none") callerApp=… requires permissions: all "
        + "of the permissions allOf=true [\(type?.permission ?? "")] (service \(service))"
    case .whileInUse:
      // ActiveServices.validateForegroundServiceType: the type's runtime permission, held
      // only while the app is in use.
      "SecurityException: Starting FGS with type \(type?.rawValue ?? "none") callerApp=… requires permissions: any "
        + "of the permissions allOf=false [\(type?.whileInUsePermissions.joined(separator: ", ") ?? "")] "
        + "(service \(service))"
    case .bootCompleted:
      // ActiveServices.setServiceForegroundInnerLocked.
      "ForegroundServiceStartNotAllowedException: FGS type \(type?.rawValue ?? "none") not allowed to start from "
        + "BOOT_COMPLETED! (service \(service))"
    }
  }
}
