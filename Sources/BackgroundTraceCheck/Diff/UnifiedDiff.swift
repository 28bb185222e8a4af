/// Formats an edit script as a unified diff (`---`, `+++`, `@@ -a,b +c,d @@` hunks).
enum UnifiedDiff {
  static func format(
    _ edits: [MyersDiff.Edit], old: [String], new: [String], oldName: String, newName: String, context: Int
  ) -> String {
    var output = "--- \(oldName)\n+++ \(newName)\n"
    let changed = edits.indices.filter { if case .keep = edits[$0] { false } else { true } }
    var hunkStart = 0
    while hunkStart < changed.count {
      // Group changes whose context overlaps into one hunk.
      var hunkEnd = hunkStart
      while hunkEnd + 1 < changed.count && changed[hunkEnd + 1] - changed[hunkEnd] <= 2 * context {
        hunkEnd += 1
      }
      let first = max(changed[hunkStart] - context, 0)
      let last = min(changed[hunkEnd] + context, edits.count - 1)
      var body = ""
      var oldStart: Int?
      var newStart: Int?
      var oldCount = 0
      var newCount = 0
      for edit in edits[first...last] {
        switch edit {
        case .keep(let o, let n):
          oldStart = oldStart ?? o
          newStart = newStart ?? n
          oldCount += 1
          newCount += 1
          body += " \(old[o])\n"
        case .delete(let o):
          oldStart = oldStart ?? o
          oldCount += 1
          body += "-\(old[o])\n"
        case .insert(let n):
          newStart = newStart ?? n
          newCount += 1
          body += "+\(new[n])\n"
        }
      }
      let oldLine = oldStart.map { $0 + 1 } ?? position(before: first, in: edits, old: true)
      let newLine = newStart.map { $0 + 1 } ?? position(before: first, in: edits, old: false)
      output += "@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@\n" + body
      hunkStart = hunkEnd + 1
    }
    return output
  }

  /// For a hunk with no lines on one side: the line number just before it on that side.
  private static func position(before index: Int, in edits: [MyersDiff.Edit], old: Bool) -> Int {
    for edit in edits[..<index].reversed() {
      switch edit {
      case .keep(let o, let n): return (old ? o : n) + 1
      case .delete(let o) where old: return o + 1
      case .insert(let n) where !old: return n + 1
      default: continue
      }
    }
    return 0
  }
}
