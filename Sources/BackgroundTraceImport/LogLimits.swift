/// What a platform's log cannot tell the checker, as the summary lists it
/// (docs/import.md, "What the log cannot tell").
enum LogLimits {
  static func sentences(
    platform: LogPlatform, styles: [LogStyle], translator: ImportTranslator, unnamed: Bool
  ) -> [String] {
    var sentences: [String] = []
    switch platform {
    case .ios:
      if translator.wroteProcessState {
        sentences.append(
          "the app's inactive state: RunningBoard's updates tell visible (written active) from not visible (background)"
        )
      } else {
        sentences.append(
          "the app's states (active, background, suspended): only RunningBoard's state updates tell them, and the log has none for the app, so budgets are not checked"
        )
      }
      if !translator.sawRegistrationLine {
        sentences.append(
          translator.wroteImpliedRegistration
            ? "launch handler registrations: BackgroundTasks logs them only at DEBUG, so each identifier launched "
              + "is written registered at its first launch (iOS runs a task only through its handler)"
            : "launch handler registrations: BackgroundTasks logs them only at DEBUG")
      }
      sentences.append("scheduler run numbers: runs are numbered from 1 in the order of their launches")
      if translator.wroteSimulatedCompletion {
        sentences.append(
          "the success a simulated task was completed with: `Marking simulated task complete` does not print it, "
            + "so it is written success=true")
      }
    case .android:
      sentences.append(
        "attempt numbers: counted from the first start seen (meta attempts=from-first-start-seen)")
      sentences.append(
        "attempt limits, unique-work policies and periods: the checker's options apply (--retry-limit)")
      sentences.append(
        "backoff settings: the least WorkManager allows is assumed (linear, 10 s times the attempt)")
      if translator.sawResultWithoutStart {
        sentences.append(
          "worker starts: WorkManager writes them at DEBUG (Configuration.Builder().setMinimumLoggingLevel(Log.DEBUG))")
      }
      if translator.sawEndWithoutResult {
        sentences.append(
          "the results of job runs the app finished: dumpsys jobscheduler's job history says only `app called jobFinished`"
        )
      }
      if translator.sawForceStop {
        sentences.append("the app was force-stopped before the log's process started (WM-ForceStopRunnable)")
      }
      if unnamed { sentences.append("which app wrote each line: process ids without a name are taken as one app") }
    }
    if styles.contains(where: { $0 == .logcatBrief }) {
      sentences.append("times: logcat's brief style has none, so every event is at 0")
    }
    return sentences
  }
}
