/// The usage text of `bgtrace` and of each command.
enum HelpText {
  static func text(for topic: CommandName?) -> String {
    switch topic {
    case nil, .help?: overview
    case .demo?: demo
    case .check?: check
    case .diff?: diff
    case .explain?: explain
    case .export?: export
    case .dump?: dump
    case .convert?: convert
    case .stats?: stats
    case .explore?: explore
    case .import?: importLogs
    case .watch?: watch
    }
  }

  static let overview = """
    bgtrace: check, compare, explain, export and convert traces of an app's background work,
    and import them from iOS and Android device logs.

    Usage: bgtrace COMMAND [OPTIONS] [ARGUMENTS]

    Commands:
    \(commandList)

    Options:
      -h, --help                  show help (also after a command)
      --version                   print the version

    Exit status: 0 success, 1 findings (check, explore), 2 bad input or usage.
    Input form (text or binary) is detected from the content; '-' reads standard input.
    With no command, bgtrace prints this text to standard error and exits 2.

    """

  static let demo = """
    \(usage(.demo))

    Runs a sample app, a document editor (a DocumentManager that saves in a
    background task on entering the background, a refresh AppDelegate, a retrying
    DataSyncWorker), in the simulator on a virtual clock, with one deliberate bug:
    the save outlasts the 30 s background budget, the expiration handler ends the
    task, and the save, suspended with the app, ends .invalid when iOS next runs
    the app. Writes the trace as DIR/demo.bgtrace and
    DIR/demo.txt and prints both paths, checks it, and prints a timeline with the
    finding marked. The repository's Traces/examples/demo.txt is this trace.

    \(optionList(.demo))

    Exit status: 0, or 2 when DIR cannot be written.

    """

  static let check = """
    \(usage(.check))

    Checks traces against the rules: leaked and double-ended tasks, expirations
    not honoured, unregistered or uncompleted scheduler runs, refreshes not
    rescheduled, retries past the attempt limit or before the backoff, and more
    (see docs/guides/checking.md). PATH is a file, '-' for standard input,
    or a directory: every file under it that starts with the text header
    'bgtrace 1' or the binary magic is checked, whatever its extension; hidden
    folders (.git, .build) are skipped, so 'bgtrace check .' works in a package.
    A directory that holds no trace is an error. A file that is not a trace is
    read as a device log (docs/import.md): imported in memory as 'bgtrace
    import' would, and checked, each finding at the log line its event came
    from. Directories are checked on all cores; findings print in path order,
    one per line:

        PATH:LOCATION: SEVERITY: MESSAGE [RULE-ID]

    LOCATION is the line for text traces and logs, and the event number for
    binary traces. When the event's line in a text trace file notes the log
    line it was imported from ('# from LOG:LINE', as 'bgtrace import' writes),
    a note follows: 'LOG:LINE: note: the log line this event was imported
    from' (jsonl: a "source" member).

    \(optionList(.check))

    A baseline lists one known finding a line, sorted, '#' lines are comments:

        PATH:LOCATION: [RULE-ID]

    A finding is known when its path (without a leading './'), location and rule
    match an entry, so run check from the same directory as when it was written.

    Exit status: 0 clean (warnings allowed), 1 findings, 2 bad or damaged input,
    a path with no trace, a log with no background work, or bad usage.

    """

  static let diff = """
    \(usage(.diff))

    Compares two traces (text or binary) event by event and prints a unified diff
    of their canonical text. The first line names the first divergence: the event
    number and the expected and actual lines. Lines the two traces share and lines
    only EXPECTED has show EXPECTED's times; lines only ACTUAL has show its times.
    The meta lines are not compared unless --meta is given: when they differ, a
    note on standard error says so, and the exit status is not changed by it.
    Either side may be a device log, imported in memory as 'bgtrace import' would
    write it (docs/import.md).

    \(optionList(.diff))

    Exit status: 0 same, 1 different, 2 bad input.

    """

  static let explain = """
    \(usage(.explain))

    Walks the trace (text or binary) event by event through the platform model and
    prints each event with its location, what it changed, the checker's findings
    where they occur (>>), and system decisions the model says could not have
    happened (!!). What changed is one line per task, scheduler run, work attempt or
    work that began (+), ended, completed, finished or was closed by its process
    (-), or expired (~), so the output grows with the trace, not with what is open.
    Everything alive (·: open tasks with their age and remaining budget, pending
    scheduler requests, launched runs, running, backed-off and queued work) is
    listed after each event with --alive, and once where --until stops.

    The decisions flagged (!!) are: a retry that starts before its backoff, an
    expiration long after the budget, a suspension while a task still had budget,
    a launch before its earliest date, a watchdog kill with no expired task or run,
    and what the trace's platform (meta platform=ios|android) cannot do: in-process
    work starting while an iOS app is suspended or not running; a UIKit task, a
    scheduler launch, or a suspension while a worker runs on Android. What is alive
    and what the checker reports come from one model, so a task the checker gave
    up is not shown alive.

    With --why NAME it prints, instead, why one request ran when it did: the work
    with unique name NAME (or holding the request whose id is NAME, a UUID) or the
    scheduler request with identifier NAME, each step
    with its time: the enqueue or submission, the stretch before it was due (its
    earliest date, backoff or period), each stretch it waited while due with the
    reasons the trace records (work.wait, sched.wait; docs/events.md), each start
    or launch, each stop with what its reason means, each result. A trace recorded
    on a device or imported from a log records no reasons: what its other events
    show (the app in the foreground, suspended or force-stopped, the network
    offline) is said, and what it cannot tell is said as such. For an Android
    alarm NAME: each set and cancel, each delivery, and for a late one what held
    it (an inexact alarm's window, deep Doze, an idle or standby-bucket quota,
    the user's background restriction).

    PATH may also be a device log (docs/import.md): it is imported in memory, as
    'bgtrace import' would write it, and each event is at the log line it came
    from.

    It runs no app code. To re-run a trace against your app's code, use Replayer in
    Swift (docs/guides/replaying.md). 'bgtrace replay' is the earlier name of
    this command and still works.

    \(optionList(.explain))

    Exit status: 0 clean, 1 findings or inconsistencies, 2 bad input (with --why:
    0, or 2 when the trace names no such request).

    """

  static let export = """
    \(usage(.export))

    Writes the trace (text or binary, or a device log imported in memory as
    'bgtrace import' would write it) to standard output (or --out PATH) as:
      chrome   Chrome trace-event JSON: open it in Perfetto UI (ui.perfetto.dev) or
               chrome://tracing. Tasks are async slices, app states, scheduler runs,
               worker attempts, background transfers and wakes, and foreground
               services slices on their own tracks (one per URLSession or service),
               expirations, rejections and findings instant events, submissions and
               retries flows.
      jsonl    one JSON object per event, with the canonical field names (for jq)
      svg      a self-contained SVG timeline: one lane per task, run, work item,
               background session and foreground service, coloured by outcome,
               expirations and findings marked
      html     the SVG timeline in an HTML page: each finding's text beside its
               marker, details on hover

    A trace whose last events are lost (a torn tail, a recording that stopped
    writing) is drawn to its cut: what is open there is drawn open at the cut, not
    judged at the end.

    \(optionList(.export))

    Exit status: 0 success, 2 bad or damaged input, or an --out PATH that cannot be
    written.

    """

  static let dump = """
    \(usage(.dump))

    Prints the trace at PATH (text or binary, '-' for standard input) in canonical
    text form. Use it as a git textconv driver so binary traces diff as text:

        git config diff.bgtrace.textconv "bgtrace dump"
        echo '*.bgtrace diff=bgtrace' >> .gitattributes

    A damaged binary trace prints every intact event; what was lost is reported on
    standard error and the exit status is 2. A recording whose process was killed
    ends in an unsealed chunk: its events are all read and a note (not a loss) says so.

    Exit status: 0 success, 2 bad or damaged input.

    """

  static let convert = """
    \(usage(.convert))

    Converts the trace at IN (text or binary, detected from the content; '-' for
    standard input) to OUT ('-' for standard output). The output form comes from
    --to, or from OUT's extension: .bgtrace is binary, .txt is text.

    Canonical text converts to binary and back byte for byte.

    Exit status: 0 success, 2 bad or damaged input, or OUT cannot be written.

    """

  static let stats = """
    \(usage(.stats))

    For each trace (files, or directories searched as by check):
    events by kind, bytes per event, duration, UIKit tasks, scheduler runs and
    work attempts, and background transfers and foreground services when the
    trace has them. A file that is not a trace is read as a device log, imported
    in memory as 'bgtrace import' would write it (docs/import.md). A file that
    cannot be read is reported on standard error and the others are still
    counted, as check does.

    Exit status: 0 success, 2 bad or damaged input (after every file is reported).

    """

  static let explore = """
    \(usage(.explore))

    Runs a shipped scenario in the simulator under N seeds. Each run draws all its
    timing (how long work takes, launch delays, when the user acts, when the app
    is killed or background time ends early) from one stream of choices seeded by
    its seed, and fails when the checker finds an error in its trace. For each
    rule that failed, the failing run with the lowest seed is shrunk: its choices
    are deleted, zeroed and lowered until no smaller step keeps the rule failing.
    The minimal trace is written to DIR/NAME.RULE.seedS.txt (its meta line holds
    the seed and the choices) and one line is printed per rule:

        RULE: seed S, shrunk from A events to B events: PATH

    ("could not shrink its A events" when no smaller run fails the same way).
    How many runs failed and the command that reproduces the run go to standard
    error. The same arguments print the same lines, on any machine. Shards may
    share DIR: for each rule, the line with the lowest seed among the shards is
    the line one unsharded job prints.

    \(optionList(.explore))

    Exit status: 0 no run failed, 1 failures found, 2 bad usage or DIR cannot be
    written.

    """

  static let importLogs = """
    \(usage(.`import`))

    Reads device logs and writes the trace they tell, so that an app can be
    checked without changing its code (docs/import.md). LOG is a file, or '-'
    for standard input; several logs are read in order, as one capture. The
    style is detected from the content: Xcode's console copy, Console.app's
    copy, log show / log stream (default, compact, syslog, json, ndjson;
    also a sysdiagnose's log show output); adb logcat -v threadtime, brief,
    time, long, epoch or year, and Android Studio's Logcat copy.

    UIKit's and BackgroundTasks' messages become task and scheduler events,
    RunningBoard's state updates the iOS app.state, WorkManager's work
    events (with their tags), ActivityManager's app.launch,
    app.terminate and foreground-service events, the events buffer's
    activity lifecycle app.state; every other line is skipped and counted.
    Times are relative to the log's first timed line. The trace's meta says
    source=ios-log or android-log: the checker then does not report what
    the log's cuts at its start and end cause (docs/rules.md, "Imported
    logs"). A summary goes to standard error: events by kind, lines skipped,
    the processes seen, and what the log could not tell.

    \(optionList(.`import`))

    Exit status: 0 success, 2 a log in no known style, logs with no background
    work (unless --allow-empty), an unknown --process, a line that does not
    parse under --strict, or OUT cannot be written.

    """

  static let watch = """
    \(usage(.watch))

    Checks a device log as it is written: LOG is a file, followed as it grows
    (as tail -f does), or '-' (the default) for standard input, read until it
    ends:

        xcrun simctl spawn booted log stream --level debug --style ndjson \\
          --predicate 'subsystem == "com.apple.UIKit" || subsystem == "com.apple.BackgroundTasks"' \\
          | bgtrace watch -
        adb logcat -v threadtime | bgtrace watch -

    Each line is imported as 'bgtrace import' reads it (docs/import.md) and its
    events checked as 'bgtrace check' checks a trace. A finding is printed the
    moment it is certain, at the log line that made it so: a double end at
    once, a task left open when the app is suspended, an expiration not ended
    once the log's clock passes the grace. The style is detected from the first
    lines; the app is the one --process names, else the first whose
    background-work message is read. At the end of the input, or on Ctrl-C,
    what is still open is reported as check does at a trace's end, and a
    summary goes to standard error; on a terminal a status line shows lines,
    events and findings as they arrive.

    \(optionList(.watch))

    Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 a log in
    no known style or with no background work, or LOG cannot be read.

    """

  /// The command's usage line (more than one for a command with an option that stands
  /// alone, `explore --list`), from its operands and its options' usage tokens, wrapped
  /// at 79 columns with each continuation aligned after the operands.
  /// The overview's command list: each command's synopsis and summary
  /// (``CommandName/synopsis``, ``CommandName/summary``), the summaries in one column
  /// and wrapped under themselves at 90 characters; a synopsis too long for its column
  /// has its summary on the next line.
  static var commandList: String {
    let column = 30
    let width = 90
    var lines: [String] = []
    for command in CommandName.allCases {
      let synopsis = "  " + command.synopsis
      var line: String
      if synopsis.count + 2 > column {
        lines.append(synopsis)
        line = String(repeating: " ", count: column)
      } else {
        line = synopsis + String(repeating: " ", count: column - synopsis.count)
      }
      for word in command.summary.split(separator: " ") {
        if line.count > column, line.count + 1 + word.count > width {
          lines.append(line)
          line = String(repeating: " ", count: column) + word
        } else {
          line += (line.count == column ? "" : " ") + word
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  static func usage(_ command: CommandName) -> String {
    let head = "bgtrace \(command.rawValue)"
    var forms: [String] = []
    for option in command.options {
      if case .alone = option.usage { forms.append("\(head) \(option.name)") }
    }
    let start = command.operands.isEmpty ? head : "\(head) \(command.operands)"
    let indent = String(repeating: " ", count: "Usage: ".count + start.count + 1)
    var line = start
    var lines: [String] = []
    for option in command.options {
      guard case .token(let token) = option.usage else { continue }
      let prefix = lines.isEmpty ? "Usage: ".count : 0  // a continuation's indent is in `line`
      if prefix + line.count + 1 + token.count > 79 {
        lines.append(line)
        line = indent + token
      } else {
        line += " " + token
      }
    }
    lines.append(line)
    forms.append(lines.joined(separator: "\n"))
    return "Usage: " + forms.joined(separator: "\n       ")
  }

  /// The command's "Options:" list, each label padded to the longest plus two; empty
  /// when no option has a help row.
  static func optionList(_ command: CommandName) -> String {
    let rows = command.options.flatMap(\.help)
    guard let longest = rows.map(\.label.count).max() else { return "" }
    let width = longest + 2
    var lines = ["Options:"]
    for row in rows {
      for (index, text) in row.lines.enumerated() {
        let label = index == 0 ? row.label : ""
        lines.append("  " + label + String(repeating: " ", count: width - label.count) + text)
      }
    }
    return lines.joined(separator: "\n")
  }
}
