/// The binary codes of the vocabulary's enumerated fields, each declared here once
/// (docs/FORMAT.md, "Record"). A code never changes once published: it is what every
/// existing file holds. A new case takes the next free code, and each `wireCode`
/// switch below is a compiler error until it has one. `WireCodeStabilityTests` pins
/// every code, so changing one fails the tests.
///
/// Event kinds' codes are ``EventTag``'s raw values, declared there.
package protocol WireCoded: CaseIterable, Equatable {
  /// The value's code in the binary form.
  var wireCode: UInt8 { get }
  /// The value with code `code`, or `nil` for a code no value has.
  init?(wireCode code: UInt8)
  /// The largest code a value has: what a decoder accepts in the field.
  static var largestWireCode: UInt8 { get }
}

extension AppLifecycleState: WireCoded {
  /// `app.state`'s flags.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .active: 0
    case .inactive: 1
    case .background: 2
    case .suspended: 3
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .active
    case 1: self = .inactive
    case 2: self = .background
    case 3: self = .suspended
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 3 }
}

extension SchedulerRejection: WireCoded {
  /// `sched.reject`'s flags.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .unavailable: 0
    case .tooManyPendingTaskRequests: 1
    case .notPermitted: 2
    case .immediateRunIneligible: 3
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .unavailable
    case 1: self = .tooManyPendingTaskRequests
    case 2: self = .notPermitted
    case 3: self = .immediateRunIneligible
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 3 }
}

extension WorkOutcome: WireCoded {
  /// `work.result`'s flags.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .success: 0
    case .failure: 1
    case .retry: 2
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .success
    case 1: self = .failure
    case 2: self = .retry
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 2 }
}

extension BackoffPolicy: WireCoded {
  /// `work.enqueue`'s backoff byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .exponential: 0
    case .linear: 1
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .exponential
    case 1: self = .linear
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 1 }
}

extension ExistingWorkPolicy: WireCoded {
  /// `work.enqueue`'s policy byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .replace: 0
    case .keep: 1
    case .append: 2
    case .appendOrReplace: 3
    case .update: 4
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .replace
    case 1: self = .keep
    case 2: self = .append
    case 3: self = .appendOrReplace
    case 4: self = .update
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 4 }
}

extension SchedulerRequestType: WireCoded {
  /// `sched.submit`'s flag bits 0 and 2 (bit 1 is `earliest`'s presence): processing
  /// was bit 0 from the start; continued processing came later, as bit 2.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .refresh: 0
    case .processing: 1
    case .continued: 4
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .refresh
    case 1: self = .processing
    case 4: self = .continued
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 4 }
}

extension ContinuedProcessingStrategy: WireCoded {
  /// `sched.submit`'s strategy byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .fail: 0
    case .queue: 1
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .fail
    case 1: self = .queue
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 1 }
}

extension ContinuedProcessingResource: WireCoded {
  /// `sched.submit`'s resources byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .gpu: 0
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .gpu
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 0 }
}

extension ExpirationReason: WireCoded {
  /// `sched.expire`'s reason byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .stalled: 0
    case .user: 1
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .stalled
    case 1: self = .user
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 1 }
}

/// A `sched.submit` record's requirement byte: `network` and `power` tri-states in bits
/// 0–3, and in bits 4–7 which of a continued-processing request's fields follow the
/// earliest date, in this order (docs/FORMAT.md, "Record").
@usableFromInline
package enum SubmitRequirements: Sendable {
  /// `title` follows.
  @usableFromInline package static let title: UInt8 = 1 << 4
  /// `subtitle` follows.
  @usableFromInline package static let subtitle: UInt8 = 1 << 5
  /// The strategy byte follows.
  @usableFromInline package static let strategy: UInt8 = 1 << 6
  /// The resources byte follows.
  @usableFromInline package static let resources: UInt8 = 1 << 7

  /// The byte for `submission`.
  package static func byte(of submission: SchedulerSubmission) -> UInt8 {
    Tristate.code(submission.network) | Tristate.code(submission.power) << 2
      | (submission.title != nil ? title : 0) | (submission.subtitle != nil ? subtitle : 0)
      | (submission.strategy != nil ? strategy : 0) | (submission.resources != nil ? resources : 0)
  }
}

/// An optional Bool's code: 0 absent, 1 true, 2 false (3 is no value).
@usableFromInline
package enum Tristate: Sendable {
  /// The code of `value`.
  @inlinable
  package static func code(_ value: Bool?) -> UInt8 {
    switch value {
    case nil: 0
    case true?: 1
    case false?: 2
    }
  }

  /// The value of code `code` (0, 1 or 2; callers check that it is not 3).
  @inlinable
  package static func value(_ code: UInt8) -> Bool? {
    code == 0 ? nil : code == 1
  }
}

/// The flag bit of a `work.result` or `work.stop` record that says the work's `tags`
/// follow, as a string reference after the record's other fields (docs/FORMAT.md): it
/// came after 0.1.0's layout, so a record without tags keeps its bytes.
@usableFromInline
package enum WorkTagsFlag: Sendable {
  /// `work.result`'s: bit 2, above its outcome's code (bits 0–1).
  @usableFromInline package static let result: UInt8 = 1 << 2
  /// `work.stop`'s: bit 0.
  @usableFromInline package static let stop: UInt8 = 1
}

/// A `work.enqueue` record's flags: its fields that came after the presence byte was
/// full, each written after every field the presence byte holds.
@usableFromInline
package enum EnqueueFlag: Sendable {
  /// Bit 0: the initial delay (`initial=`) follows, scaled.
  @usableFromInline package static let initialDelay: UInt8 = 1
  /// Bit 1: the constraints (`needs=`) follow, after the initial delay: a varint whose
  /// bit N is ``WorkConstraint``'s case N, in declaration order.
  @usableFromInline package static let constraints: UInt8 = 2
  /// Bit 2: the next schedule time override (`override=`) follows, after the
  /// constraints: a scaled time, as `sched.submit`'s `earliest`. The last of the three
  /// flag bits a record has.
  @usableFromInline package static let scheduleOverride: UInt8 = 4
}

/// A hand-laid record's suffix: the fields its kind gained once its flags and presence
/// bits were full (docs/FORMAT.md, "Record suffixes"). The record is preceded by
/// ``marker`` and followed by a varint of presence bits, one per suffix field, then each
/// present field as the spec layout writes it. Only `work.enqueue` has one.
@usableFromInline
package enum RecordSuffix: Sendable {
  /// The byte before a record that has a suffix: tag code 30 with flags 1 (a kind code
  /// of 32 or more follows tag code 30 only with flags 0).
  @usableFromInline package static let marker: UInt8 = 30 | 1 << 5
  /// `work.enqueue`'s suffix bit 0: the request's id (`request=`) follows, as a string
  /// reference to its UUID text.
  @usableFromInline package static let request: UInt64 = 1
  /// `work.enqueue`'s suffix bit 1: the unique name (`unique=`) follows, after the
  /// request's id, as a string reference.
  @usableFromInline package static let uniqueName: UInt64 = 2
}

/// A `work.enqueue` record's presence byte: which of its optional fields follow, in
/// the order of these bits except ``flex`` and then ``expedited``, which came later and
/// are written last, in that order.
@usableFromInline
package struct EnqueuePresence: OptionSet, Sendable, Hashable, BitwiseCopyable {
  @usableFromInline package var rawValue: UInt8
  @inlinable package init(rawValue: UInt8) { self.rawValue = rawValue }

  @usableFromInline package static let name = EnqueuePresence(rawValue: 1 << 0)
  @usableFromInline package static let backoff = EnqueuePresence(rawValue: 1 << 1)
  @usableFromInline package static let backoffDelay = EnqueuePresence(rawValue: 1 << 2)
  @usableFromInline package static let retryLimit = EnqueuePresence(rawValue: 1 << 3)
  @usableFromInline package static let period = EnqueuePresence(rawValue: 1 << 4)
  @usableFromInline package static let policy = EnqueuePresence(rawValue: 1 << 5)
  @usableFromInline package static let flex = EnqueuePresence(rawValue: 1 << 6)
  @usableFromInline package static let expedited = EnqueuePresence(rawValue: 1 << 7)
  /// Every bit a reader knows; a byte with any other bit set is malformed.
  package static let known = EnqueuePresence(rawValue: 0xFF)

  /// The fields `enqueue` has.
  package init(of enqueue: WorkEnqueue) {
    self = []
    if enqueue.name != nil { insert(.name) }
    if enqueue.backoff != nil { insert(.backoff) }
    if enqueue.backoffDelay != nil { insert(.backoffDelay) }
    if enqueue.retryLimit != nil { insert(.retryLimit) }
    if enqueue.period != nil { insert(.period) }
    if enqueue.policy != nil { insert(.policy) }
    if enqueue.flex != nil { insert(.flex) }
    if enqueue.expedited != nil { insert(.expedited) }
  }
}

extension ExpeditedPolicy: WireCoded {
  /// `work.enqueue`'s expedited byte.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .runAsRegular: 0
    case .drop: 1
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .runAsRegular
    case 1: self = .drop
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 1 }
}

extension TransferKind: WireCoded {
  /// `net.submit`'s flags bit 0.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .upload: 0
    case .download: 1
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .upload
    case 1: self = .download
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 1 }
}

extension TransferOutcome: WireCoded {
  /// `net.finish`'s flags.
  @inlinable
  package var wireCode: UInt8 {
    switch self {
    case .success: 0
    case .failed: 1
    case .cancelled: 2
    }
  }

  @inlinable
  package init?(wireCode code: UInt8) {
    switch code {
    case 0: self = .success
    case 1: self = .failed
    case 2: self = .cancelled
    default: return nil
    }
  }

  package static var largestWireCode: UInt8 { 2 }
}
