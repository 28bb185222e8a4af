import BackgroundSimulation
import BackgroundTrace
import Testing

/// `nsurlsessiond`'s resume rate limiter (docs/platform-model.md, "Background URLSession
/// transfers"). Apple, "Downloading files in the background": "When the system resumes
/// or relaunches your app, it uses a rate limiter … When your app starts a new download
/// task while in the background, the task doesn't begin until the delay expires. The
/// delay increases each time the system resumes or relaunches your app", and "The delay
/// is reset to 0 whenever the user brings your app to the foreground". Apple Developer
/// Forums thread 14854 (Quinn): "It doubles that delay every time it resumes (or
/// relaunches) your app"; thread 128813, measured on iOS 12.4: "The delay starts with 60
/// seconds"; iOS 26.1's `nsurlsessiond` (`usr/libexec/nsurlsessiond`, the restore dump):
/// 60 s, then twice the last, at most 3600 s.
@Suite struct ResumeRateLimiterTests {
  /// Downloads one file at a time: each finished download starts the next, the pattern
  /// Apple's page warns against, until `count` are done.
  final class OneAtATimeApp: BackgroundAppDelegate, BackgroundSessionDelegate, @unchecked Sendable {
    static let identifier = "com.example.downloads"
    let transfers: any BackgroundTransfers
    let count: Int
    var session: (any BackgroundSession)?
    var completionHandler: (@Sendable () -> Void)?
    var finished = 0

    init(transfers: any BackgroundTransfers, count: Int) {
      self.transfers = transfers
      self.count = count
    }

    func didFinishLaunching() {
      session = transfers.session(identifier: Self.identifier, discretionary: false, delegate: self)
    }

    func perform(userAction action: String) { download() }

    func download() { _ = session?.startTransfer(.download("https://example.com/file")) }

    func handleEvents(forBackgroundSession identifier: String, completionHandler: @escaping @Sendable () -> Void) {
      self.completionHandler = completionHandler
    }

    func transferDidComplete(session: String, task: Int, outcome: TransferOutcome) {
      finished += 1
      if finished < count { download() }
    }

    func sessionDidFinishEvents(session: String) {
      completionHandler?()
      completionHandler = nil
    }
  }

  /// Each transfer takes 10 s and each event 0.1 s; the device charges on Wi-Fi, so a
  /// discretionary transfer waits for nothing but the limiter.
  static func configuration(limiter: Bool) -> SimulationConfiguration {
    var configuration = SimulationConfiguration()
    configuration.transferDuration = .seconds(10)...(.seconds(10))
    configuration.transferEventDelay = .milliseconds(100)...(.milliseconds(100))
    configuration.charging = true
    if !limiter { configuration.transferResumeDelay = nil }
    return configuration
  }

  static func finishTimes(_ system: SimulatedSystem) -> [String] {
    system.trace.events.compactMap { event in
      guard case .netFinish(_, let task, _) = event.kind else { return nil }
      return "\(task)@\(event.time)"
    }
  }

  /// Worked out by hand: download 1 starts in the foreground at 0 and finishes at 10,
  /// and the wake that delivers it (10.1) sets the delay to 60 s, so download 2, started
  /// then in the background, begins at 70.1 and is delivered at 80.2; that wake doubles
  /// the delay to 120 s (download 3: 200.2 to 210.2, delivered at 210.3), the next to
  /// 240 s (download 4: 450.3 to 460.3, delivered at 460.4).
  @Test func eachWakeDoublesTheDelayBeforeTheNextBackgroundDownload() {
    let system = SimulatedSystem(seed: 1, configuration: Self.configuration(limiter: true))
    system.launchApp { OneAtATimeApp(transfers: $0, count: 4) }
    system.userAction("download")
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 600))
    #expect(Self.finishTimes(system) == ["1@10.1", "2@80.2", "3@210.3", "4@460.4"])
  }

  @Test func withoutTheLimiterEachDownloadBeginsAtOnce() {
    let system = SimulatedSystem(seed: 1, configuration: Self.configuration(limiter: false))
    system.launchApp { OneAtATimeApp(transfers: $0, count: 4) }
    system.userAction("download")
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 600))
    #expect(Self.finishTimes(system) == ["1@10.1", "2@20.2", "3@30.3", "4@40.4"])
  }

  /// After two wakes the delay is 120 s; the user opens the app at 100 s, which resets
  /// it, so a download started in the background at 102 s begins at once (12 s later
  /// it is delivered, by a wake that sets the delay to 60 s again).
  @Test func theUserOpeningTheAppResetsTheDelay() {
    let system = SimulatedSystem(seed: 1, configuration: Self.configuration(limiter: true))
    system.launchApp { OneAtATimeApp(transfers: $0, count: 2) }
    system.userAction("download")
    system.advance(by: .seconds(1))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 100))
    system.moveToForeground()
    system.advance(to: TraceTime(seconds: 101))
    system.moveToBackground()
    system.advance(to: TraceTime(seconds: 102))
    system.userAction("download")
    system.advance(to: TraceTime(seconds: 600))
    #expect(Self.finishTimes(system) == ["1@10.1", "2@80.2", "3@112.1"])
  }

  /// A discretionary transfer waits for Wi-Fi and power (`isDiscretionary`: "the system
  /// might delay transferring large files until the device is plugged in and connected
  /// to the network via Wi-Fi"): on a metered network it waits until Wi-Fi, even on power.
  @Test func aDiscretionaryTransferWaitsForWiFi() {
    var configuration = Self.configuration(limiter: true)
    configuration.networkMetered = true
    let system = SimulatedSystem(seed: 1, configuration: configuration)
    system.launchApp { OneAtATimeApp(transfers: $0, count: 1) }
    system.moveToBackground()
    system.userAction("download")  // started in the background: discretionary
    system.advance(to: TraceTime(seconds: 300))
    #expect(Self.finishTimes(system).isEmpty)
    system.setEnvironment(metered: false)
    system.advance(to: TraceTime(seconds: 600))
    #expect(Self.finishTimes(system) == ["1@310.1"])
  }
}
