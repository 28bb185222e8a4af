import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceTesting
import DraftSync
import Foundation
import Testing

// docs/guides/golden-traces.md's examples, compiled and run against the package's
// products (the snippet test checks that the guide's text is this file's).

@Test func uploadingADraftInTheBackgroundEndsItsTask() {
  let system = SimulatedSystem(seed: 7)
  let clock = system.clock
  system.launchApp { system in
    DraftApp(host: system, context: AsyncContext(simulation: system.scheduler), inputs: system.inputs) {
      try? await clock.sleep(for: .seconds(10))  // the upload
      return "201"
    }
  }
  system.moveToBackground()
  system.advance(by: .seconds(60))
  expectTrace(system.trace, matchesGolden: "upload-draft")  // __Traces__/GoldenTraceTests/upload-draft.txt
}

/// Compares `trace` with a golden copied into the test bundle (`bundle`), for tests that
/// run on a device, where the Mac's source folder is not; failures go to a writable folder.
func expectTrace(_ trace: RecordedTrace, matchesBundledGolden name: String, in bundle: Bundle) {
  let goldens = bundle.resourceURL!.appendingPathComponent("__Traces__/GoldenTraceTests").path
  expectTrace(trace, matchesGolden: name, directory: goldens, artifacts: NSTemporaryDirectory())
}
