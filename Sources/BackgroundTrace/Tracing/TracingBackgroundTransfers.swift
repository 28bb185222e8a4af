/// ``BackgroundTransfers`` that forwards to a base (the Apple adapter, or the
/// simulation) and records every session, transfer and delivery into a
/// ``TraceRecorder``: `net.create` and `net.submit` for the app's calls, `net.finish`
/// and `net.events-done` as the delegate receives them; ``wake(session:completionHandler:)``
/// records the system's `net.wake` and the app's `net.handler`.
///
/// ```swift
/// let transfers = TracingBackgroundTransfers(base: URLSessionTransfers(), recorder: recorder)
/// // In application(_:handleEventsForBackgroundURLSession:completionHandler:):
/// let handler = transfers.wake(session: identifier, completionHandler: completionHandler)
/// ```
public final class TracingBackgroundTransfers: BackgroundTransfers {
  /// The transfers that do the work.
  public let base: any BackgroundTransfers
  /// Where events go.
  public let recorder: TraceRecorder

  /// Wraps `base`, recording into `recorder`.
  public init(base: any BackgroundTransfers, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  /// Records `net.create` and forwards to the base, the delegate wrapped so that what
  /// the system delivers is recorded before the app's delegate sees it.
  public func session(identifier: String, discretionary: Bool, delegate: any BackgroundSessionDelegate)
    -> any BackgroundSession
  {
    recorder.record(.netCreate(session: identifier))
    let traced = TracingSessionDelegate(base: delegate, recorder: recorder)
    let session = base.session(identifier: identifier, discretionary: discretionary, delegate: traced)
    return TracingBackgroundSession(base: session, discretionary: discretionary, recorder: recorder)
  }

  /// Forwards to the base with `action` wrapped so that each run is recorded as a wake:
  /// `net.wake` when it starts, `net.handler` when it returns (when SwiftUI calls the
  /// completion handler), as ``wake(session:completionHandler:)`` records a delegate's.
  public func backgroundTask<Request: Sendable>(
    _ task: SwiftUIURLSessionTask<Request>, action: @escaping @Sendable (Request) async -> Void
  ) {
    let wakes = swiftUIWakes
    let sessionOf = task.request
    base.backgroundTask(.urlSession(matching: task.matches)) { session in
      await wakes.recordWake(of: session) { await action(sessionOf(session)) }
    }
  }

  /// Records the wakes SwiftUI hands a scene's `.backgroundTask(.urlSession(…))` action
  /// into this wrapper's recorder (the SwiftUI adapter's
  /// `backgroundTask(_:recordingWith:action:)` for URL-session kinds).
  public var swiftUIWakes: SwiftUIWakeRecorder { SwiftUIWakeRecorder(recorder: recorder) }

  /// Records `net.wake` for `session` and returns the handler to give the app: calling
  /// it records `net.handler`, then calls `completionHandler`.
  public func wake(session: String, completionHandler: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    recorder.record(.netWake(session: session))
    let recorder = self.recorder
    return {
      recorder.record(.netHandler(session: session))
      completionHandler()
    }
  }
}

/// A session that records `net.submit` with the task identifier its base returns.
final class TracingBackgroundSession: BackgroundSession {
  let base: any BackgroundSession
  let discretionary: Bool
  let recorder: TraceRecorder

  init(base: any BackgroundSession, discretionary: Bool, recorder: TraceRecorder) {
    self.base = base
    self.discretionary = discretionary
    self.recorder = recorder
  }

  var identifier: String { base.identifier }

  func startTransfer(_ request: TransferRequest) -> Int? {
    guard let task = base.startTransfer(request) else { return nil }  // no task, nothing to record
    recorder.record(
      .netSubmit(session: base.identifier, task: task, kind: request.kind, discretionary: discretionary ? true : nil))
    return task
  }
}

/// A delegate that records `net.finish` and `net.events-done` before forwarding them.
final class TracingSessionDelegate: BackgroundSessionDelegate {
  let base: any BackgroundSessionDelegate
  let recorder: TraceRecorder

  init(base: any BackgroundSessionDelegate, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
    recorder.record(.netFinish(session: session, task: task, outcome: outcome))
    base.transferDidComplete(session: session, task: task, outcome: outcome)
  }

  func sessionDidFinishEvents(session: String) {
    recorder.record(.netEventsDone(session: session))
    base.sessionDidFinishEvents(session: session)
  }
}

/// Records what SwiftUI does with a scene's `.backgroundTask(.urlSession(…))` action: each
/// wake it hands the action (`net.wake`), and its completion handler, which it calls when
/// the action returns (`net.handler`). Made by ``TracingBackgroundTransfers/swiftUIWakes``.
public struct SwiftUIWakeRecorder: Sendable {
  let recorder: TraceRecorder

  /// Runs `action` as SwiftUI's handling of a wake for `session`: records `net.wake`,
  /// then `net.handler` when the action returns.
  ///
  /// - Parameters:
  ///   - session: the background session's identifier.
  ///   - action: the app's action.
  public func recordWake(of session: String, _ action: @Sendable () async -> Void) async {
    recorder.record(.netWake(session: session))
    await action()
    recorder.record(.netHandler(session: session))
  }
}
