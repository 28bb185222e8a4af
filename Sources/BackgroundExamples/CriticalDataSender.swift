public import BackgroundTrace

/// The seed's `sendCriticalData`: one stored task id for every send.
///
/// Called twice before the first send finishes, the second call overwrites the id, so
/// the first task is never ended (a leak); the second send's completion ends the
/// second task and resets the id, so the first send's completion ends `.invalid`.
public final class CriticalDataSender: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private var backgroundTaskID = BackgroundTaskID.invalid
  /// Sends saved for a later retry.
  public private(set) var savedForRetry = 0

  /// Creates the sender.
  public init(host: any BackgroundTaskHost, context: AsyncContext) {
    self.host = host
    self.context = context
  }

  /// Sends data over a request that takes `duration` and fails when `fails` is set.
  public func sendCriticalData(taking duration: Duration, fails: Bool = false) {
    backgroundTaskID = host.beginBackgroundTask(withName: "SendCriticalData") { [self] in
      savedForRetry += 1
      endBackgroundTask()
    }
    context.run { [self] in
      try? await context.sleep(duration)
      if fails { savedForRetry += 1 }
      endBackgroundTask()
    }
  }

  private func endBackgroundTask() {
    host.endBackgroundTask(backgroundTaskID)
    backgroundTaskID = .invalid
  }
}
