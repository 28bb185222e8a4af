import BackgroundExamples
import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import BackgroundTraceExport
import BackgroundTraceImport
import BackgroundTraceReplay

/// Parses `bgtrace`'s arguments strictly: unknown commands and options, missing or
/// extra operands are ``UsageError``s. A pure function, so it is tested directly.
package enum CommandLineParser: Sendable {
  /// Parses the arguments that follow the program name.
  ///
  /// - Parameter arguments: e.g. `["convert", "a.txt", "b.bgtrace"]`.
  /// - Returns: the command to run.
  /// - Throws: ``UsageError`` naming what is wrong.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .usage }
    switch first {
    case "--help", "-h": return .help(topic: nil)
    case "--version": return .version
    default: break
    }
    guard let name = CommandName(spelled: first) else {
      if first.hasPrefix("-") {
        throw CommandOptions.unknown(first, command: nil, known: ["--help", "--version"])
      }
      let names = CommandName.allCases.map(\.rawValue)
      if let nearest = Spelling.nearest(to: first, among: names) {
        throw UsageError("unknown command '\(first)'; did you mean '\(nearest)'?")
      }
      throw UsageError("unknown command '\(first)'; the commands are \(names.joined(separator: ", "))")
    }
    var rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      return .help(topic: name == .help ? nil : name)
    }
    if name != .help { try CommandOptions.rejectUnknown(rest, command: name) }
    switch name {
    case .help:
      guard rest.count <= 1 else { throw UsageError("'bgtrace help' takes at most one command name") }
      guard let topic = rest.first else { return .help(topic: nil) }
      guard let command = CommandName(spelled: topic) else {
        throw UsageError("no help for '\(topic)': it is not a bgtrace command; run 'bgtrace help'")
      }
      return .help(topic: command)
    case .demo:
      let out = try takeOption("--out", from: &rest, command: name)
      try expectOperands(rest, count: 0, command: name, names: "")
      return .demo(outputDirectory: out)
    case .dump:
      try expectOperands(rest, count: 1, command: name, names: "PATH")
      return .dump(path: rest[0])
    case .convert:
      let to = try takeOption("--to", from: &rest, command: name)
      try expectOperands(rest, count: 2, command: name, names: "IN and OUT")
      return .convert(input: rest[0], output: rest[1], format: try outputFormat(to, output: rest[1]))
    case .check:
      var options = CheckOptions()
      options.checker = try checkerSettings(&rest, command: name)
      if let format = try takeOption("--format", from: &rest, command: name) {
        // `json` is the earlier name of `jsonl`, kept so existing CI scripts work.
        guard let value = format == "json" ? .jsonl : FindingFormat(rawValue: format) else {
          throw UsageError("'--format' takes 'text' or 'jsonl' (also spelled 'json'), not '\(format)'")
        }
        options.format = value
      }
      if let index = rest.firstIndex(of: "--strict") {
        rest.remove(at: index)
        options.strict = true
      }
      options.platform = try platform(&rest, command: name)
      options.baseline = try takeOption("--baseline", from: &rest, command: name)
      options.writeBaseline = try takeOption("--write-baseline", from: &rest, command: name)
      if options.baseline != nil && options.writeBaseline != nil {
        throw UsageError("'--baseline' and '--write-baseline' cannot be combined: a new baseline lists every finding")
      }
      try rejectOptions(rest, command: name)
      guard !rest.isEmpty else {
        throw UsageError("'bgtrace check' needs at least one PATH (a file, a directory or -)")
      }
      return .check(paths: rest, options: options)
    case .diff:
      var options = DiffOptions()
      if let ids = try takeOption("--ids", from: &rest, command: name) {
        switch ids {
        case "exact": options.identifiers = .exact
        case "renamed": options.identifiers = .renamed
        default: throw UsageError("'--ids' takes 'exact' or 'renamed', not '\(ids)'")
        }
      }
      if let time = try takeOption("--time", from: &rest, command: name) {
        options.times = try times(time)
      }
      if let index = rest.firstIndex(of: "--meta") {
        rest.remove(at: index)
        options.comparesMeta = true
      }
      let platform = try platform(&rest, command: name)
      try expectOperands(rest, count: 2, command: name, names: "EXPECTED and ACTUAL")
      return .diff(expected: rest[0], actual: rest[1], options: options, platform: platform)
    case .export:
      let formatText = try takeOption("--format", from: &rest, command: name)
      let from = try seconds(takeOption("--from", from: &rest, command: name), option: "--from")
      let to = try seconds(takeOption("--to", from: &rest, command: name), option: "--to")
      let output = try takeOption("--out", from: &rest, command: name)
      let platform = try platform(&rest, command: name)
      try rejectOptions(rest, command: name)
      guard let formatText else {
        let missing = rest.isEmpty ? "a PATH and --format chrome|jsonl|svg|html" : "--format chrome|jsonl|svg|html"
        throw UsageError("'bgtrace export' needs \(missing); see 'bgtrace help export'")
      }
      guard let format = ExportFormat(rawValue: formatText) else {
        throw UsageError("'--format' takes chrome, jsonl, svg or html, not '\(formatText)'")
      }
      try expectOperands(rest, count: 1, command: name, names: "a PATH")
      return .export(path: rest[0], format: format, from: from, to: to, output: output, platform: platform)
    case .explain:
      let until = try seconds(takeOption("--until", from: &rest, command: name), option: "--until")
      let why = try takeOption("--why", from: &rest, command: name)
      let platform = try platform(&rest, command: name)
      var alive = false
      if let index = rest.firstIndex(of: "--alive") {
        rest.remove(at: index)
        alive = true
      }
      try expectOperands(rest, count: 1, command: name, names: "PATH")
      if why != nil && alive { throw UsageError("'--why' and '--alive' cannot be used together") }
      return .explain(path: rest[0], until: until, alive: alive, why: why, platform: platform)
    case .stats:
      let platform = try platform(&rest, command: name)
      try rejectOptions(rest, command: name)
      guard !rest.isEmpty else { throw UsageError("'bgtrace stats' needs at least one PATH") }
      return .stats(paths: rest, platform: platform)
    case .explore:
      return try explore(rest)
    case .import:
      return try importLogs(rest)
    case .watch:
      var options = WatchOptions()
      options.checker = try checkerSettings(&rest, command: name)
      options.log.platform = try platform(&rest, command: name)
      options.log.process = try takeOption("--process", from: &rest, command: name)
      if let index = rest.firstIndex(of: "--strict") {
        rest.remove(at: index)
        options.strict = true
      }
      try rejectOptions(rest, command: name)
      guard rest.count <= 1 else {
        throw UsageError("'bgtrace watch' takes at most one LOG (a file, or - for standard input)")
      }
      return .watch(path: rest.first ?? "-", options: options)
    }
  }

  /// `--retry-limit N`, `--budget S`, `--grace S` and `--ignore RULE` (repeatable), as
  /// `check` and `watch` take them (``CommandOption/checkerOptions``).
  private static func checkerSettings(_ rest: inout [String], command: CommandName) throws(UsageError)
    -> CheckerSettings
  {
    var settings = CheckerSettings()
    if let limit = try takeOption("--retry-limit", from: &rest, command: command) {
      guard let value = Int(limit), value >= 0 else {
        throw UsageError("'--retry-limit' takes a non-negative integer, not '\(limit)'")
      }
      settings.retryLimit = value
    }
    settings.budget = try seconds(takeOption("--budget", from: &rest, command: command), option: "--budget")?.sinceStart
    settings.grace = try seconds(takeOption("--grace", from: &rest, command: command), option: "--grace")?.sinceStart
    for id in try takeRepeatedOption("--ignore", from: &rest, command: command) {
      guard let rule = Rule(rawValue: id) else {
        let known = Rule.allCases.map(\.id).joined(separator: ", ")
        throw UsageError("'--ignore' takes a rule id, not '\(id)'; the rules are \(known)")
      }
      settings.ignoredRules.insert(rule)
    }
    return settings
  }

  /// `import LOG… [--from ios|android] [--process NAME|PID] [--out PATH] [--strict] [--allow-empty]`.
  private static func importLogs(_ arguments: [String]) throws(UsageError) -> Command {
    var rest = arguments
    var options = ImportOptions()
    options.log.platform = try platform(&rest, command: .import)
    options.log.process = try takeOption("--process", from: &rest, command: .import)
    options.output = try takeOption("--out", from: &rest, command: .import)
    if let index = rest.firstIndex(of: "--strict") {
      rest.remove(at: index)
      options.log.strict = true
    }
    if let index = rest.firstIndex(of: "--allow-empty") {
      rest.remove(at: index)
      options.allowsEmpty = true
    }
    try rejectOptions(rest, command: .import)
    guard !rest.isEmpty else {
      throw UsageError("'bgtrace import' needs at least one LOG (a file, or - for standard input)")
    }
    guard rest.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("'bgtrace import' reads standard input ('-') once")
    }
    return .importLogs(paths: rest, options: options)
  }

  /// `explore --list` or `explore NAME [--runs N] [--seed S] [--out DIR] [--shard K/N]`.
  private static func explore(_ arguments: [String]) throws(UsageError) -> Command {
    var rest = arguments
    if let index = rest.firstIndex(of: "--list") {
      rest.remove(at: index)
      guard rest.isEmpty else {
        throw UsageError("'bgtrace explore --list' takes no scenario and no other option, not '\(rest[0])'")
      }
      return .exploreList
    }
    var options = ExploreOptions()
    if let runs = try takeOption("--runs", from: &rest, command: .explore) {
      guard let value = Int(runs), value > 0 else {
        throw UsageError("'--runs' takes a positive integer, not '\(runs)'")
      }
      options.runs = value
    }
    if let seed = try takeOption("--seed", from: &rest, command: .explore) {
      guard let value = UInt64(seed) else {
        throw UsageError("'--seed' takes a non-negative integer below 2^64, not '\(seed)'")
      }
      options.seed = value
    }
    options.outputDirectory = try takeOption("--out", from: &rest, command: .explore)
    if let shard = try takeOption("--shard", from: &rest, command: .explore) {
      guard let parsed = ExplorationShard(parsing: shard) else {
        throw UsageError("'--shard' takes K/N with 1 ≤ K ≤ N (like 2/4), not '\(shard)'")
      }
      options.shardIndex = parsed.index
      options.shardCount = parsed.count
    }
    try expectOperands(rest, count: 1, command: .explore, names: "a scenario NAME (bgtrace explore --list)")
    guard ExplorationScenarios.named(rest[0]) != nil else {
      let known = ExplorationScenarios.all.map(\.name).joined(separator: ", ")
      throw UsageError("unknown scenario '\(rest[0])'; the scenarios are \(known)")
    }
    return .explore(scenario: rest[0], options: options)
  }

  private static func times(_ text: String) throws(UsageError) -> DiffOptions.Times {
    switch text {
    case "exact": return .exact
    case "order": return .order
    default:
      if text.hasPrefix("tolerance="), let value = TraceInterval(decimalSeconds: text.dropFirst("tolerance=".count)) {
        return .tolerance(value)
      }
      throw UsageError("'--time' takes 'exact', 'order' or 'tolerance=SECONDS', not '\(text)'")
    }
  }

  private static func seconds(_ text: String?, option: String) throws(UsageError) -> TraceTime? {
    guard let text else { return nil }
    guard let value = TraceTime(decimalSeconds: text) else {
      throw UsageError("'\(option)' takes seconds (like 30 or 0.5), not '\(text)'")
    }
    return value
  }

  /// The format to convert to: `--to` when given, otherwise from OUT's extension.
  private static func outputFormat(_ option: String?, output: String) throws(UsageError) -> OutputFormat {
    if let option {
      guard let format = OutputFormat(rawValue: option) else {
        throw UsageError("'--to' takes 'text' or 'binary', not '\(option)'")
      }
      return format
    }
    if output.hasSuffix(".bgtrace") { return .binary }
    if output.hasSuffix(".txt") { return .text }
    throw UsageError(
      "cannot tell the output form from '\(output)': name it *.bgtrace or *.txt, or pass --to text|binary")
  }

  /// Removes every `--name VALUE` or `--name=VALUE` from `arguments` and returns the
  /// values in order.
  private static func takeRepeatedOption(
    _ option: String, from arguments: inout [String], command: CommandName
  ) throws(UsageError) -> [String] {
    assert(CommandOptions.valued(command).contains(option), "\(option) is not declared for \(command)")
    var values: [String] = []
    while let value = try takeOne(option, from: &arguments, command: command) { values.append(value) }
    return values
  }

  /// Removes the first `--name VALUE` or `--name=VALUE` from `arguments` and returns VALUE.
  private static func takeOne(
    _ option: String, from arguments: inout [String], command: CommandName
  ) throws(UsageError) -> String? {
    for index in arguments.indices {
      let argument = arguments[index]
      if argument == option {
        guard index + 1 < arguments.count else {
          throw UsageError("'\(option)' needs a value; see 'bgtrace help \(command.rawValue)'")
        }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
      }
      if argument.hasPrefix(option + "=") {
        defer { arguments.remove(at: index) }
        return String(argument.dropFirst(option.count + 1))
      }
    }
    return nil
  }

  /// Removes `--name VALUE` or `--name=VALUE` from `arguments` and returns VALUE.
  /// `--platform ios|android`, or for `import` `--from`, its earlier name: a device
  /// log's platform, instead of detecting it.
  private static func platform(_ rest: inout [String], command: CommandName) throws(UsageError) -> LogPlatform? {
    var option = "--platform"
    var given = try takeOption(option, from: &rest, command: command)
    if command == .import, let from = try takeOption("--from", from: &rest, command: command) {
      guard given == nil else { throw UsageError("'--platform' and '--from' name one setting; give one of them") }
      (option, given) = ("--from", from)
    }
    guard let given else { return nil }
    guard let platform = LogPlatform(rawValue: given) else {
      throw UsageError("'\(option)' takes 'ios' or 'android', not '\(given)'")
    }
    return platform
  }

  private static func takeOption(
    _ option: String, from arguments: inout [String], command: CommandName
  ) throws(UsageError) -> String? {
    assert(CommandOptions.valued(command).contains(option), "\(option) is not declared for \(command)")
    var value: String?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      var found: String?
      if argument == option {
        guard index + 1 < arguments.count else {
          throw UsageError("'\(option)' needs a value; see 'bgtrace help \(command.rawValue)'")
        }
        found = arguments[index + 1]
        arguments.removeSubrange(index...index + 1)
      } else if argument.hasPrefix(option + "=") {
        found = String(argument.dropFirst(option.count + 1))
        arguments.remove(at: index)
      } else {
        index += 1
        continue
      }
      guard value == nil else { throw UsageError("'\(option)' is given twice") }
      value = found
    }
    return value
  }

  /// Throws for an option left over once the command's options were taken: one given
  /// twice, or one the command does not take.
  private static func rejectOptions(_ arguments: [String], command: CommandName) throws(UsageError) {
    guard let option = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) else { return }
    let known = CommandOptions.valued(command) + CommandOptions.flags(command)
    if known.contains(option) { throw UsageError("'\(option)' is given twice") }
    throw CommandOptions.unknown(option, command: command, known: known)
  }

  private static func expectOperands(
    _ arguments: [String], count: Int, command: CommandName, names: String
  ) throws(UsageError) {
    try rejectOptions(arguments, command: command)
    if arguments.count < count {
      throw UsageError("'bgtrace \(command.rawValue)' needs \(names); see 'bgtrace help \(command.rawValue)'")
    }
    if arguments.count > count {
      let extra = arguments[count]
      throw UsageError("unexpected argument '\(extra)' for 'bgtrace \(command.rawValue)'")
    }
  }
}
