/// A main-actor expiration handler (``BackgroundTaskHost``), held by a platform that runs
/// app code on one virtual main thread: the simulation's scheduler and the replay run
/// every job of the app one at a time, in order, as UIKit's main thread does, so a
/// handler called there runs where UIKit would run it, though that thread need not be
/// the process's main thread (a test runs on any thread).
package struct MainThreadHandler: Sendable {
  private let handler: @MainActor @Sendable () -> Void

  /// Holds `handler`.
  package init(_ handler: @escaping @MainActor @Sendable () -> Void) {
    self.handler = handler
  }

  /// Runs the handler on the calling thread, the platform's virtual main thread. The
  /// main actor's isolation is the platform's promise here, not the runtime's: a
  /// synchronous main-actor function is called as any other, and the platform calls it
  /// from no other thread while app code runs.
  package func callOnVirtualMainThread() {
    unsafeBitCast(handler, to: (@Sendable () -> Void).self)()
  }
}
