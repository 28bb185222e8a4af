import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import DraftSync
import Testing

/// The app's own uploader, tested in the simulation through the package's products.
@Suite struct DraftUploaderTests {
  @Test func aShortUploadEndsItsTaskInTime() {
    let system = SimulatedSystem(seed: 7)
    let uploader = DraftUploader(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launch { _ in }
    system.moveToBackground()
    uploader.appDidEnterBackground(uploadTaking: .seconds(10))
    system.advance(by: .seconds(60))
    #expect(uploader.uploaded == 1)
    #expect(TraceChecker.check(system.trace).isEmpty)
  }

  @Test func aLongUploadIsCutOffByTheExpirationHandler() {
    let system = SimulatedSystem(seed: 7)
    let uploader = DraftUploader(host: system, context: AsyncContext(simulation: system.scheduler))
    system.launch { _ in }
    system.moveToBackground()
    uploader.appDidEnterBackground(uploadTaking: .seconds(45))
    system.advance(by: .seconds(60))
    #expect(uploader.uploaded == 0)
    #expect(system.trace.events.contains { if case .taskExpire = $0.kind { true } else { false } })
    #expect(TraceChecker.check(system.trace).isEmpty)
  }
}
