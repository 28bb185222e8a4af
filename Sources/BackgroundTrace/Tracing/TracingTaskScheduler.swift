public import Dispatch
import Synchronization

/// A ``TaskScheduling`` that forwards to a base scheduler and records registrations,
/// submissions, rejections, cancellations, launches, expirations and completions.
///
/// Launches are numbered (`run=`) in the order they happen, from 1.
public final class TracingTaskScheduler: TaskScheduling {
  /// The scheduler that does the work.
  public let base: any TaskScheduling
  /// Where events go.
  public let recorder: TraceRecorder
  /// Numbers the launches (`run=`), shared with ``swiftUIRuns``.
  let launches = LaunchNumbers()

  /// Wraps `base`, recording into `recorder`.
  public init(base: any TaskScheduling, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
  }

  /// Records `sched.register` and forwards, wrapping the handler so that each launch is
  /// numbered, recorded as `sched.launch`, and handed a task that records its expiration
  /// and completion.
  ///
  /// - Parameters:
  ///   - identifier: the task identifier.
  ///   - queue: passed to the base scheduler.
  ///   - isolation: the registering code's isolation, passed to the base scheduler.
  ///   - launchHandler: called with the recording task at each launch.
  /// - Returns: the base scheduler's result (recorded as `ok=false` when `false`).
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, registeredFrom isolation: (any Actor)?,
    launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    let recorder = self.recorder
    let ok = base.register(forTaskWithIdentifier: identifier, using: queue, registeredFrom: isolation) {
      [self] task in
      let run = launches.next()
      recorder.record(.schedLaunch(identifier: identifier, run: run))
      launchHandler(TracingScheduledTask.wrapping(task, run: run, recorder: recorder))
    }
    recorder.record(.schedRegister(identifier: identifier, ok: ok ? nil : false))
    return ok
  }

  /// Records `sched.submit` and forwards; when the base refuses, records `sched.reject`
  /// and rethrows.
  ///
  /// - Parameter request: the request to submit.
  /// - Throws: the base scheduler's ``TaskSchedulerError``.
  public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
    recorder.record(.schedSubmit(request.submission(at: recorder.currentTime)))
    do {
      try base.submit(request)
    } catch {
      recorder.record(.schedReject(identifier: request.identifier, error: error.code))
      throw error
    }
  }

  /// Records `sched.submit` and forwards to the base scheduler's async submit; when the
  /// base refuses, records `sched.reject` and rethrows. The trace is the same as for
  /// ``submit(_:)``: the submission is recorded when it is made, the rejection when it
  /// comes back.
  ///
  /// - Parameter request: the request to submit.
  /// - Throws: the base scheduler's ``TaskSchedulerError``.
  public func submitTaskRequest(_ request: TaskRequest) async throws(TaskSchedulerError) {
    recorder.record(.schedSubmit(request.submission(at: recorder.currentTime)))
    do {
      try await base.submitTaskRequest(request)
    } catch {
      recorder.record(.schedReject(identifier: request.identifier, error: error.code))
      throw error
    }
  }

  /// Records `sched.cancel` and forwards to the base scheduler.
  public func cancel(taskRequestWithIdentifier identifier: String) {
    recorder.record(.schedCancel(.identifier(identifier)))
    base.cancel(taskRequestWithIdentifier: identifier)
  }

  /// Records `sched.cancel all=true` and forwards to the base scheduler.
  public func cancelAllTaskRequests() {
    recorder.record(.schedCancel(.all))
    base.cancelAllTaskRequests()
  }

  /// The base scheduler's pending requests; asking records nothing.
  public func pendingTaskRequests() async -> [TaskRequest] { await base.pendingTaskRequests() }
}

/// A launched task that records its expiration and completion.
class TracingScheduledTask: ScheduledTask, @unchecked Sendable {
  let base: any ScheduledTask
  var run: Int? { runNumber }
  let runNumber: Int
  let recorder: TraceRecorder

  init(base: any ScheduledTask, run: Int, recorder: TraceRecorder) {
    self.base = base
    self.runNumber = run
    self.recorder = recorder
  }

  var identifier: String { base.identifier }

  var expirationHandler: (() -> Void)? {
    get { base.expirationHandler }
    set {
      guard let handler = newValue else {
        base.expirationHandler = nil
        return
      }
      let (recorder, run) = (self.recorder, self.runNumber)
      base.expirationHandler = {
        recorder.record(.schedExpire(run: run))
        handler()
      }
    }
  }

  func setTaskCompleted(success: Bool) {
    recorder.record(.schedComplete(run: runNumber, success: success))
    base.setTaskCompleted(success: success)
  }
}

/// Not Sendable: it forwards to a base scheduler, which is not Sendable.
@available(*, unavailable)
extension TracingTaskScheduler: Sendable {}
