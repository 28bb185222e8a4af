/// The options each `bgtrace` command takes (declared in ``CommandName/options``), so the
/// parser can reject an unknown one by name and suggest the nearest known one
/// (docs/cli.md).
enum CommandOptions {
  /// Options that take a value (`--name VALUE` or `--name=VALUE`), as the command
  /// declares them (``CommandName/options``).
  static func valued(_ command: CommandName) -> [String] {
    command.options.filter { $0.value != nil }.map(\.name)
  }

  /// Options that take no value.
  static func flags(_ command: CommandName) -> [String] {
    command.options.filter { $0.value == nil }.map(\.name)
  }

  /// Throws for the first argument that looks like an option `command` does not take,
  /// skipping the values of valued options.
  static func rejectUnknown(_ arguments: [String], command: CommandName) throws(UsageError) {
    let valued = valued(command)
    let known = valued + flags(command)
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-"), argument != "-" else { continue }
      let name = String(argument.prefix { $0 != "=" })
      if valued.contains(argument) {
        index += 1  // its value, which may itself start with '-'
      } else if !known.contains(name) {
        throw unknown(argument, command: command, known: known)
      }
    }
  }

  /// The error for an unknown option: it names the option and, when one is close, the
  /// option that was probably meant.
  static func unknown(_ option: String, command: CommandName?, known: [String]) -> UsageError {
    let name = String(option.prefix { $0 != "=" })
    if let nearest = nearest(to: name, among: known) {
      return UsageError("unknown option '\(name)'; did you mean '\(nearest)'?")
    }
    guard let command else { return UsageError("unknown option '\(name)'; run 'bgtrace help' for usage") }
    return UsageError(
      "unknown option '\(name)' for 'bgtrace \(command.rawValue)'; see 'bgtrace help \(command.rawValue)'")
  }

  /// The candidate closest to `word` (at most two edits away, a swap of neighbours
  /// counting as one), the first in `candidates` on a tie; `nil` when none is close.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate)
      if distance <= 2, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// The optimal-string-alignment distance: insertions, deletions, substitutions and
  /// swaps of adjacent characters each cost one.
  static func editDistance(_ a: String, _ b: String) -> Int {
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
