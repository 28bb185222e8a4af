package import BackgroundTrace
import BackgroundTraceCheck

/// A trace as a timeline draws it: processes, app-state spans, task, run and work-attempt
/// slices, instant events and the checker's findings, built once (see
/// ``TimelineModel/read(_:)``) and drawn by the Chrome, SVG and HTML exporters.
///
/// A slice that is still open when its process ends (suspension, termination, a new
/// launch) or when the trace ends is closed there, with an outcome that says so.
package struct TimelineModel {
  /// The input's name (its path, or `<stdin>`).
  var name: String
  /// The trace's metadata.
  var meta: TraceMetadata
  /// How many events the trace has.
  var eventCount = 0
  /// The time of the last event: where the trace ends.
  package var end = TraceTime.zero
  /// Whether the trace's last events are lost (the reader's damage ends the trace): its
  /// last event is a cut, and what is open there is drawn open at the cut.
  package var isCut = false
  /// The app processes, in launch order; a slice's `process` indexes this array.
  var processes: [Process] = []
  /// The app's states, in time order.
  var states: [StateSpan] = []
  /// The states the app entered and left at one instant (`inactive` on the way to
  /// `background`), in time order: the timeline marks them with a tick.
  var momentaryStates: [StateSpan] = []
  /// The UIKit background tasks, in begin order.
  var tasks: [TaskSlice] = []
  /// The scheduler requests the app submitted, in submission order.
  var submissions: [Submission] = []
  /// The scheduler runs, in launch order.
  var runs: [RunSlice] = []
  /// The work items, in the order they first appear.
  var works: [WorkLane] = []
  /// The background URL sessions, in the order they first appear.
  var sessions: [SessionLane] = []
  /// Android's foreground services, in the order they first appear.
  var services: [ServiceLane] = []
  /// Point events: expirations, rejections and everything not drawn as a slice.
  var instants: [Instant] = []
  /// The checker's findings, in trace order.
  var findings: [LocatedFinding] = []
}

extension TimelineModel {
  /// One app process: from an `app.launch` (or the first event, for a trace that does
  /// not start with one) to termination, the next launch, or the end of the trace.
  struct Process {
    /// When it started.
    var start: TraceTime
    /// When it ended.
    var end: TraceTime
    /// Whether the trace did not start with `app.launch` and this process is implied.
    var implicit: Bool
    /// How it ended: `terminated (memory)`, `relaunched`, `trace ended`.
    var ending = "trace ended"
  }

  /// A span of one app state within a process (`launching` before its first `app.state`;
  /// `unknown` before it, in a process the trace did not see start).
  struct StateSpan {
    /// The process (index into ``TimelineModel/processes``).
    var process: Int
    /// `unknown`, `launching`, `active`, `inactive`, `background` or `suspended`.
    var state: String
    /// When the app entered the state.
    var start: TraceTime
    /// When it left it.
    var end: TraceTime
  }

  /// How a UIKit background task ended.
  enum TaskOutcome: String {
    /// Ended with no expiration.
    case ended
    /// Ended after its expiration handler ran.
    case expired
    /// Never ended, and never expired, before its process ended or the trace ended.
    case leaked
    /// Expired and never ended: the system kills an app for this.
    case killed
    /// Still open where the trace was cut (its last events are lost): how it ended is
    /// not known.
    case cut = "open at the cut"
  }

  /// One UIKit background task, from `task.begin` to `task.end` (or where it was given up).
  struct TaskSlice {
    /// The process it belongs to.
    var process: Int
    /// The task identifier.
    var id: Int
    /// The task's name, when the trace gives one.
    var name: String?
    /// When it began.
    var start: TraceTime
    /// When it ended, or when its process or the trace ended.
    var end: TraceTime
    /// When its expiration handler ran.
    var expiredAt: TraceTime?
    /// How it ended.
    var outcome: TaskOutcome
    /// The name, or `task N` for an unnamed task.
    var label: String { name ?? "task \(id)" }
  }

  /// One `sched.submit`: a request that a later launch of its identifier answers.
  struct Submission {
    /// The process that submitted it.
    var process: Int
    /// When.
    var time: TraceTime
    /// The task identifier.
    var identifier: String
    /// Refresh or processing.
    var type: SchedulerRequestType
    /// The event's canonical text line.
    var detail: String
    /// What became of it.
    var fate = SubmissionFate.pending
    /// When a launch answered it, a later submission replaced it, or the app cancelled it.
    var settled: TraceTime?
    /// The run that answered it (index into ``TimelineModel/runs``).
    var run: Int?
    /// The stretches it waited while due, with the reasons the trace records (`sched.wait`).
    var waits: [Wait] = []
  }

  /// What became of a submission.
  enum SubmissionFate: String {
    /// A run answered it.
    case launched
    /// A later submission for its identifier replaced it.
    case replaced
    /// The app cancelled it.
    case cancelled
    /// Still waiting for a launch when the trace ended.
    case pending
  }

  /// What a finding is about: the lane it is drawn on.
  enum Subject: Hashable {
    /// A task (index into ``TimelineModel/tasks``).
    case task(Int)
    /// A scheduler run (index into ``TimelineModel/runs``).
    case run(Int)
    /// A work item (index into ``TimelineModel/works``).
    case work(Int)
    /// A background URL session (index into ``TimelineModel/sessions``).
    case session(Int)
    /// A foreground service (index into ``TimelineModel/services``).
    case service(Int)
    /// A submission (index into ``TimelineModel/submissions``): its run once launched,
    /// its own lane while it was never launched.
    case request(Int)
    /// Tasks in general: an end or expiration of no task the trace began.
    case anyTask
    /// Scheduler runs in general: a completion or expiration of no run launched.
    case anyRun
  }

  /// How a scheduler run ended.
  enum RunOutcome: String {
    /// `sched.complete success=true` before any expiration.
    case completed
    /// `sched.complete success=false` before any expiration.
    case failed
    /// Completed after its expiration handler ran.
    case expired
    /// Never completed before its process ended or the trace ended.
    case notCompleted = "not completed"
    /// Still open where the trace was cut (its last events are lost): how it ended is
    /// not known.
    case cut = "open at the cut"
  }

  /// One scheduler run, from `sched.launch` to `sched.complete` (or where it was given up).
  struct RunSlice {
    /// The process it was launched in.
    var process: Int
    /// The run number.
    var run: Int
    /// The task identifier.
    var identifier: String
    /// The type of the latest submission for the identifier, when there was one.
    var type: SchedulerRequestType?
    /// When it was launched.
    var start: TraceTime
    /// When it completed, or when its process or the trace ended.
    var end: TraceTime
    /// When its expiration handler ran.
    var expiredAt: TraceTime?
    /// How it ended.
    var outcome: RunOutcome
    /// The submission the launch answers (index into ``TimelineModel/submissions``).
    var submission: Int?
  }

  /// How a worker attempt ended.
  enum AttemptOutcome: String {
    /// `work.result outcome=success`.
    case success
    /// `work.result outcome=failure`.
    case failure
    /// `work.result outcome=retry`: another attempt follows after the backoff.
    case retry
    /// `work.stop`: the system stopped the worker.
    case stopped
    /// Its process terminated or relaunched while it ran.
    case interrupted
    /// Still running when the trace ended.
    case unfinished
  }

  /// One run of a worker, from `work.start` to its result or stop.
  struct Attempt {
    /// The process it ran in.
    var process: Int
    /// The attempt number (`runAttemptCount`).
    var number: Int
    /// When it started.
    var start: TraceTime
    /// When it returned, was stopped, or was given up.
    var end: TraceTime
    /// How it ended.
    var outcome: AttemptOutcome
    /// The reason of a `work.stop`.
    var stopReason: String?
    /// Whether the attempt before it in the lane returned `retry`: a flow joins them.
    var followsRetry = false
  }

  /// A stretch a due request waited, from its `work.wait` to its start, its cancel, the
  /// next `work.wait` or the trace's end.
  struct Wait {
    var start: TraceTime
    var end: TraceTime
    /// The reasons the trace records for it.
    var reasons: Set<WaitReason>
  }

  /// One work item's lane: its enqueues, cancellations, waits and attempts.
  struct WorkLane {
    /// The work identifier.
    var work: String
    /// The worker's name, from the latest request that became the work's current one:
    /// an enqueue that starts it afresh or updates it, or a queued request released.
    var name: String?
    /// When it was enqueued.
    var enqueues: [TraceTime] = []
    /// When the app cancelled it.
    var cancels: [TraceTime] = []
    /// Its attempts, in start order.
    var attempts: [Attempt] = []
    /// The stretches it waited while due (`work.wait`), each with its reasons, in order.
    var waits: [Wait] = []
    /// The worker's class, from the tags WorkManager prints where an attempt ends
    /// (`com.example.SyncWorker,sync`: the tag that names a class, its last component),
    /// for work whose enqueue the trace does not hold.
    var worker: String?
    /// When a REPLACE enqueue took the place of this lane's request while its attempt
    /// ran: the replacement is drawn on a lane of its own.
    var replacedAt: TraceTime?
    /// `sync-1 DataSyncWorker`; a device's UUID shortened to its first group,
    /// `SyncWorker 40669dfb…`; or the identifier alone; `(replaced)` after a request a
    /// REPLACE took the place of.
    var label: String {
      let replaced = replacedAt == nil ? "" : " (replaced)"
      guard let title = name ?? worker else { return work + replaced }
      if work.count == 36, work.split(separator: "-").count == 5 { return "\(title) \(work.prefix(8))…\(replaced)" }
      return "\(work) \(title)\(replaced)"
    }

    /// The worker's class a `tags=` value names: its first tag with a dot, the part
    /// after the last dot (`com.example.SyncWorker` → `SyncWorker`); `nil` for none.
    static func workerClass(inTags tags: String) -> String? {
      let names = tags.split(separator: ",").map { $0.drop { $0 == " " } }
      guard let qualified = names.first(where: { $0.contains(".") }), let simple = qualified.split(separator: ".").last
      else { return nil }
      return String(simple)
    }
  }

  /// One background URL session: its transfers and the wakes the system gave the app.
  struct SessionLane {
    /// The configuration identifier.
    var session: String
    /// Its transfers, in submission order.
    var transfers: [Transfer] = []
    /// Its wakes, in time order.
    var wakes: [Wake] = []

    /// One transfer task, from `net.submit` (or the first event, when the trace starts
    /// after it) to `net.finish` or the end of the trace.
    struct Transfer {
      /// The process that submitted it (the one it was first seen in).
      var process: Int
      var task: Int
      var kind: TransferKind?
      var start: TraceTime
      var end: TraceTime
      /// How it ended; `nil` while it had not when the trace ended.
      var outcome: TransferOutcome?
    }

    /// One `net.wake`, to the app's `net.handler` or to the suspension or process end
    /// that ended it unanswered.
    struct Wake {
      var process: Int
      var start: TraceTime
      var end: TraceTime
      /// Whether the app called the completion handler.
      var answered: Bool
      /// Whether the wake is still open (set while building).
      var open = true
    }

    /// Whether the lane shows a problem: a failed transfer or an unanswered wake.
    var hasProblem: Bool {
      transfers.contains { $0.outcome == .failed } || wakes.contains { !$0.answered }
    }
  }

  /// One Android foreground service: each of its runs, from `fgs.start` (or its first
  /// event) to its stop, its refusal, the end of its process or of the trace.
  struct ServiceLane {
    /// The service's name.
    var service: String
    /// Its runs, in start order.
    var runs: [Run] = []

    /// How a run ended.
    enum Ending: Equatable {
      /// `fgs.stop`.
      case stopped
      /// `fgs.refuse`: the start or `startForeground` threw.
      case refused(ForegroundServiceRefusal)
      /// Its process ended first (a crash, an ANR, a kill).
      case closed
    }

    /// One run of the service.
    struct Run {
      var process: Int
      var start: TraceTime
      /// When it went foreground, and with which type.
      var foregroundAt: TraceTime?
      var type: ForegroundServiceType?
      /// When the system called its `onTimeout`.
      var timedOutAt: TraceTime?
      var end: TraceTime
      /// How it ended; `nil` while it ran when the trace ended.
      var ending: Ending?
    }

    /// Whether the lane shows a problem: a run refused, ended by its process, never in
    /// the foreground, or not stopped after its timeout.
    var hasProblem: Bool {
      runs.contains { run in
        run.foregroundAt == nil || run.ending == .closed || (run.timedOutAt != nil && run.ending != .stopped)
          || { if case .refused? = run.ending { true } else { false } }()
      }
    }
  }

  /// Where an instant event belongs.
  enum Track: Hashable {
    /// The app-state track.
    case appState
    /// The checker's findings.
    case findings
    /// The UIKit tasks.
    case tasks
    /// The scheduler runs of one identifier, and their expirations.
    case scheduler(String)
    /// The requests for one identifier: registrations, submissions, rejections, cancellations.
    case requests(String)
    /// The attempts of one work item.
    case work(String)
    /// One background URL session: its creation, events done.
    case session(String)
    /// One foreground service: its timeouts.
    case service(String)
    /// Everything else: registrations, cancellations, environment, inputs, marks.
    case events
  }

  /// What an instant event shows.
  enum InstantCategory: String {
    /// A task's or run's expiration handler ran.
    case expiration
    /// The scheduler refused a submission.
    case rejection
    /// A due request waits (`work.wait`, `sched.wait`): a state, not activity, so a long
    /// idle gap around it is still drawn compressed.
    case waiting
    /// Any other event.
    case event
  }

  /// A point event.
  struct Instant {
    /// The process it happened in.
    var process: Int
    /// When.
    var time: TraceTime
    /// Where it belongs.
    var track: Track
    /// What it shows.
    var category: InstantCategory
    /// A short name: `expire SaveDocument`, `reject tooManyPendingTaskRequests`.
    var name: String
    /// The event's canonical text line.
    var detail: String
  }

  /// A checker finding and the process it shows in.
  struct LocatedFinding {
    /// The process (index into ``TimelineModel/processes``).
    var process: Int
    /// The finding.
    var finding: Finding
    /// What it is about, when its event touched a task, run, work item, session or service.
    var subject: Subject?
    /// Where it is drawn: when it became true. A task or run expired and not ended within
    /// the grace is found at the next event, but holds from its expiration plus the grace.
    var time: TraceTime
  }
}

/// The part of a trace an exporter shows: `--from` and `--to`, inclusive.
package struct TimeWindow {
  /// The first time shown.
  var from: TraceTime
  /// The last time shown.
  var to: TraceTime

  /// The window from `from` (default: the start) to `to` (default: `end`).
  package init(from: TraceTime?, to: TraceTime?, end: TraceTime) {
    self.from = from ?? .zero
    self.to = to ?? max(end, self.from)
  }

  /// Whether `time` is inside the window.
  func contains(_ time: TraceTime) -> Bool { from <= time && time <= to }

  /// The part of `start...end` inside the window, or `nil` when they do not meet.
  func clip(_ start: TraceTime, _ end: TraceTime) -> (start: TraceTime, end: TraceTime)? {
    guard start <= to, end >= from else { return nil }
    return (max(start, from), min(end, to))
  }
}
