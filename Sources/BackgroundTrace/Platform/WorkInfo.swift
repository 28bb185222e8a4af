/// A work request's identity (androidx `WorkRequest.getId()`, a `UUID`): 128 bits,
/// written as a UUID is (`8-4-4-4-12` lowercase hex digits). A queue that is not given
/// one makes one; the simulation draws it from its seed, so the same run gives the
/// same ids.
public struct WorkRequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The high and low 64 bits.
  public let high: UInt64, low: UInt64

  /// The id of bits `high` and `low`.
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// A version-4 UUID's layout of two random words: the version and variant bits set as
  /// RFC 9562 lays them out, as `UUID.randomUUID()` makes them.
  public init(random high: UInt64, _ low: UInt64) {
    self.init(
      high: high & ~0xF000 | 0x4000,
      low: low & ~(0xC000_0000_0000_0000 as UInt64) | 0x8000_0000_0000_0000)
  }

  /// The id a UUID string names, e.g. `7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5c`; `nil`
  /// for anything else.
  public init?(_ string: String) {
    let groups = string.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else {
      return nil
    }
    let hex = groups.joined()
    guard let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16) else {
      return nil
    }
    self.init(high: high, low: low)
  }

  /// `7e4b9c2a-1f3d-4e5a-9b8c-0d1e2f3a4b5c`.
  public var description: String {
    let digits = Self.hex(high) + Self.hex(low)
    var text = ""
    for (index, digit) in digits.enumerated() {
      if [8, 12, 16, 20].contains(index) { text.append("-") }
      text.append(digit)
    }
    return text
  }

  private static func hex(_ word: UInt64) -> String {
    let digits = String(word, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Orders by the bits, high word first.
  public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}

/// What an update did (androidx `WorkManager.UpdateResult`).
public enum WorkUpdateResult: String, Sendable, Hashable, CaseIterable {
  /// The request had finished: nothing changed (`NOT_APPLIED`).
  case notApplied = "NOT_APPLIED"
  /// It was waiting: its next run follows the new settings (`APPLIED_IMMEDIATELY`).
  case appliedImmediately = "APPLIED_IMMEDIATELY"
  /// It was running: the attempt runs on, and the next one follows the new settings
  /// (`APPLIED_FOR_NEXT_RUN`).
  case appliedForNextRun = "APPLIED_FOR_NEXT_RUN"
}

/// What WorkManager tells about one request (androidx `WorkInfo`): its state, its run
/// attempts, when it may run next and why it last stopped. Read from the simulation with
/// `SimulatedSystem.workInfo(id:)`, `workInfos(forUniqueWork:)` and `workInfos(byTag:)`.
public struct WorkInfo: Sendable, Hashable {
  /// A request's lifecycle state (androidx `WorkInfo.State`).
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Waiting to run: for its time, its constraints or the system.
    case enqueued = "ENQUEUED"
    /// Its worker is running.
    case running = "RUNNING"
    /// It returned `success` (one-time work; periodic work never gets here).
    case succeeded = "SUCCEEDED"
    /// It returned `failure`, or work it was appended to failed.
    case failed = "FAILED"
    /// Appended behind unique work that has not finished.
    case blocked = "BLOCKED"
    /// Cancelled, or work it was appended to was cancelled.
    case cancelled = "CANCELLED"

    /// `SUCCEEDED`, `FAILED` and `CANCELLED`: it will not run again.
    public var isFinished: Bool { self == .succeeded || self == .failed || self == .cancelled }
  }

  /// A periodic request's interval and flex (androidx `WorkInfo.PeriodicityInfo`), as
  /// WorkManager holds them: raised to their minimums (``WorkSchedule``).
  public struct Periodicity: Sendable, Hashable {
    /// The repeat interval.
    public var repeatInterval: TraceInterval
    /// The flex interval: the interval itself when the request gives none.
    public var flexInterval: TraceInterval

    /// A periodicity of `repeatInterval` and `flexInterval`.
    public init(repeatInterval: TraceInterval, flexInterval: TraceInterval) {
      self.repeatInterval = repeatInterval
      self.flexInterval = flexInterval
    }
  }

  /// The request's id.
  public var id: WorkRequestID
  /// The work's id in the trace (`work=`): its unique name, or `TAG:N` for work
  /// enqueued without one.
  public var work: String
  /// Its state.
  public var state: State
  /// Its tags (`addTag`).
  public var tags: Set<String>
  /// How many times its worker has been started (androidx counts a start when the
  /// attempt begins); periodic work counts from 0 again after each period.
  public var runAttemptCount: Int
  /// The initial delay it was enqueued with (zero for none).
  public var initialDelay: TraceInterval
  /// A periodic request's interval and flex; `nil` for one-time work.
  public var periodicity: Periodicity?
  /// While ``State/enqueued``: the earliest time it may run (androidx
  /// `nextScheduleTimeMillis`, from the initial delay, the period and the backoff). `nil`
  /// in every other state (androidx: `Long.MAX_VALUE`).
  public var nextScheduleTime: TraceTime?
  /// Why its last attempt was stopped; ``WorkStopReason/notStopped`` if none was, or the
  /// last one returned.
  public var stopReason: WorkStopReason
  /// How many times it was updated (`updateWork`, or `UPDATE`): 0 as enqueued.
  public var generation: Int
  /// Its constraints (androidx `WorkInfo.constraints`).
  public var constraints: Set<WorkConstraint>
  /// The output of its worker's success or failure (androidx `WorkInfo.outputData`):
  /// only once one-time work has finished; ``WorkData/empty`` before, and always for
  /// periodic work.
  public var outputData: WorkData
  /// What its running worker last set with `setProgress` (androidx
  /// `WorkInfo.progress`): ``WorkData/empty`` unless it is running.
  public var progress: WorkData

  /// Creates a work info.
  public init(
    id: WorkRequestID, work: String, state: State, tags: Set<String> = [], runAttemptCount: Int = 0,
    initialDelay: TraceInterval = .zero, periodicity: Periodicity? = nil, nextScheduleTime: TraceTime? = nil,
    stopReason: WorkStopReason = .notStopped, generation: Int = 0, constraints: Set<WorkConstraint> = [],
    outputData: WorkData = .empty, progress: WorkData = .empty
  ) {
    self.outputData = outputData
    self.progress = progress
    self.generation = generation
    self.constraints = constraints
    self.id = id
    self.work = work
    self.state = state
    self.tags = tags
    self.runAttemptCount = runAttemptCount
    self.initialDelay = initialDelay
    self.periodicity = periodicity
    self.nextScheduleTime = nextScheduleTime
    self.stopReason = stopReason
  }
}
