import BackgroundTrace

/// The app of an exploration scenario: the system calls its closures at the lifecycle
/// callbacks and user actions, so the scenario decides what the app does there.
final class ScenarioApp: BackgroundAppDelegate {
  var enteredBackground: () -> Void = {}
  var performed: (String) -> Void = { _ in }

  func didEnterBackground() { enteredBackground() }
  func perform(userAction action: String) { performed(action) }
}
