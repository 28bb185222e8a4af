import BackgroundTrace

/// A media player running as a foreground service (`mediaPlayback`): what keeps an
/// Android app in the foreground for the job quotas and the background restriction
/// while the user is elsewhere.
final class MediaPlayer: ForegroundService {
  func onStartCommand(_ control: ForegroundServiceControl) { _ = try? control.startForeground(type: .mediaPlayback) }
}
