public import BackgroundTrace

extension AsyncContext {
  /// Runs on a simulation: its current executor (a new one after each termination)
  /// and its virtual clock.
  public init(simulation scheduler: VirtualTimeScheduler) {
    let clock = scheduler.clock
    self.init(executor: { scheduler.executor }, sleep: { duration in try await clock.sleep(for: duration) })
  }
}
