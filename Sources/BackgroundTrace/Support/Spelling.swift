/// The word meant by a misspelt one, for "did you mean" in errors: the CLI's commands
/// and options, and the text form's event kinds and field names.
package enum Spelling {
  /// The candidate closest to `word` (at most two edits away, a swap of neighbours
  /// counting as one), the first in `candidates` on a tie; `nil` when none is close.
  /// A candidate whose length differs by more than two is never measured, so a long
  /// word (a hostile input's token) costs no more than counting its characters.
  package static func nearest(to word: String, among candidates: [String]) -> String? {
    let length = word.count
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where abs(candidate.count - length) <= 2 {
      let distance = editDistance(word, candidate)
      if distance <= 2, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// The optimal-string-alignment distance: insertions, deletions, substitutions and
  /// swaps of adjacent characters each cost one.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}
