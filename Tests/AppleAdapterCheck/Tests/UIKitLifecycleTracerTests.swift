import AppleAdapters
import BackgroundTrace
import Foundation
import Testing
import UIKit

/// `UIKitLifecycleTracer` against the UIKit shim, which posts what UIKit posts on each
/// state change (Tests/AppleSDKShim/UIKit/UIApplication+Fake.swift).
@MainActor
@Suite struct UIKitLifecycleTracerTests {
  @Test func uikitNotificationsBecomeAppStateAndTerminate() {
    let application = UIApplication()
    let center = NotificationCenter()
    let recorder = TraceRecorder(clock: StoppedClock())
    _ = UIKitLifecycleTracer(recorder: recorder, center: center)
    application.move(to: .background, postingOn: center)  // willResignActive, didEnterBackground
    application.move(to: .active, postingOn: center)  // willEnterForeground, didBecomeActive
    application.move(to: .inactive, postingOn: center)  // willResignActive
    application.terminate(postingOn: center)
    #expect(
      recorder.trace.text == """
        bgtrace 1
        0 app.state to=inactive
        0 app.state to=background
        0 app.state to=inactive
        0 app.state to=active
        0 app.state to=inactive
        0 app.terminate reason=user

        """)
  }

  /// The recording snippet (README.md, docs/guides/capturing.md) drops the tracer at
  /// once; the recorder keeps it.
  @Test func theReadmeSnippetKeepsRecordingAfterItsReferenceIsGone() {
    let application = UIApplication()
    let recorder: TraceRecorder? = TraceRecorder(clock: StoppedClock())
    if let recorder { _ = UIKitLifecycleTracer(recorder: recorder) }  // app.state from UIKit notifications
    application.move(to: .background)
    application.move(to: .active)
    #expect(
      recorder?.trace.events.map(\.kind) == [
        .appState(to: .inactive), .appState(to: .background), .appState(to: .inactive), .appState(to: .active),
      ])
  }

  @Test func theTracerGoesWithItsRecorder() {
    let center = NotificationCenter()
    weak var tracer: UIKitLifecycleTracer?
    weak var released: TraceRecorder?
    do {
      let recorder = TraceRecorder(clock: StoppedClock())
      released = recorder
      tracer = Self.startTracer(recording: recorder, center: center)
      #expect(tracer != nil)  // the recorder holds it
    }
    // No cycle: the recorder is gone, and with it the tracer and its observers.
    #expect(released == nil)
    #expect(tracer == nil)
    center.post(name: UIApplication.didEnterBackgroundNotification, object: nil)
  }

  /// Creates a tracer and hands it back without keeping it.
  private static func startTracer(recording recorder: TraceRecorder, center: NotificationCenter) -> UIKitLifecycleTracer
  {
    UIKitLifecycleTracer(recorder: recorder, center: center)
  }
}
