/// A ``WorkQueue`` that forwards to a base queue and records enqueues, cancels, and
/// each worker run: `work.start` before `doWork`, `work.foreground` when it calls
/// `setForeground` (and `work.refuse` when that throws), `work.result` after it, or `work.stop reason=cancelled` when the run
/// was cancelled (stopped by the system). The result and the stop carry the request's
/// ``WorkRequest/tags`` as `tags=`, where WorkManager's log prints them.
public final class TracingWorkQueue: WorkQueue {
  /// The queue that does the work.
  public let base: any WorkQueue
  /// Where events go.
  public let recorder: TraceRecorder
  /// The ids of work enqueued with ``WorkQueue/enqueue(_:)``: the wrapper names it, so
  /// the trace and the base queue agree. They are the base queue's own, which names the
  /// works of their own of ``enqueueUniqueWork(_:policy:_:)``, so the two never give
  /// one id twice.
  public let workIDs: WorkIDs

  /// Wraps `base`, recording into `recorder`.
  public init(base: any WorkQueue, recorder: TraceRecorder) {
    self.base = base
    self.recorder = recorder
    self.workIDs = base.workIDs
  }

  /// Records `work.enqueue` and forwards the request with its worker wrapped, so each run
  /// records `work.start` and then `work.result` or `work.stop`. A request WorkManager
  /// refuses to build throws before anything is recorded. Returns what the base queue
  /// returns.
  ///
  /// With `keep`, `replace`, `append` or `appendOrReplace` the request goes through
  /// ``enqueueUniqueWork(_:policy:_:)``, which records what the base queue did with it:
  /// a name that holds works of their own puts it in one of its own.
  @discardableResult
  public func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) throws(WorkRequestError) -> Bool {
    try request.validate(policy: policy)
    if let policy, policy != .update, request.uniqueName == nil {
      return try !enqueueUniqueWork(request.work, policy: policy, [request]).works.isEmpty
    }
    recorder.record(.workEnqueue(request.enqueueEvent(policy: policy)))
    var traced = request
    traced.worker = TracingWorker(base: request.worker, recorder: recorder, tags: request.traceTags)
    return try base.enqueue(traced, policy: policy)
  }

  /// Records `work.enqueue` and a `work.after` per prerequisite, and forwards the
  /// request with its worker wrapped, as ``enqueue(_:policy:)`` does.
  public func enqueue(_ request: WorkRequest, after prerequisites: [String]) throws(WorkRequestError) {
    try request.validate(prerequisites: prerequisites)
    recorder.record(.workEnqueue(request.enqueueEvent(policy: nil)))
    for prerequisite in prerequisites {
      recorder.record(.workAfter(work: request.work, prerequisite: prerequisite))
    }
    var traced = request
    traced.worker = TracingWorker(base: request.worker, recorder: recorder, tags: request.traceTags)
    try base.enqueue(traced, after: prerequisites)
  }

  /// Forwards the requests, their workers wrapped, to the base queue, then records what
  /// it answers it did: the first request's `work.enqueue work=NAME policy=P` when it
  /// enqueued one request as the name's work or `keep` kept the name's, else each
  /// request's `work.enqueue` under the work it became (`unique=NAME`, the first with
  /// the policy) and a `work.after` per work it waits for. A request WorkManager refuses
  /// to build throws before anything is recorded.
  @discardableResult
  public func enqueueUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    throws(WorkRequestError) -> EnqueuedUniqueWork
  {
    try WorkRequest.validate(uniqueStep: requests, name: name, policy: policy)
    let traced = requests.map { request in
      var traced = request
      traced.worker = TracingWorker(base: request.worker, recorder: recorder, tags: request.traceTags)
      return traced
    }
    let answer = try base.enqueueUniqueWork(name, policy: policy, traced)
    guard answer.works.count == requests.count, answer.works != [name] else {
      var named = requests[0]
      named.work = name
      recorder.record(.workEnqueue(named.enqueueEvent(policy: policy)))
      return answer
    }
    for (index, work) in answer.works.enumerated() {
      var own = requests[index]
      own.work = work
      own.uniqueName = name
      recorder.record(.workEnqueue(own.enqueueEvent(policy: index == 0 ? policy : nil)))
      for prerequisite in answer.prerequisites {
        recorder.record(.workAfter(work: work, prerequisite: prerequisite))
      }
    }
    return answer
  }

  /// Records `work.cancel` and forwards to the base queue.
  public func cancel(work: String) {
    recorder.record(.workCancel(work: work))
    base.cancel(work: work)
  }
}

/// A worker that records its runs.
struct TracingWorker: BackgroundWorker {
  let base: any BackgroundWorker
  let recorder: TraceRecorder
  /// The request's tags, in their trace form.
  var tags: String? = nil

  func doWork(_ context: WorkContext) async throws -> WorkResult {
    recorder.record(.workStart(work: context.work, attempt: context.runAttemptCount))
    var traced = context
    let (recorder, work, attempt, foreground) = (recorder, context.work, context.runAttemptCount, context.foreground)
    traced.foreground = { (info) throws(ForegroundServiceError) in
      recorder.record(.workForeground(work: work, attempt: attempt))
      do throws(ForegroundServiceError) {
        try await foreground?(info)
      } catch {
        recorder.record(.workRefuse(work: work, attempt: attempt, reason: error.reason))
        throw error
      }
    }
    let outcome: Result<WorkResult, any Error>
    do { outcome = .success(try await base.doWork(traced)) } catch { outcome = .failure(error) }
    if Task.isCancelled {
      recorder.record(
        .workStop(
          work: context.work, attempt: context.runAttemptCount, reason: WorkStopReason.cancelledByApp.word!, tags: tags)
      )
    } else {
      // A thrown error is WorkManager's failure (``BackgroundWorker/result(of:)``).
      let result = (try? outcome.get()) ?? .failure
      recorder.record(
        .workResult(work: context.work, attempt: context.runAttemptCount, outcome: result.outcome, tags: tags))
    }
    return try outcome.get()
  }

  func foregroundInfo() -> ForegroundInfo? { base.foregroundInfo() }
}

/// Not Sendable: it forwards to a base queue, which is not Sendable.
@available(*, unavailable)
extension TracingWorkQueue: Sendable {}
