import BackgroundTrace
import _BackgroundTraceStorage

/// The open UIKit background tasks of a process, by id: the lifecycle walker's busiest
/// table (most events of a typical trace begin or end a task), with a layout of its own.
///
/// Open addressing with linear probing, as ``IntKeyedTable``, but each slot holds its
/// task beside its id, in one array: a begin writes one slot and an end clears one, each
/// with a single uniqueness check of one buffer, where the general table keeps its
/// values in a second array and pays for both (docs/rules.md#how-the-checker-reads-a-trace).
///
/// Id 0 marks an empty slot: it is UIKit's `.invalid`, which the walker never opens.
/// Slots are placed as ``IntKeyedTable`` places them (the same hash, growth and
/// backward-shift deletion), so the tasks iterate in the same order as they did in it.
package struct OpenTaskTable: Sendable, Sequence {
  /// An open task and its id; id 0 when the slot is empty.
  fileprivate struct Slot: Sendable {
    var id: Int
    var task: TaskLife

    /// An empty slot. It must hold nothing to release (its name is ``TaskName/none``):
    /// ``OpenTaskTable/updateValue(_:forKey:)`` initializes a task over it without
    /// destroying it.
    static var empty: Slot { Slot(id: 0, task: TaskLife(name: TaskName.none, begin: TraceTime(nanoseconds: 0))) }
  }

  /// A power of two in length once the first task is inserted, at most 3/4 full.
  private var slots: [Slot] = []
  /// How many tasks are open.
  package private(set) var count = 0

  /// No open task.
  package init() {}

  /// Whether no task is open.
  package var isEmpty: Bool { count == 0 }

  /// The ids of the open tasks, in the table's order.
  package var keys: [Int] { slots.filter { $0.id != 0 }.map { $0.id } }

  /// The open tasks, in the table's order.
  package var values: [TaskLife] { slots.filter { $0.id != 0 }.map { $0.task } }

  /// Where a probe for `id` starts in a table of `mask + 1` slots (``IntKeyedSlot``'s
  /// hash).
  @inline(__always)
  private static func home(of id: Int, mask: Int) -> Int {
    IntKeyedSlot<TaskLife>.home(of: id, mask: mask)
  }

  /// The slot of the open task `id`: for reading and changing it in place with
  /// ``update(at:_:)`` and removing it with ``remove(at:)``. Valid until the next
  /// insertion or removal.
  @inline(__always)
  package func index(forKey id: Int) -> Int? {
    guard count > 0, id != 0 else { return nil }
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count &- 1
      var slot = Self.home(of: id, mask: mask)
      while true {
        let key = slots[slot].id
        if key == id { return slot }
        if key == 0 { return nil }
        slot = (slot &+ 1) & mask
      }
    }
  }

  /// The open task `id`.
  package subscript(id: Int) -> TaskLife? {
    guard let index = index(forKey: id) else { return nil }
    return slots[index].task
  }

  /// Opens task `id` (not 0), or replaces the open task with that id.
  @inline(__always)
  package mutating func updateValue(_ task: consuming TaskLife, forKey id: Int) {
    precondition(id != 0, "task id 0 is .invalid and never open")
    if (count &+ 1) &* 4 > slots.count &* 3 { grow() }
    let (slot, found) = slots.withUnsafeBufferPointer { slots in
      let mask = slots.count &- 1
      var slot = Self.home(of: id, mask: mask)
      while true {
        let key = slots[slot].id
        if key == id { return (slot, true) }
        if key == 0 { return (slot, false) }
        slot = (slot &+ 1) & mask
      }
    }
    if found {
      slots[slot].task = task
    } else {
      // Initialized over the empty slot rather than assigned: an empty slot holds no
      // reference (its task has no name), so there is nothing to release, where
      // assigning called into the runtime to release it.
      var new: Slot? = Slot(id: id, task: task)
      slots.withUnsafeMutableBufferPointer { slots in
        (slots.baseAddress! + slot).initialize(to: new.take()!)
      }
      count &+= 1
    }
  }

  /// Calls `body` with the task at `index`, from ``index(forKey:)``, in place, and
  /// returns what it returns.
  @inline(__always)
  package mutating func update<Result>(at index: Int, _ body: (inout TaskLife) throws -> Result) rethrows -> Result {
    try body(&slots[index].task)
  }

  /// Closes the task at `index`, from ``index(forKey:)``, destroying it where it is.
  @inline(__always)
  package mutating func remove(at index: Int) {
    count &-= 1
    slots.withUnsafeMutableBufferPointer { slots in
      slots[index] = .empty
      // Backward-shift deletion: move later tasks of the probe run into the hole, so
      // that no lookup stops early and no tombstones accumulate.
      let mask = slots.count &- 1
      var hole = index
      var next = (hole &+ 1) & mask
      while slots[next].id != 0 {
        if !staysInProbeRun(home: Self.home(of: slots[next].id, mask: mask), at: next, after: hole) {
          slots.swapAt(hole, next)
          hole = next
        }
        next = (next &+ 1) & mask
      }
    }
  }

  /// Closes task `id` and returns it, if it is open.
  @discardableResult
  package mutating func removeValue(forKey id: Int) -> TaskLife? {
    guard let index = index(forKey: id) else { return nil }
    let task = slots[index].task
    remove(at: index)
    return task
  }

  /// Closes every task, keeping the storage.
  package mutating func removeAll() {
    guard count > 0 else { return }
    for index in slots.indices where slots[index].id != 0 { slots[index] = .empty }
    count = 0
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: .empty, count: Swift.max(16, old.count * 2))
    let mask = slots.count - 1
    for entry in old where entry.id != 0 {
      var slot = Self.home(of: entry.id, mask: mask)
      while slots[slot].id != 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }

  /// The open tasks with their ids, in the table's order.
  package func makeIterator() -> Iterator { Iterator(slots: slots) }

  /// Walks the table's slots.
  package struct Iterator: IteratorProtocol {
    private let slots: [Slot]
    private var slot = 0

    fileprivate init(slots: [Slot]) { self.slots = slots }

    /// The next open task.
    package mutating func next() -> (key: Int, value: TaskLife)? {
      while slot < slots.count {
        defer { slot += 1 }
        if slots[slot].id != 0 { return (slots[slot].id, slots[slot].task) }
      }
      return nil
    }
  }
}
