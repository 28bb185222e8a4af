/// Which device the simulation models, recorded as `meta platform=` (docs/platform-model.md,
/// "Processes").
///
/// The two differ in what keeps an app's process running in the background and in
/// which APIs exist:
/// - ``ios``: UIKit background tasks and BGTaskScheduler. Nothing but an open task or
///   a scheduler run keeps the app from being suspended. ``/BackgroundTrace/WorkQueue`` work is an
///   in-process queue (SwiftQueue-style): it runs only while the app runs — never
///   while it is suspended or not running — does not keep it running, and has no
///   system time limit.
/// - ``android``: WorkManager. The system starts the app's process to run work, a
///   running worker keeps the process alive, a worker is stopped at its job time limit, and
///   work running when the process dies is run again, with its next attempt number,
///   after its backoff. Android has no UIKit tasks (a begin is refused with
///   `.invalid`) and no BGTaskScheduler (registration is refused, a submit fails with
///   `unavailable`).
public enum SimulatedPlatform: String, Sendable, CaseIterable {
  /// An iPhone app: UIKit tasks, BGTaskScheduler, in-process work queues.
  case ios
  /// An Android app: WorkManager, with system-started processes.
  case android
}
