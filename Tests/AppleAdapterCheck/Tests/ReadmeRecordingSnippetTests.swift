import AppleAdapters
import BackgroundTrace
import Foundation
import Testing
import UIKit

/// README.md, "Capturing a trace", and docs/guides/capturing.md, "Recording a real app":
/// the snippet, verbatim (DocSnippetTests checks that the docs' text is this file's),
/// compiles against the adapters and wires what it says (the SDK here is the shim).
@MainActor
@Suite struct ReadmeRecordingSnippetTests {
  @Test func theSnippetTracesTasksAndTheLifecycle() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID()).bgtrace").path
    setenv("BGTRACE_OUTPUT", path, 1)
    defer {
      unsetenv("BGTRACE_OUTPUT")
      try? FileManager.default.removeItem(atPath: path)
    }

    // The lines of README.md and docs/guides/capturing.md, as written:
    let uikit = UIKitBackgroundTaskHost()
    let recorder = try TraceRecorder.fromEnvironment()  // nil unless BGTRACE_OUTPUT is set
    let host: any BackgroundTaskHost = recorder.map { TracingBackgroundTaskHost(base: uikit, recorder: $0) } ?? uikit
    let scheduler: any TaskScheduling =
      recorder.map { TracingTaskScheduler(base: BackgroundTasksScheduler(), recorder: $0) }
      ?? BackgroundTasksScheduler()
    if let recorder { _ = UIKitLifecycleTracer(recorder: recorder) }  // app.state; the recorder keeps it

    host.endBackgroundTask(host.beginBackgroundTask(withName: "Save", expirationHandler: nil))
    scheduler.register(forTaskWithIdentifier: "refresh", using: nil) { _ in }
    UIApplication.shared.move(to: .background)
    try #require(recorder).flush()
    var reader = try TraceReader(path: path)  // what the app leaves in BGTRACE_OUTPUT
    let kinds = try reader.readAll().events.map(\.kind)
    #expect(
      Array(kinds.prefix(4)) == [
        .appLaunch, .taskBegin(id: 1, name: "Save"), .taskEnd(id: 1), .schedRegister(identifier: "refresh", ok: nil),
      ])
    #expect(kinds.last == .appState(to: .background))
  }
}
