import Testing

@testable import BackgroundTrace

/// Every code of the binary form, written out by hand from docs/FORMAT.md ("Record").
/// These are what existing files hold: a change to any of them is a format break,
/// and fails here before it reaches a file.
@Suite struct WireCodeStabilityTests {
  @Test func eventKindTagsNeverChange() {
    let expected: [(String, UInt8)] = [
      ("app.launch", 0), ("app.state", 1), ("app.terminate", 2), ("task.begin", 3), ("task.end", 4),
      ("task.expire", 5), ("sched.register", 6), ("sched.submit", 7), ("sched.reject", 8),
      ("sched.cancel", 9), ("sched.launch", 10), ("sched.expire", 11), ("sched.complete", 12),
      ("work.enqueue", 13), ("work.start", 14), ("work.result", 15), ("work.stop", 16),
      ("work.cancel", 17), ("env.set", 18), ("input", 19), ("mark", 20), ("net.create", 21), ("net.submit", 22),
      ("net.finish", 23), ("net.wake", 24), ("net.events-done", 25), ("net.handler", 26),
      ("sched.progress", 27), ("fgs.start", 28), ("fgs.foreground", 29), ("fgs.stop", 32), ("fgs.refuse", 33),
      ("fgs.timeout", 34), ("work.foreground", 35), ("work.refuse", 36), ("work.quota", 37),
      ("app.allowlist", 38), ("file.lock", 39), ("file.unlock", 40), ("work.wait", 41), ("sched.wait", 42),
    ]
    for (name, code) in expected {
      #expect(EventTag(name: name)?.rawValue == code, "\(name)")
    }
    // A kind added later takes a new code; none reuses one, and none is 30 (the tag code
    // of a longer kind code) or 31 (the log chunk's string definition).
    #expect(Set(EventTag.allCases.map(\.rawValue)).count == EventTag.allCases.count)
    // The codes run without a gap but for those two, and the cases are declared in code
    // order: the decoder takes a code below 30 as the case's declaration index.
    let codes = EventTag.allCases.map(\.rawValue)
    #expect(codes == (0...codes.max()!).filter { ![30, 31].contains($0) || EventTag(rawValue: $0) != nil })
  }

  /// A kind from code 27 on is laid out from its spec (docs/FORMAT.md, "Spec layout"):
  /// its fields' order, types and optionality, and a choice's words in order, are its
  /// binary layout. A new field goes last and optional; a new word goes last.
  /// `ForegroundServiceType`'s words, in their code order.
  static let serviceTypes = [
    "dataSync", "mediaProcessing", "shortService", "mediaPlayback", "location", "connectedDevice", "camera",
    "microphone", "health", "phoneCall", "remoteMessaging", "mediaProjection", "specialUse", "systemExempted",
  ]

  /// The hand-laid kinds are exactly the codes below the first spec-laid one, each the
  /// event kind of the same name and code: the codec's and the walker's switches over
  /// them are exhaustive without naming a later kind.
  @Test func theHandLaidKindsAreTheCodesBelowTheSpecLayouts() {
    #expect(HandLaidKind.allCases.map(\.rawValue) == Array(0..<SpecLayout.firstCode))
    #expect(MemoryLayout<HandLaidKind>.size == 1)
    for kind in HandLaidKind.allCases {
      let tag = EventTag(rawValue: kind.rawValue)
      #expect(tag?.handLaid == kind)
      #expect("\(kind)" == tag.map { "\($0)" }, "code \(kind.rawValue)")
    }
    #expect(EventTag.allCases.filter { $0.handLaid == nil }.allSatisfy { $0.rawValue >= SpecLayout.firstCode })
  }

  @Test func specLayoutFieldsNeverChange() {
    let serviceTypes = Self.serviceTypes
    let expected: [(String, [FieldSpec])] = [
      ("sched.progress", [.required("run", .integer), .required("completed", .integer), .required("total", .integer)]),
      ("fgs.start", [.required("service", .string)]),
      ("fgs.foreground", [.required("service", .string), .optional("type", .choice(words: serviceTypes))]),
      ("fgs.stop", [.required("service", .string)]),
      (
        "fgs.refuse",
        [
          .required("service", .string),
          .required(
            "reason",
            .choice(words: [
              "background", "no-type", "exhausted", "not-running", "boot-completed", "permission", "while-in-use",
            ])),
        ]
      ),
      ("fgs.timeout", [.required("service", .string), .required("type", .choice(words: serviceTypes))]),
      ("work.foreground", [.required("work", .string), .required("attempt", .integer)]),
      (
        "work.refuse",
        [
          .required("work", .string), .required("attempt", .integer),
          .required(
            "reason",
            .choice(words: [
              "background", "no-type", "exhausted", "not-running", "boot-completed", "permission", "while-in-use",
            ])),
        ]
      ),
      ("work.quota", [.required("work", .string), .required("policy", .choice(words: ["run-as-regular", "drop"]))]),
      (
        "app.allowlist",
        [
          .required("reason", .choice(words: ["fcm-high-priority", "exact-alarm", "notification", "boot-completed"])),
          .required("duration", .interval),
        ]
      ),
      ("file.lock", [.required("path", .string), .required("shared", .boolean)]),
      ("file.unlock", [.required("path", .string)]),
      ("work.wait", [.required("work", .string), .required("reasons", .string)]),
      ("sched.wait", [.required("ident", .string), .required("reasons", .string)]),
      ("work.after", [.required("work", .string), .required("prerequisite", .string)]),
      (
        "alarm.set",
        [
          .required("alarm", .string), .required("at", .seconds),
          .required(
            "type",
            .choice(words: [
              "inexact", "exact", "allow-while-idle", "exact-allow-while-idle", "alarm-clock", "window", "repeating",
            ])),
          .optional("window", .interval), .optional("interval", .interval),
        ]
      ),
      ("alarm.fire", [.required("alarm", .string)]),
      ("alarm.cancel", [.required("alarm", .string)]),
    ]
    for (name, fields) in expected {
      let published = EventTag(name: name)?.spec.fields ?? []
      #expect(Array(published.prefix(fields.count)).map(\.layoutPart) == fields.map(\.layoutPart), "\(name)")
      #expect(published.dropFirst(fields.count).allSatisfy { !$0.isRequired }, "\(name): a new field is optional")
      // A kind published without an optional field has no presence bits: its first
      // optional field would add them before every field, and misread its records.
      #expect(
        fields.contains { !$0.isRequired } || published.allSatisfy(\.isRequired),
        "\(name): a kind with no optional field cannot gain one; declare a new kind")
    }
    let laidOut = EventTag.allCases.filter { $0.rawValue >= 27 }.map(\.name)
    #expect(laidOut.sorted() == expected.map(\.0).sorted(), "every spec-layout kind is pinned here")
  }

  @Test func enumeratedFieldCodesNeverChange() {
    expectCodes(AppLifecycleState.self, [.active: 0, .inactive: 1, .background: 2, .suspended: 3])
    expectCodes(
      SchedulerRejection.self,
      [.unavailable: 0, .tooManyPendingTaskRequests: 1, .notPermitted: 2, .immediateRunIneligible: 3])
    expectCodes(WorkOutcome.self, [.success: 0, .failure: 1, .retry: 2])
    expectCodes(TransferKind.self, [.upload: 0, .download: 1])
    expectCodes(TransferOutcome.self, [.success: 0, .failed: 1, .cancelled: 2])
    expectCodes(BackoffPolicy.self, [.exponential: 0, .linear: 1])
    expectCodes(ExistingWorkPolicy.self, [.replace: 0, .keep: 1, .append: 2, .appendOrReplace: 3, .update: 4])
    // Continued processing came later, as flag bit 2 (bit 1 is `earliest`'s presence).
    expectCodes(SchedulerRequestType.self, [.refresh: 0, .processing: 1, .continued: 4])
    expectCodes(ContinuedProcessingStrategy.self, [.fail: 0, .queue: 1])
    expectCodes(ContinuedProcessingResource.self, [.gpu: 0])
    expectCodes(ExpeditedPolicy.self, [.runAsRegular: 0, .drop: 1])
    // `sched.expire`'s reason came later: its byte follows the run, behind flags bit 0.
    expectCodes(ExpirationReason.self, [.stalled: 0, .user: 1])
  }

  @Test func presenceAndTristateBitsNeverChange() {
    #expect(EnqueuePresence.name.rawValue == 0x01)
    #expect(EnqueuePresence.backoff.rawValue == 0x02)
    #expect(EnqueuePresence.backoffDelay.rawValue == 0x04)
    #expect(EnqueuePresence.retryLimit.rawValue == 0x08)
    #expect(EnqueuePresence.period.rawValue == 0x10)
    #expect(EnqueuePresence.policy.rawValue == 0x20)
    #expect(EnqueuePresence.flex.rawValue == 0x40)
    #expect(EnqueuePresence.expedited.rawValue == 0x80)
    #expect(EnqueuePresence.known.rawValue == 0xFF)
    #expect(SubmitRequirements.title == 0x10 && SubmitRequirements.subtitle == 0x20)
    #expect(SubmitRequirements.strategy == 0x40 && SubmitRequirements.resources == 0x80)
    #expect(Tristate.code(nil) == 0 && Tristate.code(true) == 1 && Tristate.code(false) == 2)
    #expect(Tristate.value(0) == nil && Tristate.value(1) == true && Tristate.value(2) == false)
  }

  @Test func fileHeaderFeatureBitsNeverChange() {
    #expect(BinaryFormat.version == 4)
    #expect(BinaryFormat.Features.logChunks.rawValue == 0x01)
    #expect(BinaryFormat.Features.predictedIdentifiers.rawValue == 0x02)
    #expect(BinaryFormat.Features.known.rawValue == 0x03)
    // What each earlier version means, as version 4's features.
    #expect(BinaryFormat.Features(ofVersion: 1) == [])
    #expect(BinaryFormat.Features(ofVersion: 2) == [.logChunks])
    #expect(BinaryFormat.Features(ofVersion: 3) == [.predictedIdentifiers])
  }

  /// `codes` is every value of `T` with its code: no value is left out, each decodes
  /// back, and no other code decodes.
  func expectCodes<T: WireCoded & Hashable>(
    _: T.Type, _ codes: [T: UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(codes.count == T.allCases.count, "every case has its pinned code", sourceLocation: sourceLocation)
    for (value, code) in codes {
      #expect(value.wireCode == code, "\(value)", sourceLocation: sourceLocation)
      #expect(T(wireCode: code) == value, "\(value)", sourceLocation: sourceLocation)
    }
    #expect(T.largestWireCode == codes.values.max(), sourceLocation: sourceLocation)
    for code in UInt8.min...UInt8.max where !codes.values.contains(code) {
      #expect(T(wireCode: code) == nil, "code \(code)", sourceLocation: sourceLocation)
    }
  }
}

extension FieldSpec {
  /// What of a field the spec layout writes: its name (for the message), type and
  /// whether it is required. Privacy is not part of the layout.
  fileprivate var layoutPart: String { "\(name) \(type) \(isRequired)" }
}
