/// ``ForegroundServices`` that forwards to a base (an Android adapter, or a fake) and
/// records every call: `fgs.start`, `fgs.foreground` and `fgs.stop` for the app's
/// calls, `fgs.refuse` when the base refuses one, and `fgs.timeout` as the system calls
/// a service's `onTimeout`.
///
/// ```swift
/// let services = TracingForegroundServices(base: androidServices, recorder: recorder)
/// try services.startForegroundService("sync", SyncService())
/// ```
public final class TracingForegroundServices: ForegroundServices {
  /// The services that do the work.
  public let base: any ForegroundServices
  /// Where events go.
  public let recorder: TraceRecorder

  /// Wraps `base`, recording into `recorder`.
  public init(base: any ForegroundServices, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  /// Records `fgs.start` and forwards the service wrapped, so its `onTimeout` records
  /// `fgs.timeout`; records `fgs.refuse` when the base refuses the start.
  public func startForegroundService(_ name: String, _ service: any ForegroundService) throws(ForegroundServiceError) {
    recorder.record(.fgsStart(service: name))
    do {
      try base.startForegroundService(name, TracingForegroundService(base: service, tracing: self))
    } catch {
      recorder.record(.fgsRefuse(service: name, reason: error.reason))
      throw error
    }
  }

  /// Records `fgs.foreground` and forwards; records `fgs.refuse` when the base refuses.
  public func startForeground(_ name: String, type: ForegroundServiceType?) throws(ForegroundServiceError) {
    recorder.record(.fgsForeground(service: name, type: type))
    do {
      try base.startForeground(name, type: type)
    } catch {
      recorder.record(.fgsRefuse(service: name, reason: error.reason))
      throw error
    }
  }

  /// Records `fgs.stop` and forwards.
  public func stopService(_ name: String) {
    recorder.record(.fgsStop(service: name))
    base.stopService(name)
  }
}

/// A service whose system calls reach the app through the tracing services: its
/// control records what the service calls on itself, and `onTimeout` is recorded.
final class TracingForegroundService: ForegroundService {
  let base: any ForegroundService
  let tracing: TracingForegroundServices

  init(base: any ForegroundService, tracing: TracingForegroundServices) {
    self.base = base
    self.tracing = tracing
  }

  func onStartCommand(_ control: ForegroundServiceControl) {
    base.onStartCommand(ForegroundServiceControl(name: control.name, services: tracing))
  }

  func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType) {
    tracing.recorder.record(.fgsTimeout(service: control.name, type: type))
    base.onTimeout(ForegroundServiceControl(name: control.name, services: tracing), type: type)
  }
}
