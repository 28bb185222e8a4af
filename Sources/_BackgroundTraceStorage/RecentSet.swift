/// A set that may be told to remember only its most recent members: with a generation
/// size, members are kept in a current generation and the one before it, and when the
/// current one reaches that size it becomes the older one and the older one is
/// forgotten, so that at most twice the size is kept whatever was inserted. Without a
/// size it keeps every member, as `Set`.
///
/// What reads an endless stream keeps its per-item records in one (`bgtrace watch`):
/// memory stays flat, and only items not seen for a generation are forgotten.
package struct RecentSet<Element: Hashable & Sendable>: Sendable {
  private var current: Set<Element> = []
  private var older: Set<Element> = []
  /// How many members a generation holds; `nil`: one generation that keeps all.
  package let generation: Int?

  /// An empty set keeping generations of `generation` members (every member when `nil`).
  package init(generation: Int? = nil) {
    precondition(generation.map { $0 > 0 } ?? true, "a generation holds at least one member")
    self.generation = generation
  }

  /// Whether `member` was inserted and is not forgotten.
  package func contains(_ member: Element) -> Bool {
    current.contains(member) || (!older.isEmpty && older.contains(member))
  }

  /// Inserts `member` into the current generation (a member of the older one is
  /// renewed), starting a new generation when the current one is full.
  package mutating func insert(_ member: Element) {
    guard current.insert(member).inserted else { return }
    if let generation, current.count >= generation {
      older = current
      current = []
    }
  }

  /// How many members are kept (a renewed member may count twice).
  package var count: Int { current.count + older.count }
}
