import BackgroundTrace
import Testing

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
