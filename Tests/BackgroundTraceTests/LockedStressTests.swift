import Foundation
import Testing

@testable import BackgroundTrace

/// The recorder's lock (`Locked`) under contention: more threads than cores, each taking
/// it many times, so that some spin, some sleep on its condition variable and every
/// unlock that finds a waiter wakes one. A lost wake-up hangs this test; a lock that
/// lets two threads in loses increments. Part of the thread-sanitizer run (the suite's
/// name holds `RecorderStress`).
@Suite struct LockedRecorderStress {
  @Test func sixThreadsIncrementUnderTheLockWithoutLosingOne() {
    let threads = 6
    let perThread = 200_000
    let counter = Locked((total: 0, perThread: [Int](repeating: 0, count: threads)))
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread {
        for _ in 0..<perThread {
          counter.withLock { state in
            state.total += 1
            state.perThread[thread] += 1
          }
        }
        group.leave()
      }.start()
    }
    group.wait()
    let (total, each) = counter.withLock { ($0.total, $0.perThread) }
    #expect(total == threads * perThread)
    #expect(each == [Int](repeating: perThread, count: threads))
  }

  /// A body that throws still unlocks: the next `withLock` gets in.
  @Test func aThrowingBodyReleasesTheLock() {
    struct Refused: Error {}
    let value = Locked(1)
    #expect(throws: Refused.self) { try value.withLock { (_: inout Int) throws(Refused) in throw Refused() } }
    #expect(value.withLock { $0 } == 1)
  }
}
