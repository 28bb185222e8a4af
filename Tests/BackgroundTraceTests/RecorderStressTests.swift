import BackgroundTrace
import Dispatch
import Foundation
import TestSupport
import Testing

/// Runs `body(thread)` on `count` new threads at once and waits for all of them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for thread in 0..<count {
    group.enter()
    let worker = Thread {
      body(thread)
      group.leave()
    }
    worker.start()
  }
  group.wait()
}

/// Checks that the events of each thread (`work.start work=tN attempt=SEQ`) are all present
/// and in their recording order, and that times never decrease.
private func expectEveryThreadsEventsInOrder(_ events: [TraceEvent], threads: Int, perThread: Int) {
  #expect(events.count == threads * perThread)
  var next = [Int](repeating: 0, count: threads)
  var outOfOrder = 0
  for event in events {
    guard case .workStart(let work, let attempt) = event.kind, let thread = Int(work.dropFirst()) else {
      Issue.record("unexpected event \(event)")
      return
    }
    if attempt != next[thread] { outOfOrder += 1 }
    next[thread] = attempt + 1
  }
  #expect(outOfOrder == 0)
  #expect(next == [Int](repeating: perThread, count: threads))
  #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
}

/// CI runs this suite under the thread sanitizer: `swift test --sanitize=thread --filter RecorderStress`.
@Suite struct RecorderStress {
  @Test func fourThreadsRecordAMillionEventsWithoutLosingOrReorderingAny() {
    let threads = 4
    let perThread = 250_000
    let recorder = TraceRecorder()
    onThreads(threads) { thread in
      let work = "t\(thread)"
      for sequence in 0..<perThread {
        recorder.record(.workStart(work: work, attempt: sequence))
      }
    }
    #expect(recorder.eventCount == threads * perThread)
    expectEveryThreadsEventsInOrder(recorder.trace.events, threads: threads, perThread: perThread)
  }

  @Test func fourThreadsStreamToOneFileWhileAnotherFlushes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stress.bgtrace")
    let threads = 4
    let perThread = 25_000
    let recorder = try TraceRecorder(writingTo: path, chunkPayloadLimit: 4_096)
    onThreads(threads + 1) { thread in
      if thread == threads {
        // A fifth thread flushes and reads the count while the others record.
        for _ in 0..<200 {
          #expect(throws: Never.self) { try recorder.flush() }
          _ = recorder.eventCount
        }
        return
      }
      let work = "t\(thread)"
      for sequence in 0..<perThread {
        recorder.record(.workStart(work: work, attempt: sequence))
      }
    }
    try recorder.close()
    var reader = try TraceReader(path: path)
    let trace = try reader.readAll()
    #expect(reader.damage.isEmpty)
    expectEveryThreadsEventsInOrder(trace.events, threads: threads, perThread: perThread)
  }

  /// `close()` from another thread while four threads record: every event is in memory
  /// in order, the file holds exactly the events recorded before the close (a prefix of
  /// them, undamaged and sealed), and the rest are kept in memory only.
  @Test func closingWhileFourThreadsRecordKeepsAPrefixInTheFileAndEverythingInMemory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("closed.bgtrace")
    let threads = 4
    let perThread = 20_000
    let recorder = try TraceRecorder(writingTo: path, keepsEvents: true, chunkPayloadLimit: 4_096)
    let halfway = DispatchSemaphore(value: 0)
    let closed = DispatchSemaphore(value: 0)
    onThreads(threads + 1) { thread in
      if thread == threads {
        halfway.wait()  // thread 0 has recorded half its events
        #expect(throws: Never.self) { try recorder.close() }
        closed.signal()
        return
      }
      let work = "t\(thread)"
      for sequence in 0..<perThread {
        recorder.record(.workStart(work: work, attempt: sequence))
        // Thread 0 records its second half only after the close, however the threads
        // are scheduled: the file never holds every event.
        if thread == 0 && sequence == perThread / 2 {
          halfway.signal()
          closed.wait()
        }
      }
    }
    let inMemory = recorder.trace.events
    expectEveryThreadsEventsInOrder(inMemory, threads: threads, perThread: perThread)
    var reader = try TraceReader(path: path)
    let written = try reader.readAll().events
    #expect(reader.damage.isEmpty, "\(reader.damage)")
    #expect(written.count > perThread / 2)
    #expect(written.count < threads * perThread)
    #expect(written == Array(inMemory.prefix(written.count)))
  }
}
