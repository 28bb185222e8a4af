package import BackgroundTrace

/// An upload the user starts, run as a continued-processing task (iOS 26), ported from
/// `UploadProgressManeger.upload(url:service:parentId:uploadname:)` of ccViewer
/// (CryptCloudViewer) as its author wrote it:
/// https://github.com/lithium0003/ccViewer/blob/5046191dc4b5dfa62c91055ee64a3c2e57b12741/CryptCloudViewer/CryptCloudViewer/UploadProgressUIView.swift
///
/// Kept as written: a `<bundle>.upload.<unique>` identifier registered when the upload
/// starts, a request with `strategy = .fail`, an expiration handler that only sets
/// `wasExpired`, which the upload's progress callback checks, and the task's progress set
/// from that callback. Changed for the port: `BGTaskScheduler.shared` is the scheduler
/// handed in, the `UUID` a counter, `Task { }` the ``AsyncContext``, the upload a
/// ``ChunkedUpload`` on the virtual clock; the app's own bookkeeping
/// (`progressManeger`, `subject`) and the semaphore the caller waits on are left out.
///
/// The bug: the storage service calls the progress callback once per chunk. A chunk that
/// takes longer than the stall window (a slow network, a large file) leaves the task's
/// progress still, and iOS expires it; the expiration handler only sets a flag that the
/// next callback would read, so the task is not completed and iOS kills the app. A user
/// cancel from the Live Activity does the same.
///
/// The fix (`fixed`): the upload reports the bytes sent within a chunk every few seconds,
/// and the expiration handler completes the task at once, which the upload's own ends
/// then do not do again.
package final class ContinuedUploader: @unchecked Sendable {
  private let scheduler: any TaskScheduling
  private let context: AsyncContext
  private let bundleId: String
  /// Whether the upload reports progress within chunks and the handler completes (the fix).
  package let fixed: Bool
  private var nextTask = 1
  /// The uploads whose submission failed (`print("Failed to submit request: …")`).
  package private(set) var failedSubmissions: [String] = []

  /// Creates the uploader.
  package init(scheduler: any TaskScheduling, context: AsyncContext, bundleId: String, fixed: Bool = false) {
    self.scheduler = scheduler
    self.context = context
    self.bundleId = bundleId
    self.fixed = fixed
  }

  /// Uploads `uploadname`, whose chunks take `chunks` each to send.
  package func upload(uploadname: String, chunks: [Duration]) {
    let taskName = String(nextTask)  // UUID().uuidString
    nextTask += 1
    let taskIdentifier = "\(bundleId).upload.\(taskName)"

    let request = TaskRequest.continued(
      taskIdentifier,
      title: uploadname,
      subtitle: "About to start...",
      strategy: .fail)
    let (context, fixed) = (self.context, self.fixed)

    let success = scheduler.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
      guard let task = task as? any ContinuedProcessingTask else {
        return
      }

      context.run {
        let wasExpired = Flag()
        let completed = Flag()
        task.expirationHandler = {
          wasExpired.value = true
          if fixed {
            // The fix: complete now; the upload stops at its next report.
            completed.value = true
            task.setTaskCompleted(success: false)
          }
        }

        // Update progress.
        let progress = task.progress
        let service = ChunkedUpload(chunks: chunks, context: context, reportsWithinChunks: fixed)
        do {
          try await service.upload { current, total in
            if wasExpired.value {
              throw CancellationError()
            }
            progress.totalUnitCount = total
            progress.completedUnitCount = current
            let formattedProgress = Int(progress.fractionCompleted * 100)
            task.updateTitle(task.title, subtitle: "Uploaded \(formattedProgress)%")
          }
          task.updateTitle(task.title, subtitle: "Done")
          if !completed.value { task.setTaskCompleted(success: !wasExpired.value) }
        } catch {
          if !completed.value { task.setTaskCompleted(success: false) }
        }
      }
    }

    guard success else {
      return
    }

    // Submit the task request.
    do {
      try scheduler.submit(request)
    } catch {
      failedSubmissions.append(uploadname)
    }
  }
}

/// A flag the launch handler's closures share (the original's captured `var`).
private final class Flag: @unchecked Sendable {
  var value = false
}

/// The storage service's upload on the virtual clock: each chunk takes its time, and
/// the progress callback gets the bytes sent (1,000 units a chunk) after each chunk, or,
/// with `reportsWithinChunks`, also every 5 s within one.
package struct ChunkedUpload: Sendable {
  /// How long each chunk takes.
  package let chunks: [Duration]
  let context: AsyncContext
  /// Whether progress is reported within a chunk (every 5 s) as well as after it.
  package let reportsWithinChunks: Bool

  /// Sends every chunk, calling `progress(current, total)`; stops with what `progress` throws.
  func upload(progress: (Int64, Int64) async throws -> Void) async throws {
    let total = Int64(chunks.count) * 1_000
    var sent: Int64 = 0
    for chunk in chunks {
      var left = chunk
      let tick = Duration.seconds(5)
      while reportsWithinChunks && left > tick {
        try await context.sleep(tick)
        left -= tick
        let part = Int64(1_000 * (1 - left / chunk))
        try await progress(sent + part, total)
      }
      try await context.sleep(left)
      sent += 1_000
      try await progress(sent, total)
    }
  }
}
