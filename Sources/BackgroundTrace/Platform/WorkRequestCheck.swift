/// A check WorkManager makes when a request is built, with the message of the
/// `IllegalArgumentException` it throws: androidx `WorkRequest.Builder.build()` and
/// `PeriodicWorkRequest.Builder.buildInternal()`. A ``WorkQueue`` makes every check
/// before it enqueues (``WorkRequest/validate()``), so a request androidx refuses to
/// build never runs here either.
public struct WorkRequestCheck: Sendable, Hashable, CustomStringConvertible {
  /// A short name for the check, e.g. `expedited-periodic`.
  public let name: String
  /// The exception's message, as androidx words it.
  public let message: String
  /// The exception androidx throws: `IllegalArgumentException` for the builder's
  /// checks, `UnsupportedOperationException` for an update the queue cannot make.
  public let exception: String
  private let violatedBy: @Sendable (WorkRequest) -> Bool

  private init(
    _ name: String, _ message: String, exception: String = "IllegalArgumentException",
    violatedBy: @escaping @Sendable (WorkRequest) -> Bool
  ) {
    self.name = name
    self.message = message
    self.exception = exception
    self.violatedBy = violatedBy
  }

  /// Whether `request` fails this check.
  public func isViolated(by request: WorkRequest) -> Bool { violatedBy(request) }

  /// The check's name.
  public var description: String { name }

  /// Two checks are the same check when their names are.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// An initial delay WorkManager's clock cannot add: `WorkRequest.Builder.setInitialDelay`
  /// requires `Long.MAX_VALUE - System.currentTimeMillis() > initialDelay`. The model
  /// takes the wall clock to be at most 2100-01-01 (``latestWallClockMillis``), so it
  /// refuses every delay a device refuses before then.
  public static let initialDelayOverflow = WorkRequestCheck(
    "initial-delay-overflow", "The given initial delay is too large and will cause an overflow!"
  ) { request in
    guard let delay = request.initialDelay else { return false }
    let (seconds, attoseconds) = delay.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    let (millis, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    return overflow || carry || millis >= Int64.max - latestWallClockMillis
  }

  /// The latest wall clock ``initialDelayOverflow`` allows for: 2100-01-01 00:00 UTC, in
  /// milliseconds since 1970.
  public static let latestWallClockMillis: Int64 = 4_102_444_800_000

  /// Backoff criteria on work that needs the device idle: `OneTimeWorkRequest.Builder`
  /// and `PeriodicWorkRequest.Builder`'s `buildInternal()` refuse `setBackoffCriteria`
  /// with `setRequiresDeviceIdle(true)` (from API 23, every release the model runs): an
  /// idle-mode job has no backoff.
  public static let backoffIdle = WorkRequestCheck(
    "backoff-idle", "Cannot set backoff criteria on an idle mode job"
  ) { ($0.backoff != nil || $0.backoffDelay != nil) && $0.requiresDeviceIdle }

  /// Periodic work cannot be expedited: `PeriodicWorkRequest.Builder.buildInternal()`
  /// (`require(!workSpec.expedited)`).
  public static let expeditedPeriodic = WorkRequestCheck(
    "expedited-periodic", "PeriodicWorkRequests cannot be expedited"
  ) { $0.expedited != nil && $0.period != nil }

  /// Expedited work takes only network and storage constraints:
  /// `WorkRequest.Builder.build()` refuses an expedited request that requires charging,
  /// battery not low, device idle or content URI triggers
  /// (``WorkConstraint/isAllowedOnExpeditedWork``).
  public static let expeditedConstraints = WorkRequestCheck(
    "expedited-constraints", "Expedited jobs only support network and storage constraints"
  ) { request in request.expedited != nil && !request.constraints.allSatisfy(\.isAllowedOnExpeditedWork) }

  /// Expedited work cannot be delayed: `WorkRequest.Builder.build()`
  /// (`require(workSpec.initialDelay <= 0)`), after the constraints' check.
  public static let expeditedDelayed = WorkRequestCheck(
    "expedited-delayed", "Expedited jobs cannot be delayed"
  ) { $0.expedited != nil && ($0.initialDelay ?? .zero) > .zero }

  /// A next schedule time override on one-time work: androidx has the setter only on
  /// `PeriodicWorkRequest.Builder`, and `WorkSpec.calculateNextRunTime` ignores the
  /// override of one-time work; here such a request is refused rather than silently
  /// scheduled without it.
  public static let overrideOneTime = WorkRequestCheck(
    "override-one-time", "Only PeriodicWorkRequests take a next schedule time override"
  ) { $0.nextScheduleTimeOverride != nil && $0.period == nil }

  /// A next schedule time override enqueued with `replace`: androidx
  /// `WorkContinuationImpl` refuses an override under
  /// `ExistingPeriodicWorkPolicy.REPLACE` or `CANCEL_AND_REENQUEUE` (its message has no
  /// space before `UPDATE`). ``WorkRequest/validate(policy:)`` makes this check, not ``all``.
  public static let overrideReplaced = WorkRequestCheck(
    "override-replaced",
    "Next Schedule Time Override must be used with ExistingPeriodicWorkPolicyUPDATE (preferably) or KEEP"
  ) { _ in false }

  /// Periodic work in a continuation: androidx's `beginWith` and `then` take only
  /// `OneTimeWorkRequest`s, so its compiler refuses it; here it is refused when the
  /// continuation is enqueued.
  public static let continuationPeriodic = WorkRequestCheck(
    "continuation-periodic", "A WorkContinuation takes only OneTimeWorkRequests"
  ) { _ in false }

  /// A continuation in which a request is its own prerequisite: androidx
  /// `EnqueueRunnable` throws `IllegalStateException` ("WorkContinuation has cycles").
  public static let continuationCycle = WorkRequestCheck(
    "continuation-cycle", "WorkContinuation has cycles", exception: "IllegalStateException"
  ) { _ in false }

  /// A prerequisite the queue does not hold: androidx `EnqueueRunnable` logs
  /// "Prerequisite … doesn't exist; not enqueuing" and enqueues nothing; here that is
  /// an error, not a silent no-op.
  public static let prerequisiteUnknown = WorkRequestCheck(
    "prerequisite-unknown", "Prerequisite doesn't exist; not enqueuing", exception: "not enqueued"
  ) { _ in false }

  /// A continuation begun with no request: androidx `WorkManagerImpl.beginWith` throws
  /// at once; here ``WorkContinuation/enqueue()`` throws, naming no work.
  public static let beginWithEmpty = WorkRequestCheck(
    "begin-with-empty", "beginWith needs at least one OneTimeWorkRequest."
  ) { _ in false }

  /// A unique continuation begun with no request: androidx
  /// `WorkManagerImpl.beginUniqueWork` throws at once; here ``WorkContinuation/enqueue()``
  /// throws.
  public static let beginUniqueWorkEmpty = WorkRequestCheck(
    "begin-unique-work-empty", "beginUniqueWork needs at least one OneTimeWorkRequest."
  ) { _ in false }

  /// Several requests under one unique name, given to a queue that holds one request
  /// of a unique name at a time (``WorkQueue/enqueueUniqueWork(_:policy:_:)``'s default
  /// implementation): androidx runs them side by side under the name, so such a queue
  /// refuses them rather than run them otherwise. The simulation, the replay and the
  /// tracing wrapper run them.
  public static let uniqueStepOfSeveral = WorkRequestCheck(
    "unique-step-of-several", "A step of a unique WorkContinuation takes one request in the model",
    exception: "not modelled"
  ) { _ in false }

  /// `update` for a unique continuation: androidx's `beginUniqueWork` takes an
  /// `ExistingWorkPolicy` (`REPLACE`, `KEEP`, `APPEND`, `APPEND_OR_REPLACE`), so its
  /// compiler refuses `UPDATE`; here it is refused when the continuation is enqueued.
  public static let uniqueContinuationUpdate = WorkRequestCheck(
    "unique-continuation-update", "beginUniqueWork takes REPLACE, KEEP, APPEND or APPEND_OR_REPLACE"
  ) { _ in false }

  /// `UPDATE` over a chain of work: androidx `WorkerUpdater.enqueueUniquelyNamedPeriodic`
  /// refuses it. The queue makes this check, against the work it holds, not ``all``.
  public static let updateChain = WorkRequestCheck(
    "update-chain", "Can't apply UPDATE policy to the chains of work.", exception: "UnsupportedOperationException"
  ) { _ in false }

  /// An update that would turn one-time work into periodic work or back: androidx
  /// `WorkerUpdater` ("Update operation must preserve worker's type."). The queue makes
  /// this check, against the work it holds.
  public static let updateType = WorkRequestCheck(
    "update-type", "Can't update a worker to another type. Update operation must preserve worker's type.",
    exception: "UnsupportedOperationException"
  ) { _ in false }

  /// `updateWork` for an id the queue does not hold: androidx `WorkerUpdater` ("Worker
  /// with … doesn't exist").
  public static let updateUnknown = WorkRequestCheck(
    "update-unknown", "Worker with the request's id doesn't exist"
  ) { _ in false }

  /// Input data WorkManager cannot take: `Data.Builder.build()` throws
  /// `IllegalStateException` for data over ``WorkData/maxBytes`` serialized
  /// (`toByteArrayInternalV1`'s check), before the request can be given it.
  public static let inputDataTooLarge = WorkRequestCheck(
    "input-data-too-large", "Data cannot occupy more than 10240 bytes when serialized",
    exception: "IllegalStateException"
  ) { !$0.inputData.fitsWorkManager }

  /// Every check, in the order androidx makes them: the input's data is built before
  /// the request, and the initial delay checked when it is set; `build()` calls
  /// `buildInternal()` (the backoff and idle check, then the periodic builder's) before
  /// its own.
  public static let all: [WorkRequestCheck] = [
    .inputDataTooLarge, .initialDelayOverflow, .backoffIdle, .expeditedPeriodic, .expeditedConstraints,
    .expeditedDelayed, .overrideOneTime,
  ]
}

/// A request WorkManager refuses to build (``WorkRequestCheck``): androidx throws
/// `IllegalArgumentException`, and the work is never enqueued.
public struct WorkRequestError: BackgroundTraceError, Hashable {
  /// The check the request fails.
  public var check: WorkRequestCheck
  /// The request's work id; empty when the check is about no request (a continuation
  /// begun with none).
  public var work: String

  /// The error of `request` failing `check`.
  public init(_ check: WorkRequestCheck, work: String) {
    self.check = check
    self.work = work
  }

  /// Always ``TraceErrorKind/invalidWorkRequest``.
  public var kind: TraceErrorKind { .invalidWorkRequest }
  /// `nil`: the request is in no input.
  public var file: String? { nil }
  /// `nil`: the request is in no input.
  public var position: TracePosition? { nil }
  /// The exception as androidx throws it, and the work it names:
  /// `IllegalArgumentException: PeriodicWorkRequests cannot be expedited (work sync)`.
  public var message: String {
    work.isEmpty ? "\(check.exception): \(check.message)" : "\(check.exception): \(check.message) (work \(work))"
  }
}

extension WorkRequest {
  /// Makes WorkManager's builder checks (``WorkRequestCheck/all``), in androidx's order.
  ///
  /// - Throws: ``WorkRequestError`` for the first check the request fails.
  public func validate() throws(WorkRequestError) {
    if let failed = WorkRequestCheck.all.first(where: { $0.isViolated(by: self) }) {
      throw WorkRequestError(failed, work: work)
    }
  }

  /// Makes the builder's checks and then that a request with prerequisites is one-time
  /// work (``WorkRequestCheck/continuationPeriodic``).
  ///
  /// - Throws: ``WorkRequestError`` for the first check the request fails.
  public func validate(prerequisites: [String]) throws(WorkRequestError) {
    try validate()
    if !prerequisites.isEmpty, period != nil { throw WorkRequestError(.continuationPeriodic, work: work) }
  }

  /// Makes the checks of requests enqueued together under the unique name `name`
  /// (``WorkQueue/enqueueUniqueWork(_:policy:_:)``): at least one
  /// (``WorkRequestCheck/beginUniqueWorkEmpty``), each one WorkManager builds, each one-time
  /// (``WorkRequestCheck/continuationPeriodic``, androidx takes `OneTimeWorkRequest`s),
  /// and a policy other than `update` (``WorkRequestCheck/uniqueContinuationUpdate``).
  /// One request alone is checked as ``validate(policy:)`` checks it, periodic or not.
  ///
  /// - Throws: ``WorkRequestError`` for the first check a request fails.
  package static func validate(uniqueStep requests: [WorkRequest], name: String, policy: ExistingWorkPolicy)
    throws(WorkRequestError)
  {
    guard requests.count > 1 else {
      guard let request = requests.first else { throw WorkRequestError(.beginUniqueWorkEmpty, work: name) }
      return try request.validate(policy: policy)
    }
    if policy == .update { throw WorkRequestError(.uniqueContinuationUpdate, work: name) }
    for request in requests {
      try request.validate(policy: policy)
      if request.period != nil { throw WorkRequestError(.continuationPeriodic, work: request.work) }
    }
  }

  /// Makes the builder's checks and then the enqueue's own: a next schedule time
  /// override is refused under `replace` (``WorkRequestCheck/overrideReplaced``). An
  /// enqueue with no policy is androidx's plain `enqueue`, which takes one.
  ///
  /// - Throws: ``WorkRequestError`` for the first check the request fails.
  public func validate(policy: ExistingWorkPolicy?) throws(WorkRequestError) {
    try validate()
    if nextScheduleTimeOverride != nil, policy == .replace {
      throw WorkRequestError(.overrideReplaced, work: work)
    }
  }
}
