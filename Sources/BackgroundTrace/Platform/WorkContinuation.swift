/// Work requests that run in steps (androidx `WorkContinuation`): each request of a
/// step runs only once every request of the steps before it has succeeded, and fails
/// or is cancelled with any of them. Begin one with ``WorkQueue/beginWith(_:)-([WorkRequest])``, add
/// steps with ``then(_:)-([WorkRequest])``, join several with ``combine(_:_:)``, and ``enqueue()``.
///
/// Each request is enqueued as non-unique work (``WorkQueue/enqueue(_:)``: `TAG:N`),
/// and the trace records `work.enqueue` and then one `work.after` per prerequisite
/// (docs/events.md). A continuation is enqueued once: enqueueing it again, or a
/// step after it, leaves the requests already enqueued as they are.
///
/// A unique continuation (``WorkQueue/beginUniqueWork(_:policy:_:)-(_,_,[WorkRequest])``)
/// enqueues its requests under its unique name instead: the first step with its policy
/// (``WorkQueue/enqueueUniqueWork(_:policy:_:)``), each later step appended to the name
/// (``ExistingWorkPolicy/append``) when it and the step before are one request that
/// holds the name, else each request as a work of its own under the name
/// (``WorkRequest/uniqueName``) after every request of the step before. When `keep`
/// keeps the unfinished work of the name, no step is enqueued, and neither is a step
/// after one that was not (androidx `EnqueueRunnable`: "Prerequisite … doesn't exist;
/// not enqueuing").
public final class WorkContinuation {
  /// The queue the requests go to.
  public let queue: any WorkQueue
  /// This step's requests, which run side by side.
  public let requests: [WorkRequest]
  /// The steps before this one: their requests are this step's prerequisites.
  public let parents: [WorkContinuation]
  /// The unique name the requests are enqueued under: a continuation begun with
  /// ``WorkQueue/beginUniqueWork(_:policy:_:)-(_,_,[WorkRequest])`` and its `then` steps
  /// have it (androidx `WorkContinuationImpl.getName()`); `nil` otherwise.
  public let uniqueWorkName: String?
  /// What the first step of a unique continuation does with unfinished work of the name
  /// (androidx `getExistingWorkPolicy()`); `nil` for every other step.
  public let existingWorkPolicy: ExistingWorkPolicy?
  /// The work ids this step's requests were enqueued as, in order; empty until
  /// ``isEnqueued``.
  public private(set) var works: [String] = []
  /// Whether this step has been enqueued.
  public private(set) var isEnqueued = false
  /// Whether enqueueing this step enqueued nothing: `keep` kept the name's unfinished
  /// work, or a step before it was not enqueued.
  public private(set) var wasDropped = false

  init(
    queue: any WorkQueue, requests: [WorkRequest], parents: [WorkContinuation], uniqueWorkName: String? = nil,
    existingWorkPolicy: ExistingWorkPolicy? = nil
  ) {
    self.queue = queue
    self.requests = requests
    self.parents = parents
    self.uniqueWorkName = uniqueWorkName
    self.existingWorkPolicy = existingWorkPolicy
  }

  /// A step after this one: `requests` run side by side once every request of this
  /// step (and so of every step before it) has succeeded (androidx `then`). With no
  /// requests it is this continuation, as androidx returns it.
  public func then(_ requests: [WorkRequest]) -> WorkContinuation {
    guard !requests.isEmpty else { return self }
    return WorkContinuation(queue: queue, requests: requests, parents: [self], uniqueWorkName: uniqueWorkName)
  }

  /// A step of one request after this one (androidx `then(OneTimeWorkRequest)`).
  public func then(_ request: WorkRequest) -> WorkContinuation { then([request]) }

  /// A step after all of `first` and `others`, as androidx `WorkContinuation.combine`
  /// makes it: one request of androidx's `CombineContinuationsWorker`, with
  /// `ArrayCreatingInputMerger`, which succeeds at once with its input as its output,
  /// with each of their last steps' requests as prerequisites. Steps added after it
  /// wait for all of them, and get their outputs merged into arrays.
  public static func combine(_ first: WorkContinuation, _ others: WorkContinuation...) -> WorkContinuation {
    var combining = WorkRequest(work: CombineContinuationsWorker.className, worker: CombineContinuationsWorker())
    combining.inputMerger = .arrayCreating
    return WorkContinuation(queue: first.queue, requests: [combining], parents: [first] + others)
  }

  /// Enqueues the steps before this one that are not enqueued yet, then this one
  /// (androidx `EnqueueRunnable`), and returns the work ids of this step's requests.
  ///
  /// - Throws: ``WorkRequestError`` for a request WorkManager refuses to build, or
  ///   periodic work in a continuation (``WorkRequestCheck/continuationPeriodic``), or a
  ///   request that is its own prerequisite (``WorkRequestCheck/continuationCycle``), or
  ///   `update` for a unique continuation (``WorkRequestCheck/uniqueContinuationUpdate``):
  ///   the whole graph is checked first, and nothing is enqueued. A queue that holds one
  ///   request a unique name refuses a first step of several
  ///   (``WorkRequestCheck/uniqueStepOfSeveral``) before it enqueues anything.
  @discardableResult
  public func enqueue() throws(WorkRequestError) -> [String] {
    try validate()
    var visited = Set<WorkRequestID>()
    if hasCycles(&visited) {
      throw WorkRequestError(.continuationCycle, work: requests.first?.work ?? CombineContinuationsWorker.className)
    }
    try enqueueSteps()
    return works
  }

  /// The work ids of every request of this step and the steps before it, once enqueued:
  /// parents first (androidx `getAllIds`).
  public var allWorks: [String] {
    var seen = Set<ObjectIdentifier>()
    var all: [String] = []
    func visit(_ step: WorkContinuation) {
      guard seen.insert(ObjectIdentifier(step)).inserted else { return }
      step.parents.forEach(visit)
      all += step.works
    }
    visit(self)
    return all
  }

  /// Whether a request is among its own prerequisites, as androidx
  /// `WorkContinuationImpl.hasCycles` finds it: a request with an id
  /// (``WorkRequest/id``) in a step after one that holds it. Requests without an id
  /// are each their own request and cannot repeat.
  func hasCycles(_ visited: inout Set<WorkRequestID>) -> Bool {
    let ids = requests.compactMap(\.id)
    visited.formUnion(ids)
    let prerequisites = Set(parents.flatMap { $0.requests.compactMap(\.id) })
    if !visited.isDisjoint(with: prerequisites) { return true }
    for parent in parents where parent.hasCycles(&visited) { return true }
    visited.subtract(ids)
    return false
  }

  /// Makes every check of every request not enqueued yet, in this step and those before.
  private func validate() throws(WorkRequestError) {
    guard !isEnqueued else { return }
    for parent in parents { try parent.validate() }
    for request in requests {  // beginWith and then take only one-time requests, the first step's too
      try request.validate()
      if request.period != nil { throw WorkRequestError(.continuationPeriodic, work: request.work) }
    }
    if parents.isEmpty, requests.isEmpty {
      throw uniqueWorkName.map { WorkRequestError(.beginUniqueWorkEmpty, work: $0) }
        ?? WorkRequestError(.beginWithEmpty, work: "")
    }
    guard let uniqueWorkName else { return }
    if existingWorkPolicy == .update { throw WorkRequestError(.uniqueContinuationUpdate, work: uniqueWorkName) }
  }

  private func enqueueSteps() throws(WorkRequestError) {
    guard !isEnqueued else { return }
    for parent in parents { try parent.enqueueSteps() }
    if parents.contains(where: \.wasDropped) {
      // androidx EnqueueRunnable: a step whose prerequisite was never inserted is not
      // inserted either ("Prerequisite … doesn't exist; not enqueuing").
      wasDropped = true
    } else if let uniqueWorkName, parents.isEmpty {
      // The first step resolves a conflict with the name's works with its policy.
      works = try queue.enqueueUniqueWork(uniqueWorkName, policy: existingWorkPolicy ?? .replace, requests).works
      wasDropped = works.isEmpty
    } else if let uniqueWorkName, requests.count == 1, parents.count == 1, parents[0].works == [uniqueWorkName] {
      // One request after the one that holds the name: appended behind it.
      var named = requests[0]
      named.work = uniqueWorkName
      if try queue.enqueue(named, policy: .append) {
        works.append(uniqueWorkName)
      } else {
        wasDropped = true
      }
    } else if let uniqueWorkName {
      // Several requests, or a step after several: each a work of its own under the
      // name, waiting for every request of the step before.
      let prerequisites = parents.flatMap(\.works)
      for request in requests {
        var own = request
        own.work = queue.workIDs.next(for: request.work)
        own.uniqueName = uniqueWorkName
        try queue.enqueue(own, after: prerequisites)
        works.append(own.work)
      }
    } else {
      let prerequisites = parents.flatMap(\.works)
      for request in requests {
        var named = request
        named.work = queue.workIDs.next(for: request.work)
        try queue.enqueue(named, after: prerequisites)
        works.append(named.work)
      }
    }
    isEnqueued = true
  }
}

/// The worker androidx `WorkContinuation.combine` enqueues: it succeeds at once with
/// its input as its output (androidx `CombineContinuationsWorker`:
/// `Result.success(getInputData())`), the outputs of the steps it joins as its
/// `ArrayCreatingInputMerger` merged them.
public struct CombineContinuationsWorker: BackgroundWorker {
  /// Its class name, the tag of its work ids (`CombineContinuationsWorker:1`).
  public static let className = "CombineContinuationsWorker"

  /// Creates the worker.
  public init() {}

  /// Succeeds with its input as its output.
  public func doWork(_ context: WorkContext) async -> WorkResult { .success(context.inputData) }
}

extension WorkQueue {
  /// A continuation whose first step is `requests`, run side by side (androidx
  /// `WorkManager.beginWith`).
  public func beginWith(_ requests: [WorkRequest]) -> WorkContinuation {
    WorkContinuation(queue: self, requests: requests, parents: [])
  }

  /// A continuation whose first step is `request`.
  public func beginWith(_ request: WorkRequest) -> WorkContinuation { beginWith([request]) }

  /// A unique continuation whose first step is `requests`, enqueued under the unique
  /// name `name` with `policy` (androidx `WorkManager.beginUniqueWork`); its `then`
  /// steps are enqueued under the name too, each appended behind the one before. With
  /// `keep` and unfinished work of the name, nothing is enqueued.
  ///
  /// A step of several requests runs them side by side, each a work of its own under
  /// the name (``WorkQueue/enqueueUniqueWork(_:policy:_:)``). `update`, which androidx's
  /// `beginUniqueWork` does not take, makes ``WorkContinuation/enqueue()`` throw
  /// (``WorkRequestCheck/uniqueContinuationUpdate``).
  public func beginUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ requests: [WorkRequest])
    -> WorkContinuation
  {
    WorkContinuation(queue: self, requests: requests, parents: [], uniqueWorkName: name, existingWorkPolicy: policy)
  }

  /// A unique continuation whose first step is `request`.
  public func beginUniqueWork(_ name: String, policy: ExistingWorkPolicy, _ request: WorkRequest) -> WorkContinuation {
    beginUniqueWork(name, policy: policy, [request])
  }
}

/// Not Sendable: ``WorkContinuation/enqueue()`` marks the steps it enqueues, and the
/// queue it holds is the app's.
@available(*, unavailable)
extension WorkContinuation: Sendable {}
