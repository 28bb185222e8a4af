import BackgroundTrace
import Foundation
import Testing

@testable import AppleAdapters

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSessionTransfers` against swift-corelibs' URLSession (the check target; on a
/// device it is the real one): what the system's delegate calls become for the app's
/// ``BackgroundSessionDelegate``, and what cannot be started is not.
@Suite struct URLSessionTransfersTests {
  final class Delegate: BackgroundSessionDelegate, @unchecked Sendable {
    var completed: [(String, Int, TransferOutcome)] = []
    var finished: [String] = []
    func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
      completed.append((session, task, outcome))
    }
    func sessionDidFinishEvents(session: String) { finished.append(session) }
  }

  @Test func aTasksEndIsItsOutcomeCancelledOnlyForURLErrorCancelled() {
    #expect(URLSessionDelegateBridge.outcome(of: nil) == .success)
    #expect(URLSessionDelegateBridge.outcome(of: URLError(.cancelled)) == .cancelled)
    #expect(URLSessionDelegateBridge.outcome(of: URLError(.timedOut)) == .failed)
    #expect(URLSessionDelegateBridge.outcome(of: CocoaError(.fileNoSuchFile)) == .failed)
  }

  @Test func theBridgeHandsTheSystemsCallsToTheAppsDelegate() throws {
    let delegate = Delegate()
    let bridge = URLSessionDelegateBridge(identifier: "com.example.upload", delegate: delegate)
    let session = URLSession(configuration: .default, delegate: bridge, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    let task = session.downloadTask(with: try #require(URL(string: "https://example.invalid/file")))
    bridge.urlSession(session, task: task, didCompleteWithError: URLError(.networkConnectionLost))
    bridge.urlSessionDidFinishEvents(forBackgroundURLSession: session)
    #expect(delegate.completed.count == 1)
    #expect(delegate.completed.first?.0 == "com.example.upload")
    #expect(delegate.completed.first?.1 == task.taskIdentifier)
    #expect(delegate.completed.first?.2 == .failed)
    #expect(delegate.finished == ["com.example.upload"])
  }

  @Test func aRequestThatCannotBeMadeStartsNothingAndRecordsNothing() {
    let recorder = TraceRecorder()
    let transfers = TracingBackgroundTransfers(base: URLSessionTransfers(), recorder: recorder)
    let session = transfers.session(identifier: "com.example.upload", discretionary: false, delegate: Delegate())
    #expect(session.startTransfer(.download("")) == nil, "no URL")
    #expect(
      session.startTransfer(TransferRequest(kind: .upload, url: "https://example.com", file: nil)) == nil,
      "a background session uploads only from a file")
    #expect(recorder.trace.events.map(\.kind) == [.netCreate(session: "com.example.upload")])
  }
}
