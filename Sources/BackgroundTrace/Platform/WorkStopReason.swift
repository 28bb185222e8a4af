/// Why the system stopped a running worker, as androidx `WorkInfo.stopReason` reports
/// it: JobScheduler's `JobParameters.STOP_REASON_*` codes (0 and up), which WorkManager
/// passes on, and WorkManager's own (negative). Each names the word `work.stop`'s
/// `reason=` records for it; reasons that share a word (the lost constraints) are told
/// apart only through ``WorkInfo``.
public struct WorkStopReason: Sendable, Hashable, CustomStringConvertible {
  /// The code `WorkInfo.getStopReason()` returns.
  public let code: Int
  /// The androidx constant's name, e.g. `STOP_REASON_TIMEOUT`.
  public let constant: String
  /// The word a trace's `work.stop reason=` records; `nil` for ``notStopped``.
  public let word: String?
  /// What it means, in a sentence's words ("the app cancelled or replaced it").
  public let meaning: String

  private init(_ code: Int, _ constant: String, _ word: String?, _ meaning: String) {
    self.code = code
    self.constant = constant
    self.word = word
    self.meaning = meaning
  }

  /// The constant's name.
  public var description: String { constant }

  /// `STOP_REASON_CANCELLED_BY_APP` (1): `cancelWorkById`, `cancelUniqueWork`,
  /// `cancelAllWorkByTag`, `cancelAllWork`, or a `REPLACE` enqueue.
  public static let cancelledByApp = WorkStopReason(
    1, "STOP_REASON_CANCELLED_BY_APP", "cancelled", "the app cancelled or replaced it")
  /// `STOP_REASON_TIMEOUT` (3): the job ran past its maximum execution time.
  public static let timeout = WorkStopReason(
    3, "STOP_REASON_TIMEOUT", "timeout", "it ran past the time a job may run (10 minutes; 30 while charging)")
  /// `STOP_REASON_DEVICE_STATE` (4): the device state (Doze) requires it.
  public static let deviceState = WorkStopReason(
    4, "STOP_REASON_DEVICE_STATE", "doze", "the device entered Doze")
  /// `STOP_REASON_CONSTRAINT_CHARGING` (6): the device stopped charging.
  public static let constraintCharging = WorkStopReason(
    6, "STOP_REASON_CONSTRAINT_CHARGING", "constraint", "a constraint it needs was lost")
  /// `STOP_REASON_CONSTRAINT_CONNECTIVITY` (7): the network it needs was lost.
  public static let constraintConnectivity = WorkStopReason(
    7, "STOP_REASON_CONSTRAINT_CONNECTIVITY", "constraint", "a constraint it needs was lost")
  /// `STOP_REASON_CONSTRAINT_BATTERY_NOT_LOW` (5): the battery became low.
  public static let constraintBatteryNotLow = WorkStopReason(
    5, "STOP_REASON_CONSTRAINT_BATTERY_NOT_LOW", "constraint", "a constraint it needs was lost")
  /// `STOP_REASON_CONSTRAINT_DEVICE_IDLE` (8): the device is no longer idle.
  public static let constraintDeviceIdle = WorkStopReason(
    8, "STOP_REASON_CONSTRAINT_DEVICE_IDLE", "constraint", "a constraint it needs was lost")
  /// `STOP_REASON_CONSTRAINT_STORAGE_NOT_LOW` (9): storage became low.
  public static let constraintStorageNotLow = WorkStopReason(
    9, "STOP_REASON_CONSTRAINT_STORAGE_NOT_LOW", "constraint", "a constraint it needs was lost")
  /// `STOP_REASON_QUOTA` (10): the app's quota ran out: an expedited attempt's
  /// expedited quota (it then runs on as regular work), or a regular one's job quota.
  public static let quota = WorkStopReason(
    10, "STOP_REASON_QUOTA", "quota",
    "the app's quota ran out (an expedited attempt's quota, then it runs as regular work; a regular one's, "
      + "its standby bucket's job quota)")
  /// `STOP_REASON_BACKGROUND_RESTRICTION` (11): the user restricted the app's
  /// background use (its battery usage set to "Restricted", `isBackgroundRestricted`),
  /// and it is neither on top nor running a foreground service.
  public static let backgroundRestriction = WorkStopReason(
    11, "STOP_REASON_BACKGROUND_RESTRICTION", "background-restriction",
    "the user restricted the app's background use, and the app left the foreground")
  /// `STOP_REASON_APP_STANDBY` (12): the standby bucket requires it to stop: a
  /// restricted app's job running outside its quota lost the charger, the idle device,
  /// a battery that is not low or an unmetered network.
  public static let appStandby = WorkStopReason(
    12, "STOP_REASON_APP_STANDBY", "standby",
    "its standby bucket required it to stop (the restricted bucket, outside its quota)")
  /// `STOP_REASON_FOREGROUND_SERVICE_TIMEOUT` (−128): the foreground service it runs as
  /// spent its type's time.
  public static let foregroundServiceTimeout = WorkStopReason(
    -128, "STOP_REASON_FOREGROUND_SERVICE_TIMEOUT", "foreground-timeout",
    "its foreground service type's time was spent")
  /// `STOP_REASON_UNKNOWN` (−512): it stopped and the reason is not known — the app's
  /// process ended (`terminated`), or a device log says only that it was stopped
  /// (``interruptedWord``).
  public static let unknown = WorkStopReason(
    -512, "STOP_REASON_UNKNOWN", "terminated", "the app's process ended")
  /// `STOP_REASON_NOT_STOPPED` (−256): never stopped, or it returned `retry`.
  public static let notStopped = WorkStopReason(-256, "STOP_REASON_NOT_STOPPED", nil, "it was not stopped")

  /// The word an imported trace's `work.stop reason=` records for a stop whose log says
  /// it happened but not why: androidx `Processor`'s "WorkerWrapper interrupted for", or
  /// a `dumpsys jobscheduler` job history stop whose reason names no one
  /// `STOP_REASON_*` (docs/import.md).
  public static let interruptedWord = "interrupted"

  /// Every reason the model gives, in code order of androidx's list.
  public static let all: [WorkStopReason] = [
    .cancelledByApp, .timeout, .deviceState, .constraintBatteryNotLow, .constraintCharging, .constraintConnectivity,
    .constraintDeviceIdle, .constraintStorageNotLow, .quota, .backgroundRestriction, .appStandby,
    .foregroundServiceTimeout, .unknown, .notStopped,
  ]

  /// What a trace's `work.stop reason=WORD` means, with the constant(s) it stands for:
  /// "the device entered Doze (STOP_REASON_DEVICE_STATE)". A word no reason records is
  /// said to be unknown to the model.
  public static func meaning(ofWord word: String) -> String {
    if word == interruptedWord {
      return "the log says it was stopped, not why (Processor's \"WorkerWrapper interrupted for\", "
        + "or a job history stop that names no STOP_REASON)"
    }
    let reasons = all.filter { $0.word == word }
    guard let first = reasons.first else { return "\(word) (a reason this model does not know)" }
    let constants = reasons.count > 1 ? "STOP_REASON_CONSTRAINT_*" : first.constant
    return "\(first.meaning) (\(constants))"
  }
}
