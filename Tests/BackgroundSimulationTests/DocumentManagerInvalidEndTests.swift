import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// The seed article's DocumentManager in the simulation: a save longer than the budget ends `.invalid`.
@Suite struct DocumentManagerInvalidEndTests {
  @Test func aSaveLongerThanTheBudgetEndsInvalid() {
    let system = SimulatedSystem(seed: 42)
    let context = AsyncContext(simulation: system.scheduler)  // executor + virtual clock
    let documents = DocumentManager(host: system, context: context)
    system.launch { _ in }
    system.moveToBackground()
    documents.save(taking: .seconds(45))  // the budget is 30 s
    system.advance(by: .seconds(60))  // suspended at 29 s: the save waits
    system.moveToForeground()  // the user returns; the save finishes and ends .invalid
    #expect(TraceChecker.check(system.trace).map(\.rule) == [.taskUnknownEnd])
  }
}
