/// Apple: https://developer.apple.com/documentation/swiftui/scene
/// (`@MainActor @preconcurrency protocol Scene`, iOS 14, macOS 11, tvOS 14, watchOS 7,
/// whose requirement is `var body: Self.Body`; the shim declares none: the adapters only
/// extend it).
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
public protocol Scene {}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension Scene {
  /// Apple: https://developer.apple.com/documentation/swiftui/scene/backgroundtask(_:action:)
  /// (`nonisolated func backgroundTask<D, R>(_ task: BackgroundTask<D, R>, action:
  /// @escaping @Sendable (D) async -> R) -> some Scene where D : Sendable, R : Sendable`,
  /// iOS 16, iPadOS 16, Mac Catalyst 16, macOS 13, tvOS 16, visionOS 1, watchOS 9):
  /// "The system considers the task completed when the action closure that you provide
  /// returns. If the action closure has not returned when the task runs out of time to
  /// complete, the system cancels the task."
  ///
  /// Fake: keeps `action` in ``FakeBackgroundTasks`` for the launches the task matches
  /// and returns the scene unchanged. The action gets what its kind's `Request` is: `()`
  /// for `.appRefresh(_:)` and `.urlSession(_:)`, the session's identifier for
  /// `.urlSession` and `.urlSession(matching:)`.
  public nonisolated func backgroundTask<D: Sendable, R: Sendable>(
    _ task: BackgroundTask<D, R>, action: @escaping @Sendable (D) async -> R
  ) -> some Scene {
    FakeBackgroundTasks.keep(task.key, task.matches) { launch in
      let request: Any
      switch launch {
      case .appRefresh: request = ()
      case .urlSession(let identifier): request = D.self == String.self ? identifier : ()
      }
      // The shim's kinds have `D` `Void` or `String`, as the cases above.
      _ = await action(request as! D)
    }
    return self
  }
}
