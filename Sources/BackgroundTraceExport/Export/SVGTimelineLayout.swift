import BackgroundTrace

/// Where things go in the SVG timeline: which lanes are drawn, the time scale and the
/// axis ticks.
///
/// A lane is one task, one scheduler run or one work item. When more lanes meet the
/// window than ``laneLimit``, each group (tasks, runs, work) gets a fair share; within a
/// group, lanes with a problem (an expiration, a leak, a failure, …) come first and the
/// rest are sampled evenly over time, so the drawing still covers the whole window.
struct SVGTimelineLayout {
  /// The most lanes drawn.
  static let laneLimit = 200
  /// The drawing's width in pixels.
  static let width = 1200.0
  /// The left column, for lane labels.
  static let labelWidth = 250.0
  /// The plot's right margin.
  static let rightMargin = 24.0
  /// The height of one lane.
  static let laneHeight = 16.0
  /// The height of a group's header row.
  static let headerHeight = 20.0

  /// What a lane shows: a task, a run, a work item, a session, a service, or a request
  /// never launched (``TimelineModel/Subject/request(_:)``).
  typealias LaneKind = TimelineModel.Subject

  /// The lane groups, in drawing order.
  enum Group: Int, CaseIterable {
    case tasks, runs, works, sessions, services

    /// The group's header.
    var title: String {
      switch self {
      case .tasks: "UIKit background tasks"
      case .runs: "Scheduler runs (BGTaskScheduler)"
      case .works: "Work (WorkManager)"
      case .sessions: "Background transfers (URLSession)"
      case .services: "Foreground services (Android)"
      }
    }
  }

  /// One lane.
  struct Lane {
    /// What it shows.
    var kind: LaneKind
    /// When it starts (its first visible thing).
    var start: TraceTime
    /// Whether it shows a problem.
    var problem: Bool
  }

  /// A group's drawn lanes, and how many lanes it has in the window.
  struct GroupLanes {
    /// The group.
    var group: Group
    /// The lanes drawn, in start order.
    var lanes: [Lane]
    /// How many lanes of the group meet the window.
    var total: Int
  }

  /// The window drawn.
  let window: TimeWindow
  /// The groups with lanes in the window.
  let groups: [GroupLanes]
  /// The time axis.
  let scale: SVGTimeScale

  /// The plot's left edge.
  let plotLeft = labelWidth
  /// The plot's right edge.
  let plotRight = width - rightMargin

  /// Lays out `model` within `window`.
  ///
  /// - Complexity: O(*l* log *l*) in the number of lanes.
  init(_ model: TimelineModel, window: TimeWindow) {
    self.window = window
    let gaps = SVGTimeScale.idleGaps(in: model, window: window)
    let drawn = gaps.reduce(window.to.nanoseconds - window.from.nanoseconds) {
      $0 - ($1.end.nanoseconds - $1.start.nanoseconds)
    }
    let scaleEnd: TraceTime
    if drawn == 0 {
      scaleEnd = window.from.adding(nanoseconds: 1_000_000_000)
    } else if window.to >= model.end {
      // Nothing happens after the trace's end: a little room keeps its last marks off the edge.
      scaleEnd = window.to.adding(nanoseconds: drawn / 50)
    } else {
      scaleEnd = window.to
    }
    scale = SVGTimeScale(
      from: window.from, to: scaleEnd, left: Self.labelWidth, right: Self.width - Self.rightMargin, gaps: gaps)
    var candidates: [Group: [Lane]] = [:]
    for (index, task) in model.tasks.enumerated() where window.clip(task.start, task.end) != nil {
      candidates[.tasks, default: []].append(
        Lane(kind: .task(index), start: task.start, problem: task.outcome != .ended))
    }
    for (index, run) in model.runs.enumerated() where window.clip(run.start, run.end) != nil {
      let problem = run.outcome != .completed
      candidates[.runs, default: []].append(Lane(kind: .run(index), start: run.start, problem: problem))
    }
    for (index, submission) in model.submissions.enumerated()
    where [.pending, .cancelled].contains(submission.fate)
      && window.clip(submission.time, submission.settled ?? model.end) != nil
    {
      candidates[.runs, default: []].append(Lane(kind: .request(index), start: submission.time, problem: true))
    }
    for (index, work) in model.works.enumerated() {
      let times = work.enqueues + work.cancels + work.attempts.flatMap { [$0.start, $0.end] }
      guard let first = times.min(), let last = times.max(), window.clip(first, last) != nil else { continue }
      let problem = work.attempts.contains { [.failure, .stopped, .interrupted].contains($0.outcome) }
      candidates[.works, default: []].append(Lane(kind: .work(index), start: first, problem: problem))
    }
    for (index, session) in model.sessions.enumerated() {
      guard let (first, last) = Self.span(of: session), window.clip(first, last) != nil else { continue }
      candidates[.sessions, default: []].append(
        Lane(kind: .session(index), start: first, problem: session.hasProblem))
    }
    for (index, service) in model.services.enumerated() {
      guard let first = service.runs.map(\.start).min(), let last = service.runs.map(\.end).max(),
        window.clip(first, last) != nil
      else { continue }
      candidates[.services, default: []].append(
        Lane(kind: .service(index), start: first, problem: service.hasProblem))
    }
    // Fair shares: the smaller groups first, each taking at most an equal part of what is left.
    var remaining = Self.laneLimit
    var shares: [Group: Int] = [:]
    let bySize = Group.allCases.filter { candidates[$0] != nil }.sorted {
      candidates[$0]!.count < candidates[$1]!.count
    }
    for (position, group) in bySize.enumerated() {
      let share = min(candidates[group]!.count, remaining / (bySize.count - position))
      shares[group] = share
      remaining -= share
    }
    groups = Group.allCases.compactMap { group in
      guard let lanes = candidates[group] else { return nil }
      return GroupLanes(group: group, lanes: Self.choose(shares[group]!, of: lanes), total: lanes.count)
    }
    var rows: [LaneKind: Int] = [:]
    var row = 0
    for group in groups {
      if group.group == .tasks { rows[.anyTask] = row }
      if group.group == .runs { rows[.anyRun] = row }
      row += 1
      for lane in group.lanes {
        rows[lane.kind] = row
        row += 1
      }
    }
    self.rows = rows
  }

  /// Each drawn lane's row, counting the groups' header rows (tasks in general on the
  /// tasks' header, runs in general on the runs').
  let rows: [LaneKind: Int]

  /// The top of `row`.
  func top(ofRow row: Int) -> Double {
    var y = SVGTimeline.lanesTop
    var remaining = row
    for group in groups {
      if remaining == 0 { return y }
      y += Self.headerHeight
      remaining -= 1
      if remaining < group.lanes.count { return y + Double(remaining) * Self.laneHeight }
      y += Double(group.lanes.count) * Self.laneHeight
      remaining -= group.lanes.count
    }
    return y
  }

  /// The row a finding about `subject` is drawn on, when that lane is drawn.
  func row(of subject: TimelineModel.Subject?, in model: TimelineModel) -> Int? {
    guard var subject else { return nil }
    if case .request(let index) = subject {
      switch model.submissions[index].fate {
      case .launched: subject = .run(model.submissions[index].run!)
      case .replaced: return nil
      case .pending, .cancelled: break
      }
    }
    return rows[subject]
  }

  /// From a session's first transfer or wake to its last.
  static func span(of session: TimelineModel.SessionLane) -> (TraceTime, TraceTime)? {
    let times = session.transfers.flatMap { [$0.start, $0.end] } + session.wakes.flatMap { [$0.start, $0.end] }
    guard let first = times.min(), let last = times.max() else { return nil }
    return (first, last)
  }

  /// `count` of `lanes` (in start order): the problems first, the rest evenly spread.
  private static func choose(_ count: Int, of lanes: [Lane]) -> [Lane] {
    guard lanes.count > count else { return lanes }
    let problems = lanes.filter(\.problem)
    var chosen = Array(problems.prefix(count))
    let others = lanes.filter { !$0.problem }
    let wanted = count - chosen.count
    if wanted > 0 {
      for step in 0..<wanted { chosen.append(others[step * others.count / wanted]) }
    }
    return chosen.sorted { $0.start < $1.start }
  }

  /// How many lanes meet the window.
  var totalLanes: Int { groups.reduce(0) { $0 + $1.total } }
  /// How many lanes are drawn.
  var drawnLanes: Int { groups.reduce(0) { $0 + $1.lanes.count } }

  /// The x coordinate of `time`, clamped to the plot.
  func x(_ time: TraceTime) -> Double { scale.x(time) }
}
