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
//
//     record-child --file-size-limit BYTES --events N PATH CHUNK-PAYLOAD-LIMIT
//
// records the same events, N of them, under a file-size limit of BYTES
// (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored, so a write past it fails with `EFBIG` as a
// full disk fails with `ENOSPC`), closes the recorder and prints one line:
// `unwritten=U failure=MESSAGE` (the recorder's counts and ``TraceRecorder/failure``),
// then exits 0: the file-size test (Tests/BackgroundTraceTests/RecorderFailureTests.swift).
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

var arguments = CommandLine.arguments
var eventLimit: Int?
if arguments.count == 7, arguments[1] == "--file-size-limit", let bytes = Int(arguments[2]),
  arguments[3] == "--events", let events = Int(arguments[4])
{
  var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
  #if os(Linux)
    let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
  #else
    let resource = RLIMIT_FSIZE
  #endif
  signal(SIGXFSZ, SIG_IGN)
  guard setrlimit(resource, &limit) == 0 else {
    complain("record-child: cannot limit the file size")
    exit(1)
  }
  eventLimit = events
  arguments.removeSubrange(1..<5)
}
guard arguments.count == 3, let limit = Int(arguments[2]) else {
  complain("usage: record-child [--file-size-limit BYTES --events N] PATH CHUNK-PAYLOAD-LIMIT")
  exit(2)
}
if let eventLimit {
  do {
    let recorder = try TraceRecorder(writingTo: arguments[1], chunkPayloadLimit: limit)
    for number in 0..<eventLimit {
      recorder.record(.workStart(work: number % 50 == 0 ? "w\(number)" : "w", attempt: number))
    }
    let unwritten = recorder.unwrittenEventCount
    let failure = recorder.failure.map { $0.message } ?? "none"
    try? recorder.close()
    print("unwritten=\(unwritten) failure=\(failure)")
    exit(0)
  } catch {
    complain("record-child: \(error)")
    exit(1)
  }
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
