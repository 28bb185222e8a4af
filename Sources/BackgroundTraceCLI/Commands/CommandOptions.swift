import BackgroundTrace

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
    if let nearest = Spelling.nearest(to: name, among: known) {
      return UsageError("unknown option '\(name)'; did you mean '\(nearest)'?")
    }
    guard let command else { return UsageError("unknown option '\(name)'; run 'bgtrace help' for usage") }
    return UsageError(
      "unknown option '\(name)' for 'bgtrace \(command.rawValue)'; see 'bgtrace help \(command.rawValue)'")
  }
}
