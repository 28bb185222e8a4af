public import BackgroundTrace

/// Checks a trace against the rules in one streaming pass.
///
/// Feed it located events in order with ``check(_:into:)`` and call ``finish(into:)``
/// at the end; findings come out in trace order. What is alive is decided by the
/// lifecycle walker the checker reads (docs/rules.md#how-the-checker-reads-a-trace);
/// the checker adds only the deadlines and what it has already reported. Memory grows
/// with what is alive plus compact records of what finished, never with the number of
/// events.
///
/// ```swift
/// var checker = TraceChecker(meta: reader.meta)
/// var findings: [Finding] = []
/// while let located = try reader.next() { checker.check(located, into: &findings) }
/// checker.finish(into: &findings)
/// ```
public struct TraceChecker: Sendable {
  /// What the checker assumes.
  public let configuration: CheckerConfiguration

  /// What is alive: the one lifecycle model.
  package private(set) var walker = LifecycleWalker()
  /// The rules, with the deadlines and what was already reported.
  private var rules: CheckerRules

  /// Creates a checker for a trace with `meta`: its `budget=` applies unless
  /// overridden, and a `source=ios-log` or `source=android-log` (a trace imported from
  /// a device log) spares what the log's cuts cause (docs/rules.md#imported-logs).
  public init(configuration: CheckerConfiguration = CheckerConfiguration(), meta: TraceMetadata = TraceMetadata()) {
    self.configuration = configuration
    walker = LifecycleWalker(meta: meta)
    walker.finishedWorks = FinishedWorks(generation: configuration.finishedWorkMemory)
    rules = CheckerRules(configuration: configuration, budget: configuration.budget(for: meta), meta: meta)
  }

  /// Checks the next event, appending any findings it shows to `findings`.
  ///
  /// - Complexity: amortized O(log *a*) in what is alive.
  public mutating func check(_ located: LocatedEvent, into findings: inout [Finding]) {
    if rules.heldLateRegistration != nil { rules.releaseHeldRegistration(before: located.event.kind) }
    begin(located)
    walker.apply(located.event, to: &rules)  // borrowed: the event is not copied
    collect(into: &findings)
  }

  /// Checks the next event as ``check(_:into:)`` does, read from its compact form at
  /// `location`, its strings in `strings` (the table of the reader that returned it).
  ///
  /// Checking ``BinaryTraceReader/nextCompact()``'s events gives the same findings as
  /// checking ``BinaryTraceReader/next()``'s, without building a ``TraceEvent`` for
  /// most events.
  @inline(__always)
  package mutating func check(
    _ event: borrowing CompactEvent, location: Int, strings: borrowing InternedStrings, into findings: inout [Finding]
  ) {
    if rules.heldLateRegistration != nil {
      rules.releaseHeldRegistration(
        continuedSubmitOf: event.isContinuedSubmit ? strings[event.string] : nil)
    }
    begin(location: location, time: TraceTime(nanoseconds: event.time))
    if !walker.applyFrequentEvent(event, strings: strings, to: &rules) {
      walker.apply(event, strings: strings, to: &rules)
    }
    collect(into: &findings)
  }

  /// Reports the deadlines that passed before `time`, which a source of events reached
  /// at `location` without an event there: a device log read as it arrives moves the
  /// clock on every timed line (`bgtrace watch`), so that an expiration not ended is
  /// found when the grace is over rather than at the app's next event.
  package mutating func pass(to time: TraceTime, location: Int, into findings: inout [Finding]) {
    guard rules.nextDeadline < time else { return }
    begin(location: location, time: time)
    collect(into: &findings)
  }

  /// The most strings a binary reader keeps across chunks while
  /// ``checkRemainingEvents(of:into:)`` reads it.
  package static var readerStringLimit: Int { 4096 }

  /// Checks every event `reader` has not read yet, as `bgtrace check` does, and returns
  /// how many it checked; ``finish(into:)`` is still the caller's.
  ///
  /// A binary trace is read as compact events, most never built as ``TraceEvent``s.
  /// Their strings are looked up as each is checked, so the reader keeps at most
  /// ``readerStringLimit`` strings across chunks, unless its
  /// ``BinaryTraceReader/stringLimit`` is set already: memory stays flat on a trace
  /// whose every work has a new id.
  ///
  /// - Throws: what ``TraceReader/next()`` throws.
  @discardableResult
  package mutating func checkRemainingEvents(of reader: inout TraceReader, into findings: inout [Finding]) throws
    -> Int
  {
    if let count = try reader.withBinaryReader({ try checkRemainingEvents(of: &$0, into: &findings) }) {
      return count
    }
    var count = 0
    while let located = try reader.next() {
      check(located, into: &findings)
      count += 1
    }
    return count
  }

  /// Checks every event the binary `reader` has not read yet, as compact events, as
  /// ``checkRemainingEvents(of:into:)`` does with a binary trace.
  ///
  /// Compiled here, where ``check(_:location:strings:into:)`` is inlined into the loop:
  /// the caller makes one call for all the events, so inlining the loop into it gains
  /// nothing, and nothing of the reader is exposed for inlining. The loop is written out,
  /// with no closure handed the batches: its speed must not hang on what the compiler
  /// inlines (docs/decisions/0010-checker-reads-batches.md).
  @discardableResult
  package mutating func checkRemainingEvents(
    of reader: inout BinaryTraceReader, into findings: inout [Finding]
  ) throws(ByteSourceError) -> Int {
    if reader.stringLimit == nil { reader.stringLimit = Self.readerStringLimit }
    var count = 0
    // Batches, not `nextCompact(into:)`: an event copied out right after the decoder
    // wrote it, field by field, is read back with wide loads before those stores reach
    // the cache, and each copy waits. A batch's events are written well before they are
    // read.
    //
    // The batch is allocated here, not in a `withUnsafeTemporaryAllocation` closure: the
    // loop's speed would hang on whether the compiler inlines that closure, which
    // unrelated changes to the walker decide.
    let batch = UnsafeMutableBufferPointer<CompactEvent>.allocate(capacity: 64)
    defer { batch.deallocate() }
    while case let read = try reader.nextCompactBatch(into: batch), read > 0 {
      let first = reader.eventNumber &- read &+ 1
      for index in 0..<read {
        check(batch[index], location: first &+ index, strings: reader.strings, into: &findings)
      }
      count &+= read
    }
    return count
  }

  /// Checks the next event as ``check(_:into:)`` does, and also appends what the event
  /// changed to `transitions`, for readers that draw what the checker judged.
  package mutating func check(
    _ located: LocatedEvent, into findings: inout [Finding], transitions: inout [LifecycleTransition]
  ) {
    if rules.heldLateRegistration != nil { rules.releaseHeldRegistration(before: located.event.kind) }
    begin(located)
    var observers = ObserverPair(CheckerRules.placeholder, [LifecycleTransition]())
    swap(&observers.first, &rules)  // moved, not copied: no copy-on-write of the rules' sets
    swap(&observers.second, &transitions)
    walker.apply(located.event, to: &observers)
    swap(&observers.first, &rules)
    swap(&observers.second, &transitions)
    collect(into: &findings)
  }

  /// Reports what is still open when the trace ends, at the last event, unless the
  /// reader's `damage` says the trace's last events are lost (``TraceDamage/endsTrace``:
  /// a torn tail, a recording that stopped writing): then the last event read is a cut,
  /// not the trace's end, and what was open there is not judged as open at the end.
  /// What `bgtrace check` and `explain` call after reading a file.
  package mutating func finish(into findings: inout [Finding], after damage: [TraceDamage]) {
    guard !damage.contains(where: \.endsTrace) else { return }
    finish(into: &findings)
  }

  /// Reports what is still open when the trace ends, at the last event.
  public mutating func finish(into findings: inout [Finding]) {
    // Deadlines still ahead have not passed: an expired task or run still open is
    // reported as the process ends; a budget not yet spent is no finding.
    rules.releaseHeldRegistration(continuedSubmitOf: nil)
    walker.finish(to: &rules)
    collect(into: &findings)
  }

  /// Reports what is still open when the trace ends as ``finish(into:)`` does, and also
  /// appends what the end closed to `transitions`.
  package mutating func finish(into findings: inout [Finding], transitions: inout [LifecycleTransition]) {
    rules.releaseHeldRegistration(continuedSubmitOf: nil)
    var observers = ObserverPair(CheckerRules.placeholder, [LifecycleTransition]())
    swap(&observers.first, &rules)
    swap(&observers.second, &transitions)
    walker.finish(to: &observers)
    swap(&observers.first, &rules)
    swap(&observers.second, &transitions)
    collect(into: &findings)
  }

  /// Checks a whole trace.
  ///
  /// - Complexity: O(*n* log *a*).
  public static func check(_ trace: RecordedTrace, configuration: CheckerConfiguration = CheckerConfiguration())
    -> [Finding]
  {
    var checker = TraceChecker(configuration: configuration, meta: trace.meta)
    var findings: [Finding] = []
    for (index, event) in trace.events.enumerated() {
      checker.check(LocatedEvent(event: event, location: index + 1), into: &findings)
    }
    checker.finish(into: &findings)
    return findings
  }

  /// Moves to `located`, reporting the deadlines that passed before it.
  @inline(__always)
  private mutating func begin(_ located: LocatedEvent) {
    begin(location: located.location, time: located.event.time)
  }

  /// Moves to the event at `location` and `time`, reporting the deadlines that passed
  /// before it.
  @inline(__always)
  private mutating func begin(location: Int, time: TraceTime) {
    rules.location = location
    // The finding of a deadline that passed between events shows at the next event.
    if rules.nextDeadline < time { passDeadlines(before: time) }
    rules.now = time
  }

  /// Reports the deadlines that passed before `time`. Not inlined: it runs only at the
  /// few events a deadline passed before, and inlined, the walker it reads took room on
  /// the stack of every check.
  @inline(never)
  private mutating func passDeadlines(before time: TraceTime) {
    rules.passDeadlines(
      before: time, tasks: walker.tasks, runs: walker.runs, sessions: walker.sessions, services: walker.services,
      running: walker.isRunning ? walker.process : nil)
  }

  /// Starts the budgets of the open tasks once the app moved into the background (not
  /// inlined, as ``passDeadlines(before:)``).
  @inline(never)
  private mutating func startOwedBudgets() {
    rules.startOwedBudgets(tasks: walker.tasks, process: walker.process)
  }

  /// Starts what the rules owe after an event, and moves its findings to `findings`.
  @inline(__always)
  private mutating func collect(into findings: inout [Finding]) {
    guard rules.owesWork else { return }
    rules.owesWork = false
    if rules.budgetsOwed { startOwedBudgets() }
    guard !rules.findings.isEmpty else { return }
    findings.append(contentsOf: rules.findings)
    rules.findings.removeAll(keepingCapacity: true)
  }
}
