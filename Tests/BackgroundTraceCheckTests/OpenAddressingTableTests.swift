import BackgroundTrace
import Testing
import _BackgroundTraceStorage

@testable import BackgroundTraceCheck

/// The walker's tables against `Dictionary`, through enough insertions and removals to
/// grow them and to shift probe runs back over removed entries.
@Suite struct OpenAddressingTableTests {
  @Test func intKeyedTableMatchesDictionary() {
    var table = IntKeyedTable<Int>()
    var reference: [Int: Int] = [:]
    var random = SplitMix64(seed: 1)
    for step in 0..<20_000 {
      let key = Int(random.next() % 300) - 150  // negative keys too, and many collisions
      if random.next() % 3 == 0 {
        if random.next() % 2 == 0, let index = table.index(forKey: key) {
          #expect(table.update(at: index) { $0 } == reference.removeValue(forKey: key))
          table.remove(at: index)  // in place, the last value moving into its place
        } else {
          #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
        }
      } else {
        table.updateValue(step, forKey: key)
        reference[key] = step
      }
      #expect(table[key] == reference[key])
    }
    #expect(table.count == reference.count)
    #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
    #expect(table.keys.sorted() == reference.keys.sorted())
    table.removeAll()
    #expect(table.isEmpty && table[0] == nil && table.keys.isEmpty)
  }

  /// The open tasks' table against `Dictionary`, and against ``IntKeyedTable`` for the
  /// order it iterates in: the same sequence of begins and ends places every task in
  /// the same slot, so what the checker does for each open task in turn (budgets,
  /// leaks) keeps its order.
  @Test func openTaskTableMatchesDictionaryAndIntKeyedTableOrder() {
    var table = OpenTaskTable()
    var general = IntKeyedTable<TaskLife>()
    var reference: [Int: Int] = [:]
    var random = SplitMix64(seed: 3)
    for step in 1..<20_000 {
      let id = Int(random.next() % 300) + 1 - (random.next() % 5 == 0 ? 400 : 0)  // never 0
      let task = TaskLife(name: step % 3 == 0 ? nil : "task \(step)", begin: TraceTime(nanoseconds: UInt64(step)))
      if random.next() % 3 == 0 {
        if random.next() % 2 == 0, let index = table.index(forKey: id) {
          #expect(
            table.update(at: index) { $0.begin.nanoseconds } == reference.removeValue(forKey: id).map(UInt64.init))
          table.remove(at: index)
        } else {
          #expect(
            table.removeValue(forKey: id)?.begin.nanoseconds == reference.removeValue(forKey: id).map(UInt64.init))
        }
        general.removeValue(forKey: id)
      } else {
        table.updateValue(task, forKey: id)
        general.updateValue(task, forKey: id)
        reference[id] = step
      }
      #expect(table[id]?.begin.nanoseconds == reference[id].map(UInt64.init))
      #expect(table.index(forKey: 0) == nil)
    }
    #expect(table.count == reference.count)
    #expect(table.keys == general.keys)
    #expect(table.map(\.value.name) == general.map(\.value.name))
    #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, Int($0.value.begin.nanoseconds)) }) == reference)
    table.removeAll()
    #expect(table.isEmpty && table[1] == nil && table.keys.isEmpty && table.values.isEmpty)
  }

  /// The finished works' table against `Dictionary`, through enough finished works to
  /// grow its bitmap several times (every lookup of a hash it lacks must say so, however
  /// the bitmap answers) and removals that leave stale bits behind.
  @Test func finishedWorksMatchDictionary() {
    var finished = FinishedWorks()
    var reference: [Int: FinishedWork] = [:]
    var random = SplitMix64(seed: 4)
    for step in 0..<40_000 {
      let bits = Int(truncatingIfNeeded: random.next() % 12_000 &* 0x9E37_79B9_7F4A_7C15)
      if random.next() % 4 == 0 {
        finished[bits] = nil
        reference[bits] = nil
      } else {
        let work = FinishedWork(
          time: TraceTime(nanoseconds: UInt64(step)), ending: step % 2 == 0 ? .succeeded : .failed)
        finished[bits] = work
        reference[bits] = work
      }
      let probe = Int(truncatingIfNeeded: random.next())  // mostly never finished
      #expect(finished[probe]?.time == reference[probe]?.time)
      #expect(finished[bits]?.time == reference[bits]?.time)
    }
    #expect(finished.isEmpty == reference.isEmpty)
    for (bits, work) in reference { #expect(finished[bits]?.time == work.time) }
  }

  @Test func stringKeyedTableMatchesDictionary() {
    var table = StringKeyedTable<Int>()
    var reference: [String: Int] = [:]
    var random = SplitMix64(seed: 2)
    for step in 0..<20_000 {
      let key = "work-\(random.next() % 300)"
      let hash = StableHash(key)
      switch random.next() % 4 {
      case 0: #expect(table.removeValue(forKey: key, hash) == reference.removeValue(forKey: key))
      case 1:
        if let index = table.index(forKey: key, hash) {
          table.update(at: index) { $0 += 1 }
          reference[key]! += 1
        } else {
          #expect(reference[key] == nil)
        }
      default:
        table[key, hash] = step
        reference[key] = step
      }
      #expect(table[key] == reference[key])
    }
    #expect(table.count == reference.count)
    #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
    #expect(table.values.sorted() == reference.values.sorted())
    table["work-0"] = nil
    #expect(table["work-0"] == nil)
    table.removeAll()
    #expect(table.isEmpty && table.keys.isEmpty)
  }
}
