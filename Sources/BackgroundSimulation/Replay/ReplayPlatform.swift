public import BackgroundTrace

/// The platform a replay gives the app: the same protocols as a device or the
/// simulation, answering from the recorded trace — `beginBackgroundTask` returns the
/// recorded id, a submit gets the recorded rejection, a worker starts at the recorded
/// attempt — and recording what the app does on the virtual clock.
public final class ReplayPlatform: @unchecked Sendable {
  /// The virtual-time scheduler the replay runs on.
  public let scheduler = VirtualTimeScheduler()
  let recorder: TraceRecorder
  var script: ReplayScript
  var unapplied: [UnappliedDecision] = []

  // Answers consumed in call order.
  var beginIndex = 0
  var submitIndex = 0
  var registerIndex = 0
  var inputIndex: [String: Int] = [:]

  // What the app set up.
  var expirationHandlers: [Int: () -> Void] = [:]
  /// Open tasks (begun, not ended), and which of them have expired.
  var openTasks: [Int: Bool] = [:]
  var launchHandlers: [String: (any ScheduledTask) -> Void] = [:]
  var launchedTasks: [Int: ReplayScheduledTask] = [:]
  var works: [String: WorkRequest] = [:]
  var runningWorkers: [String: (attempt: Int, task: Task<Void, Never>)] = [:]
  var appState: AppState?
  var delegate: (any BackgroundAppDelegate)?
  var makeApp: ((ReplayPlatform) -> any BackgroundAppDelegate)?

  init(script: ReplayScript, meta: TraceMetadata) {
    self.script = script
    recorder = TraceRecorder(meta: meta)
  }

  /// A clock on the replay's virtual time, for async app code.
  public var clock: VirtualClock { scheduler.clock }

  /// Inputs answered from the recording.
  public var inputs: any RecordedInputs { ReplayedInputs(platform: self) }

  func record(_ kind: TraceEvent.Kind) {
    recorder.record(kind, at: scheduler.now)
  }
}

extension ReplayPlatform: BackgroundTaskHost {
  public func beginBackgroundTask(withName taskName: String?, expirationHandler handler: (() -> Void)?)
    -> BackgroundTaskID
  {
    let id: Int
    if beginIndex < script.beginIDs.count {
      id = script.beginIDs[beginIndex]
    } else {
      id = (script.beginIDs.max() ?? 0) + beginIndex - script.beginIDs.count + 1  // past the recording
    }
    beginIndex += 1
    record(.taskBegin(id: id, name: taskName))
    if id != 0 {
      openTasks[id] = false
      if let handler { expirationHandlers[id] = handler }
    }
    return BackgroundTaskID(rawValue: id)
  }

  public func endBackgroundTask(_ identifier: BackgroundTaskID) {
    record(.taskEnd(id: identifier.rawValue))
    expirationHandlers[identifier.rawValue] = nil
    openTasks[identifier.rawValue] = nil
  }

  public var backgroundTimeRemaining: Double {
    appState == .background ? 30 : .greatestFiniteMagnitude
  }
}

extension ReplayPlatform: TaskScheduling {
  @discardableResult
  public func register(
    forTaskWithIdentifier identifier: String, launchHandler: @escaping (any ScheduledTask) -> Void
  ) -> Bool {
    let ok = registerIndex < script.registerResults.count ? script.registerResults[registerIndex] : true
    registerIndex += 1
    record(.schedRegister(ident: identifier, ok: ok ? nil : false))
    if ok { launchHandlers[identifier] = launchHandler }
    return ok
  }

  public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
    let earliest = request.earliestBeginDelay.map { scheduler.now.adding(nanoseconds: TraceTime($0).nanoseconds) }
    record(
      .schedSubmit(
        SchedulerSubmission(
          ident: request.identifier, type: request.type, earliest: earliest,
          network: request.type == .processing && request.requiresNetworkConnectivity ? true : nil,
          power: request.type == .processing && request.requiresExternalPower ? true : nil)))
    let rejection = submitIndex < script.submitRejections.count ? script.submitRejections[submitIndex] : nil
    submitIndex += 1
    if let rejection {
      record(.schedReject(ident: request.identifier, error: rejection))
      throw TaskSchedulerError(rejection)
    }
  }

  public func cancel(taskRequestWithIdentifier identifier: String) {
    record(.schedCancel(.identifier(identifier)))
  }

  public func cancelAllTaskRequests() {
    record(.schedCancel(.all))
  }

  /// Empty: pending requests are the recording's business, not the replay's.
  public func pendingTaskRequests() -> [TaskRequest] { [] }
}

extension ReplayPlatform: WorkQueue {
  public func enqueue(_ request: WorkRequest, policy: ExistingWorkPolicy?) {
    record(.workEnqueue(request.enqueueEvent(policy: policy)))
    if policy == .keep, works[request.work] != nil { return }
    works[request.work] = request
  }

  public func cancel(work: String) {
    record(.workCancel(work: work))
  }
}

/// A launched task in a replay.
final class ReplayScheduledTask: ScheduledTask, @unchecked Sendable {
  let identifier: String
  let run: Int
  var expirationHandler: (() -> Void)?
  weak var platform: ReplayPlatform?

  init(identifier: String, run: Int, platform: ReplayPlatform) {
    self.identifier = identifier
    self.run = run
    self.platform = platform
  }

  func setTaskCompleted(success: Bool) {
    platform?.record(.schedComplete(run: run, success: success))
  }
}

/// Inputs in a replay: the recorded value, handed back at the recorded time.
struct ReplayedInputs: RecordedInputs {
  let platform: ReplayPlatform

  func value(for key: String, _ operation: @escaping @Sendable () async -> String) async -> String {
    let index = platform.inputIndex[key, default: 0]
    platform.inputIndex[key] = index + 1
    guard let recorded = platform.script.inputs[key], index < recorded.count else {
      // Not in the recording: the operation had not completed when the recording
      // ended (or the process died first), so in the replay it never completes either.
      // No real operation runs.
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      return ""
    }
    let (time, value) = recorded[index]
    try? await platform.clock.sleep(until: VirtualClock.Instant(offset: time.duration))
    platform.record(.input(key: key, value: value))
    return value
  }
}
