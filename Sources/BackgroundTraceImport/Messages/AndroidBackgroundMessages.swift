import BackgroundTrace

/// WorkManager's, ActivityManager's and AndroidRuntime's messages about background
/// work and processes, read into ``PlatformMessage``s. Each message's format, source
/// and event are in docs/import.md.
///
/// - androidx WorkManager (`work/work-runtime/src/main/java/androidx/work/`, tags `WM-`
///   and the class name, at most 23 characters): `impl/WorkerWrapper.kt` (`Worker result
///   SUCCESS|RETRY|FAILURE for $workDescription`, `$workDescription was cancelled`,
///   `$workDescription failed because it threw an exception/error`, with
///   `workDescription` = `Work [ id=$workSpecId, tags={ … } ]`), `impl/Processor.java`
///   (`Processor: processing ID`, `Processor cancelling ID`, `WorkerWrapper interrupted
///   for ID`), `impl/background/greedy/GreedyScheduler.java` (`Starting work for ID`,
///   `Cancelling work ID ID`), `impl/background/systemjob/SystemJobScheduler.java`
///   (`Scheduling work ID ID` + `Job ID N`), `impl/background/systemjob/SystemJobService.java`
///   (`onStartJob for ID`), `impl/utils/ForceStopRunnable.java` (`Application was
///   force-stopped, rescheduling.`).
/// - AOSP ActivityManager (`services/core/java/com/android/server/am/`): `ProcessList.java`
///   (`Start proc PID:NAME/UID for …`; Android 4: `Start proc NAME for …: pid=PID …`),
///   `ActivityManagerService.java` (`Process NAME (pid PID) has died: …`),
///   `ProcessRecord.java` (`Killing PID:NAME/UID (adj N): REASON`), `ActiveServices.java`
///   (`Scheduling restart of crashed service PACKAGE/CLASS in Nms`; the foreground-service
///   lines `startForegroundService() not allowed due to mAllowStartForeground false:
///   service …` of `startServiceLocked`, `Service.startForeground() not allowed due to
///   mAllowStartForeground false: service …` of `setServiceForegroundInnerLocked` and
///   `Bringing down service while still waiting for start foreground: ServiceRecord{…}` of
///   `bringDownServiceLocked`).
/// - AndroidRuntime (`com.android.internal.os.RuntimeInit`): `FATAL EXCEPTION: THREAD`.
/// - The activity lifecycle's events (`frameworks/base/core/java/android/app/EventLogTags.logtags`,
///   the app's own lines in the events buffer): `wm_on_start_called`, `wm_on_resume_called`,
///   `wm_on_paused_called`, `wm_on_stop_called` (`am_on_…` on earlier releases).
///
/// WorkManager's messages are matched on their bytes: the only strings built are the
/// fields of a message that maps to an event (its work id, its tags).
package enum AndroidBackgroundMessages: Sendable {
  /// Reads one message of the record's tag (`source`).
  package static func read(_ record: LogRecord) -> MessageReading {
    switch record.origin {
    case .exitInfo: return ExitInfoReason.message(of: record)
    case .jobScheduler: return JobSchedulerJob.message(of: record)
    case .log: break
    }
    var text = record.message
    return text.withUTF8 { bytes in
      MessageText.withNormalized(bytes) { read(tag: record.source, LogBytes($0)) }
    }
  }

  private static func read(tag: String, _ message: LogBytes) -> MessageReading {
    var message = message
    switch tag {
    // Before 1.0.0-beta01 the tags had no `WM-` (LogcatFields.prefixlessWorkManagerTags).
    case "WM-WorkerWrapper", "WorkerWrapper": return workerWrapper(message)
    case "WM-Processor":
      if message.expect("Processor: processing ") { return work(message) { .workStarted(work: $0) } }
      if message.expect("Processor cancelling ") { return work(message) { .workCancelled(work: $0) } }
      if message.expect("WorkerWrapper interrupted for ") {
        return work(message) { .workInterrupted(work: $0, reason: WorkStopReason.interruptedWord, tags: nil) }
      }
      return .unrelated
    case "WM-GreedyScheduler", "GreedyScheduler":
      if message.expect("Starting work for ") { return work(message) { .workStarted(work: $0) } }
      if message.expect("Cancelling work ID ") { return work(message) { .workCancelled(work: $0) } }
      return .unrelated
    case "WM-SystemJobScheduler", "SystemJobScheduler":
      if message.expect("Scheduling work ID ") {
        // `…-8bd7e37d8515Job ID 594`: WorkManager 2.7 and later print no space before `Job`.
        return work(message) { .workScheduled(work: $0, job: jobID(message)) }
      }
      return .unrelated
    case "WM-SystemJobService", "SystemJobService":
      if message.expect("onStartJob for ") { return work(message) { .workStarted(work: $0) } }
      return .unrelated
    case "WM-ForceStopRunnable", "ForceStopRunnable":
      return message.expect("Application was force-stopped") ? .message(.forceStopDetected) : .unrelated
    case "AndroidRuntime":
      return message.expect("FATAL EXCEPTION: ") ? .message(.processCrashed) : .unrelated
    case "wm_on_start_called", "am_on_start_called": return activity(message, .start)
    case "wm_on_resume_called", "am_on_resume_called": return activity(message, .resume)
    case "wm_on_paused_called", "am_on_paused_called": return activity(message, .pause)
    case "wm_on_stop_called", "am_on_stop_called": return activity(message, .stop)
    case "ActivityManager":
      // A few lines a process: read as text.
      return activityManager(Substring(message.string(0..<message.bytes.count)))
    default:
      return .unrelated
    }
  }

  /// An activity lifecycle event's fields: `[Token=N,Component Name=CLASS,Reason=…]`
  /// (`wm_on_…`, current releases) or `[USER,CLASS,REASON]` (`am_on_…`, earlier ones):
  /// the activity's class.
  private static func activity(_ message: LogBytes, _ step: ActivityStep) -> MessageReading {
    var message = message
    let expected = "'[Token=N,Component Name=CLASS,…]' or '[USER,CLASS,…]'"
    guard message.expect("["), message.upTo(44) != nil, message.expect(44) else {
      return .malformed(expected: expected)
    }
    _ = message.expect("Component Name=")
    let start = message.index
    guard let range = message.upTo(44) ?? message.upTo(93), range.count > 0, range.lowerBound == start else {
      return .malformed(expected: expected)
    }
    return .message(.activityLifecycle(activity: message.string(range), step: step))
  }

  private static func workerWrapper(_ message: LogBytes) -> MessageReading {
    var message = message
    if message.expect("Worker result ") {
      let rest = message.index
      guard
        let outcome = WorkResultWord(
          rawValue: MessageText.leadingLetters(UnsafeBufferPointer(rebasing: message.bytes[rest...])))
      else { return .malformed(expected: Self.expectedResult) }
      if let marker = message.find(" for Work [ id=", from: rest) {
        message.index = marker.upperBound
        guard let id = workID(message) else { return .malformed(expected: Self.expectedResult) }
        return .message(.workResult(work: id, outcome: outcome, tags: tags(message)))
      }
      // 1.0.0-alpha01 to alpha05: `Worker result SUCCESS for ID`, the id alone.
      guard let marker = message.find(" for ", from: rest) else { return .malformed(expected: Self.expectedResult) }
      message.index = marker.upperBound
      guard let id = workID(message) else { return .malformed(expected: Self.expectedResult) }
      return .message(.workResult(work: id, outcome: outcome, tags: nil))
    }
    guard message.expect("Work [ id=") else { return .unrelated }
    // `$workDescription was cancelled` (logi) and `$workDescription failed because it
    // threw an exception/error` (loge): the attempt's end, with the work's tags.
    if message.find(" was cancelled", from: message.index) != nil {
      guard let id = workID(message) else { return .malformed(expected: "'Work [ id=ID, …'") }
      return .message(.workInterrupted(work: id, reason: "cancelled", tags: tags(message)))
    }
    if message.find(" failed because it threw an exception/error", from: message.index) != nil {
      guard let id = workID(message) else { return .malformed(expected: "'Work [ id=ID, …'") }
      return .message(.workResult(work: id, outcome: .failure, tags: tags(message)))
    }
    return .unrelated
  }

  private static let expectedResult =
    "'Worker result SUCCESS|RETRY|FAILURE for Work [ id=ID, tags={ … } ]' (or, before 1.0.0-alpha06, '… for ID')"

  /// `tags={ a, b } ]`'s `a, b`, after the scanner's index.
  private static func tags(_ description: LogBytes) -> String? {
    guard let open = description.find("tags={ ", from: description.index) else { return nil }
    // The marker ends with a blank, and a normalized message holds no two in a row: the
    // tags start right after it.
    let end = description.find(" }", from: open.upperBound)?.lowerBound ?? description.bytes.count
    return end > open.upperBound ? description.string(open.upperBound..<end) : nil
  }

  /// The work id at the scanner's index: a bare UUID, or the `workSpecId=` of a
  /// `WorkGenerationalId(workSpecId=…, generation=N)` (WorkManager 2.8 and later) — the
  /// hex digits and dashes that start it, at least 8.
  private static func workID(_ text: LogBytes) -> String? {
    let start = text.find("workSpecId=", from: text.index)?.upperBound ?? text.index
    var end = start
    while end < text.bytes.count, isWorkIDByte(text.bytes[end]) { end += 1 }
    return end - start >= 8 ? text.string(start..<end) : nil
  }

  @inline(__always)
  private static func isWorkIDByte(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) || byte == 45
  }

  /// The job id after `Job ID ` in `text`, if it prints one.
  private static func jobID(_ text: LogBytes) -> Int? {
    guard let marker = text.find("Job ID ", from: text.index) else { return nil }
    var value = 0
    var end = marker.upperBound
    while end < text.bytes.count, (48...57).contains(text.bytes[end]), value < Int.max / 10 - 9 {
      value = value * 10 + Int(text.bytes[end] - 48)
      end += 1
    }
    return end > marker.upperBound ? value : nil
  }

  private static func work(_ text: LogBytes, _ make: (String) -> PlatformMessage) -> MessageReading {
    guard let id = workID(text) else { return .malformed(expected: "a work id (a UUID)") }
    return .message(make(id))
  }

  private static func activityManager(_ message: Substring) -> MessageReading {
    if let rest = prefix("Start proc ", message) {
      // Android 10 and later: `PID:NAME/UID for …`; Android 4: `NAME for …: pid=PID uid=…`.
      if let pid = MessageText.leadingInteger(rest), let colon = rest.firstIndex(of: ":") {
        let name = rest[rest.index(after: colon)...].prefix { $0 != "/" && $0 != " " }
        guard !name.isEmpty else { return .malformed(expected: "'Start proc PID:NAME/UID for …'") }
        return .message(.processStarted(pid: pid, name: String(name)))
      }
      let name = rest.prefix { $0 != " " }
      guard let pidText = MessageText.after(": pid=", in: rest), let pid = MessageText.leadingInteger(pidText) else {
        return .malformed(expected: "'Start proc PID:NAME/UID for …' or 'Start proc NAME for …: pid=PID'")
      }
      return .message(.processStarted(pid: pid, name: String(name)))
    }
    if let rest = prefix("Process ", message), let range = MessageText.firstRange(of: " (pid ", in: rest),
      MessageText.contains(") has died", in: rest)
    {
      guard let pid = MessageText.leadingInteger(rest[range.upperBound...]) else {
        return .malformed(expected: "'Process NAME (pid PID) has died'")
      }
      return .message(.processEnded(pid: pid, name: String(rest[..<range.lowerBound]), reason: "died"))
    }
    if let rest = prefix("Killing ", message) {
      guard let pid = MessageText.leadingInteger(rest), let colon = rest.firstIndex(of: ":") else {
        return .malformed(expected: "'Killing PID:NAME/UID (adj N): REASON'")
      }
      let name = rest[rest.index(after: colon)...].prefix { $0 != "/" && $0 != " " }
      let reason = MessageText.after("): ", in: rest).map(String.init) ?? ""
      return .message(
        .processEnded(pid: pid, name: String(name), reason: reason.isEmpty ? "killed" : "killed: \(reason)"))
    }
    if let rest = prefix("Scheduling restart of crashed service ", message) {
      let name = rest.prefix { $0 != "/" && $0 != " " }
      guard !name.isEmpty else { return .malformed(expected: "'Scheduling restart of crashed service PACKAGE/CLASS'") }
      return .message(.processEnded(pid: nil, name: String(name), reason: "crashed"))
    }
    if let rest = prefix("Force stopping ", message) {
      let name = rest.prefix { $0 != " " }
      return .message(.processEnded(pid: nil, name: String(name), reason: TerminationReason.forceStop))
    }
    return foregroundService(message)
  }

  /// ActiveServices' foreground-service lines (W, the system server's): the service is
  /// named by its component, `PACKAGE/CLASS` (`ServiceRecord.shortInstanceName`).
  private static func foregroundService(_ message: Substring) -> MessageReading {
    if let rest = prefix("startForegroundService() not allowed due to mAllowStartForeground false: service ", message) {
      return component(rest).map { .message(.foregroundStartRefused(service: $0)) }
        ?? .malformed(expected: "'… not allowed due to mAllowStartForeground false: service PACKAGE/CLASS'")
    }
    if let rest = prefix("Service.startForeground() not allowed due to mAllowStartForeground false: service ", message)
    {
      return component(rest).map { .message(.foregroundPromotionRefused(service: $0)) }
        ?? .malformed(expected: "'… not allowed due to mAllowStartForeground false: service PACKAGE/CLASS'")
    }
    if let rest = prefix("Bringing down service while still waiting for start foreground: ", message) {
      // `ServiceRecord{HASH uUSER PACKAGE/CLASS}` (ServiceRecord.toString).
      let fields = MessageText.dropPrefix("ServiceRecord{", rest)?.split(separator: " ", maxSplits: 2)
      guard let fields, fields.count == 3, let service = component(fields[2].prefix { $0 != "}" }) else {
        return .malformed(
          expected:
            "'Bringing down service while still waiting for start foreground: ServiceRecord{HASH uN PACKAGE/CLASS}'")
      }
      return .message(.foregroundServiceStoppedUnpromoted(service: service))
    }
    return .unrelated
  }

  /// A component name, `PACKAGE/CLASS`, at the start of `text` (up to a blank).
  private static func component(_ text: Substring) -> String? {
    let word = text.prefix { $0 != " " }
    guard let slash = word.firstIndex(of: "/"), slash != word.startIndex, word.index(after: slash) != word.endIndex
    else { return nil }
    return String(word)
  }

  private static func prefix(_ marker: StaticString, _ text: Substring) -> Substring? {
    MessageText.dropPrefix(marker, text)
  }
}
