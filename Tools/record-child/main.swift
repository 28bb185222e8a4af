// record-child: records numbered events with a durable TraceRecorder until it is
// killed, acknowledging each event on standard output once `record` has returned. The
// recorder's crash test (Tests/BackgroundTraceTests/RecorderCrashTests.swift) kills it
// with SIGKILL and checks that every acknowledged event is in the file.
//
//     record-child PATH CHUNK-PAYLOAD-LIMIT
//
// Event n (from 0) is `work.start work=w attempt=n`, with work `wN` instead for every
// 50th event (a new string, so string definitions are committed too). Each
// acknowledgement is n as 8 little-endian bytes, written with one write(2).
import BackgroundTrace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

func complain(_ message: String) {
  var line = message + "\n"
  _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let limit = Int(arguments[2]) else {
  complain("usage: record-child PATH CHUNK-PAYLOAD-LIMIT")
  exit(2)
}
do {
  let recorder = try TraceRecorder(writingTo: arguments[1], chunkPayloadLimit: limit)
  var number: UInt64 = 0
  while true {
    recorder.record(.workStart(work: number % 50 == 0 ? "w\(number)" : "w", attempt: Int(number)))
    var acknowledgement = number.littleEndian
    guard write(1, &acknowledgement, 8) == 8 else { exit(3) }
    number += 1
  }
} catch {
  complain("record-child: \(error)")
  exit(1)
}
