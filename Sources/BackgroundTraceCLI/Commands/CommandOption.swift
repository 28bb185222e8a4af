/// One option of a `bgtrace` command, declared once in ``CommandName/options``. The
/// parser takes from it whether the option is known and has a value
/// (``CommandOptions``); the command's help text, and so docs/cli.md, takes its place in
/// the usage line and its lines under "Options:" (``HelpText``). What a value means is
/// the parser's.
struct CommandOption: Sendable {
  /// Lines of the help's option list: a label (`--budget S`), and the text beside it,
  /// one string a line.
  struct HelpRow: Sendable {
    var label: String
    var lines: [String]
  }

  /// How the option shows in the command's usage line.
  enum Usage: Sendable {
    /// This token, among the others (`[--budget S]`, `--format chrome|jsonl|svg|html`).
    case token(String)
    /// A usage line of its own, with no operands or other option (`explore --list`).
    case alone
    /// Not shown: another option's token covers it (`[--baseline FILE | --write-baseline FILE]`).
    case coveredByAnother
  }

  /// The option's name, with its dashes (`--budget`).
  var name: String
  /// What the help calls its value (`S`), or `nil` for a flag, which takes none.
  var value: String?
  /// How the usage line shows it.
  var usage: Usage
  /// Its lines under "Options:"; none when the command's text explains it.
  var help: [HelpRow]

  /// An option that takes a value, with one help row labelled `NAME VALUE` (or none
  /// when `lines` is empty); its usage token is `[NAME VALUE]` unless given.
  static func valued(_ name: String, _ value: String, usage: Usage? = nil, _ lines: String...) -> CommandOption {
    CommandOption(
      name: name, value: value, usage: usage ?? .token("[\(name) \(value)]"),
      help: lines.isEmpty ? [] : [HelpRow(label: "\(name) \(value)", lines: lines)])
  }

  /// A flag, with one help row labelled with its name; its usage token is `[NAME]`
  /// unless given.
  static func flag(_ name: String, usage: Usage? = nil, _ lines: String...) -> CommandOption {
    CommandOption(
      name: name, value: nil, usage: usage ?? .token("[\(name)]"),
      help: lines.isEmpty ? [] : [HelpRow(label: name, lines: lines)])
  }
}

extension CommandName {
  /// What the command does, in the words of `bgtrace help`'s command list.
  var summary: String {
    switch self {
    case .demo: "run a sample app in the simulator, check and show its trace"
    case .check: "check traces against the rules; exit 1 on findings"
    case .diff: "compare two traces' events; exit 1 when they differ"
    case .explain: "each event, what it changed, findings inline; --why NAME: why one request ran when it did"
    case .export: "chrome (Perfetto), jsonl, svg or html"
    case .dump: "print a trace (text or binary) in canonical text form"
    case .convert: "convert between the text and binary forms"
    case .stats: "count events, bytes per event, tasks, runs and work"
    case .explore: "run a scenario under many seeds, shrink each failure"
    case .import: "read iOS or Android device logs into a trace"
    case .watch: "check a device log as it is written, each finding as it is certain"
    case .help: "show this text, or a command's"
    }
  }

  /// The command's line in `bgtrace help`'s command list: its operands, the options it
  /// cannot do without, and its one other option or `[OPTIONS]` for several
  /// (`check PATH… [OPTIONS]`, `export PATH --format F [OPTIONS]`).
  var synopsis: String {
    var words = [rawValue]
    if !operands.isEmpty { words.append(operands) }
    var optional: [CommandOption] = []
    for option in options {
      guard case .token(let token) = option.usage else { continue }
      if token.hasPrefix("[") {
        optional.append(option)
      } else {
        words.append(option.value.map { "\(option.name) \($0)" } ?? option.name)
      }
    }
    if optional.count == 1, let option = optional.first {
      words.append("[" + (option.value.map { "\(option.name) \($0)" } ?? option.name) + "]")
    } else if optional.count > 1 {
      words.append("[OPTIONS]")
    }
    return words.joined(separator: " ")
  }

  /// What the checker assumes, for `check` and `watch`: `--retry-limit N`, `--budget S`,
  /// `--grace S` and `--ignore RULE` (parsed by ``CommandLineParser`` into
  /// ``CheckerSettings``).
  static let checkerOptions: [CommandOption] = [
    .valued("--retry-limit", "N", "attempt limit for work whose enqueue declares none"),
    .valued("--budget", "S", "background budget in seconds (default: meta budget=, else 30)"),
    .valued("--grace", "S", "time allowed after an expiration (default 1)"),
    .valued("--ignore", "RULE", usage: .token("[--ignore RULE]…"), "drop this rule's findings (repeatable)"),
  ]

  /// `--platform ios|android`: a device log's platform, for every command that reads
  /// one (docs/import.md).
  static let platformOption = CommandOption.valued(
    "--platform", "ios|android", "a device log's platform, instead of detecting it")

  /// The command's options, in the order its help lists them.
  var options: [CommandOption] {
    switch self {
    case .help, .dump: []
    case .stats: [Self.platformOption]
    case .demo:
      [
        .valued(
          "--out", "DIR", "where to write the trace (default: the system temporary",
          "directory's bgtrace-demo folder); created if missing")
      ]
    case .convert: [.valued("--to", "F", usage: .token("[--to text|binary]"))]
    case .check:
      Array(Self.checkerOptions.prefix(3)) + [
        .valued(
          "--format", "F", usage: .token("[--format text|jsonl]"), "text (default) or jsonl (JSON Lines, same fields;",
          "also spelled json)"),
        .flag("--strict", "warnings fail too"),
        Self.checkerOptions[3],
        .valued(
          "--baseline", "FILE", usage: .token("[--baseline FILE | --write-baseline FILE]"),
          "known findings: they neither print nor fail; how many", "were suppressed goes to standard error"),
        .valued(
          "--write-baseline", "FILE", usage: .coveredByAnother, "write every finding to FILE as a baseline, exit 0"),
        Self.platformOption,
      ]
    case .diff:
      [
        CommandOption(
          name: "--ids", value: "exact|renamed", usage: .token("[--ids exact|renamed]"),
          help: [
            .init(
              label: "--ids renamed",
              lines: [
                "task ids, run numbers and work ids are compared up to a",
                "consistent renaming by first appearance (the default)",
              ]),
            .init(label: "--ids exact", lines: ["identifiers must match as written"]),
          ]),
        CommandOption(
          name: "--time", value: "exact|order|tolerance=S", usage: .token("[--time exact|order|tolerance=S]"),
          help: [
            .init(label: "--time exact", lines: ["times must match to the nanosecond (the default)"]),
            .init(
              label: "--time order",
              lines: [
                "times are ignored, the events' and those of time fields",
                "(sched.submit earliest=); only the order of events",
                "matters, and the diff shows no times (earliest=*)",
              ]),
            .init(label: "--time tolerance=S", lines: ["times, and time fields, may differ by up to S seconds"]),
          ]),
        .flag("--meta", "compare the meta lines too (seed=, platform=, …)"),
        Self.platformOption,
      ]
    case .explain:
      [
        .valued(
          "--until", "T", "print the timeline up to T seconds, then what is alive after",
          "the last event printed (the whole trace is checked)"),
        .flag(
          "--alive", "after each event, list everything alive instead of what changed",
          "(the output then grows with events times what is open)"),
        .valued(
          "--why", "NAME", "instead of the timeline, the history of one request: the work",
          "with unique name NAME or holding the request with id NAME (request=),",
          "the scheduler request with identifier NAME, or the alarm NAME; each",
          "wait with its reasons, each start, stop and result (up to --until)"),
        Self.platformOption,
      ]
    case .export:
      [
        .valued("--format", "F", usage: .token("--format chrome|jsonl|svg|html")),
        CommandOption(
          name: "--from", value: "T", usage: .token("[--from T]"),
          help: [.init(label: "--from T, --to T", lines: ["export only the events between T seconds and T seconds"])]),
        .valued("--to", "T"),
        .valued("--out", "PATH", "write to PATH instead of standard output"),
        Self.platformOption,
      ]
    case .explore:
      [
        .flag("--list", usage: .alone, "print the shipped scenarios, one name per line"),
        .valued("--runs", "N", "how many seeds to run (default 1000)"),
        .valued("--seed", "S", "the seed of the first run; run n uses S+n (default 0)"),
        .valued(
          "--out", "DIR", "where to write the minimal traces (default: the system",
          "temporary directory's bgtrace-explore folder); created if missing"),
        .valued(
          "--shard", "K/N", "run only runs K-1, K-1+N, K-1+2N, …: N jobs with shards 1/N to",
          "N/N run exactly the runs one job would"),
      ]
    case .watch:
      [
        Self.platformOption,
        .valued(
          "--process", "NAME|PID", "the app to check (default: the first whose",
          "background-work message is read)"),
        .flag("--strict", "warnings fail too"),
      ] + Self.checkerOptions
    case .import:
      [
        Self.platformOption,
        .valued("--from", "ios|android", usage: .coveredByAnother, "the earlier name of --platform"),
        .valued(
          "--process", "NAME|PID", "the app to import (default: the one with the most",
          "background-work messages)"),
        .valued(
          "--out", "PATH", "write the trace to PATH: binary for .bgtrace, else",
          "text (default: text on standard output)"),
        .flag(
          "--strict", "fail on a line of a recognised source whose message",
          "does not parse (with its file and line)"),
        .flag(
          "--allow-empty", "succeed with an empty trace when the logs hold no",
          "background work (by default that fails: exit 2)"),
      ]
    }
  }

  /// What the command takes besides its options, as its usage line names it.
  var operands: String {
    switch self {
    case .help: "[COMMAND]"
    case .demo: ""
    case .check, .stats: "PATH…"
    case .diff: "EXPECTED ACTUAL"
    case .explain, .export, .dump: "PATH"
    case .convert: "IN OUT"
    case .explore: "NAME"
    case .import: "LOG…"
    case .watch: "[LOG|-]"
    }
  }
}
