import BackgroundTrace
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Kills a recording process with SIGKILL and looks for every event whose `record` had
/// returned (docs/FORMAT.md, "Durability").
@Suite struct RecorderCrashTests {
  /// The `record-child` executable beside the test bundle in the build products directory.
  static var child: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        directory = bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    return directory.appendingPathComponent("record-child")
  }

  /// What `record-child` records as event `number` (see Tools/record-child/main.swift).
  static func expectedKind(_ number: Int) -> TraceEvent.Kind {
    .workStart(work: number % 50 == 0 ? "w\(number)" : "w", attempt: number)
  }

  /// Runs the child until it has acknowledged `acknowledged` events, kills it, and
  /// returns the highest event number it acknowledged (it may have acknowledged a few
  /// more while the parent read).
  static func recordAndKill(path: String, chunkLimit: Int, after acknowledged: Int) throws -> Int {
    let process = Process()
    process.executableURL = child
    process.arguments = [path, String(chunkLimit)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    try? output.fileHandleForWriting.close()
    let descriptor = output.fileHandleForReading.fileDescriptor
    var last = -1
    var killed = false
    var pending: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }  // end of file: the child is dead and the pipe drained
      pending += block[0..<count]
      while pending.count >= 8 {
        let number = pending[0..<8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
        pending.removeFirst(8)
        #expect(Int(number) == last + 1, "acknowledgements arrive in order")
        last = Int(number)
      }
      if !killed && last + 1 >= acknowledged {
        kill(process.processIdentifier, SIGKILL)
        killed = true
      }
    }
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "the child was killed, not exited")
    #expect(process.terminationStatus == SIGKILL)
    return last
  }

  @Test func everyAcknowledgedEventSurvivesSigkillAtTwentyFourMoments() throws {
    let directory = try TemporaryDirectory()
    var random = SplitMix64(seed: 10)
    for run in 0..<24 {
      // Small chunks for half the runs, so that kills also land around chunk seals.
      let chunkLimit = run % 2 == 0 ? 256 : 65_536
      let moment = 1 + Int(random.next() % 40_000)
      let path = directory.path("crash-\(run).bgtrace")
      let last = try Self.recordAndKill(path: path, chunkLimit: chunkLimit, after: moment)
      #expect(last + 1 >= moment)
      let (trace, damage) = try RecordedTrace.decode(binary: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
      #expect(damage.allSatisfy { !$0.isLoss }, "run \(run): \(damage)")
      let events = trace.events
      // Every acknowledged event, and at most the one recorded after the last acknowledgement.
      #expect(events.count == last + 1 || events.count == last + 2, "run \(run): \(events.count) vs \(last + 1)")
      let mismatch = events.indices.first { events[$0].kind != Self.expectedKind($0) }
      #expect(mismatch == nil, "run \(run): event \(mismatch ?? -1) is not the child's")
      #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
  }
}
