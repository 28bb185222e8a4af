/// Formats an edit script as a unified diff (`---`, `+++`, `@@ -a,b +c,d @@` hunks).
enum UnifiedDiff {
  /// The diff of `old` and `new`; `oldLineNumber` and `newLineNumber` give the 1-based
  /// line number a hunk header shows for an index of each side.
  static func format(
    _ edits: [MyersDiff.Edit], old: [String], new: [String], oldName: String, newName: String, context: Int,
    oldLineNumber: (Int) -> Int = { $0 + 1 }, newLineNumber: (Int) -> Int = { $0 + 1 }
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
      let oldLine =
        oldStart.map(oldLineNumber) ?? position(before: first, in: edits, old: true).map(oldLineNumber) ?? 0
      let newLine =
        newStart.map(newLineNumber) ?? position(before: first, in: edits, old: false).map(newLineNumber) ?? 0
      output += "@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@\n" + body
      hunkStart = hunkEnd + 1
    }
    return output
  }

  /// For a hunk with no lines on one side: the index of the line just before it on that
  /// side, or `nil` when there is none.
  private static func position(before index: Int, in edits: [MyersDiff.Edit], old: Bool) -> Int? {
    for edit in edits[..<index].reversed() {
      switch edit {
      case .keep(let o, let n): return old ? o : n
      case .delete(let o) where old: return o
      case .insert(let n) where !old: return n
      default: continue
      }
    }
    return nil
  }
}
