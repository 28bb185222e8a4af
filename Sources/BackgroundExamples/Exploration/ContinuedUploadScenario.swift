import BackgroundSimulation
import BackgroundTrace
package import BackgroundTraceReplay

/// ccViewer's continued-processing upload (``ContinuedUploader``) with its timing drawn
/// from the run's choices: one to four chunks of 5–60 s each, the user leaving the app
/// after 0–20 s (or staying), and a one-in-four chance that the user cancels the upload
/// from the Live Activity after 1–90 s, with the network and power changes and memory
/// kills of ``ScenarioEnvironment``. A chunk longer than the stall window stalls the
/// task's progress (`sched-progress-stalled`), and an expiration, the system's or the
/// user's, leaves it not completed; the fixed uploader reports progress within chunks
/// and completes the task in its expiration handler.
package enum ContinuedUploadScenario: Sendable {
  /// The scenario; `fixed` reports progress within chunks and completes at expiration.
  package static func scenario(fixed: Bool) -> ExplorationScenario {
    ExplorationScenario(
      fixed ? "continued-upload-fixed" : "continued-upload",
      summary: fixed
        ? "a continued-processing upload reporting progress within chunks (explores clean)"
        : "ccViewer's continued-processing upload, whose progress stalls during a long chunk"
    ) { run in
      let choices = run.choices
      var configuration = SimulationConfiguration()
      configuration.bundleIdentifier = ContinuedUploadApp.bundleId
      configuration.permittedIdentifiers = ["\(ContinuedUploadApp.bundleId).upload.*"]
      let system = run.makeSystem(configuration: configuration, meta: ["app": "continued-upload"])
      ScenarioEnvironment.draw(choices, on: system, within: .seconds(180))
      system.launchApp { system in
        ContinuedUploadApp(scheduler: system, context: AsyncContext(simulation: system.scheduler), fixed: fixed)
      }
      let chunks = (0..<choices.int(in: 1...4)).map { _ in choices.int(in: 5...60) }
      system.advance(by: .seconds(1))
      system.userAction("upload:video.mov:" + chunks.map(String.init).joined(separator: ","))
      if choices.chance(percent: 25) {
        let at = TraceTime(system.now.duration + choices.duration(in: .seconds(1) ... .seconds(90)))
        _ = system.scheduler.schedule(at: at) {
          system.userCancelContinuedProcessing(identifier: "\(ContinuedUploadApp.bundleId).upload.1")
        }
      }
      if choices.chance(percent: 70) {
        system.advance(by: choices.duration(in: .zero ... .seconds(20)))
        system.moveToBackground()
      }
      system.advance(by: .seconds(300))
    }
  }
}
