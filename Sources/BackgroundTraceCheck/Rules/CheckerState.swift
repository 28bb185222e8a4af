import BackgroundTrace

/// What the checker knows about the current process.
struct ProcessState: Sendable {
  /// When the process started (0 for the implicit process of a trace without `app.launch`).
  var launchedAt: TraceTime
  /// Counts processes, so deadlines from an earlier process are ignored.
  var generation: Int
  /// When the process left launch: its first `app.state`.
  var leftLaunchAt: TraceTime?
  var state: AppState?
  /// Counts moves into and out of the background, so budget deadlines from an
  /// earlier stay in the background are ignored.
  var backgroundEpoch = 0
  var openTasks: [Int: OpenTask] = [:]
  var endedTasks = IntervalSet()
  /// Tasks already reported as leaked or expired: their later end is quiet.
  var quietTasks: Set<Int> = []
  var recentEnds = RecentTimes()
  var registrations: [String: TraceTime] = [:]

  init(launchedAt: TraceTime, generation: Int) {
    self.launchedAt = launchedAt
    self.generation = generation
  }
}

/// A UIKit background task that has begun and not ended.
struct OpenTask: Sendable {
  var name: String?
  var begin: TraceTime
  var expiredAt: TraceTime?
  /// When its background time started counting (`nil` in the foreground).
  var backgroundSince: TraceTime?
  var overBudgetReported = false
}

/// A launched scheduler run that has not completed.
struct OpenRun: Sendable {
  var ident: String
  var type: SchedulerRequestType?
  var launchedAt: TraceTime
  var expiredAt: TraceTime?
  /// Whether a `sched.submit` for the identifier came after the launch.
  var resubmitted = false
}

/// Unfinished work: enqueued, running, or waiting for a retry.
struct WorkState: Sendable {
  var enqueuedAt: TraceTime?
  var limit: Int?
  var backoff: BackoffPolicy?
  var delay: TraceInterval?
  var periodic: Bool
  var running: (attempt: Int, startedAt: TraceTime)?
  var lastResult: (attempt: Int, outcome: WorkOutcome, time: TraceTime)?
  var retryLimitReported = false
  var cancelledAt: TraceTime?
  /// An `append` enqueue waiting for this work to finish.
  var queued: WorkEnqueue?
}

/// How a one-time work finished, kept by the hash of its id.
struct FinishedWork: Sendable {
  enum Ending: Sendable { case succeeded, failed, cancelled }
  var ending: Ending
  var time: TraceTime
}

/// The last few ids that ended, with their times, for messages like "(first end at 6s)".
///
/// Double ends come soon after the first end; keeping a few dozen recent ones bounds
/// memory while naming the earlier event in nearly every real case.
struct RecentTimes: Sendable {
  private var entries: [(id: Int, time: TraceTime)] = []
  private var next = 0
  private static let capacity = 64

  mutating func record(_ id: Int, at time: TraceTime) {
    if entries.count < Self.capacity {
      entries.append((id, time))
    } else {
      entries[next] = (id, time)
      next = (next + 1) % Self.capacity
    }
  }

  func time(of id: Int) -> TraceTime? {
    entries.last { $0.id == id }?.time
  }
}

/// A stable 64-bit FNV-1a hash of a work id: the same on every machine and run,
/// unlike `Hasher`, so findings are deterministic. A collision (about 1 in 10^10 for
/// 100,000 finished works) could only hide or invent a `work-after-finish`.
func stableHash(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash &*= 0x0000_0100_0000_01b3
  }
  return hash
}
