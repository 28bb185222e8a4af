extension TraceMetadata {
  /// How long a continued-processing run may go with no progress before iOS may expire
  /// it, as the checker holds a trace to it: `meta continued-stall=` (seconds), else
  /// ``defaultContinuedProcessingStallWindow``.
  public var continuedProcessingStallWindow: TraceInterval {
    self[Self.continuedStallSetting] ?? Self.defaultContinuedProcessingStallWindow
  }

  /// The shortest stall window reported for `BGContinuedProcessingTask` (Apple: "Tasks
  /// that appear stalled may be forcibly expired"; Apple Developer Forums thread 808756:
  /// a task reporting no progress "fails as expected after ~30 seconds"): 30 s. The
  /// simulation's default (`SimulationConfiguration.continuedProcessingStallWindow`) and
  /// the `sched-progress-stalled` rule's.
  public static let defaultContinuedProcessingStallWindow = TraceInterval(nanoseconds: 30_000_000_000)
}
