import BackgroundTrace

/// One message of an import's pass as the spool keeps it until the app is chosen: what
/// writing its events needs (the line's time and pid, the process name it carries, the
/// message), and its bytes.
///
/// The bytes are a flags byte, the time, pid and process-name index it flags, then the
/// message: a case byte and its fields, integers as ZigZag LEB128 varints and strings as
/// a varint length and their UTF-8. Decoding gives back exactly what was encoded.
struct SpooledMessage {
  /// The line's time, if it has one.
  var time: LogTimestamp?
  /// The writing process's id, if the line carries it.
  var pid: Int?
  /// The line's own process name, as an index into the pass's table of names.
  var processName: Int?
  /// The message.
  var message: PlatformMessage
  /// Where the message is: its log (an index into the import's inputs) and line.
  var location = LogLocation(input: 0, line: 0)

  private static let hasTime: UInt8 = 1
  private static let hasYear: UInt8 = 2
  private static let hasPid: UInt8 = 4
  private static let hasProcessName: UInt8 = 8

  /// Appends the message's bytes to `writer`.
  func encode(into writer: inout SpoolWriter) {
    var flags: UInt8 = 0
    if let time { flags |= Self.hasTime | (time.hasYear ? Self.hasYear : 0) }
    if pid != nil { flags |= Self.hasPid }
    if processName != nil { flags |= Self.hasProcessName }
    writer.byte(flags)
    if let time { writer.integer(time.nanoseconds) }
    if let pid { writer.integer(pid) }
    if let processName { writer.integer(processName) }
    writer.integer(location.input)
    writer.integer(location.line)
    writer.message(message)
  }

  /// Decodes one message from `reader`, which the spool's own encoding fills.
  static func decode(_ reader: inout SpoolReader) -> SpooledMessage {
    let flags = reader.byte()
    let time =
      flags & hasTime != 0 ? LogTimestamp(nanoseconds: reader.integer(), hasYear: flags & hasYear != 0) : nil
    let pid = flags & hasPid != 0 ? Int(reader.integer()) : nil
    let processName = flags & hasProcessName != 0 ? Int(reader.integer()) : nil
    let location = LogLocation(input: Int(reader.integer()), line: Int(reader.integer()))
    return SpooledMessage(time: time, pid: pid, processName: processName, message: reader.message(), location: location)
  }
}

/// Appends spooled messages' fields to its bytes.
struct SpoolWriter {
  var bytes: [UInt8] = []

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func integer(_ value: some BinaryInteger) {
    let signed = Int64(value)
    var zigzag = UInt64(bitPattern: (signed << 1) ^ (signed >> 63))
    while zigzag >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
      zigzag >>= 7
    }
    bytes.append(UInt8(zigzag))
  }

  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      integer(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func optionalString(_ value: String?) {
    byte(value == nil ? 0 : 1)
    if let value { string(value) }
  }

  mutating func optionalInteger(_ value: Int?) {
    byte(value == nil ? 0 : 1)
    if let value { integer(value) }
  }

  /// The case's number, then its fields in the order the case declares them.
  mutating func message(_ message: PlatformMessage) {
    switch message {
    case .taskCreated(let id, let name): fields(0, id, name)
    case .taskEnded(let id): fields(1, id, nil)
    case .taskEndRefused(let id): fields(2, id, nil)
    case .taskExpiring(let id, let name): fields(3, id, name)
    case .taskStillNotEnded(let id, let name): fields(4, id, name)
    case .taskOld(let id, let name): fields(5, id, name)
    case .requestSubmitted(let identifier, let type):
      byte(6)
      string(identifier)
      byte(type == .refresh ? 0 : 1)
    case .taskLaunched(let identifier): named(7, identifier)
    case .taskCompleted(let identifier, let success):
      named(8, identifier)
      byte(success ? 1 : 0)
    case .tasksExpiring(let identifiers):
      byte(9)
      integer(identifiers.count)
      for identifier in identifiers { string(identifier) }
    case .noLaunchHandler(let identifier): named(10, identifier)
    case .handlerRegistered(let identifier): named(11, identifier)
    case .requestCancelled(let identifier):
      byte(12)
      optionalString(identifier)
    case .requestRejected(let identifier, let code):
      named(13, identifier)
      optionalInteger(code)
    case .workScheduled(let work, let job):
      named(14, work)
      optionalInteger(job)
    case .workStarted(let work): named(15, work)
    case .workResult(let work, let outcome, let tags):
      named(16, work)
      byte(outcome == .success ? 0 : outcome == .retry ? 1 : 2)
      optionalString(tags)
    case .workInterrupted(let work, let reason, let tags):
      named(17, work)
      string(reason)
      optionalString(tags)
    case .workCancelled(let work): named(18, work)
    case .forceStopDetected: byte(19)
    case .processCrashed: byte(20)
    case .processStarted(let pid, let name):
      byte(21)
      integer(pid)
      string(name)
    case .processEnded(let pid, let name, let reason):
      byte(22)
      optionalInteger(pid)
      string(name)
      string(reason)
    case .processExited(let pid, let name, let reason):
      byte(34)
      integer(pid)
      string(name)
      string(reason)
    case .workWaiting(let work, let reasons):
      byte(35)
      string(work)
      string(WaitReason.field(reasons))
    case .workEnded(let work): named(36, work)
    case .foregroundStartRefused(let service): named(23, service)
    case .foregroundPromotionRefused(let service): named(24, service)
    case .foregroundServiceStoppedUnpromoted(let service): named(25, service)
    case .activityLifecycle(let activity, let step):
      named(26, activity)
      byte(step.rawValue)
    case .processStateChanged(let pid, let name, let state):
      byte(27)
      integer(pid)
      string(name)
      byte(Self.stateCodes[state] ?? 0)
    case .processVisibilityChanged(let pid, let name, let foreground):
      byte(28)
      integer(pid)
      string(name)
      byte(foreground ? 1 : 0)
    case .processTaskStateChanged(let pid, let name, let suspended):
      byte(29)
      integer(pid)
      string(name)
      byte(suspended ? 1 : 0)
    case .simulatedLaunchRequested(let identifier): named(30, identifier)
    case .simulatedTaskStarted: byte(31)
    case .simulatedTaskCompleted(let identifier):
      byte(32)
      optionalString(identifier)
    case .simulatedLaunchFoundNoRequest: byte(33)
    }
  }

  /// A task case: its id, then its name when the case has one (`name` is `nil` for the
  /// cases without a name, `.some(nil)` for a name the message did not give).
  private mutating func fields(_ number: UInt8, _ id: Int, _ name: String??) {
    byte(number)
    integer(id)
    if let name { optionalString(name) }
  }

  /// An app state's byte: its place in `AppLifecycleState.allCases`.
  static let stateCodes: [AppLifecycleState: UInt8] = Dictionary(
    uniqueKeysWithValues: AppLifecycleState.allCases.enumerated().map { ($1, UInt8($0)) })

  private mutating func named(_ number: UInt8, _ identifier: String) {
    byte(number)
    string(identifier)
  }
}

/// Reads back what ``SpoolWriter`` wrote. The bytes are the spool's own, so a read past
/// their end is a bug, not bad input: it traps.
struct SpoolReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }

  mutating func byte() -> UInt8 {
    defer { index += 1 }
    return bytes[index]
  }

  mutating func integer() -> Int64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = byte()
      value |= UInt64(next & 0x7f) << shift
      if next < 0x80 { break }
      shift += 7
    }
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  mutating func string() -> String {
    let count = Int(integer())
    defer { index += count }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + count]), as: UTF8.self)
  }

  mutating func optionalString() -> String? { byte() == 0 ? nil : string() }

  mutating func optionalInteger() -> Int? { byte() == 0 ? nil : Int(integer()) }

  mutating func message() -> PlatformMessage {
    let number = byte()
    switch number {
    case 0: return .taskCreated(id: Int(integer()), name: optionalString())
    case 1: return .taskEnded(id: Int(integer()))
    case 2: return .taskEndRefused(id: Int(integer()))
    case 3: return .taskExpiring(id: Int(integer()), name: optionalString())
    case 4: return .taskStillNotEnded(id: Int(integer()), name: optionalString())
    case 5: return .taskOld(id: Int(integer()), name: optionalString())
    case 6:
      let identifier = string()
      return .requestSubmitted(identifier: identifier, type: byte() == 0 ? .refresh : .processing)
    case 7: return .taskLaunched(identifier: string())
    case 8:
      let identifier = string()
      return .taskCompleted(identifier: identifier, success: byte() != 0)
    case 9:
      let count = Int(integer())
      return .tasksExpiring(identifiers: (0..<count).map { _ in string() })
    case 10: return .noLaunchHandler(identifier: string())
    case 11: return .handlerRegistered(identifier: string())
    case 12: return .requestCancelled(identifier: optionalString())
    case 13:
      let identifier = string()
      return .requestRejected(identifier: identifier, code: optionalInteger())
    case 14:
      let work = string()
      return .workScheduled(work: work, job: optionalInteger())
    case 15: return .workStarted(work: string())
    case 16:
      let work = string()
      let outcome: WorkResultWord =
        switch byte() {
        case 0: .success
        case 1: .retry
        default: .failure
        }
      return .workResult(work: work, outcome: outcome, tags: optionalString())
    case 17:
      let work = string()
      let reason = string()
      return .workInterrupted(work: work, reason: reason, tags: optionalString())
    case 18: return .workCancelled(work: string())
    case 19: return .forceStopDetected
    case 20: return .processCrashed
    case 21:
      let pid = Int(integer())
      return .processStarted(pid: pid, name: string())
    case 22:
      let pid = optionalInteger()
      let name = string()
      return .processEnded(pid: pid, name: name, reason: string())
    case 23: return .foregroundStartRefused(service: string())
    case 24: return .foregroundPromotionRefused(service: string())
    case 25: return .foregroundServiceStoppedUnpromoted(service: string())
    case 26:
      let activity = string()
      return .activityLifecycle(activity: activity, step: ActivityStep(rawValue: byte()) ?? .stop)
    case 27:
      let pid = Int(integer())
      let name = string()
      return .processStateChanged(pid: pid, name: name, state: AppLifecycleState.allCases[Int(byte())])
    case 28:
      let pid = Int(integer())
      let name = string()
      return .processVisibilityChanged(pid: pid, name: name, foreground: byte() != 0)
    case 29:
      let pid = Int(integer())
      let name = string()
      return .processTaskStateChanged(pid: pid, name: name, suspended: byte() != 0)
    case 30: return .simulatedLaunchRequested(identifier: string())
    case 31: return .simulatedTaskStarted
    case 32: return .simulatedTaskCompleted(identifier: optionalString())
    case 33: return .simulatedLaunchFoundNoRequest
    case 34:
      let pid = Int(integer())
      let name = string()
      return .processExited(pid: pid, name: name, reason: string())
    case 35:
      let work = string()
      return .workWaiting(work: work, reasons: WaitReason.parse(string()) ?? [])
    case 36: return .workEnded(work: string())
    default:
      preconditionFailure("spooled message case \(number): not one SpoolWriter writes")
    }
  }
}
