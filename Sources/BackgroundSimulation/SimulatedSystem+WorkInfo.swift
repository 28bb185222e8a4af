public import BackgroundTrace

/// WorkManager's reads and bulk cancels (androidx `WorkManager.getWorkInfoById`,
/// `getWorkInfosForUniqueWork`, `getWorkInfosByTag`, `cancelWorkById`,
/// `cancelAllWorkByTag`, `cancelAllWork`, `pruneWork`), over the simulated queue.
extension SimulatedSystem {
  /// The request with id `id`, as WorkManager reports it; `nil` when the queue holds no
  /// such request: never enqueued, kept out by `keep`, deleted by a `replace`, or pruned.
  public func workInfo(id: WorkRequestID) -> WorkInfo? {
    heldRequests.first { $0.id == id }
  }

  /// The requests of the unique work `name`: the one enqueued last, those appended
  /// behind it (``/BackgroundTrace/WorkInfo/State/blocked``), the works of their own
  /// enqueued under the name (``enqueueUniqueWork(_:policy:_:)``) and the finished ones
  /// WorkManager still holds, in the order they were enqueued. Work enqueued without a
  /// unique name is read by its id or its tags.
  public func workInfos(forUniqueWork name: String) -> [WorkInfo] {
    let own = uniqueWorks[name] ?? []
    return heldRequests.filter { $0.work == name || own.contains($0.work) }
  }

  /// The requests tagged `tag` (``/BackgroundTrace/WorkRequest/tags``), in the order they were enqueued.
  public func workInfos(byTag tag: String) -> [WorkInfo] {
    heldRequests.filter { $0.tags.contains(tag) }
  }

  /// Cancels the request with id `id` (`cancelWorkById`) and the unfinished requests
  /// that depend on it, as androidx `CancelWorkRunnable` does: as ``cancel(work:)`` when
  /// it is the work's current request; when it is appended behind another, it and the
  /// requests appended after it. A finished request stays as it ended, but the work
  /// appended behind it is cancelled. An unknown id changes nothing.
  public func cancelWork(id: WorkRequestID) {
    if let prerequisite = retiredWorks.first(where: { $0.request.id == id }) {
      let work = prerequisite.request.work
      if prerequisite.ending == .succeeded, works[work].map({ $0.phase != .finished }) == true { cancel(work: work) }
      return
    }
    for work in workOrder {
      guard let item = works[work], item.phase != .finished else { continue }
      if item.request.id == id { return cancel(work: work) }
      if let index = item.queued.firstIndex(where: { $0.request.id == id }) {
        return cancelQueued(of: work, from: index)
      }
    }
  }

  /// Cancels every unfinished request tagged `tag` (`cancelAllWorkByTag`), and the
  /// requests appended behind each.
  public func cancelAllWork(byTag tag: String) {
    for work in workOrder {
      guard let item = works[work], item.phase != .finished else { continue }
      if item.request.tags.contains(tag) {
        cancel(work: work)
      } else if let index = item.queued.firstIndex(where: { $0.request.tags.contains(tag) }) {
        cancelQueued(of: work, from: index)
      }
    }
  }

  /// Cancels every unfinished request (`cancelAllWork`).
  public func cancelAllWork() {
    for work in workOrder where works[work].map({ $0.phase != .finished }) == true {
      cancel(work: work)
    }
  }

  /// Drops every finished request that no unfinished one depends on (`pruneWork`, which
  /// ignores `keepResultsForAtLeast`): their ``workInfo(id:)`` is `nil` from then on.
  public func pruneWork() {
    retiredWorks.removeAll { retired in
      retired.ending != .succeeded || works[retired.request.work].map { $0.phase == .finished } ?? true
    }
    let needed = Set(works.values.filter { $0.phase != .finished }.flatMap(\.prerequisites))
    for (work, item) in works where item.phase == .finished && !needed.contains(work) {
      works[work] = nil
    }
  }

  /// Cancels the requests appended behind `work` from the one at `index` on: they never
  /// run. The trace has no event for them (`work.cancel` names the work's current
  /// request); their ``/BackgroundTrace/WorkInfo`` says ``/BackgroundTrace/WorkInfo/State/cancelled``.
  private func cancelQueued(of work: String, from index: Int) {
    guard var item = works[work] else { return }
    for entry in item.queued[index...] {
      var cancelled = WorkItem(request: entry.request, number: 0, at: now)
      cancelled.phase = .finished
      cancelled.ending = .cancelled
      retiredWorks.append(cancelled)
    }
    item.queued.removeSubrange(index...)
    works[work] = item
  }

  /// Every request WorkManager holds, as ``/BackgroundTrace/WorkInfo``: the retired ones, then each
  /// work's current request and those appended behind it, in the order of enqueue.
  private var heldRequests: [WorkInfo] {
    var infos = retiredWorks.map(\.info)
    for work in workOrder {
      guard let item = works[work] else { continue }
      infos.append(item.info)
      for entry in item.queued {
        infos.append(WorkItem(request: entry.request, number: 0, at: now).info(state: .blocked))
      }
    }
    return infos
  }
}

extension WorkItem {
  /// The request as WorkManager reports it.
  var info: WorkInfo {
    let state: WorkInfo.State =
      switch (phase, ending) {
      case (.blocked, _): .blocked
      case (.waiting, _): .enqueued
      case (.running, _): .running
      case (.finished, .succeeded?): .succeeded
      case (.finished, .failed?): .failed
      case (.finished, .cancelled?), (.finished, nil): .cancelled
      }
    return info(state: state)
  }

  /// The request as WorkManager reports it in `state`.
  func info(state: WorkInfo.State) -> WorkInfo {
    var periodicity: WorkInfo.Periodicity?
    if let period = request.period.map(TraceInterval.init) {
      let flex = request.flex.map { WorkSchedule.flexWindow(period: period, flex: TraceInterval($0)) }
      periodicity = WorkInfo.Periodicity(
        repeatInterval: WorkSchedule.interval(period), flexInterval: flex ?? WorkSchedule.interval(period))
    }
    return WorkInfo(
      id: request.id!, work: request.work, state: state, tags: Set(request.tags),
      runAttemptCount: attempt + (started ? 1 : 0), initialDelay: request.initialDelay.map(TraceInterval.init) ?? .zero,
      periodicity: periodicity, nextScheduleTime: state == .enqueued ? eligible : nil,
      stopReason: WorkStopReason.all.first { $0.code == stopReasonCode } ?? .notStopped,
      generation: generation, constraints: request.constraints,
      outputData: state.isFinished ? outputData : .empty, progress: state == .running ? progress : .empty)
  }
}
