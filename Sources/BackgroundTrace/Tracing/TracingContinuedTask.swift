/// A launched continued-processing task that records, besides its expiration and
/// completion, each change of its progress as `sched.progress`.
final class TracingContinuedTask: TracingScheduledTask, ContinuedProcessingTask, @unchecked Sendable {
  let continued: any ContinuedProcessingTask

  init(base: any ContinuedProcessingTask, run: Int, recorder: TraceRecorder) {
    self.continued = base
    super.init(base: base, run: run, recorder: recorder)
    base.progress.observe { completed, total in
      recorder.record(.schedProgress(run: run, completed: Int(max(completed, 0)), total: Int(max(total, 0))))
    }
  }

  var progress: TaskProgress { continued.progress }
  var title: String { continued.title }
  var subtitle: String { continued.subtitle }

  func updateTitle(_ title: String, subtitle: String) {
    continued.updateTitle(title, subtitle: subtitle)
  }
}

extension TracingScheduledTask {
  /// The recording task for `task`: one that also records progress when `task` is a
  /// continued-processing task.
  static func wrapping(_ task: any ScheduledTask, run: Int, recorder: TraceRecorder) -> TracingScheduledTask {
    if let continued = task as? any ContinuedProcessingTask {
      return TracingContinuedTask(base: continued, run: run, recorder: recorder)
    }
    return TracingScheduledTask(base: task, run: run, recorder: recorder)
  }
}
