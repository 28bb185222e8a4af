/// Apple: https://developer.apple.com/documentation/swiftui/scene
/// (`@MainActor @preconcurrency protocol Scene`, whose requirement is `var body: Self.Body`;
/// the shim declares none: the adapters only extend it).
public protocol Scene {}

extension Scene {
  /// Apple: https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)
  /// (`nonisolated func backgroundTask<D, R>(_ task: BackgroundTask<D, R>, action:
  /// @escaping @Sendable (D) async -> R) -> some Scene where D : Sendable, R : Sendable`):
  /// "The system considers the task completed when the action closure that you provide
  /// returns. If the action closure has not returned when the task runs out of time to
  /// complete, the system cancels the task."
  ///
  /// Fake: keeps `action` in ``FakeBackgroundTasks`` under the task's identifier and
  /// returns the scene unchanged.
  public nonisolated func backgroundTask<D: Sendable, R: Sendable>(
    _ task: BackgroundTask<D, R>, action: @escaping @Sendable (D) async -> R
  ) -> some Scene {
    // Only `BackgroundTask<Void, Void>` kinds exist in the shim, so `D` is `Void`.
    FakeBackgroundTasks.keep(task.identifier) { _ = await action(() as! D) }
    return self
  }
}
