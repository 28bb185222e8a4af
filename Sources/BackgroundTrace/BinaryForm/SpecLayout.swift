/// The binary layout of the kinds from code 27 on, which follows from each kind's
/// ``KindSpec`` alone (docs/FORMAT.md, "Spec layout"): after the record's tag byte
/// and time delta, a varint of presence bits, one per optional field in spec order
/// (left out when the kind has no optional field), then each present field in spec
/// order: an integer as a varint, a boolean as a byte 0 or 1, a time or interval as a
/// scaled time, a string as a string reference, a choice as the varint index of its
/// word in the spec. Such a kind needs no code of its own in the encoder, the decoder
/// or the compact form.
///
/// In a ``CompactEvent`` each field has a slot of its storage class, assigned in spec
/// order: strings in ``CompactEvent/string``, ``CompactEvent/secondString`` and
/// ``CompactEvent/thirdString``,
/// integers and times in the four 64-bit fields, booleans and choices in the three
/// code bytes, and the presence bits in ``CompactEvent/options``.
struct SpecLayout: Sendable {
  /// Where one field lives in a compact event.
  struct Slot: Sendable {
    /// Which of the compact event's storage classes holds the field.
    enum Storage: Sendable { case string, number, code }
    var storage: Storage
    /// The field's slot within its storage class.
    var index: Int
    /// The field's bit in the presence bits, for an optional field.
    var presenceBit: Int?
  }

  /// The first kind code laid out from its spec; the kinds below have layouts of their
  /// own (docs/FORMAT.md, the record table).
  static var firstCode: UInt8 { HandLaidKind.count }
  /// The tag code that introduces a longer kind code, written as a varint after the
  /// tag byte (docs/FORMAT.md, "Record").
  static let extendedKindTag: UInt8 = 30
  /// The first kind code written after ``extendedKindTag``: 30 is that tag code, and
  /// 31 the log chunk's string definition, so neither is a kind's.
  static let firstExtendedCode: UInt8 = 32
  /// How many slots of each storage class a compact event has.
  static let capacity: (strings: Int, numbers: Int, codes: Int, optionals: Int) = (3, 4, 3, 8)

  /// The kind's fields.
  let fields: [FieldSpec]
  /// Each field's slot, by field index.
  let slots: [Slot]
  /// How many optional fields the kind has: the presence varint's width in bits.
  let optionalCount: Int

  /// The layout of `spec`'s fields, or `nil` when they need more slots of some class
  /// than a compact event has (``capacity``).
  init?(_ spec: KindSpec) {
    var counts = (strings: 0, numbers: 0, codes: 0, optionals: 0)
    var slots: [Slot] = []
    for field in spec.fields {
      let storage: Slot.Storage
      let index: Int
      switch field.type {
      case .string:
        (storage, index) = (.string, counts.strings)
        counts.strings += 1
      case .integer, .seconds, .interval:
        (storage, index) = (.number, counts.numbers)
        counts.numbers += 1
      case .choice(let words) where words.count > Int(UInt8.max) + 1:
        return nil  // a word index is kept in a byte
      case .boolean, .choice:
        (storage, index) = (.code, counts.codes)
        counts.codes += 1
      }
      var presenceBit: Int?
      if !field.isRequired {
        presenceBit = counts.optionals
        counts.optionals += 1
      }
      slots.append(Slot(storage: storage, index: index, presenceBit: presenceBit))
    }
    let capacity = Self.capacity
    guard !spec.takesFreeFields, counts.strings <= capacity.strings, counts.numbers <= capacity.numbers,
      counts.codes <= capacity.codes, counts.optionals <= capacity.optionals
    else { return nil }
    fields = spec.fields
    self.slots = slots
    optionalCount = counts.optionals
  }

  /// The layout of kind `tag`, one of the kinds from ``firstCode`` on.
  static func of(_ tag: EventTag) -> SpecLayout {
    guard let layout = layouts[Int(tag.rawValue)] else {
      preconditionFailure("\(tag.name) has its own layout, not a spec layout")
    }
    return layout
  }

  /// The layouts of the kinds from ``firstCode`` on, by code (codes have a gap at 30 and
  /// 31, and the kinds below ``firstCode`` have none). A kind whose fields do not fit
  /// traps at first use, which `swift test` reaches (`SpecLayoutTests`).
  private static let layouts: [SpecLayout?] = {
    var layouts = [SpecLayout?](repeating: nil, count: Int(EventTag.largestCode) + 1)
    for tag in EventTag.allCases where tag.rawValue >= firstCode {
      guard let layout = SpecLayout(tag.spec) else {
        preconditionFailure("\(tag.name) has more fields of some type than a compact event holds (SpecLayout.capacity)")
      }
      layouts[Int(tag.rawValue)] = layout
    }
    return layouts
  }()
}

extension CompactEvent {
  /// The id of string slot `index` of a spec-layout kind.
  @inlinable
  package func stringSlot(_ index: Int) -> UInt32 {
    switch index {
    case 0: string
    case 1: secondString
    default: thirdString
    }
  }

  /// Sets string slot `index`.
  @inlinable
  mutating func setStringSlot(_ index: Int, _ id: UInt32) {
    switch index {
    case 0: string = id
    case 1: secondString = id
    default: thirdString = id
    }
  }

  /// The value of number slot `index` of a spec-layout kind: an integer, or a time or
  /// interval in nanoseconds.
  @inlinable
  package func numberSlot(_ index: Int) -> UInt64 {
    switch index {
    case 0: UInt64(bitPattern: number)
    case 1: interval
    case 2: period
    default: flex
    }
  }

  /// Sets number slot `index`.
  @inlinable
  mutating func setNumberSlot(_ index: Int, _ value: UInt64) {
    switch index {
    case 0: number = Int64(bitPattern: value)
    case 1: interval = value
    case 2: period = value
    default: flex = value
    }
  }

  /// The value of code slot `index` of a spec-layout kind: a boolean's 0 or 1, or a
  /// choice's word index.
  @inlinable
  package func codeSlot(_ index: Int) -> UInt8 {
    switch index {
    case 0: flags
    case 1: backoffCode
    default: policyCode
    }
  }

  /// Sets code slot `index`.
  @inlinable
  mutating func setCodeSlot(_ index: Int, _ value: UInt8) {
    switch index {
    case 0: flags = value
    case 1: backoffCode = value
    default: policyCode = value
    }
  }

  /// The field values of this event, of a spec-layout kind, one per field of its spec
  /// (`nil`: absent), its strings looked up in `strings`.
  package func specFieldValues(strings: borrowing some StringTable) -> [FieldValue?] {
    specFieldValues(layout: SpecLayout.of(tag), strings: strings)
  }

  /// The values of the fields `layout` puts in this event's slots, one per field
  /// (`nil`: absent), its strings looked up in `strings`.
  func specFieldValues(layout: SpecLayout, strings: borrowing some StringTable) -> [FieldValue?] {
    var values: [FieldValue?] = []
    values.reserveCapacity(layout.fields.count)
    for (field, slot) in zip(layout.fields, layout.slots) {
      if let bit = slot.presenceBit, options & 1 << bit == 0 {
        values.append(nil)
        continue
      }
      let value: FieldValue
      switch field.type {
      case .string: value = .string(strings[stringSlot(slot.index)])
      case .integer: value = .integer(Int(numberSlot(slot.index)))
      case .seconds: value = .seconds(TraceTime(nanoseconds: numberSlot(slot.index)))
      case .interval: value = .interval(TraceInterval(nanoseconds: numberSlot(slot.index)))
      case .boolean: value = .boolean(codeSlot(slot.index) == 1)
      case .choice(let words): value = .choice(words[Int(codeSlot(slot.index))])
      }
      values.append(value)
    }
    return values
  }
}

extension TraceEvent.Kind {
  /// The kind `compact`, of a kind laid out from its spec, stands for.
  @inline(never)  // kept out of the per-kind conversion, which the decoder's callers inline
  init(specLayout compact: CompactEvent, strings: borrowing some StringTable) {
    do {
      self = try Self(tag: compact.tag, fieldValues: compact.specFieldValues(strings: strings))
    } catch {
      let name = compact.tag.name
      preconditionFailure("the decoder checked that \(name)'s fields make an event: \(error.message)")
    }
  }
}
