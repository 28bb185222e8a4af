import BackgroundTrace

/// The colours of the SVG timeline: by app state and by outcome, the same in the lanes
/// and in the legend.
enum SVGPalette {
  /// A good outcome: ended, completed, success.
  static let good = "#43a047"
  /// An outcome that recovered: ended or completed after an expiration.
  static let late = "#fb8c00"
  /// A bad outcome: leaked, not completed, failure, rejected.
  static let bad = "#e53935"
  /// The worst outcome: expired and never ended, interrupted by the process's end.
  static let killed = "#7f0000"
  /// A run completed with `success=false`.
  static let failedRun = "#ef9a9a"
  /// An attempt that returned `retry`.
  static let retry = "#fdd835"
  /// An attempt the system stopped.
  static let stopped = "#8d6e63"
  /// Still running when the trace ended.
  static let unfinished = "#90a4ae"
  /// The expiration marker's fill.
  static let expiration = "#fff176"
  /// A request submitted and never launched, while it waits.
  static let pending = "#eeeeee"
  /// An error finding.
  static let error = "#c62828"
  /// A warning finding.
  static let warning = "#ef6c00"

  /// The app states, in legend order, with their colours.
  static let states: [(name: String, color: String)] = [
    ("unknown", "#ffffff"), ("launching", "#eeeeee"), ("active", "#a5d6a7"), ("inactive", "#fff59d"),
    ("background", "#90caf9"),
    ("suspended", "#cfd8dc"),
  ]

  /// The colour of an app state.
  static func state(_ name: String) -> String {
    states.first { $0.name == name }?.color ?? "#eeeeee"
  }

  /// The colour of a task's outcome.
  static func task(_ outcome: TimelineModel.TaskOutcome) -> String {
    switch outcome {
    case .ended: good
    case .expired: late
    case .leaked: bad
    case .killed: killed
    case .cut: unfinished
    }
  }

  /// The colour of a run's outcome.
  /// A transfer's fill: succeeded, failed, cancelled, or not finished when the trace ended.
  static func transfer(_ outcome: TransferOutcome?) -> String {
    switch outcome {
    case .success?: good
    case .failed?: bad
    case .cancelled?: stopped
    case nil: unfinished
    }
  }

  static func run(_ outcome: TimelineModel.RunOutcome) -> String {
    switch outcome {
    case .completed: good
    case .failed: failedRun
    case .expired: late
    case .notCompleted: bad
    case .cut: unfinished
    }
  }

  /// The colour of an attempt's outcome.
  static func attempt(_ outcome: TimelineModel.AttemptOutcome) -> String {
    switch outcome {
    case .success: good
    case .retry: retry
    case .failure: bad
    case .stopped: stopped
    case .interrupted: killed
    case .unfinished: unfinished
    }
  }
}
