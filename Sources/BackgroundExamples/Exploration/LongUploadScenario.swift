import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay
import Synchronization

/// The long upload worker (``LongUploadWorker``) when its run does not start at the tap: the work
/// needs the network, so with the network down it starts later, perhaps after the user
/// left the app, or again after a stop. The worker calls `setForeground` when it starts;
/// from the background Android 12+ refuses it (`work-foreground-refused`), only
/// sometimes. The fixed worker goes foreground only while the app is visible (as
/// apps check `ProcessLifecycleOwner`'s state before starting a foreground service) and
/// otherwise uploads as a job, resumably, in one-minute parts that survive its
/// stops at its job time limit.
///
/// Drawn from the run's choices: when the user taps Upload (after 0–10 s), how long the
/// upload takes (5–25 minutes), and when the user leaves the app (after 0–30 s, or
/// never), with the network and power changes and memory kills of
/// ``ScenarioEnvironment``. The device is the current release.
package enum LongUploadScenario: Sendable {
  /// The scenario; `fixed` promotes the worker only while the app is visible.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "long-upload-fixed" : "long-upload",
      summary: fixed
        ? "a long upload worker that calls setForeground only while the app is visible (explores clean)"
        : "a long upload worker calling setForeground when it starts, sometimes from the background"
    ) { run in
      let choices = run.choices
      let system = run.makeSystem(
        configuration: SimulationConfiguration(platform: .android), meta: ["app": "long-upload"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      let context = AsyncContext(simulation: system.scheduler)
      let upload = ResumableUpload()
      system.launchApp { system in
        UploadScenarioApp(queue: system, context: context, upload: upload, fixed: fixed)
      }
      system.advance(by: choices.duration(in: .zero ... .seconds(10)))
      upload.total.withLock { $0 = choices.duration(in: .seconds(5 * 60) ... .seconds(25 * 60)) }
      system.userAction("upload")
      if choices.chance(percent: 50) {
        system.advance(by: choices.duration(in: .zero ... .seconds(30)))
        system.moveToBackground()
      }
      system.advance(by: .seconds(3600))
    }
  }
}

/// What of the upload the server holds: it outlives the app's processes.
final class ResumableUpload: Sendable {
  /// How long the whole upload takes.
  let total = Mutex(Duration.zero)
  /// How much of it the server has.
  let done = Mutex(Duration.zero)
}

/// The app: the Upload button enqueues the worker; it knows whether it is visible.
final class UploadScenarioApp: BackgroundAppDelegate {
  let queue: any WorkQueue
  let context: AsyncContext
  let upload: ResumableUpload
  let fixed: Bool
  let visible = VisibleFlag()

  init(queue: any WorkQueue, context: AsyncContext, upload: ResumableUpload, fixed: Bool) {
    self.queue = queue
    self.context = context
    self.upload = upload
    self.fixed = fixed
  }

  func didBecomeActive() { visible.set(true) }
  func didEnterBackground() { visible.set(false) }

  func perform(userAction action: String) {
    guard action == "upload" else { return }
    let worker = ScenarioUploadWorker(context: context, upload: upload, fixed: fixed, visible: visible)
    // A valid request: like androidx's `build()`, enqueue throws only for one WorkManager refuses.
    try! queue.enqueue(
      WorkRequest(work: "upload", name: "LongUploadWorker", requiresNetwork: true, worker: worker), policy: nil)
  }
}

/// Whether the app is visible (`ProcessLifecycleOwner`'s state at least STARTED).
final class VisibleFlag: Sendable {
  private let value = Mutex(false)
  func set(_ visible: Bool) { value.withLock { $0 = visible } }
  var isVisible: Bool { value.withLock { $0 } }
}

/// The upload worker: the buggy one calls `setForeground` at every start and uploads
/// from the beginning; the fixed one calls it only while the app is visible and resumes
/// where the server left off, a minute at a time.
struct ScenarioUploadWorker: BackgroundWorker {
  let context: AsyncContext
  let upload: ResumableUpload
  let fixed: Bool
  let visible: VisibleFlag

  func doWork(_ work: WorkContext) async -> WorkResult {
    if !fixed || visible.isVisible {
      try? await work.setForeground(ForegroundInfo(type: .dataSync))
    }
    if !fixed { upload.done.withLock { $0 = .zero } }
    let total = upload.total.withLock { $0 }
    do {
      while upload.done.withLock({ $0 }) < total {
        let part = min(.seconds(60), total - upload.done.withLock { $0 })
        try await context.sleep(part)
        upload.done.withLock { $0 += part }
      }
    } catch {
      return .retry
    }
    return .success
  }
}
