import BackgroundTrace

/// The `bgtrace` tool: parses the command line, runs the command, and maps every
/// error to one line on standard error and an exit status. No error escapes as a crash.
package enum BGTrace: Sendable {
  /// The tool's version, printed by `bgtrace --version`.
  package static let version = "0.2.0"

  /// Runs `bgtrace` with `arguments` (without the program name).
  ///
  /// - Returns: the exit status.
  package static func run(_ arguments: [String], console: some Console) -> ExitStatus {
    do {
      return try run(CommandLineParser.parse(arguments), console: console)
    } catch {
      // Every error the commands throw has the library's one shape
      // (``BackgroundTraceError``): its description names the file, the position and
      // what was expected.
      console.writeError(errorLine(error))
    }
    return .badInput
  }

  /// `bgtrace: MESSAGE` and a line feed: how every error is printed, with what a
  /// terminal would not show as text escaped (``EscapedText``), whatever input the
  /// message quotes.
  static func errorLine(_ error: any Error) -> String {
    "bgtrace: \(EscapedText.of("\(error)"))\n"
  }

  static func run(_ command: Command, console: some Console) throws -> ExitStatus {
    switch command {
    case .help(let topic):
      console.write(HelpText.text(for: topic))
      return .success
    case .usage:
      console.writeError(HelpText.text(for: nil))
      return .badInput
    case .version:
      console.write("bgtrace \(version)\n")
      return .success
    case .dump(let path):
      return try DumpCommand.run(path: path, console: console)
    case .convert(let input, let output, let format):
      return try ConvertCommand.run(input: input, output: output, format: format, console: console)
    case .stats(let paths, let platform):
      return try StatsCommand.run(paths: paths, platform: platform, console: console)
    case .check(let paths, let options):
      return try CheckCommand.run(paths: paths, options: options, console: console)
    case .diff(let expected, let actual, let options, let platform):
      return try DiffCommand.run(
        expected: expected, actual: actual, options: options, platform: platform, console: console)
    case .export(let path, let format, let from, let to, let output, let platform):
      return try ExportCommand.run(
        path: path, format: format, from: from, to: to, output: output, platform: platform, console: console)
    case .explain(let path, let until, _, let why?, let platform):
      return try ExplainCommand.runWhy(request: why, path: path, until: until, platform: platform, console: console)
    case .explain(let path, let until, let alive, nil, let platform):
      return try ExplainCommand.run(path: path, until: until, alive: alive, platform: platform, console: console)
    case .demo(let directory):
      return try DemoCommand.run(outputDirectory: directory, console: console)
    case .exploreList:
      return ExploreCommand.list(console: console)
    case .explore(let scenario, let options):
      return try ExploreCommand.run(scenario: scenario, options: options, console: console)
    case .importLogs(let paths, let options):
      return try ImportCommand.run(paths: paths, options: options, console: console)
    case .watch(let path, let options):
      return try WatchCommand.run(path: path, options: options, console: console)
    }
  }

  /// Reports the damage a reader found on standard error.
  ///
  /// - Returns: ``ExitStatus/badInput`` when anything was lost, else ``ExitStatus/success``:
  ///   an unsealed tail whose committed events were all read is a note, not a loss
  ///   (docs/FORMAT.md, "Reading, and what counts as damage").
  static func reportDamage(_ damage: [TraceDamage], console: some Console) -> ExitStatus {
    for item in damage { console.writeError("\(item)\n") }
    return damage.contains(where: \.isLoss) ? .badInput : .success
  }
}
