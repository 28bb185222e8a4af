package import BackgroundTrace

/// An open task's name as the lifecycle walker keeps it: a name of at most 15 bytes read
/// from a binary trace in place (``ShortString``), any other as a string.
///
/// Most events of a typical trace begin or end a task, and each stores or destroys a
/// name. A `String` copied out of the reader's strings, however small, is retained as
/// the task begins and released as it ends, each a call into the runtime; a name held
/// in place is neither. A name given as a `String` (an event read whole) is kept as it
/// came.
package enum TaskName: Sendable {
  /// No name was given.
  case none
  /// A name of at most 15 bytes, held in place.
  case inline(ShortString)
  /// A name kept as a string.
  case string(String)

  /// `name`, or ``none``.
  package init(_ name: consuming String?) {
    self = name.map(TaskName.string) ?? .none
  }

  /// The string with id `id` of `strings`, or ``none`` for no id: a compact
  /// `task.begin`'s name (``CompactEvent/taskNameID``).
  @inline(__always)
  package init(_ id: UInt32?, in strings: borrowing InternedStrings) {
    guard let id else {
      self = .none
      return
    }
    self = strings.shortString(id).map(TaskName.inline) ?? .string(strings[id])
  }

  /// The name, `nil` when none was given.
  package var name: String? {
    switch self {
    case .none: nil
    case .inline(let short): short.string
    case .string(let string): string
    }
  }
}
