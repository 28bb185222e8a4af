import AppleAdapters
import BackgroundTrace
import Dispatch
import Foundation
import Synchronization
import Testing
import UIKit

/// `UIKitBackgroundTaskHost` under `TracingBackgroundTaskHost`, against the UIKit shim's
/// fake `UIApplication` (Tests/AppleSDKShim/UIKit).
@MainActor
@Suite struct UIKitBackgroundTaskHostTests {
  @Test func beginEndAndExpireReachUIKitAndTheTrace() {
    let application = UIApplication()
    let recorder = TraceRecorder(clock: StoppedClock())
    let host = TracingBackgroundTaskHost(base: UIKitBackgroundTaskHost(application: application), recorder: recorder)
    var saveID = BackgroundTaskID.invalid
    var expirations = 0
    saveID = host.beginBackgroundTask(withName: "SaveDocument") {
      expirations += 1
      host.endBackgroundTask(saveID)
    }
    let uploadID = host.beginBackgroundTask(withName: "Upload", expirationHandler: nil)
    #expect(saveID == BackgroundTaskID(rawValue: 1))
    #expect(uploadID == BackgroundTaskID(rawValue: 2))
    #expect(application.openBackgroundTaskIdentifiers.map(\.rawValue) == [1, 2])
    #expect(application.name(of: UIBackgroundTaskIdentifier(rawValue: 1)) == "SaveDocument")

    host.endBackgroundTask(uploadID)
    #expect(application.openBackgroundTaskIdentifiers.map(\.rawValue) == [1])
    // UIKit runs the handler shortly before the time runs out; it ends the task.
    #expect(application.expireBackgroundTask(UIBackgroundTaskIdentifier(rawValue: 1)))
    #expect(expirations == 1)
    #expect(application.openBackgroundTaskIdentifiers.isEmpty)
    #expect(application.endedBackgroundTaskIdentifiers.map(\.rawValue) == [2, 1])
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 task.begin id=1 name=SaveDocument
        0 task.begin id=2 name=Upload
        0 task.end id=2
        0 task.expire id=1
        0 task.end id=1

        """)
  }

  @Test func aRefusedBeginIsInvalidAndEndingItPassesInvalidToUIKit() {
    let application = UIApplication()
    application.refusesBackgroundTasks = true
    let recorder = TraceRecorder(clock: StoppedClock())
    let host = TracingBackgroundTaskHost(base: UIKitBackgroundTaskHost(application: application), recorder: recorder)
    let id = host.beginBackgroundTask(withName: "Upload") {}
    #expect(id == .invalid)
    host.endBackgroundTask(id)
    #expect(application.endedBackgroundTaskIdentifiers == [.invalid])
    #expect(recorder.trace.events.map(\.kind) == [.taskBegin(id: 0, name: "Upload"), .taskEnd(id: 0)])
  }

  @Test func backgroundTimeRemainingIsUIKits() {
    let application = UIApplication()
    let host = UIKitBackgroundTaskHost(application: application)
    #expect(host.backgroundTimeRemaining == .greatestFiniteMagnitude)
    application.setBackgroundTimeRemaining(12.5)
    #expect(host.backgroundTimeRemaining == 12.5)
  }

  /// Background App Refresh off (`denied`) or `restricted` makes `BGTaskScheduler` refuse
  /// refresh requests with `unavailable` (Apple:
  /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/code/unavailable);
  /// the adapter records the status as a `system.` input so the trace shows why.
  @Test func backgroundRefreshStatusIsRecordedAsASystemInput() {
    let application = UIApplication()
    let host = UIKitBackgroundTaskHost(application: application)
    let recorder = TraceRecorder(clock: StoppedClock())
    #expect(host.recordBackgroundRefreshStatus(in: recorder) == "available")
    application.setBackgroundRefreshStatus(.denied)
    host.recordBackgroundRefreshStatus(in: recorder)
    application.setBackgroundRefreshStatus(.restricted)
    host.recordBackgroundRefreshStatus(in: recorder)
    #expect(
      recorder.trace.events.map(\.kind) == [
        .input(key: "system.backgroundRefreshStatus", value: "available"),
        .input(key: "system.backgroundRefreshStatus", value: "denied"),
        .input(key: "system.backgroundRefreshStatus", value: "restricted"),
      ])
  }

  /// UIKit allows `beginBackgroundTask` and `endBackgroundTask` from any thread; so does the
  /// adapter, which therefore never calls `MainActor.assumeIsolated` there (it traps off
  /// the main thread).
  @Test func beginAndEndWorkFromBackgroundThreads() {
    let application = UIApplication()
    let recorder = TraceRecorder(clock: StoppedClock())
    let host = TracingBackgroundTaskHost(
      base: UIKitBackgroundTaskHost(application: application), recorder: recorder)
    let adapter = UIKitBackgroundTaskHost(application: application)
    let onMainThread = Atomic<Int>(0)
    let queue = DispatchQueue(label: "AppleAdapterTests.workers", attributes: .concurrent)
    let group = DispatchGroup()
    for index in 0..<100 {
      queue.async(group: group) {
        if Thread.isMainThread { onMainThread.add(1, ordering: .relaxed) }
        let id = host.beginBackgroundTask(withName: "Work\(index)", expirationHandler: nil)
        host.endBackgroundTask(id)
      }
    }
    group.wait()
    // The adapter itself, without the tracing wrapper, from a detached thread.
    let direct = DispatchGroup()
    DispatchQueue.global().async(group: direct) {
      adapter.endBackgroundTask(adapter.beginBackgroundTask(withName: "Direct", expirationHandler: nil))
    }
    direct.wait()

    #expect(onMainThread.load(ordering: .relaxed) == 0)
    #expect(application.openBackgroundTaskIdentifiers.isEmpty)
    #expect(Set(application.endedBackgroundTaskIdentifiers.map(\.rawValue)) == Set(1...101))
    let events = recorder.trace.events.map(\.kind)
    #expect(events.count == 200)
    var begun: [Int: String] = [:]
    for kind in events {
      switch kind {
      case .taskBegin(let id, let name):
        #expect(begun[id] == nil, "id \(id) begun twice")
        begun[id] = name
      case .taskEnd(let id):
        #expect(begun[id] != nil, "id \(id) ended before it began")
      default:
        Issue.record("unexpected event \(kind)")
      }
    }
    #expect(Set(begun.values.compactMap { $0 }) == Set((0..<100).map { "Work\($0)" }))
    for (id, name) in begun {
      #expect(application.name(of: UIBackgroundTaskIdentifier(rawValue: id)) == name)
    }
    #expect(application.name(of: UIBackgroundTaskIdentifier(rawValue: 101)) == "Direct")
  }
}
