/// One event as ``BinaryTraceReader/nextCompact()`` hands it out: a plain value with no
/// reference in it (copying or dropping one retains and releases nothing), whose
/// string fields are small integer ids into the reader's ``InternedStrings``, interned
/// once per chunk string rather than per event.
///
/// The checker's fast path, at `package` access: users read ``TraceEvent``s, which
/// ``TraceEvent/init(_:strings:)`` builds from one. Fields are read through the
/// accessors below, which say what they mean for each kind; the stored bits are the
/// binary record's (docs/FORMAT.md, the record table), with identifiers and run
/// numbers resolved and the "predicted" flag bit dropped:
///
/// | kind | ``string`` | ``secondString`` | ``thirdString`` | ``number`` | other accessors |
/// |---|---|---|---|---|---|
/// | `app.state` | | | | | ``appState`` |
/// | `app.terminate` | reason | | | | ``terminateReason(strings:)`` |
/// | `task.begin` | name | | | id | ``taskName(strings:)`` |
/// | `task.end`, `task.expire` | | | | id | |
/// | `sched.register` | ident | | | | ``ok`` |
/// | `sched.submit` | ident | title | subtitle | | ``submission(strings:)`` (strategy and resources codes in ``backoffCode`` and ``policyCode``) |
/// | `sched.reject` | ident | | | | ``rejection`` |
/// | `sched.cancel` | ident | | | | ``cancelTarget(strings:)`` |
/// | `sched.launch` | ident | | | run | |
/// | `sched.expire` | | | | run | ``expirationReason`` |
/// | `sched.complete` | | | | run | ``success`` |
/// | `work.enqueue` | work | name | request | limit | ``workEnqueue(strings:)`` (``flags``: the expedited code; ``initialDelay``, ``constraintBits``, ``scheduleOverride``; the unique name in ``fourthString``) |
/// | `work.start` | work | | | attempt | |
/// | `work.result` | work | tags | | attempt | ``outcome`` |
/// | `work.stop` | work | reason | tags | attempt | ``workStopTags(strings:)`` |
/// | `work.cancel` | work | | | | |
/// | `env.set` | setting list id | | | setting count | ``InternedStrings/settings(_:)`` |
/// | `input` | key | value | | | |
/// | `mark` | label | | | | |
/// | `net.create`, `net.wake`, `net.events-done`, `net.handler` | session | | | | |
/// | `net.submit` | session | | | task | ``transferKind``, ``discretionary`` |
/// | `net.finish` | session | | | task | ``transferOutcome`` |
/// | code 27 on (`sched.progress`, …) | slots of ``SpecLayout`` | | | | ``specFieldValues(strings:)`` |
///
/// A string field a kind does not use, or leaves out, is ``noString``. Each slot holds
/// one meaning per kind, the one its column names.
@usableFromInline
package struct CompactEvent: Sendable, Hashable, BitwiseCopyable {
  /// The id of a string field that is absent.
  @usableFromInline package static let noString = UInt32.max

  /// When the event happened, in nanoseconds since the trace started.
  @usableFromInline package var time: UInt64
  /// The event's kind.
  @usableFromInline package var tag: EventTag
  /// The record's flags, without the predicted bit: an enumerated field's code, or
  /// presence bits (docs/FORMAT.md, the record table).
  @usableFromInline var flags: UInt8 = 0
  /// `sched.submit`'s requirement byte, `work.enqueue`'s presence byte, `sched.expire`'s
  /// reason code.
  @usableFromInline var options: UInt8 = 0
  /// `work.enqueue`'s backoff code, when its presence byte says it is present.
  @usableFromInline var backoffCode: UInt8 = 0
  /// `work.enqueue`'s policy code, when its presence byte says it is present.
  @usableFromInline var policyCode: UInt8 = 0
  /// `work.enqueue`'s constraints, as the binary form's bits; 0 when it has none. Kept
  /// in the padding after the bytes above.
  @usableFromInline var constraintBits: UInt16 = 0
  /// The first string field's id (or `env.set`'s setting list id).
  @usableFromInline package var string: UInt32 = CompactEvent.noString
  /// The second string field's id.
  @usableFromInline package var secondString: UInt32 = CompactEvent.noString
  /// The task id, run, attempt, enqueue limit or setting count.
  @usableFromInline package var number: Int64 = 0
  /// `sched.submit`'s earliest begin or `work.enqueue`'s backoff delay, in nanoseconds.
  @usableFromInline var interval: UInt64 = 0
  /// `work.enqueue`'s period, in nanoseconds.
  @usableFromInline var period: UInt64 = 0
  /// `work.enqueue`'s flex interval, in nanoseconds.
  @usableFromInline var flex: UInt64 = 0
  /// `work.enqueue`'s initial delay, in nanoseconds; ``noInterval`` when it has none.
  @usableFromInline var initialDelay: UInt64 = CompactEvent.noInterval
  /// The third string field's id (`sched.submit`'s subtitle, `work.stop`'s tags).
  @usableFromInline package var thirdString: UInt32 = CompactEvent.noString
  /// `work.enqueue`'s unique name's id (`unique=`), beside ``thirdString``.
  @usableFromInline package var fourthString: UInt32 = CompactEvent.noString
  /// `work.enqueue`'s next schedule time override, in nanoseconds; ``noInterval`` when
  /// it has none.
  @usableFromInline var scheduleOverride: UInt64 = CompactEvent.noInterval

  /// The value of an interval slot whose field is absent: larger than any interval a
  /// trace holds (the encoder refuses one over `Int64.max` nanoseconds).
  @usableFromInline static let noInterval = UInt64.max

  /// An event of kind `tag` at `time` with every other field empty.
  @inlinable
  package init(time: UInt64, tag: EventTag) {
    self.time = time
    self.tag = tag
  }

  /// `work.enqueue`'s presence byte, as a set.
  @usableFromInline var presence: EnqueuePresence {
    get { EnqueuePresence(rawValue: options) }
    set { options = newValue.rawValue }
  }
}

/// The fields of each kind, as ``TraceEvent/Kind`` has them: what a reader of compact
/// events needs to take one apart without building the whole ``TraceEvent``. Each is
/// meaningful only for the kinds it names; `strings` is the table of the reader that
/// returned the event. The decoder checked every code, so each accessor's value exists.
extension CompactEvent {
  /// `app.state`'s state.
  @inlinable
  package var appState: AppLifecycleState { AppLifecycleState(wireCode: flags)! }

  /// `app.terminate`'s reason.
  @inlinable
  package func terminateReason(strings: borrowing some StringTable) -> String? {
    flags == 1 ? strings[string] : nil
  }

  /// `task.begin`'s name.
  @inlinable
  package func taskName(strings: borrowing some StringTable) -> String? {
    guard let id = taskNameID else { return nil }
    return strings[id]
  }

  /// The string id of `task.begin`'s name.
  @inlinable
  package var taskNameID: UInt32? { flags & 1 == 1 ? string : nil }

  /// `sched.expire`'s reason (flags bit 0: present, its code in ``options``).
  @inlinable
  package var expirationReason: ExpirationReason? {
    flags & 1 == 1 ? ExpirationReason(wireCode: options)! : nil
  }

  /// `sched.register`'s `ok=`.
  @inlinable
  package var ok: Bool? { Tristate.value(flags) }

  /// `sched.submit`'s request.
  @inlinable
  package func submission(strings: borrowing some StringTable) -> SchedulerSubmission {
    SchedulerSubmission(
      identifier: strings[string], type: SchedulerRequestType(wireCode: flags & 5)!,
      earliest: flags & 2 != 0 ? TraceTime(nanoseconds: interval) : nil,
      network: Tristate.value(options & 0x3), power: Tristate.value(options >> 2 & 0x3),
      title: options & SubmitRequirements.title != 0 ? strings[secondString] : nil,
      subtitle: options & SubmitRequirements.subtitle != 0 ? strings[thirdString] : nil,
      strategy: options & SubmitRequirements.strategy != 0 ? ContinuedProcessingStrategy(wireCode: backoffCode)! : nil,
      resources: options & SubmitRequirements.resources != 0 ? ContinuedProcessingResource(wireCode: policyCode)! : nil)
  }

  /// Whether the event is a `sched.submit` of a continued-processing request (its
  /// identifier is ``string``).
  @inlinable
  package var isContinuedSubmit: Bool { tag == .schedSubmit && flags & 4 != 0 }

  /// `sched.reject`'s error.
  @inlinable
  package var rejection: SchedulerRejection { SchedulerRejection(wireCode: flags)! }

  /// `sched.cancel`'s target.
  @inlinable
  package func cancelTarget(strings: borrowing some StringTable) -> SchedulerCancelTarget {
    flags == 1 ? .all : .identifier(strings[string])
  }

  /// `sched.complete`'s `success=`.
  @inlinable
  package var success: Bool { flags & 1 == 1 }

  /// `work.enqueue`'s request.
  @inlinable
  package func workEnqueue(strings: borrowing some StringTable) -> WorkEnqueue {
    // Built in one initializer call: filled in field by field, the enqueue was copied
    // into the result and destroyed, each through its type's value witnesses.
    let presence = presence
    return WorkEnqueue(
      work: strings[string],
      name: presence.contains(.name) ? strings[secondString] : nil,
      backoff: presence.contains(.backoff) ? BackoffPolicy(wireCode: backoffCode)! : nil,
      backoffDelay: presence.contains(.backoffDelay) ? TraceInterval(nanoseconds: interval) : nil,
      retryLimit: presence.contains(.retryLimit) ? Int(number) : nil,
      period: presence.contains(.period) ? TraceInterval(nanoseconds: period) : nil,
      flex: presence.contains(.flex) ? TraceInterval(nanoseconds: flex) : nil,
      policy: presence.contains(.policy) ? ExistingWorkPolicy(wireCode: policyCode)! : nil,
      expedited: presence.contains(.expedited) ? ExpeditedPolicy(wireCode: flags)! : nil,
      initialDelay: initialDelay == Self.noInterval ? nil : TraceInterval(nanoseconds: initialDelay),
      constraints: WorkConstraint.constraints(bits: UInt64(constraintBits)),
      nextScheduleTimeOverride: scheduleOverride == Self.noInterval ? nil : TraceTime(nanoseconds: scheduleOverride),
      request: thirdString == Self.noString ? nil : WorkRequestID(strings[thirdString]),
      uniqueName: fourthString == Self.noString ? nil : strings[fourthString])
  }

  /// `work.stop`'s tags, when its flags say they are present.
  @inlinable
  package func workStopTags(strings: borrowing some StringTable) -> String? {
    flags & WorkTagsFlag.stop != 0 ? strings[thirdString] : nil
  }

  /// `work.result`'s outcome.
  @inlinable
  package var outcome: WorkOutcome { WorkOutcome(wireCode: flags)! }

  /// `net.submit`'s transfer kind.
  @inlinable
  package var transferKind: TransferKind { TransferKind(wireCode: flags & 1)! }

  /// `net.submit`'s `discretionary=`.
  @inlinable
  package var discretionary: Bool? { Tristate.value(flags >> 1) }

  /// `net.finish`'s outcome.
  @inlinable
  package var transferOutcome: TransferOutcome { TransferOutcome(wireCode: flags)! }
}

extension TraceEvent {
  /// The event `compact` stands for, its strings looked up in `strings` (the table of
  /// the reader that returned it).
  @inline(__always)  // so that the decoder's caller reads an event's fields where they are
  package init(_ compact: borrowing CompactEvent, strings: borrowing some StringTable) {
    let number = Int(compact.number)
    func text(_ id: UInt32) -> String { strings[id] }
    guard let handLaid = compact.tag.handLaid else {
      self.init(time: TraceTime(nanoseconds: compact.time), Kind(specLayout: compact, strings: strings))
      return
    }
    let kind: Kind
    switch handLaid {
    case .appLaunch: kind = .appLaunch
    case .appState: kind = .appState(to: compact.appState)
    case .appTerminate: kind = .appTerminate(reason: compact.terminateReason(strings: strings))
    case .taskBegin: kind = .taskBegin(id: number, name: compact.taskName(strings: strings))
    case .taskEnd: kind = .taskEnd(id: number)
    case .taskExpire: kind = .taskExpire(id: number)
    case .schedRegister: kind = .schedRegister(identifier: text(compact.string), ok: compact.ok)
    case .schedSubmit: kind = .schedSubmit(compact.submission(strings: strings))
    case .schedReject: kind = .schedReject(identifier: text(compact.string), error: compact.rejection)
    case .schedCancel: kind = .schedCancel(compact.cancelTarget(strings: strings))
    case .schedLaunch: kind = .schedLaunch(identifier: text(compact.string), run: number)
    case .schedExpire: kind = .schedExpire(run: number, reason: compact.expirationReason)
    case .schedComplete: kind = .schedComplete(run: number, success: compact.success)
    case .workEnqueue: kind = .workEnqueue(compact.workEnqueue(strings: strings))
    case .workStart: kind = .workStart(work: text(compact.string), attempt: number)
    case .workResult:
      kind = .workResult(
        work: text(compact.string), attempt: number, outcome: compact.outcome,
        tags: compact.secondString == CompactEvent.noString ? nil : text(compact.secondString))
    case .workStop:
      kind = .workStop(
        work: text(compact.string), attempt: number, reason: text(compact.secondString),
        tags: compact.workStopTags(strings: strings))
    case .workCancel: kind = .workCancel(work: text(compact.string))
    case .envSet: kind = .envSet(strings.settings(compact.string))
    case .input: kind = .input(key: text(compact.string), value: text(compact.secondString))
    case .mark: kind = .mark(label: text(compact.string))
    case .netCreate: kind = .netCreate(session: text(compact.string))
    case .netSubmit:
      kind = .netSubmit(
        session: text(compact.string), task: number, kind: compact.transferKind, discretionary: compact.discretionary)
    case .netFinish: kind = .netFinish(session: text(compact.string), task: number, outcome: compact.transferOutcome)
    case .netWake: kind = .netWake(session: text(compact.string))
    case .netEventsDone: kind = .netEventsDone(session: text(compact.string))
    case .netHandler: kind = .netHandler(session: text(compact.string))
    }
    self.init(time: TraceTime(nanoseconds: compact.time), kind)
  }
}

/// The compact events a ``BinaryTraceReader`` decoded ahead for
/// ``BinaryTraceReader/nextCompact()``. Copies of a reader share it and only read it;
/// a reader that decodes the next batch into a shared one makes its own first.
@usableFromInline
final class CompactEventBuffer {
  /// How many events a batch holds.
  static var capacity: Int { 64 }
  /// The events.
  @usableFromInline let base: UnsafeMutablePointer<CompactEvent>

  init() { base = .allocate(capacity: Self.capacity) }

  deinit { base.deallocate() }
}

/// Not Sendable: its events are written through a pointer, by one reader at a time.
@available(*, unavailable)
extension CompactEventBuffer: Sendable {}
