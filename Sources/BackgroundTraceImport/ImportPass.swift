import BackgroundTrace

/// The import's one pass over its logs: each line read in its log's style, each entry's
/// message read once, then counted for choosing the app (``LogSurvey``) and kept, with
/// what writing its events needs, in the ``MessageSpool``.
///
/// Which app's events are written is not known until the last line (a later line may
/// name a pid, and the app with the most background-work messages wins), so every
/// message the import reads is kept, whatever its process; the events are written
/// after the pass from the spool.
struct ImportPass {
  /// The styles, the processes and their counts.
  private(set) var survey: LogSurvey
  /// The messages read, in order.
  let spool = MessageSpool()
  /// The log's first time, and after the pass the trace times of the events.
  var clock = ImportClock()
  /// The line counts of the summary (lines, skipped, overlong, not in style, not parsed).
  private(set) var summary = ImportSummary()
  /// The process names lines carry, indexed by ``SpooledMessage/processName``.
  private(set) var processNames: [String] = []
  /// Each work's tags, from the first line that prints them (WorkerWrapper's lines that
  /// end an attempt), for the result or stop whose own line prints none: one entry per
  /// work, as the translator's state.
  private(set) var workTags: [String: String] = [:]
  private var processIndex: [String: Int] = [:]
  private var lastProcess: Int?
  /// Whether the line of the entry the reader holds had a word the import looks for.
  private var heldMayMatter = true
  /// The process exits of `dumpsys activity exit-info` inputs (``DumpsysExitInfoReader``),
  /// kept apart from the spool: the writing merges them by time with the logs' messages.
  private(set) var exits: [SpooledMessage] = []
  /// The jobs of `dumpsys jobscheduler` inputs (``DumpsysJobSchedulerReader``), kept
  /// apart as the exits are.
  private(set) var jobs: [SpooledMessage] = []
  /// The WorkManager work each JobScheduler job runs, by job id, as the logs link them
  /// (`Scheduling work ID ID Job ID N`); a job id linked to two works (two apps' jobs)
  /// is linked to none.
  private var jobWorks: [Int: String] = [:]
  private var ambiguousJobs: Set<Int> = []
  /// The latest time of a line the pass read of the logs (the dumps aside), for putting
  /// the dumps in the logs' frame.
  private(set) var lastLineTime: LogTimestamp?
  /// With `--strict`, the first message that does not parse, and how many messages were
  /// spooled before it: the events of those are written before the error is thrown, as
  /// they would be by a reader that stopped there.
  private(set) var strictFailure: (error: LogImportError, before: Int)?

  /// A pass over logs of the styles `survey` detected.
  init(survey: LogSurvey) { self.survey = survey }

  /// The dumps' records, oldest first, in the frame of the logs' times. An exit is put
  /// in a yearless log's frame (its year moved so that the newest exit is within half a
  /// year of the logs' last line, as ``YearlessClock`` counts years), or kept in its own;
  /// a job's times, offsets from the dump's moment, count from the logs' last line read
  /// (the dump taken as the capture ended). With no log, the first record is the trace's
  /// 0; with one, exits before its first line are left out (counted as skipped lines),
  /// and a job enqueued before it is written at its start.
  mutating func dumpsInTheLogsFrame() -> [SpooledMessage] {
    var moved = exits
    if let last = lastLineTime, !last.hasYear, let newest = exits.compactMap(\.time).filter(\.hasYear).max() {
      let halfYear: Int64 = 183 * 86_400 * 1_000_000_000
      var years = LogCalendar.year(of: last.nanoseconds) - LogCalendar.year(of: newest.nanoseconds)
      let newestMoved = LogCalendar.moving(newest.nanoseconds, byYears: years)
      if newestMoved > last.nanoseconds + halfYear { years -= 1 }
      if newestMoved < last.nanoseconds - halfYear { years += 1 }
      for index in moved.indices {
        guard let time = moved[index].time, time.hasYear else { continue }
        moved[index].time = LogTimestamp(
          nanoseconds: LogCalendar.moving(time.nanoseconds, byYears: years), hasYear: false)
      }
    }
    var movedJobs = jobs
    if !jobWorks.isEmpty {
      for index in movedJobs.indices {
        movedJobs[index].message = JobSchedulerJob.linking(movedJobs[index].message, to: jobWorks)
      }
    }
    if let last = lastLineTime {
      for index in movedJobs.indices {
        guard let time = movedJobs[index].time else { continue }
        movedJobs[index].time = LogTimestamp(
          nanoseconds: time.nanoseconds - DumpsysJobSchedulerReader.dumpTime + last.nanoseconds, hasYear: last.hasYear)
      }
    }
    if let start = clock.start {
      // An exit before the logs' first line is outside the capture: skipped, as a line.
      let before = moved.count
      moved.removeAll { clock.reached($0.time) == nil }
      summary.skippedLines += before - moved.count
      for index in movedJobs.indices where clock.reached(movedJobs[index].time) == nil {
        movedJobs[index].time = LogTimestamp(nanoseconds: start, hasYear: movedJobs[index].time?.hasYear ?? false)
      }
    }
    // Oldest first; of one time, in the order the dumps gave them (a job's enqueue before
    // its wait).
    let all = (moved + movedJobs).enumerated().sorted {
      ($0.element.time?.nanoseconds ?? .min, $0.offset) < ($1.element.time?.nanoseconds ?? .min, $1.offset)
    }.map(\.element)
    if !clock.hasBase { clock.see(all.first { $0.time != nil }?.time) }
    return all
  }

  /// Takes note of the time of a line read of the logs.
  private mutating func noteLineTime(_ time: LogTimestamp?) {
    if let time, lastLineTime.map({ time.nanoseconds > $0.nanoseconds }) ?? true { lastLineTime = time }
  }

  /// Reads `input`, the import's log number `inputIndex` (from 0), in `style` to its end.
  ///
  /// - Throws: ``LogImportError`` when the log or the spool's file cannot be read.
  mutating func read(
    _ input: LogInput, index inputIndex: Int, style: LogStyle, strict: Bool
  ) throws(LogImportError) {
    try style.withReader(ReadingWithStyle(input: input, index: inputIndex, style: style, strict: strict), on: &self)
  }

  /// ``ImportPass/read(_:index:style:strict:)`` with the style's reader as its own type.
  private struct ReadingWithStyle: LogStyleReaderUse {
    let input: LogInput
    let index: Int
    let style: LogStyle
    let strict: Bool

    func read(_ reader: consuming some LogStyleReader, on pass: inout ImportPass) throws(LogImportError) {
      var reader = reader
      try pass.read(input, index: index, style: style, strict: strict, reader: &reader)
    }
  }

  private mutating func read(
    _ input: LogInput, index inputIndex: Int, style: LogStyle, strict: Bool, reader: inout some LogStyleReader
  ) throws(LogImportError) {
    var splitter = try input.lines()
    let skipsByWord = style.skipsLinesByWord
    let platform = survey.platform
    // The last line skipped for lacking the words, kept while the style joins wrapped
    // lines: the first part of a wrapped message may lack them while its continuation,
    // the next line, holds them, or a word may lie across the cut. iOS only: Android's
    // words are tags, in the header, which a wrap does not move to the next line.
    var skipped: [UInt8] = []
    var skippedNumber: Int?
    var scratch: [UInt8] = []
    let keepsSkipped = skipsByWord && reader.joinsWrappedLines && platform == .ios
    try splitter.forEachLine { (line) throws(LogImportError) in
      summary.lines += 1
      if line.isOverlong {
        summary.overlongLines += 1
        summary.skippedLines += 1
        return
      }
      // A line with none of the words every message read holds cannot matter: once
      // the first time is known, it is skipped unread. Before, it is read for its time
      // only (the survey never counted such lines).
      var mayMatter = !skipsByWord || LogRelevance.mayMatter(line.bytes, platform: platform)
      if !mayMatter && clock.hasBase && reader.heldEntryLine == nil {
        if keepsSkipped, skippedNumber == line.number - 1,
          LogRelevance.mayMatter(across: skipped, line.bytes, platform: platform, scratch: &scratch)
        {
          mayMatter = true  // a word across the cut: read with the line before, below
        } else {
          summary.skippedLines += 1
          if keepsSkipped {
            skipped.removeAll(keepingCapacity: true)
            skipped.append(contentsOf: line.bytes)
            skippedNumber = line.number
          }
          return
        }
      }
      let continuesSkipped = keepsSkipped && skippedNumber == line.number - 1 && reader.heldEntryLine == nil
      skippedNumber = nil
      // An entry held for its continuations (``WrappedLineJoining``) comes out a line
      // late: it is surveyed as its own line was.
      let heldLineMattered = heldMayMatter
      let reading = reader.read(line)
      if continuesSkipped, reading.isNotAnEntry, reader.heldEntryLine == nil, reader.nextPending() == nil {
        // Not an entry: the rest of the line skipped before it, whose message holds the
        // words only with this part. Read whole, as one line, where the line before is.
        summary.skippedLines -= 1
        MessageContinuation.append(line.bytes, to: &skipped)
        let number = line.number - 1
        heldMayMatter = true
        let joined = skipped.withUnsafeBufferPointer { bytes in
          reader.read(LogLineSplitter.Line(number: number, bytes: bytes, isOverlong: false))
        }
        try take(
          joined, surveyed: true, heldSurveyed: true, line: number, input: input, index: inputIndex, strict: strict)
        while let more = reader.nextPending() {
          try take(
            more, surveyed: true, heldSurveyed: true, line: number, input: input, index: inputIndex, strict: strict)
        }
        return
      }
      try take(
        reading, surveyed: mayMatter, heldSurveyed: heldLineMattered, line: line.number, input: input,
        index: inputIndex, strict: strict)
      while let more = reader.nextPending() {
        try take(
          more, surveyed: mayMatter, heldSurveyed: heldLineMattered, line: line.number, input: input,
          index: inputIndex, strict: strict)
      }
      if let held = reader.heldEntryLine {
        // The entry held is this line's, or one this line continued: it matters when
        // either line holds the words.
        heldMayMatter = held == line.number ? mayMatter : heldMayMatter || mayMatter
      }
    }
    if let last = reader.finish() {
      try take(
        last, surveyed: true, heldSurveyed: heldMayMatter, line: nil, input: input, index: inputIndex, strict: strict)
    }
    while let more = reader.nextPending() {
      try take(
        more, surveyed: true, heldSurveyed: heldMayMatter, line: nil, input: input, index: inputIndex, strict: strict)
    }
  }

  private mutating func take(
    _ reading: LineReading, surveyed lineSurveyed: Bool, heldSurveyed: Bool, line: Int?, input: LogInput,
    index inputIndex: Int, strict: Bool
  ) throws(LogImportError) {
    switch reading {
    case .notInStyle:
      summary.unrecognisedLines += 1
      summary.skippedLines += 1
    case .unread(let entry):
      summary.unreadEntries[entry.summaryWords, default: 0] += 1
      summary.skippedLines += 1
    case .continuation:
      break
    case .skipped(let time, _):
      clock.see(time)
      noteLineTime(time)
      summary.skippedLines += 1
    case .entry(let record):
      let isExit = record.origin == .exitInfo
      let isJob = record.origin == .jobScheduler
      if !isExit && !isJob {
        clock.see(record.time)
        noteLineTime(record.time)
      }
      let reading = LogMessages.read(record, platform: survey.platform)
      if record.line == line ? lineSurveyed : heldSurveyed { survey.take(record, reading) }
      guard case .message(let message) = reading else {
        if case .malformed(let expected) = reading {
          summary.malformedLines += 1
          if strict && strictFailure == nil {
            let source = record.source.isEmpty ? "background-task" : record.source
            strictFailure = (
              LogImportError(
                file: input.name, line: record.line,
                message: "a \(source) message that does not parse: expected \(expected)"),
              spool.count
            )
          }
        }
        summary.skippedLines += 1
        return
      }
      if let printed = message.printedTags, workTags[printed.work] == nil { workTags[printed.work] = printed.tags }
      if case .workScheduled(let work, let job?) = message, !ambiguousJobs.contains(job) {
        if let linked = jobWorks[job], linked != work {
          jobWorks[job] = nil
          ambiguousJobs.insert(job)
        } else {
          jobWorks[job] = work
        }
      }
      let processName = record.process.map { index($0) }
      let spooled = SpooledMessage(
        time: record.time, pid: record.pid, processName: processName, message: message,
        location: LogLocation(input: inputIndex, line: record.line))
      if isExit || isJob {
        if isExit { exits.append(spooled) } else { jobs.append(spooled) }
        return
      }
      do throws(ByteSourceError) { try spool.append(spooled) } catch { throw LogImportError(unreadable: error) }
    }
  }

  /// The index of a process name in ``processNames``, added when new.
  private mutating func index(_ name: String) -> Int {
    // Most lines with a name repeat the one before: no hashing then.
    if let lastProcess, processNames[lastProcess] == name { return lastProcess }
    let found = processIndex[name] ?? processNames.count
    if found == processNames.count {
      processIndex[name] = found
      processNames.append(name)
    }
    lastProcess = found
    return found
  }
}
