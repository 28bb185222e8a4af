package import BackgroundTrace

/// A long upload (45 minutes) as a WorkManager worker: JobScheduler stops a job after 10
/// minutes, or from Android 14 after 30 while its quota is free (the app on top) and
/// after what is left of the active bucket's quota (its day before Android 16, 20
/// minutes an hour from 16), so an upload this long never finishes unless the worker first calls
/// `setForeground` (androidx's long-running workers), which runs it as a foreground
/// service with no such limit. The upload restarts from the beginning
/// on each attempt.
package struct LongUploadWorker: BackgroundWorker {
  /// How long the whole upload takes.
  package var uploadDuration: Duration
  /// Whether the worker calls `setForeground` before uploading.
  package var goesForeground: Bool
  private let sleep: @Sendable (Duration) async throws -> Void

  /// Creates the worker.
  package init(context: AsyncContext, uploadDuration: Duration = .seconds(45 * 60), goesForeground: Bool) {
    self.uploadDuration = uploadDuration
    self.goesForeground = goesForeground
    self.sleep = context.sleep
  }

  /// `setForeground` as a `dataSync` service (awaited, as `setForegroundAsync` must
  /// complete before the worker returns) when ``goesForeground``, then the upload; a
  /// refused `setForeground` leaves it a job, which uploads anyway; a stop cancels the
  /// upload, and the attempt asks to be retried.
  package func doWork(_ context: WorkContext) async -> WorkResult {
    if goesForeground { try? await context.setForeground(ForegroundInfo(type: .dataSync)) }
    do {
      try await sleep(uploadDuration)
    } catch {
      return .retry
    }
    return .success
  }

  /// The request: unique work `work`, on the network.
  package func request(work: String) -> WorkRequest {
    WorkRequest(work: work, name: "LongUploadWorker", requiresNetwork: true, worker: self)
  }
}
