import BackgroundTrace
import BackgroundTraceCheck

extension SVGTimeScale {
  /// The most gaps compressed.
  static let gapLimit = 10

  /// The stretches of `window` to compress: where the app is suspended or not running
  /// and nothing happens (no event, no open task, run or attempt) for more than a tenth
  /// of the window, at most ``gapLimit`` of them, the longest; each keeps a little of
  /// its idle time at both ends so that the changes around it stay visible.
  ///
  /// - Complexity: O(*n* log *n*) in the model's size.
  static func idleGaps(in model: TimelineModel, window: TimeWindow) -> [(start: TraceTime, end: TraceTime)] {
    let span = window.to.nanoseconds - window.from.nanoseconds
    guard span > 0 else { return [] }
    let holes = idleHoles(model, window)
    let asleep = asleepIntervals(model)
    var candidates: [(start: TraceTime, end: TraceTime)] = []
    var next = 0
    for hole in holes {
      while next < asleep.count, asleep[next].end <= hole.start { next += 1 }
      var index = next
      while index < asleep.count, asleep[index].start < hole.end {
        let start = max(hole.start, asleep[index].start)
        let end = min(hole.end, asleep[index].end)
        let inset = span / 100
        if end.nanoseconds - start.nanoseconds > span / 10 + 2 * inset {
          candidates.append((start.adding(nanoseconds: inset), TraceTime(nanoseconds: end.nanoseconds - inset)))
        }
        index += 1
      }
    }
    let longest = candidates.sorted {
      $0.end.nanoseconds - $0.start.nanoseconds > $1.end.nanoseconds - $1.start.nanoseconds
    }
    return longest.prefix(gapLimit).sorted { $0.start < $1.start }
  }

  /// The stretches of the window where nothing happens and nothing is open, in order.
  private static func idleHoles(_ model: TimelineModel, _ window: TimeWindow) -> [(start: TraceTime, end: TraceTime)] {
    var busy: [(start: TraceTime, end: TraceTime)] = []
    func add(_ start: TraceTime, _ end: TraceTime) {
      if let clipped = window.clip(start, end) { busy.append(clipped) }
    }
    for task in model.tasks { add(task.start, task.end) }
    for run in model.runs { add(run.start, run.end) }
    for submission in model.submissions { add(submission.time, submission.time) }
    for work in model.works {
      for attempt in work.attempts { add(attempt.start, attempt.end) }
      for time in work.enqueues + work.cancels { add(time, time) }
    }
    for instant in model.instants where instant.category != .waiting { add(instant.time, instant.time) }
    for located in model.findings { add(located.time, located.time) }
    for state in model.states { add(state.start, state.start) }
    for process in model.processes {
      add(process.start, process.start)
      add(process.end, process.end)
    }
    busy.sort { $0.start < $1.start }
    var holes: [(start: TraceTime, end: TraceTime)] = []
    var cursor = window.from
    for interval in busy {
      if interval.start > cursor { holes.append((cursor, interval.start)) }
      cursor = max(cursor, interval.end)
    }
    if window.to > cursor { holes.append((cursor, window.to)) }
    return holes
  }

  /// When the app is suspended, or not running between a termination and the next
  /// launch, in order.
  private static func asleepIntervals(_ model: TimelineModel) -> [(start: TraceTime, end: TraceTime)] {
    var asleep = model.states.filter { $0.state == "suspended" }.map { (start: $0.start, end: $0.end) }
    for (index, process) in model.processes.enumerated() where process.ending.hasPrefix("terminated") {
      let next = index + 1 < model.processes.count ? model.processes[index + 1].start : model.end
      if next > process.end { asleep.append((process.end, next)) }
    }
    asleep.sort { $0.start < $1.start }
    return asleep
  }
}
