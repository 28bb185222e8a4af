/// Where app code's asynchronous work runs and how it waits: on a device, the global
/// executor and `ContinuousClock`; in the simulation, the scheduler's executor and its
/// `VirtualClock`, so the same code runs deterministically.
///
/// Give your uploader or sync class an `AsyncContext` instead of calling `Task {}` and
/// `Task.sleep` directly; the app passes
/// `AsyncContext(executor: nil, clock: ContinuousClock())`, a test passes
/// `AsyncContext(simulation: system.scheduler)` (from BackgroundSimulation, so the app
/// itself never links the simulation).
public struct AsyncContext: Sendable {
  /// The executor async work prefers, asked at each ``run(_:)`` (`nil`: the global
  /// concurrent executor). In the simulation it is the current process's.
  public var executor: @Sendable () -> (any TaskExecutor)?
  /// How long operations take is measured on this clock.
  public var sleep: @Sendable (Duration) async throws -> Void

  /// Creates a context from a function that picks the executor at each ``run(_:)`` and
  /// a function that waits.
  public init(
    executor: @escaping @Sendable () -> (any TaskExecutor)?, sleep: @escaping @Sendable (Duration) async throws -> Void
  ) {
    self.executor = executor
    self.sleep = sleep
  }

  /// Creates a context from an executor preference and a clock.
  public init<C: Clock>(executor: (any TaskExecutor)?, clock: C) where C.Duration == Duration {
    self.executor = { executor }
    self.sleep = { duration in try await clock.sleep(for: duration) }
  }

  /// Starts `operation` as a task on the context's executor (the seeds'
  /// `DispatchQueue.global().async` and `URLSession` completion handlers).
  public func run(_ operation: sending @escaping @isolated(any) () async -> Void) {
    Task(executorPreference: executor(), operation: operation)
  }
}
