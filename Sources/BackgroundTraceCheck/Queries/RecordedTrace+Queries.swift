public import BackgroundTrace

/// Typed questions a test asks of a trace, instead of matching its text.
extension RecordedTrace {
  /// Every background task's life, in the order the tasks began (refused begins, with
  /// id 0, are not tasks).
  ///
  /// ```swift
  /// let upload = try #require(trace.taskLifetimes.first { $0.name == "Upload" })
  /// #expect(upload.ending == .ended(at: TraceTime(seconds: 8)))
  /// ```
  public var taskLifetimes: [TaskLifetime] {
    var walker = LifecycleWalker()
    var transitions: [LifecycleTransition] = []
    var lifetimes: [TaskLifetime] = []
    var open: [Int: Int] = [:]  // task id in the current process → index in lifetimes
    var now = TraceTime.zero
    func note(_ transition: LifecycleTransition) {
      switch transition {
      case .processStarted:
        open.removeAll()
      case .taskBegun(let id, let life):
        open[id] = lifetimes.count
        lifetimes.append(
          TaskLifetime(
            process: walker.process.number, id: id, name: life.name, begin: life.begin, expiredAt: nil,
            ending: .closed(at: now, reason: ProcessEnd.traceEnded.phrase)))
      case .taskExpired(let id, let life):
        if let index = open[id] { lifetimes[index].expiredAt = life.expiredAt }
      case .taskEnded(let id, _):
        if let index = open.removeValue(forKey: id) { lifetimes[index].ending = .ended(at: now) }
      case .taskClosed(let id, _, let end):
        if let index = open.removeValue(forKey: id) { lifetimes[index].ending = .closed(at: now, reason: end.phrase) }
      default:
        break
      }
    }
    for event in events {
      now = event.time
      transitions.removeAll(keepingCapacity: true)
      walker.apply(event, into: &transitions)
      transitions.forEach(note)
    }
    transitions.removeAll(keepingCapacity: true)
    walker.finish(into: &transitions)
    transitions.forEach(note)
    return lifetimes
  }

  /// What the checker finds in this trace.
  public func findings(configuration: CheckerConfiguration = CheckerConfiguration()) -> [Finding] {
    TraceChecker.check(self, configuration: configuration)
  }
}

extension Sequence<Finding> {
  /// The findings of one rule: `trace.findings().of(.taskLeaked)`.
  public func of(_ rule: Rule) -> [Finding] {
    filter { $0.rule == rule }
  }
}
