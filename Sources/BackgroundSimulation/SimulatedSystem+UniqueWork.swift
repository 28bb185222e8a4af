public import BackgroundTrace

/// Several requests under one unique name (androidx `enqueueUniqueWork(name, policy,
/// List)`, a unique continuation's step of several): each is a work of its own
/// (`TAG:N`, ``/BackgroundTrace/WorkRequest/uniqueName``), and a policy on the name acts on all the
/// name's works, as androidx `EnqueueRunnable.enqueueWorkWithPrerequisites` acts on
/// every request the name holds (docs/events.md, "Work requests").
extension SimulatedSystem {
  /// Enqueues `requests` side by side under the unique name `name`
  /// (``/BackgroundTrace/WorkQueue/enqueueUniqueWork(_:policy:_:)``). One request
  /// under a name whose works are its own id takes ``enqueue(_:policy:)``'s path, as
  /// work `name`. Otherwise, as androidx `EnqueueRunnable`: `keep` enqueues nothing
  /// while a work of the name is unfinished, and records the first request's
  /// `work.enqueue work=NAME policy=keep`; `append` and `appendOrReplace` make each
  /// request wait for the name's leaves (`work.after`), its works no other work of it
  /// waits for, and `appendOrReplace` starts afresh instead when one of them failed or
  /// was cancelled; `replace`, and `keep` when nothing of the name is unfinished, stop
  /// the name's works with `STOP_REASON_CANCELLED_BY_APP` and delete them
  /// (`CancelWorkRunnable.forName`, then `workSpecDao.delete`).
  @discardableResult
  public func enqueueUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    throws(WorkRequestError) -> EnqueuedUniqueWork
  {
    try WorkRequest.validate(uniqueStep: requests, name: name, policy: policy)
    if requests.count == 1, uniqueWorks[name] == nil || policy == .update {  // `update` refuses several works
      var named = requests[0]
      named.work = name
      return EnqueuedUniqueWork(works: try enqueue(named, policy: policy) ? [name] : [])
    }
    let members = works(ofUniqueName: name)
    let unfinished = members.filter { works[$0]?.phase != .finished }
    var prerequisites: [String] = []
    var deletes = true
    switch policy {
    case .keep where !unfinished.isEmpty:
      var kept = requests[0]
      kept.work = name
      if kept.id == nil { kept.id = nextWorkRequestID() }
      record(.workEnqueue(kept.enqueueEvent(policy: .keep)))
      return EnqueuedUniqueWork(works: [])
    case .append, .appendOrReplace:
      let leaves = members.filter { member in !members.contains { works[$0]?.prerequisites.contains(member) == true } }
      let endings = leaves.compactMap { works[$0]?.ending }
      if policy == .append || !(endings.contains(.failed) || endings.contains(.cancelled)) {
        prerequisites = leaves
        deletes = false
      }
    case .keep, .replace, .update:  // one request's `update` took the first path
      break
    }
    // Each request as it will be enqueued: after a policy that deletes the name's works,
    // one request is the name's own work again; otherwise each is a work of its own.
    let own = requests.map { request in
      var own = request
      if deletes && requests.count == 1 {
        own.work = name
      } else {
        own.work = workIDs.next(for: request.work)
        own.uniqueName = name
      }
      if own.id == nil { own.id = nextWorkRequestID() }
      return own
    }
    // The cause before its effects, as an enqueue that replaces one work: the first
    // request's enqueue, then the stops of the works it deletes.
    record(.workEnqueue(own[0].enqueueEvent(policy: policy)))
    if deletes { delete(members, of: name) }
    for (index, request) in own.enumerated() {
      if index > 0 { record(.workEnqueue(request.enqueueEvent(policy: nil))) }
      if request.uniqueName == nil {
        retiredWorks.removeAll { $0.request.work == name }
        admit(WorkItem(request: request, number: nextWorkRequestNumber(), at: now))
      } else {
        admit(request, after: prerequisites)
      }
    }
    return EnqueuedUniqueWork(works: own.map(\.work), prerequisites: prerequisites)
  }

  /// The works the queue holds under the unique name `name`: the name's own work, then
  /// the works of their own enqueued under it, in order.
  func works(ofUniqueName name: String) -> [String] {
    (works[name] != nil ? [name] : []) + (uniqueWorks[name] ?? []).filter { works[$0] != nil }
  }

  /// Stops and cancels each unfinished work of `members`, then deletes them all, as
  /// androidx deletes the name's WorkSpecs. The trace records the enqueue that replaces
  /// them first, from which the lifecycle model cancels them, then each running
  /// attempt's `work.stop`.
  private func delete(_ members: [String], of name: String) {
    for member in members where works[member]?.phase != .finished {
      endCancelled(member)
    }
    for member in members { works[member] = nil }
    retiredWorks.removeAll { members.contains($0.request.work) }
    uniqueWorks[name] = nil
  }

  /// Cancels the works of their own under the unique name `name`, as `cancelUniqueWork`
  /// cancels every request of the name; the caller records the name's `work.cancel`.
  func cancelWorks(ofUniqueName name: String) {
    for member in uniqueWorks[name] ?? [] where works[member].map({ $0.phase != .finished }) == true {
      endCancelled(member)
    }
  }
}
