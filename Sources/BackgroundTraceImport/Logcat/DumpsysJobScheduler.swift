import BackgroundTrace

/// `adb shell dumpsys jobscheduler`: the jobs JobScheduler holds, each as a `JOB
/// #UID/ID: HASH PACKAGE/SERVICE` block (AOSP `JobSchedulerService.dumpInternal`,
/// `JobStatus.dump`), read into records when the dump ends: each job's enqueue, and,
/// for a due job that waits, its wait at the dump's time. Its times are offsets from
/// the dump's moment (`Enqueue time: -1h4m36s59ms`), which the dump does not print:
/// the records are timed as if it was taken at ``dumpTime``.
struct DumpsysJobSchedulerReader: LogStyleReader {
  /// The moment the records' offsets count from, an arbitrary one (about 13 days past
  /// the epoch): only differences reach a trace, and an offset is at most ten years.
  static let dumpTime: Int64 = 1 << 50

  private struct Job {
    var line: Int
    var id: String
    var package: String?
    var unsatisfied: [Substring] = []
    var enqueuedAgo: Int64?
  }

  /// A job running at the dump's moment, in `Active jobs:`.
  private struct RunningJob {
    var line: Int
    var id: String
    var package: String
    var runningFor: Int64?
  }

  private var job: Job?
  /// Whether the lines are `Job history:`'s entries.
  private var inHistory = false
  /// The indent of the `Active jobs:` header while the lines are its slots.
  private var activeJobsIndent: Int?
  private var running: RunningJob?
  private var records = DumpRecords()
  private var added = 0

  mutating func read(_ line: LogLineSplitter.Line) -> LineReading {
    let text = String(decoding: line.bytes, as: UTF8.self)
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    if let indent = activeJobsIndent {
      if trimmed.isEmpty || text.count - trimmed.count > indent { return readActiveJob(trimmed, line: line.number) }
      endRunningJob()
      activeJobsIndent = nil
    }
    if trimmed.hasPrefix("Active jobs:") {
      endJob()
      inHistory = false
      activeJobsIndent = text.count - trimmed.count
      return .continuation
    }
    if inHistory {
      if let entry = JobHistoryEntry(trimmed) {
        add(entry.record(line: line.number))
        return .continuation
      }
      if JobHistoryEntry.namesNoJob(trimmed) { return .unread(.jobHistoryWithoutJobID) }
      // The rest of an entry hard-wrapped where it was pasted: the history goes on.
      let endsHistory = trimmed.hasSuffix(":") || trimmed.hasPrefix("JOB ") || trimmed.isEmpty
      if !endsHistory { return .notInStyle }
      inHistory = false
    }
    if trimmed.hasPrefix("Job history:") {
      endJob()
      inHistory = true
      return .continuation
    }
    if let id = Self.jobID(trimmed) {
      endJob()
      job = Job(line: line.number, id: id)
      return .continuation
    }
    guard job != nil else { return .notInStyle }
    if trimmed.hasPrefix("Source: "), let package = trimmed.firstRange(of: " pkg=") {
      job!.package = String(trimmed[package.upperBound...].prefix { $0 != " " })
    } else if trimmed.hasPrefix("Unsatisfied constraints:") {
      job!.unsatisfied = trimmed.dropFirst("Unsatisfied constraints:".count).split(separator: " ").filter {
        !$0.hasPrefix("[")
      }
    } else if trimmed.hasPrefix("Enqueue time: ") {
      job!.enqueuedAgo = Self.offset(trimmed.dropFirst("Enqueue time: ".count)).map { -$0 }
    } else if !text.hasPrefix(" ") && !text.hasPrefix("\t") && trimmed.hasSuffix(":") {
      endJob()  // a section of its own (`Job history:`, `Pending queue:`)
      return .notInStyle
    }
    return .continuation
  }

  mutating func finish() -> LineReading? {
    endJob()
    endRunningJob()
    return records.finish()
  }

  mutating func nextPending() -> LineReading? { records.next() }

  /// Adds a record; records of one time keep the order they were added in (a job's
  /// enqueue before its wait).
  private mutating func add(_ record: LogRecord) {
    records.add(record, order: added)
    added += 1
  }

  /// The job's id in a `JOB #u0a231/5: a2826a0 …` header (`JOB NAMESPACE:u0a231/5: …`
  /// from Android 14).
  static func jobID(_ line: Substring) -> String? {
    guard line.hasPrefix("JOB "), let colon = line.firstRange(of: ": ") else { return nil }
    return jobNumber(of: line[line.index(line.startIndex, offsetBy: 4)..<colon.lowerBound]).map(String.init)
  }

  /// The job's id in how the dump names a job, `UID/ID` (`#u0a231/5`,
  /// `NAMESPACE:u0a231/5`): the digits after the last slash.
  static func jobNumber(of unique: Substring) -> Substring? {
    guard let slash = unique.lastIndex(of: "/") else { return nil }
    let id = unique[unique.index(after: slash)...]
    return !id.isEmpty && id.allSatisfy(\.isNumber) ? id : nil
  }

  /// An offset as `TimeUtils.formatDuration` prints it (`-1h4m36s59ms`, `+30s0ms`), in
  /// nanoseconds; `nil` for `none`, one of more than ten years, or anything else.
  static func offset(_ text: Substring) -> Int64? {
    let tenYears: Int64 = 3653 * 86_400_000_000_000
    var rest = text.prefix { $0 != "," && $0 != " " }
    var sign: Int64 = 1
    if rest.first == "-" { sign = -1 }
    if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
    var total: Int64 = 0
    var sawUnit = false
    while !rest.isEmpty {
      let digits = rest.prefix(while: \.isNumber)
      guard let value = Int64(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      let unit = rest.prefix(while: \.isLetter)
      rest = rest.dropFirst(unit.count)
      let scale: Int64
      switch unit {
      case "d": scale = 86_400_000_000_000
      case "h": scale = 3_600_000_000_000
      case "m": scale = 60_000_000_000
      case "s": scale = 1_000_000_000
      case "ms": scale = 1_000_000
      default: return nil
      }
      let (part, overflow) = value.multipliedReportingOverflow(by: scale)
      guard !overflow else { return nil }
      total += part
      guard total <= tenYears else { return nil }
      sawUnit = true
    }
    return sawUnit ? sign * total : nil
  }

  /// A line of `Active jobs:` (AOSP `JobSchedulerService.dumpInternal`): each slot that
  /// runs a job is `Slot #N: HASH #UID/ID PACKAGE/SERVICE` (`Slot #N(ID=…): …` from
  /// Android 14), then the job's lines, among them `Running for: +3s741ms, timeout at: …`;
  /// an idle slot is `Slot #N: inactive since …`.
  private mutating func readActiveJob(_ trimmed: Substring, line: Int) -> LineReading {
    if trimmed.hasPrefix("Slot #") {
      endRunningJob()
      let words = trimmed.split(separator: " ")
      // `Slot #0:` also starts with `#`: the job is the word with a slash.
      if let index = words.firstIndex(where: { $0.hasPrefix("#") && $0.contains("/") }), index + 1 < words.count,
        let id = Self.jobNumber(of: words[index])
      {
        running = RunningJob(line: line, id: String(id), package: JobSchedulerJob.package(ofTag: words[index + 1]))
      }
    } else if trimmed.hasPrefix("Running for: ") {
      running?.runningFor = Self.offset(trimmed.dropFirst("Running for: ".count))
    } else if trimmed.hasPrefix("Source: "), let package = trimmed.firstRange(of: " pkg=") {
      running?.package = String(trimmed[package.upperBound...].prefix { $0 != " " })
    }
    return .continuation
  }

  /// Writes the start of the running job, `Running for:` before the dump's moment; a
  /// slot that does not say how long its job has run writes nothing (the job history,
  /// from Android 9, has its start).
  private mutating func endRunningJob() {
    defer { running = nil }
    guard let running, let runningFor = running.runningFor, runningFor >= 0 else { return }
    add(
      LogRecord(
        time: LogTimestamp(nanoseconds: Self.dumpTime - runningFor, hasYear: false), pid: nil,
        process: running.package, source: JobSchedulerJob.source, message: "started \(running.id)",
        line: running.line, origin: .jobScheduler))
  }

  private mutating func endJob() {
    defer { job = nil }
    guard let job, let package = job.package else { return }
    let enqueued = Self.dumpTime - (job.enqueuedAgo ?? 0)
    add(
      LogRecord(
        time: LogTimestamp(nanoseconds: enqueued, hasYear: false), pid: nil, process: package,
        source: JobSchedulerJob.source, message: "enqueued \(job.id)", line: job.line, origin: .jobScheduler))
    // A job not yet due waits for its time, which the enqueue already says.
    guard !job.unsatisfied.contains("TIMING_DELAY") else { return }
    let reasons = JobSchedulerJob.waitReasons(job.unsatisfied)
    guard !reasons.isEmpty else { return }
    add(
      LogRecord(
        time: LogTimestamp(nanoseconds: Self.dumpTime, hasYear: false), pid: nil, process: package,
        source: JobSchedulerJob.source, message: "waits \(job.id) \(WaitReason.field(reasons))", line: job.line,
        origin: .jobScheduler))
  }
}

/// What the trace says of a job in `dumpsys jobscheduler`: its work is `job-ID` (the
/// dump prints the job's id, not the WorkManager work it runs), and its unsatisfied
/// constraints are the reasons it waits.
enum JobSchedulerJob {
  /// The records' ``LogRecord/source``.
  static let source = "jobscheduler"

  /// The work id of job `id`.
  static func work(_ id: Substring) -> String { workPrefix + id }

  /// What a job's work id starts with, before the job's id.
  private static let workPrefix = "job-"

  /// `message`, a job's record, about the WorkManager work its job runs where the logs
  /// linked the job to it (`works`, by job id: SystemJobScheduler's `Scheduling work ID
  /// ID Job ID N`); unchanged otherwise.
  static func linking(_ message: PlatformMessage, to works: [Int: String]) -> PlatformMessage {
    func linked(_ work: String) -> String {
      guard work.hasPrefix(workPrefix), let id = Int(work.dropFirst(workPrefix.count)), let linked = works[id]
      else { return work }
      return linked
    }
    switch message {
    case .workScheduled(let work, let job): return .workScheduled(work: linked(work), job: job)
    case .workWaiting(let work, let reasons): return .workWaiting(work: linked(work), reasons: reasons)
    case .workStarted(let work): return .workStarted(work: linked(work))
    case .workEnded(let work): return .workEnded(work: linked(work))
    case .workInterrupted(let work, let reason, let tags):
      return .workInterrupted(work: linked(work), reason: reason, tags: tags)
    default: return message
    }
  }

  /// The wait reasons of JobStatus's constraint names (`dumpConstraints`); the names
  /// with no reason of the vocabulary (`CONTENT_TRIGGER`, `DEADLINE`, `PREFETCH`,
  /// `FLEXIBILITY`, `TARE_WEALTH`) give none, and so does `BACKGROUND_NOT_RESTRICTED`,
  /// unmet for the user's restriction and for battery saver alike (the dump does not
  /// say which).
  static func waitReasons(_ names: [Substring]) -> Set<WaitReason> {
    var reasons = Set<WaitReason>()
    for name in names {
      switch name {
      case "CONNECTIVITY": reasons.insert(.network)
      case "CHARGING": reasons.insert(.power)
      case "BATTERY_NOT_LOW": reasons.insert(.battery)
      case "STORAGE_NOT_LOW": reasons.insert(.storage)
      case "IDLE": reasons.insert(.deviceIdle)
      case "DEVICE_NOT_DOZING": reasons.insert(.doze)
      case "WITHIN_QUOTA": reasons.insert(.quota)
      default: break
      }
    }
    return reasons
  }

  /// The package of a job history entry's tag: the job's battery name, `PACKAGE/CLASS`
  /// (`JobStatus.batteryName`: its service's short component name), after a namespace
  /// `@NAMESPACE@` (Android 14) or a source tag and `:` (a job scheduled for another
  /// package).
  static func package(ofTag tag: Substring) -> String {
    var name = tag
    if name.first == "@", let end = name.dropFirst().firstIndex(of: "@") { name = name[name.index(after: end)...] }
    name = name.prefix { $0 != "/" }
    if let colon = name.lastIndex(of: ":") { name = name[name.index(after: colon)...] }
    return String(name)
  }

  /// The trace's `work.stop reason=` word for a job history stop's reason (docs/import.md,
  /// "Android: dumpsys jobscheduler"); `nil` when the app finished the job, which is no
  /// stop. The reason is the string `JobServiceContext` closed the job with, or, when
  /// the app answered `onStopJob`, the name of JobScheduler's reason code
  /// (`JobParameters.getReasonName` on Android 9 and 10, `getReasonCodeDescription` on
  /// 11, `getInternalReasonCodeDescription` from 12). A reason that does not tell one
  /// `STOP_REASON_*` apart is `interrupted`, as a log's stop without one is.
  static func stopWord(_ reason: Substring) -> String? {
    switch reason {
    case "app called jobFinished", "last work dequeued", "onStartJob returned false", "successful_finish": nil
    case "canceled": WorkStopReason.cancelledByApp.word
    case "constraints": WorkStopReason.constraintConnectivity.word
    case "timeout": WorkStopReason.timeout.word
    case "device_idle": WorkStopReason.deviceState.word
    case "restricted_bucket": WorkStopReason.appStandby.word
    default: WorkStopReason.interruptedWord
    }
  }

  /// The reading of a record: `enqueued ID`, `waits ID REASONS`, `started ID`, `ended
  /// ID` or `stopped ID REASON`.
  static func message(of record: LogRecord) -> MessageReading {
    let words = record.message.split(separator: " ")
    switch (words.first, words.count) {
    case ("enqueued"?, 2): return .message(.workScheduled(work: work(words[1])))
    case ("waits"?, 3):
      guard let reasons = WaitReason.parse(String(words[2])) else { return .malformed(expected: "wait reasons") }
      return .message(.workWaiting(work: work(words[1]), reasons: reasons))
    case ("started"?, 2): return .message(.workStarted(work: work(words[1])))
    case ("ended"?, 2): return .message(.workEnded(work: work(words[1])))
    case ("stopped"?, 3): return .message(.workInterrupted(work: work(words[1]), reason: String(words[2]), tags: nil))
    default: return .malformed(expected: "a job's enqueue, wait, start or stop")
    }
  }
}

/// An entry of `dumpsys jobscheduler`'s `Job history:` (AOSP
/// `JobPackageTracker.dumpHistory`): `-1h35m26s440ms   START: #u0a107/9008 TAG`, and
/// for a stop, the reason after the tag: `-1h35m26s362ms  STOP-P: #u0a107/9008 TAG app
/// called jobFinished` (`-P`: a periodic job's). TAG is the job's battery name, its
/// service's component (`PACKAGE/CLASS`), which names the app.
struct JobHistoryEntry {
  /// The entry's offset from the dump's moment, in nanoseconds (negative: before it).
  var offset: Int64
  /// The job's id.
  var id: Substring
  /// The app's package.
  var package: String
  /// `nil` for a start; for a stop, the trace's `work.stop reason=` word, or `nil` in
  /// ``stopWord`` when the app finished the job.
  var stop: (reason: Substring, word: String?)?

  /// The entry a line (without its indent) is, or `nil` when it is none.
  init?(_ line: Substring) {
    let words = line.split(separator: " ", maxSplits: 4)
    guard words.count >= 4, let offset = DumpsysJobSchedulerReader.offset(words[0]), words[2].hasPrefix("#"),
      let id = DumpsysJobSchedulerReader.jobNumber(of: words[2])
    else { return nil }
    switch words[1] {
    case "START:", "START-P:": stop = nil
    case "STOP:", "STOP-P:":
      let reason = words.count == 5 ? words[4].drop { $0 == " " } : ""
      stop = (reason, JobSchedulerJob.stopWord(reason))
    default: return nil
    }
    self.offset = offset
    self.id = id
    package = JobSchedulerJob.package(ofTag: words[3])
  }

  /// Whether a line (without its indent) is an entry in Android 7's form,
  /// `-33m57s905ms START: u0a71 PACKAGE/SERVICE`, which names the app's uid where later
  /// releases name the job (`#u0a71/5`).
  static func namesNoJob(_ line: Substring) -> Bool {
    // The tag may be cut off where the line was hard-wrapped.
    let words = line.split(separator: " ", maxSplits: 3)
    guard words.count >= 3, DumpsysJobSchedulerReader.offset(words[0]) != nil,
      words[1] == "START:" || words[1] == "STOP:", words[2].first == "u", words[2].dropFirst().first?.isNumber == true
    else { return false }
    return true
  }

  /// The record of the entry, read from line `line`.
  func record(line: Int) -> LogRecord {
    let message: String
    switch stop {
    case nil: message = "started \(id)"
    case (_, let word?)?: message = "stopped \(id) \(word)"
    case (_, nil)?: message = "ended \(id)"
    }
    return LogRecord(
      time: LogTimestamp(nanoseconds: DumpsysJobSchedulerReader.dumpTime + offset, hasYear: false), pid: nil,
      process: package, source: JobSchedulerJob.source, message: message, line: line, origin: .jobScheduler)
  }
}
