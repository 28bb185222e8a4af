import BackgroundTrace

/// What choosing the app needs, gathered as the import's pass reads the logs: each log's
/// style, the processes' names, and how many background-work messages each app wrote.
/// The app is chosen once the pass is over (a later line may name a pid seen before).
struct LogSurvey {
  /// The name of the app whose lines carry no process name (all such pids together).
  static let unnamed = "(unnamed)"

  private(set) var platform: LogPlatform = .ios
  private(set) var styles: [(file: String, style: LogStyle)] = []
  /// Process names by pid, from the lines that name them.
  private var names: [Int: String] = [:]
  /// Pids named only by another process's line about them (RunningBoard's and
  /// FrontBoard's states name an app by its bundle identifier): a line of the process's own, which
  /// carries its executable's name, renames it.
  private var namedByOthers: Set<Int> = []
  /// Background-work messages and all messages by process (pid, or nil for none).
  private var counts: [Int?: (background: Int, all: Int)] = [:]
  private var pidOrder: [Int?] = []
  /// Messages about a process named only by name (ActivityManager's `crashed service`),
  /// and lines of a process that carry its name and no pid (Console.app's copy):
  /// background-work messages and all messages by name.
  private var namedCounts: [String: (background: Int, all: Int)] = [:]
  private var nameOrder: [String] = []

  /// Detects each log's style from its first lines: the survey before any line is counted.
  static func detectingStyles(_ inputs: [LogInput], platform: LogPlatform?) throws(LogImportError) -> LogSurvey {
    var survey = LogSurvey()
    for input in inputs {
      let style = try detect(input, platform: platform ?? survey.styles.first?.style.platform)
      survey.styles.append((input.name, style))
    }
    survey.platform = survey.styles.first?.style.platform ?? .ios
    return survey
  }

  /// The survey of one log, `file`, whose style is already known (a log read as it
  /// arrives, ``LogStream``).
  init(file: String, style: LogStyle) {
    styles = [(file, style)]
    platform = style.platform
  }

  private init() {}

  /// Why the sampling of a log's first lines ended before the log did.
  private enum SamplingEnd: Error {
    /// The style is told, or enough bytes were read.
    case sampled
    case unreadable(ByteSourceError)
  }

  private static func detect(_ input: LogInput, platform: LogPlatform?) throws(LogImportError) -> LogStyle {
    var detector = LogStyleDetector(platform: platform)
    var splitter = try input.lines()
    var bytes = 0
    do throws(SamplingEnd) {
      try splitter.forEachLine(unreadable: SamplingEnd.unreadable) { (line) throws(SamplingEnd) in
        detector.sample(line)
        bytes += line.bytes.count
        if detector.isDone || bytes > LogLineSplitter.maximumLineLength { throw .sampled }
      }
    } catch .unreadable(let failure) {
      throw LogImportError(unreadable: failure)
    } catch {}
    guard let style = detector.finish() else {
      throw noKnownStyle(input.name, platform: platform, readsAs: detector.otherPlatformStyle)
    }
    return style
  }

  /// The error for log `file`, none of whose first lines is in a style of `platform`
  /// (of either platform when `nil`); `readsAs`: the other platform's style its lines
  /// are in, when they are.
  static func noKnownStyle(_ file: String, platform: LogPlatform?, readsAs other: LogStyle? = nil) -> LogImportError {
    let expected: String =
      switch platform {
      case .ios?: "an iOS log (Xcode's console, Console.app's copy, or log show / log stream in any style)"
      case .android?:
        "an Android log (adb logcat -v threadtime, brief, time, long, epoch or year, or Android Studio's Logcat)"
      case nil:
        "an iOS log (Xcode's console, Console.app's copy, log show / log stream) or an Android log (adb logcat, Android Studio's Logcat)"
      }
    var message = "no line is in a known log style: expected \(expected)"
    if let other {
      let name = other.platform == .ios ? "an iOS" : "an Android"
      message += "; its lines are \(name) log's (\(other.rawValue)): leave --platform out to read it as one"
    }
    var error = LogImportError(file: file, message: message)
    error.isInNoKnownStyle = true
    return error
  }

  /// Counts one entry whose message reads as `reading`. A line of a background-work
  /// source counts as background work whatever its message; otherwise only messages
  /// the import reads count, the ones about a process (ActivityManager's) for that
  /// process.
  mutating func take(_ record: LogRecord, _ reading: MessageReading) {
    if let pid = record.pid, let name = record.process,
      names[pid] == nil || (!namedByOthers.isEmpty && namedByOthers.contains(pid))
    {
      names[pid] = name
      namedByOthers.remove(pid)
    }
    if Self.isBackgroundSource(record.source) {
      count(record, background: true)
      return
    }
    guard case .message(let message) = reading else { return }
    if let subject = message.subjectProcess {
      if let pid = subject.pid {
        if names[pid] == nil {
          names[pid] = subject.name
          if message.namesAppByBundle { namedByOthers.insert(pid) }
        }
        count(pid, background: false)
      } else {
        count(named: subject.name, background: false)
      }
      return
    }
    count(record, background: message.isBackgroundWork)
  }

  /// Counts a line of its own process: by pid, or by name when it carries a name and
  /// no pid.
  private mutating func count(_ record: LogRecord, background: Bool) {
    if record.pid == nil, let name = record.process {
      count(named: name, background: background)
    } else {
      count(record.pid, background: background)
    }
  }

  private mutating func count(named name: String, background: Bool) {
    if namedCounts[name] == nil { nameOrder.append(name) }
    namedCounts[name, default: (0, 0)].all += 1
    if background { namedCounts[name, default: (0, 0)].background += 1 }
  }

  /// WorkManager's tags, UIKit's `BackgroundTask` category and the BackgroundTasks
  /// subsystem: every line of them is about background work.
  static func isBackgroundSource(_ source: String) -> Bool {
    var source = source
    return source.withUTF8 { bytes in
      let text = LogBytes(bytes)
      return text.starts(0..<bytes.count, with: "WM-") || text.equals(0..<bytes.count, "com.apple.UIKit:BackgroundTask")
        || text.starts(0..<bytes.count, with: "com.apple.BackgroundTasks")
    }
  }

  private mutating func count(_ pid: Int?, background: Bool) {
    // One lookup per line: the pid is hashed once.
    guard let index = counts.index(forKey: pid) else {
      pidOrder.append(pid)
      counts[pid] = (background ? 1 : 0, 1)
      return
    }
    counts.values[index].all += 1
    if background { counts.values[index].background += 1 }
  }

  /// The app a process id belongs to.
  func app(ofPid pid: Int?) -> String {
    pid.flatMap { names[$0] } ?? Self.unnamed
  }

  /// The app a message is about: the process it names (ActivityManager's), else the
  /// process that wrote its line, by its pid's name. (A line that carries its process's
  /// name is matched by that name, without asking the survey.)
  func app(of message: PlatformMessage, pid: Int?) -> String {
    // A state update names the app by its bundle identifier; its own lines, by their
    // pid, by its executable's name.
    if message.namesAppByBundle, let subject = message.subjectProcess, let pid = subject.pid {
      return names[pid] ?? subject.name
    }
    return message.subjectProcess?.name ?? app(ofPid: pid)
  }

  /// Every app seen, in the order seen, with its pids and background-work messages.
  var apps: [ImportSummary.App] {
    var apps: [ImportSummary.App] = []
    var index: [String: Int] = [:]
    for pid in pidOrder {
      let name = app(ofPid: pid)
      let position = index[name] ?? apps.count
      if position == apps.count {
        index[name] = position
        apps.append(ImportSummary.App(name: name, pids: [], backgroundMessages: 0))
      }
      if let pid { apps[position].pids.append(pid) }
      apps[position].backgroundMessages += counts[pid]?.background ?? 0
    }
    for name in nameOrder {
      let position = index[name] ?? apps.count
      if position == apps.count {
        index[name] = position
        apps.append(ImportSummary.App(name: name, pids: [], backgroundMessages: 0))
      }
      apps[position].backgroundMessages += namedCounts[name]?.background ?? 0
    }
    return apps
  }

  private func allMessages(of app: String) -> Int {
    var total = namedCounts[app]?.all ?? 0
    for pid in pidOrder where self.app(ofPid: pid) == app { total += counts[pid]?.all ?? 0 }
    return total
  }

  /// The app to import: the one `process` names (a name, or a pid of it), else the one
  /// with the most background-work messages (the first seen on a tie; the one with the
  /// most messages when none wrote any); `nil` when the logs show no app.
  ///
  /// - Throws: ``LogImportError`` when `process` names no app of the logs.
  func chooseApp(_ process: String?) throws(LogImportError) -> String? {
    let apps = self.apps
    if let process {
      if let pid = Int(process), names[pid] != nil || pidOrder.contains(pid) { return app(ofPid: pid) }
      if apps.contains(where: { $0.name == process }) { return process }
      let seen = apps.map { app in
        app.pids.isEmpty ? app.name : "\(app.name) (pid \(app.pids.map(String.init).joined(separator: ", ")))"
      }
      throw LogImportError(
        file: styles.first?.file,
        message:
          "--process \(process) names no process of the log: expected one of \(seen.isEmpty ? "none seen" : seen.joined(separator: ", "))"
      )
    }
    var best: (name: String, background: Int, all: Int)?
    for app in apps {
      let all = allMessages(of: app.name)
      if let current = best, (app.backgroundMessages, all) <= (current.background, current.all) { continue }
      best = (app.name, app.backgroundMessages, all)
    }
    return best?.name
  }
}
