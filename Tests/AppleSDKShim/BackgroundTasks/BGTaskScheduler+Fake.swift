/// The fake's controls: not BackgroundTasks API. Tests drive the shim's scheduler with
/// them the way the system would (launch a registered task, inspect what is pending).
extension BGTaskScheduler {
  /// The identifiers with a launch handler, sorted.
  public var registeredIdentifiers: [String] { registrations.keys.sorted() }

  /// The queue an identifier's handler was registered with.
  public func queue(forTaskWithIdentifier identifier: String) -> DispatchQueue? {
    registrations[identifier]?.queue
  }

  /// The requests submitted and not launched or cancelled, in submission order.
  public var pendingRequests: [BGTaskRequest] { pending }

  /// Launches `identifier`'s registered handler with a new task, as the system does when
  /// its time comes: a `BGContinuedProcessingTask` for a pending continued-processing
  /// request, a `BGHealthResearchTask` for a health research one, a `BGProcessingTask`
  /// for a processing one, otherwise a `BGAppRefreshTask`; the pending request goes. The
  /// handler runs before this returns (on its registered queue, when it has one).
  ///
  /// - Returns: the launched task, or `nil` when nothing is registered for `identifier`.
  @discardableResult
  public func launch(_ identifier: String) -> BGTask? {
    guard let registration = registrations[identifier] else { return nil }
    let request = pending.first { $0.identifier == identifier }
    pending.removeAll { $0.identifier == identifier }
    let task: BGTask =
      if let continued = request as? BGContinuedProcessingTaskRequest {
        BGContinuedProcessingTask(identifier: identifier, title: continued.title, subtitle: continued.subtitle)
      } else if request is BGHealthResearchTaskRequest {
        BGHealthResearchTask(identifier: identifier)
      } else if request is BGProcessingTaskRequest {
        BGProcessingTask(identifier: identifier)
      } else {
        BGAppRefreshTask(identifier: identifier)
      }
    if let queue = registration.queue {
      queue.sync { registration.launchHandler(task) }
    } else {
      registration.launchHandler(task)
    }
    return task
  }
}
