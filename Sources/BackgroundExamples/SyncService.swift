package import BackgroundTrace

/// The seed's `SyncService` (article 000: "Foreground Service na may notification para
/// sa agarang at mahabang pagtatrabaho sa background"), ported to ``ForegroundService``
/// as written:
///
/// ```kotlin
/// class SyncService : Service() {
///     override fun onStartCommand(intent: Intent?, flags: Int, startId: Int): Int {
///         val notification = createNotification()
///         startForeground(NOTIFICATION_ID, notification)
///         performBackgroundWork()
///         return START_STICKY
///     }
///
///     private fun performBackgroundWork() {
///         Thread {
///             // Pag-sync ng data sa server
///             syncDataToServer()
///             stopForeground(STOP_FOREGROUND_REMOVE)
///             stopSelf()
///         }.start()
///     }
///
///     override fun onBind(intent: Intent?): IBinder? = null
/// }
/// ```
///
/// `startForeground(NOTIFICATION_ID, notification)` passes no type: on Android 14 and
/// later it throws `MissingForegroundServiceTypeException`, which nothing catches, so
/// the app crashes (`fgs-untyped`). The fix passes one (`type: .dataSync`). An
/// exception the Kotlin code does not catch goes to `uncaught`, which ends the app in
/// the simulation. `preparation` is work done before `startForeground` (none in the
/// seed); done first, a slow one misses the deadline (`fgs-not-promoted`).
package final class SyncService: ForegroundService {
  /// The service's name in traces (`fgs.start service=SyncService`).
  package static let name = "SyncService"

  /// The type passed to `startForeground`: `nil` as the seed does, `.dataSync` the fix.
  package let type: ForegroundServiceType?
  /// How long `syncDataToServer()` takes.
  package let syncDuration: Duration
  /// Work `onStartCommand` does before `startForeground` (reading settings under load);
  /// zero in the seed.
  package let preparation: Duration
  private let context: AsyncContext
  private let uncaught: @Sendable (ForegroundServiceError) -> Void

  /// Creates the service.
  package init(
    type: ForegroundServiceType?, syncDuration: Duration, preparation: Duration = .zero, context: AsyncContext,
    uncaught: @escaping @Sendable (ForegroundServiceError) -> Void
  ) {
    self.type = type
    self.syncDuration = syncDuration
    self.preparation = preparation
    self.context = context
    self.uncaught = uncaught
  }

  /// `onStartCommand`: `startForeground` (after `preparation`, if any), then
  /// `performBackgroundWork()`.
  package func onStartCommand(_ control: ForegroundServiceControl) {
    guard preparation > .zero else { return startForeground(control) }
    let (context, preparation) = (context, preparation)
    context.run { [self] in
      try? await context.sleep(preparation)
      startForeground(control)
    }
  }

  private func startForeground(_ control: ForegroundServiceControl) {
    // val notification = createNotification(); startForeground(NOTIFICATION_ID, notification)
    do {
      try control.startForeground(type: type)
    } catch {
      return uncaught(error)  // thrown out of onStartCommand: the app crashes
    }
    performBackgroundWork(control)
  }

  /// `Thread { syncDataToServer(); stopForeground(STOP_FOREGROUND_REMOVE); stopSelf() }`:
  /// the two stops are one `fgs.stop`.
  private func performBackgroundWork(_ control: ForegroundServiceControl) {
    let (context, syncDuration) = (context, syncDuration)
    context.run {
      try? await context.sleep(syncDuration)  // syncDataToServer()
      control.stopSelf()
    }
  }
}

/// The app around the seed's ``SyncService``: the user's "sync" starts it with
/// `startForegroundService`; a start the system refuses throws, uncaught.
package final class SyncServiceApp: BackgroundAppDelegate {
  private let services: any ForegroundServices
  private let makeService: () -> SyncService
  private let uncaught: @Sendable (ForegroundServiceError) -> Void

  /// An app whose "sync" starts the service `makeService` builds.
  package init(
    services: any ForegroundServices, uncaught: @escaping @Sendable (ForegroundServiceError) -> Void,
    makeService: @escaping () -> SyncService
  ) {
    self.services = services
    self.uncaught = uncaught
    self.makeService = makeService
  }

  /// "sync": `startForegroundService(Intent(this, SyncService::class.java))`.
  package func perform(userAction action: String) {
    guard action == "sync" else { return }
    do {
      try services.startForegroundService(SyncService.name, makeService())
    } catch {
      uncaught(error)
    }
  }
}
