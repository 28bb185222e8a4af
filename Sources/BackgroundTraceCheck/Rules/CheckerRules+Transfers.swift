import BackgroundTrace
import _BackgroundTraceStorage

/// Background `URLSession`s: the completion handler a wake gives the app, and the
/// session the woken process must create (docs/rules.md, `net-*`).
extension CheckerRules {
  /// Applies the rules to a transition of a background session or transfer.
  mutating func observeTransfer(_ transition: LifecycleTransition, in process: ProcessLife) {
    switch transition {
    case .sessionCreated(let session, let first?):
      // CFNetwork logs "A background URLSession with identifier … already exists!" and
      // returns the existing session, with its old delegate.
      report(
        .netSessionDuplicate,
        "background session \(session) was created again in this process (first at \(first.seconds)); "
          + "URLSession returns the existing one, with its first delegate")
    case .sessionWoken(let session):
      handlerReported.remove(session)
      // The wake ends the last one's window: one transfer started in it extends the streak.
      let streak = wakeStreaks[session].map { $0.started == 1 ? $0.streak + 1 : 0 } ?? 0
      wakeStreaks[session] = (streak, 0)
      if streak == Self.oneTransferWakesInARow {
        report(
          .netOneTransferPerWake,
          "the system woke the app for background session \(session) \(streak) times in a row, and each time the "
            + "app started one new transfer from the background: nsurlsessiond's resume rate limiter doubles its "
            + "delay at each wake (60s, 120s, 240s, up to 3600s) before such a transfer begins; start them together")
      }
    case .transferSubmitted(let session, _, _, let discretionary):
      let inBackground = discretionary == true || process.state == .background || process.state == .suspended
      if inBackground, wakeStreaks[session] != nil { wakeStreaks[session]?.started += 1 }
    case .sessionEventsDone(let session, _?):
      insertDeadline(.sessionHandler(process: process.number, session: session, eventsDoneAt: now), at: now + budget)
    case .handlerCalled(let session, nil, _):
      report(
        .netHandlerUnknown,
        "the completion handler of background session \(session) was called with no wake outstanding "
          + "(called twice, or for a session the system did not wake)")
    case .handlerCalled(let session, let wokenAt?, nil):
      report(
        .netHandlerEarly,
        "the completion handler of background session \(session) (woken at \(wokenAt.seconds)) was called before "
          + "urlSessionDidFinishEvents; call it after, on the main thread")
    case .handlerNotCalled(let session, let wokenAt, _, let end):
      guard handlerReported.insert(session).inserted else { return }
      report(
        .netHandlerNotCalled,
        "the completion handler of background session \(session) (woken at \(wokenAt.seconds)) was not called "
          + end.phrase)
    case .sessionNotRecreated(let session, let wokenAt, let end):
      report(
        .netNotRecreated,
        "the system woke the app for background session \(session) at \(wokenAt.seconds), and the process never "
          + "created it \(end.phrase): its events were never delivered")
    default:
      break
    }
  }

  /// The wakes in a row, each with one transfer started from the background, that make
  /// `net-one-transfer-per-wake`.
  static let oneTransferWakesInARow = 3

  /// A wake whose events were done at `eventsDoneAt` must have its handler called within
  /// the budget: reported when the walker's session still owes that call.
  mutating func expireSessionHandler(
    process number: Int, session: String, eventsDoneAt: TraceTime, sessions: borrowing StringKeyedTable<SessionLife>,
    running: ProcessLife?
  ) {
    guard let running, running.number == number, let life = sessions[session], let wokenAt = life.wokenAt,
      life.eventsDoneAt == eventsDoneAt, handlerReported.insert(session).inserted
    else { return }
    report(
      .netHandlerNotCalled,
      "the completion handler of background session \(session) (woken at \(wokenAt.seconds)) was not called within "
        + "the \(budget.seconds) background budget after urlSessionDidFinishEvents at \(eventsDoneAt.seconds)")
  }
}
