package import BackgroundTrace
package import BackgroundTraceCheck
package import BackgroundTraceExport
package import BackgroundTraceImport

/// A parsed `bgtrace` command line: what to do, with every option resolved.
package enum Command: Sendable, Hashable {
  /// `bgtrace help [COMMAND]`, `--help`, `COMMAND --help`.
  case help(topic: CommandName?)
  /// `bgtrace` with no arguments: the usage, on standard error, as bad usage.
  case usage
  /// `bgtrace --version`.
  case version
  /// `bgtrace demo [--out DIR]`.
  case demo(outputDirectory: String?)
  /// `bgtrace dump PATH`.
  case dump(path: String)
  /// `bgtrace convert IN OUT [--to text|binary]`.
  case convert(input: String, output: String, format: OutputFormat)
  /// `bgtrace stats PATH…`.
  case stats(paths: [String], platform: LogPlatform? = nil)
  /// `bgtrace check PATH… [options]`.
  case check(paths: [String], options: CheckOptions)
  /// `bgtrace export PATH --format chrome|jsonl|svg|html [--from T] [--to T] [--out PATH]`
  /// (`output`: `nil` for standard output).
  case export(
    path: String, format: ExportFormat, from: TraceTime?, to: TraceTime?, output: String? = nil,
    platform: LogPlatform? = nil)
  /// `bgtrace explain PATH [--until T] [--alive | --why NAME]` (also spelled `replay`,
  /// its earlier name).
  case explain(path: String, until: TraceTime?, alive: Bool = false, why: String? = nil, platform: LogPlatform? = nil)
  /// `bgtrace diff EXPECTED ACTUAL [--ids exact|renamed] [--time exact|order|tolerance=S] [--meta]`.
  case diff(expected: String, actual: String, options: DiffOptions, platform: LogPlatform? = nil)
  /// `bgtrace explore --list`.
  case exploreList
  /// `bgtrace explore NAME [--runs N] [--seed S] [--out DIR] [--shard K/N]`.
  case explore(scenario: String, options: ExploreOptions)
  /// `bgtrace import LOG… [--from ios|android] [--process NAME|PID] [--out PATH] [--strict]`.
  case importLogs(paths: [String], options: ImportOptions)
  /// `bgtrace watch [LOG|-] [--platform ios|android] [--process NAME|PID] [--strict]`, and
  /// `check`'s `--retry-limit`, `--budget`, `--grace` and `--ignore`.
  case watch(path: String, options: WatchOptions)
}

/// The options of `bgtrace import` (docs/import.md).
package struct ImportOptions: Sendable, Hashable {
  /// `--from`, `--process` and `--strict`.
  package var log = LogImportOptions()
  /// `--out PATH`: where the trace goes (binary for `.bgtrace`, else text); standard
  /// output by default.
  package var output: String?
  /// `--allow-empty`: an import that finds no background work succeeds (an empty trace)
  /// instead of failing.
  package var allowsEmpty = false

  /// Creates the default options.
  package init() {}
}

/// The options of `bgtrace explore NAME` (docs/guides/exploration.md).
package struct ExploreOptions: Sendable, Hashable {
  /// `--runs N`: how many seeds to run (before sharding).
  package var runs = 1_000
  /// `--seed S`: the seed of the first run; run `n` uses `S + n`.
  package var seed: UInt64 = 0
  /// `--out DIR`: where the minimal traces go (default: the temporary directory's
  /// `bgtrace-explore` folder).
  package var outputDirectory: String?
  /// `--shard K/N`: K, from 1.
  package var shardIndex = 1
  /// `--shard K/N`: N.
  package var shardCount = 1

  /// Creates the default options.
  package init() {}
}

/// What the checker assumes, as `check` and `watch` take it
/// (``CommandOption/checkerOptions``).
package struct CheckerSettings: Sendable, Hashable {
  /// `--retry-limit N`: the attempt limit for work that declares none.
  package var retryLimit: Int?
  /// `--budget S`: the background budget, overriding `meta budget=`.
  package var budget: TraceInterval?
  /// `--grace S`: how long after an expiration an end is still on time (default 1 s).
  package var grace: TraceInterval?
  /// `--ignore RULE` (repeatable): rules whose findings are dropped.
  package var ignoredRules: Set<Rule> = []

  /// Creates the defaults.
  package init() {}

  /// The checker's configuration with these settings applied to `base`.
  package func applied(to base: CheckerConfiguration = CheckerConfiguration()) -> CheckerConfiguration {
    var configuration = base
    configuration.defaultRetryLimit = retryLimit ?? base.defaultRetryLimit
    configuration.budget = budget ?? base.budget
    configuration.grace = grace ?? base.grace
    configuration.rules = base.rules.subtracting(ignoredRules)
    return configuration
  }
}

/// The options of `bgtrace check`.
package struct CheckOptions: Sendable, Hashable {
  /// `--retry-limit`, `--budget`, `--grace` and `--ignore`.
  package var checker = CheckerSettings()
  /// `--format text|jsonl` (`json` is accepted for `jsonl`).
  package var format: FindingFormat = .text
  /// `--strict`: warnings fail too.
  package var strict = false
  /// `--baseline FILE`: known findings that neither print nor fail (docs/cli.md, "Baselines").
  package var baseline: String?
  /// `--write-baseline FILE`: write the findings to FILE as a baseline instead of failing.
  package var writeBaseline: String?
  /// `--platform ios|android`: a device log's platform, instead of detecting it.
  package var platform: LogPlatform?

  /// Creates the default options.
  package init() {}
}

/// How `check` prints findings.
package enum FindingFormat: String, Sendable, Hashable, CaseIterable {
  /// `PATH:LOCATION: SEVERITY: MESSAGE [RULE-ID]`, one per line.
  case text
  /// JSON Lines with the same fields (`--format jsonl`, also spelled `json`).
  case jsonl
}

/// The commands `bgtrace` knows, by their command-line name.
package enum CommandName: String, Sendable, Hashable, CaseIterable {
  /// `demo` runs the sample workflow; `check` checks traces; `diff` compares two;
  /// `explain` walks one event by event through the platform model; `export` writes it
  /// for other tools;
  /// `dump` prints its canonical text; `convert` turns text into binary or back; `stats`
  /// counts what it holds; `explore` searches a shipped scenario's timings for bugs;
  /// `import` reads device logs into a trace; `watch` checks a device log as it is
  /// written; `help` prints usage.
  case demo, check, diff, explain, export, dump, convert, stats, explore, `import`, watch, help

  /// The command `name` names, accepting `replay` as the earlier name of `explain`.
  init?(spelled name: String) {
    self.init(rawValue: name == "replay" ? "explain" : name)
  }
}

/// The form `convert` writes.
package enum OutputFormat: String, Sendable, Hashable, CaseIterable {
  /// `text`: the text form (`.txt`); `binary`: the binary form (`.bgtrace`).
  case text, binary
}

/// How `bgtrace` ends: the process exit status.
package enum ExitStatus: Int32, Sendable, Hashable {
  /// Success (for `check`: no findings).
  case success = 0
  /// Findings or differences (later commands).
  case findings = 1
  /// Bad input or bad usage.
  case badInput = 2
}

/// A command line that does not parse: one sentence saying what is wrong and what to do.
///
/// Its description is the message itself.
package struct UsageError: BackgroundTraceError, Hashable {
  /// What is wrong, and what to do about it.
  package var message: String

  /// Creates an error.
  package init(_ message: String) {
    self.message = message
  }

  /// Always ``TraceErrorKind/configuration``.
  package var kind: TraceErrorKind { .configuration }
  /// `nil`: the command line is not a file.
  package var file: String? { nil }
  /// `nil`: the message names the argument.
  package var position: TracePosition? { nil }
}
