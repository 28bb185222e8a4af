import BackgroundSimulation
import BackgroundTrace
import Testing

/// The patterns app code uses with background tasks compile under Swift 6's strict
/// concurrency against the protocols, as written in UIKit apps.
@Suite struct StrictConcurrencyPatternTests {
  /// A main-actor view controller keeping the task id in a property, ending it in the
  /// expiration handler and when the work is done.
  @MainActor final class SaveViewController {
    let host: any BackgroundTaskHost
    var backgroundTask = BackgroundTaskID.invalid
    init(host: any BackgroundTaskHost) { self.host = host }

    func save() {
      backgroundTask = host.beginBackgroundTask(withName: "Save") {
        self.host.endBackgroundTask(self.backgroundTask)
        self.backgroundTask = .invalid
      }
    }

    func saved() {
      host.endBackgroundTask(backgroundTask)
      backgroundTask = .invalid
    }
  }

  /// The local `var bgTask` pattern in a function. Written plain (`var bgTask`), Swift 6
  /// refuses it here as it refuses it against UIKit ("sending 'bgTask' risks causing data
  /// races": the handler is `@MainActor @Sendable` in both); apps mark the variable
  /// `nonisolated(unsafe)`, the handler and the completion running on the main thread.
  static func upload(host: any BackgroundTaskHost, done: @escaping (@escaping () -> Void) -> Void) {
    nonisolated(unsafe) var bgTask = BackgroundTaskID.invalid
    bgTask = host.beginBackgroundTask(withName: "Upload") {
      host.endBackgroundTask(bgTask)
      bgTask = .invalid
    }
    done {
      host.endBackgroundTask(bgTask)
      bgTask = .invalid
    }
  }

  @MainActor @Test func aMainActorControllerEndsItsTask() {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    let controller = SaveViewController(host: system)
    controller.save()
    controller.saved()
    #expect(system.trace.events(.taskEnd).map(\.kind) == [.taskEnd(id: 1)])
  }

  @Test func theLocalVariablePatternEndsItsTask() {
    let system = SimulatedSystem(seed: 1)
    system.launch { _ in }
    var finish: (() -> Void)?
    Self.upload(host: system) { finish = $0 }
    finish?()
    #expect(system.trace.events(.taskEnd).map(\.kind) == [.taskEnd(id: 1)])
  }
}
