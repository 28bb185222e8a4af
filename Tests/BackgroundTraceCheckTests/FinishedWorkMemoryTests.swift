import BackgroundTrace
import Testing
import _BackgroundTraceStorage

@testable import BackgroundTraceCheck

/// A checker told to remember a bounded number of finished works
/// (`CheckerConfiguration.finishedWorkMemory`, what `bgtrace watch` sets) keeps the
/// recent ones in two generations and forgets the older: memory stays flat on an
/// endless stream, and a work seen again after it was forgotten is taken for a new one.
@Suite struct FinishedWorkMemoryTests {
  @Test func aRecentSetKeepsTwoGenerations() {
    var set = RecentSet<Int>(generation: 3)
    for member in 1...3 { set.insert(member) }  // 1, 2, 3 fill the first generation: it becomes the older
    #expect(set.count == 3)
    for member in 4...5 { set.insert(member) }
    #expect((1...5).allSatisfy(set.contains))
    set.insert(6)  // 4, 5, 6 fill the second: 1, 2 and 3 are forgotten
    #expect(!set.contains(1) && !set.contains(2) && !set.contains(3))
    #expect((4...6).allSatisfy(set.contains))
    #expect(set.count == 3)
    var all = RecentSet<Int>()
    for member in 1...1_000 { all.insert(member) }
    #expect((1...1_000).allSatisfy(all.contains))
  }

  /// `upload` succeeds, then three other works finish, then `upload` starts again with
  /// no enqueue: `work-after-finish` (Traces/rules/work-after-finish.fires.txt) when
  /// every finished work is remembered, or generations of 5; with generations of 2 the
  /// three later works push `upload` out of both generations, and its start is a new
  /// work's.
  @Test func aWorkForgottenIsTakenForANewOne() throws {
    var text = """
      bgtrace 1
      meta platform=android
      0 app.launch
      1 work.enqueue work=upload
      2 work.start work=upload attempt=0
      3 work.result work=upload attempt=0 outcome=success

      """
    for (index, work) in ["a", "b", "c"].enumerated() {
      text += "\(4 + index) work.enqueue work=\(work)\n"
      text += "\(4 + index).1 work.start work=\(work) attempt=0\n"
      text += "\(4 + index).2 work.result work=\(work) attempt=0 outcome=success\n"
    }
    text += "10 work.start work=upload attempt=0\n11 work.result work=upload attempt=0 outcome=success\n"
    let trace = try RecordedTrace(text: text)
    func rules(remembering memory: Int?) -> [Rule] {
      var configuration = CheckerConfiguration()
      configuration.finishedWorkMemory = memory
      return TraceChecker.check(trace, configuration: configuration).map(\.rule)
    }
    #expect(rules(remembering: nil) == [.workAfterFinish])
    #expect(rules(remembering: 5) == [.workAfterFinish])
    #expect(rules(remembering: 2) == [])
  }
}
