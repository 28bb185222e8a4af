package import BackgroundTrace

/// An open task's name as the lifecycle walker keeps it: a name of at most 15 bytes in
/// place (``ShortString``), a longer one as a string.
///
/// Most events of a typical trace begin or end a task, and each stores or destroys a
/// name: held in place, neither retains nor releases anything. A `String`, however
/// small, is retained as it is copied out of the reader's strings and released as the
/// task ends, each a call into the runtime.
package enum TaskName: Sendable {
  /// No name was given.
  case none
  /// A name of at most 15 bytes.
  case short(ShortString)
  /// A longer name.
  case long(String)

  /// `name`, or ``none``.
  package init(_ name: String?) {
    guard let name else {
      self = .none
      return
    }
    self = ShortString(name).map(TaskName.short) ?? .long(name)
  }

  /// The string with id `id` of `strings`, or ``none`` for no id: a compact
  /// `task.begin`'s name (``CompactEvent/taskNameID``).
  @inline(__always)
  package init(_ id: UInt32?, in strings: borrowing InternedStrings) {
    guard let id else {
      self = .none
      return
    }
    self = strings.shortString(id).map(TaskName.short) ?? .long(strings[id])
  }

  /// The name, `nil` when none was given.
  package var string: String? {
    switch self {
    case .none: nil
    case .short(let short): short.string
    case .long(let string): string
    }
  }
}
