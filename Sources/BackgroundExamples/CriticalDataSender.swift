package import BackgroundTrace

/// The seed's `sendCriticalData`: one stored task id for every send.
///
/// Called twice before the first send finishes, the second call overwrites the id, so
/// the first task is never ended (a leak); the second send's completion ends the
/// second task and resets the id, so the first send's completion ends `.invalid`.
///
/// The fix, when `keepsOneIDPerSend` is on: each send keeps its own id, and whichever of
/// its completion and its expiration handler comes first ends it, once.
package final class CriticalDataSender: @unchecked Sendable {
  private let host: any BackgroundTaskHost
  private let context: AsyncContext
  private var backgroundTaskID = BackgroundTaskID.invalid
  /// Whether each send keeps its own task id (the fix).
  package let keepsOneIDPerSend: Bool
  private var openSends: [Int: BackgroundTaskID] = [:]
  private var nextSend = 1
  /// Sends saved for a later retry.
  package private(set) var savedForRetry = 0

  /// Creates the sender.
  package init(host: any BackgroundTaskHost, context: AsyncContext, keepsOneIDPerSend: Bool = false) {
    self.host = host
    self.context = context
    self.keepsOneIDPerSend = keepsOneIDPerSend
  }

  /// Sends data over a request that takes `duration` and fails when `fails` is set.
  package func sendCriticalData(taking duration: Duration, fails: Bool = false) {
    guard !keepsOneIDPerSend else { return sendWithItsOwnID(taking: duration, fails: fails) }
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

  /// The fix: the send's id lives in `openSends` under the send's number.
  private func sendWithItsOwnID(taking duration: Duration, fails: Bool) {
    let send = nextSend
    nextSend += 1
    openSends[send] = host.beginBackgroundTask(withName: "SendCriticalData") { [self] in
      savedForRetry += 1
      endSend(send)
    }
    context.run { [self] in
      try? await context.sleep(duration)
      if fails { savedForRetry += 1 }
      endSend(send)
    }
  }

  private func endSend(_ send: Int) {
    guard let id = openSends.removeValue(forKey: send), id != .invalid else { return }
    host.endBackgroundTask(id)
  }
}
