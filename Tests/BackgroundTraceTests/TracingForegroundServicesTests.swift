import Synchronization
import Testing

@testable import BackgroundTrace

/// A base that runs `onStartCommand` at once, refuses `startForeground` without a type,
/// and lets the test call a service's `onTimeout`.
private final class FakeServices: ForegroundServices {
  let started = Mutex<[String: any ForegroundService]>([:])

  func startForegroundService(_ name: String, _ service: any ForegroundService) throws(ForegroundServiceError) {
    started.withLock { $0[name] = service }
    service.onStartCommand(ForegroundServiceControl(name: name, services: self))
  }

  func startForeground(_ name: String, type: ForegroundServiceType?) throws(ForegroundServiceError) {
    if type == nil { throw ForegroundServiceError(.noType, service: name) }
  }

  func stopService(_ name: String) {}

  func timeOut(_ name: String, type: ForegroundServiceType) {
    let service = started.withLock { $0[name] }
    service?.onTimeout(ForegroundServiceControl(name: name, services: self), type: type)
  }
}

/// Goes foreground with `type` at its start and stops itself in `onTimeout`.
private final class SelfStoppingService: ForegroundService {
  let type: ForegroundServiceType?
  init(type: ForegroundServiceType?) { self.type = type }

  func onStartCommand(_ control: ForegroundServiceControl) {
    try? control.startForeground(type: type)
  }

  func onTimeout(_ control: ForegroundServiceControl, type: ForegroundServiceType) {
    control.stopSelf()
  }
}

@Suite struct TracingForegroundServicesTests {
  /// The wrapper records the app's calls, a refusal, and `onTimeout` as the base
  /// delivers it, the service's own calls through the wrapper too.
  @Test func everyCallAndTheTimeoutAreRecorded() throws {
    let recorder = TraceRecorder()
    let base = FakeServices()
    let services = TracingForegroundServices(base: base, recorder: recorder)
    try services.startForegroundService("sync", SelfStoppingService(type: .dataSync))
    try services.startForegroundService("player", SelfStoppingService(type: nil))
    base.timeOut("sync", type: .dataSync)
    #expect(
      recorder.trace.events.map(\.kind) == [
        .fgsStart(service: "sync"), .fgsForeground(service: "sync", type: .dataSync), .fgsStart(service: "player"),
        .fgsForeground(service: "player", type: nil), .fgsRefuse(service: "player", reason: .noType),
        .fgsTimeout(service: "sync", type: .dataSync), .fgsStop(service: "sync"),
      ])
  }

  /// A worker's `setForeground` through a tracing queue's worker records
  /// `work.foreground`, then does what the queue's own `setForeground` does.
  @Test func aTracedWorkersSetForegroundIsRecorded() async throws {
    struct Promoting: BackgroundWorker {
      func doWork(_ context: WorkContext) async -> WorkResult {
        try? await context.setForeground(ForegroundInfo(type: .dataSync))
        return .success
      }
    }
    let recorder = TraceRecorder()
    let promoted = Mutex(false)
    let context = WorkContext(work: "upload", runAttemptCount: 0) { _ in promoted.withLock { $0 = true } }
    let result = try await TracingWorker(base: Promoting(), recorder: recorder).doWork(context)
    #expect(result == .success && promoted.withLock { $0 })
    #expect(
      recorder.trace.events.map(\.kind) == [
        .workStart(work: "upload", attempt: 0), .workForeground(work: "upload", attempt: 0),
        .workResult(work: "upload", attempt: 0, outcome: .success),
      ])
  }

  /// A `setForeground` the base queue refuses is recorded as `work.refuse` with its
  /// reason, and the error reaches the worker.
  @Test func aTracedWorkersRefusedSetForegroundIsRecorded() async throws {
    struct Promoting: BackgroundWorker {
      func doWork(_ context: WorkContext) async -> WorkResult {
        do {
          try await context.setForeground(ForegroundInfo(type: .dataSync))
          return .success
        } catch {
          return error.reason == .background ? .retry : .failure
        }
      }
    }
    let recorder = TraceRecorder()
    let context = WorkContext(work: "upload", runAttemptCount: 0) { (_) throws(ForegroundServiceError) in
      throw ForegroundServiceError(.background, service: "upload")
    }
    let result = try await TracingWorker(base: Promoting(), recorder: recorder).doWork(context)
    #expect(result == .retry)
    #expect(
      recorder.trace.events.map(\.kind) == [
        .workStart(work: "upload", attempt: 0), .workForeground(work: "upload", attempt: 0),
        .workRefuse(work: "upload", attempt: 0, reason: .background),
        .workResult(work: "upload", attempt: 0, outcome: .retry),
      ])
  }
}
