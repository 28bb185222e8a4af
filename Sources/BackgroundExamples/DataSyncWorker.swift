package import BackgroundTrace

/// The seed's `DataSyncWorker`: uploads analytics; on failure retries while
/// `runAttemptCount < 3`, then fails. Without the check (`checksAttemptLimit` off) it
/// retries forever, which drains the battery.
package struct DataSyncWorker: BackgroundWorker {
  /// The attempt limit the seed checks.
  package static let attemptLimit = 3
  /// How long an upload takes.
  package var uploadDuration: Duration
  /// Whether the worker stops retrying at the limit.
  package var checksAttemptLimit: Bool
  /// Decides whether the upload of an attempt succeeds.
  package var uploadSucceeds: @Sendable (Int) -> Bool
  private let sleep: @Sendable (Duration) async throws -> Void

  /// Creates the worker.
  package init(
    context: AsyncContext, uploadDuration: Duration = .seconds(2), checksAttemptLimit: Bool = true,
    uploadSucceeds: @escaping @Sendable (Int) -> Bool
  ) {
    self.uploadDuration = uploadDuration
    self.checksAttemptLimit = checksAttemptLimit
    self.uploadSucceeds = uploadSucceeds
    self.sleep = context.sleep
  }

  /// Uploads for `uploadDuration`, then succeeds if the upload did; otherwise retries
  /// while `runAttemptCount < attemptLimit` and fails after (retries forever with
  /// `checksAttemptLimit` off).
  ///
  /// - Parameter context: the run; its `runAttemptCount` is checked against the limit.
  /// - Returns: `.success`, `.retry` or `.failure`, as the seed's worker decides.
  package func doWork(_ context: WorkContext) async -> WorkResult {
    try? await sleep(uploadDuration)
    if uploadSucceeds(context.runAttemptCount) { return .success }
    if !checksAttemptLimit { return .retry }
    return context.runAttemptCount < Self.attemptLimit ? .retry : .failure
  }

  /// The request the seed enqueues.
  package func request(work: String) -> WorkRequest {
    WorkRequest(
      work: work, name: "DataSyncWorker", retryLimit: Self.attemptLimit, requiresNetwork: true, worker: self)
  }
}
