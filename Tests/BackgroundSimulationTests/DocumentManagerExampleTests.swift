import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceTesting
import Testing

/// The seed's `DocumentManager` (article 001): the app saves a large document when it
/// goes to the background, inside a UIKit background task whose expiration handler
/// saves progress and ends the task.
///
/// The app is used for 2 s and then left: it enters the background at 2 s, so its
/// expiration handler runs at 31 s (budget 30 s, handlers 1 s early) and the watchdog
/// looks at 32 s.
@Suite struct DocumentManagerExampleTests {
  /// Launches the app, leaves it at 2 s, saves a document that takes `duration`, lets a
  /// minute pass, and brings the app back at 62 s (a suspended app runs no code, so a
  /// save still in flight finishes only then).
  static func run(guardsInvalidID: Bool, saveTaking duration: Duration) -> (SimulatedSystem, DocumentManager) {
    let system = SimulatedSystem(seed: 1)
    let context = AsyncContext(simulation: system.scheduler)
    let documents = DocumentManager(host: system, context: context, guardsInvalidID: guardsInvalidID)
    system.launch { _ in }
    system.advance(by: .seconds(2))
    system.moveToBackground()
    documents.save(taking: duration)
    system.advance(by: .seconds(60))
    system.moveToForeground()
    return (system, documents)
  }

  /// The seed's bug: the save outlasts the budget, the expiration handler ends task 1
  /// and resets the stored id, and the finished save then ends `.invalid`.
  @Test func aSaveOutlastingTheBudgetEndsInvalidAfterTheExpirationHandler() {
    let (system, documents) = Self.run(guardsInvalidID: false, saveTaking: .seconds(45))
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace) == ["task-unknown-end @ 62 task.end id=0"])
    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "2 task.begin id=1 name=SaveDocument",
        "31 task.expire id=1",
        "31 task.end id=1",
        "62 task.end id=0",
      ])
    // The handler ended the task in time, so the app was suspended, not killed; the
    // save resumed when the user came back.
    #expect(
      ExampleTrace.lines(" app.", in: trace).suffix(3) == [
        "31 app.state to=suspended", "62 app.state to=inactive", "62 app.state to=active",
      ])
    #expect(documents.progressSaves == 1)
    #expect(documents.completedSaves == 1)
    expectTrace(
      trace, matchesGolden: "document-manager-save-outlasts-budget",
      checks: .all(except: [.taskUnknownEnd]), directory: ExampleTrace.iosGoldens)
  }

  /// The fix: `endBackgroundTask` returns early for `.invalid`, so the late save ends nothing.
  @Test func theGuardedSaveOutlastingTheBudgetIsClean() {
    let (system, documents) = Self.run(guardsInvalidID: true, saveTaking: .seconds(45))
    let trace = system.trace

    #expect(ExampleTrace.findings(in: trace).isEmpty)
    #expect(
      ExampleTrace.lines(" task.", in: trace) == [
        "2 task.begin id=1 name=SaveDocument",
        "31 task.expire id=1",
        "31 task.end id=1",
      ])
    #expect(documents.progressSaves == 1)
    #expect(documents.completedSaves == 1)
    expectTrace(
      trace, matchesGolden: "document-manager-guarded", directory: ExampleTrace.iosGoldens)
  }

  /// A save shorter than the budget ends its task itself; the expiration never comes.
  @Test func aSaveShorterThanTheBudgetIsClean() {
    for guardsInvalidID in [false, true] {
      let (system, documents) = Self.run(guardsInvalidID: guardsInvalidID, saveTaking: .seconds(10))
      let trace = system.trace

      #expect(ExampleTrace.findings(in: trace).isEmpty)
      #expect(ExampleTrace.lines(" task.", in: trace) == ["2 task.begin id=1 name=SaveDocument", "12 task.end id=1"])
      #expect(ExampleTrace.lines(" app.", in: trace).contains("12 app.state to=suspended"))
      #expect(documents.progressSaves == 0)
      #expect(documents.completedSaves == 1)
      expectTrace(
        trace, matchesGolden: "document-manager-short-save",
        directory: ExampleTrace.iosGoldens)
    }
  }
}
