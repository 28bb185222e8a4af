/// WorkManager's, ActivityManager's and AndroidRuntime's messages about background
/// work and processes, read into ``PlatformMessage``s. Each message's format, source
/// and event are in docs/import.md.
///
/// - androidx WorkManager (`work/work-runtime/src/main/java/androidx/work/`, tags `WM-`
///   and the class name, at most 23 characters): `impl/WorkerWrapper.kt` (`Worker result
///   SUCCESS|RETRY|FAILURE for $workDescription`, `$workDescription was cancelled`,
///   with `workDescription` = `Work [ id=$workSpecId, tags={ … } ]`), `impl/Processor.java`
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
///   (`Scheduling restart of crashed service PACKAGE/CLASS in Nms`).
/// - AndroidRuntime (`com.android.internal.os.RuntimeInit`): `FATAL EXCEPTION: THREAD`.
public enum AndroidBackgroundMessages: Sendable {
  /// Reads one message of the record's tag (`source`).
  public static func read(_ record: LogRecord) -> MessageReading {
    let tag = record.source
    let message = Substring(MessageText.normalized(record.message))
    switch tag {
    case "ActivityManager": return activityManager(message)
    case "AndroidRuntime":
      return MessageText.hasPrefix("FATAL EXCEPTION: ", message) ? .message(.processCrashed) : .unrelated
    case "WM-WorkerWrapper": return workerWrapper(message)
    case "WM-Processor":
      if let rest = prefix("Processor: processing ", message) { return work(rest) { .workStarted(work: $0) } }
      if let rest = prefix("Processor cancelling ", message) { return work(rest) { .workCancelled(work: $0) } }
      if let rest = prefix("WorkerWrapper interrupted for ", message) {
        return work(rest) { .workInterrupted(work: $0, reason: "interrupted") }
      }
      return .unrelated
    case "WM-GreedyScheduler":
      if let rest = prefix("Starting work for ", message) { return work(rest) { .workStarted(work: $0) } }
      if let rest = prefix("Cancelling work ID ", message) { return work(rest) { .workCancelled(work: $0) } }
      return .unrelated
    case "WM-SystemJobScheduler":
      if let rest = prefix("Scheduling work ID ", message) { return work(rest) { .workScheduled(work: $0) } }
      return .unrelated
    case "WM-SystemJobService":
      if let rest = prefix("onStartJob for ", message) { return work(rest) { .workStarted(work: $0) } }
      return .unrelated
    case "WM-ForceStopRunnable":
      return MessageText.hasPrefix("Application was force-stopped", message) ? .message(.forceStopDetected) : .unrelated
    default:
      return .unrelated
    }
  }

  private static func workerWrapper(_ message: Substring) -> MessageReading {
    if let rest = prefix("Worker result ", message) {
      let word = rest.prefix { $0.isLetter }
      guard let outcome = WorkResultWord(rawValue: String(word)),
        let description = MessageText.after(" for Work [ id=", in: rest), let id = MessageText.workID(description)
      else { return .malformed(expected: "'Worker result SUCCESS|RETRY|FAILURE for Work [ id=ID, tags={ … } ]'") }
      return .message(.workResult(work: id, outcome: outcome, tags: tags(description)))
    }
    if let rest = prefix("Work [ id=", message), MessageText.contains(" was cancelled", in: message) {
      guard let id = MessageText.workID(rest) else { return .malformed(expected: "'Work [ id=ID, …'") }
      return .message(.workInterrupted(work: id, reason: "cancelled"))
    }
    return .unrelated
  }

  /// `tags={ a, b } ]`'s `a, b`.
  private static func tags(_ description: Substring) -> String? {
    guard let rest = MessageText.after("tags={ ", in: description) else { return nil }
    let end = MessageText.firstRange(of: " }", in: rest)?.lowerBound ?? rest.endIndex
    let text = rest[..<end].drop { $0 == " " }
    return text.isEmpty ? nil : String(text)
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
      return .message(.processEnded(pid: nil, name: String(name), reason: "force-stopped"))
    }
    return .unrelated
  }

  private static func work(_ text: Substring, _ make: (String) -> PlatformMessage) -> MessageReading {
    guard let id = MessageText.workID(text) else { return .malformed(expected: "a work id (a UUID)") }
    return .message(make(id))
  }

  private static func prefix(_ marker: StaticString, _ text: Substring) -> Substring? {
    MessageText.dropPrefix(marker, text)
  }
}
