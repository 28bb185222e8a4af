import BackgroundTrace
import Foundation

/// A fresh temporary directory per test, and the traces the golden tests use.
enum GoldenFixtures {
  static func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-golden-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A clean save in the background: begin, end, suspend.
  static let save = """
    bgtrace 1
    meta platform=ios
    0 app.launch
    0.5 app.state to=active
    10 app.state to=background
    10 task.begin id=7 name=SaveDocument
    12.25 task.end id=7
    15 app.state to=suspended

    """

  /// The same save where the system handed out id 1 instead of 7.
  static let saveRenumbered = save.replacingOccurrences(of: "id=7", with: "id=1")

  /// The save ending 0.5 s later.
  static let saveSlower = save.replacingOccurrences(of: "12.25 task.end", with: "12.75 task.end")

  /// The seed's bug: the save ends its task twice.
  static let saveEndedTwice = save.replacingOccurrences(
    of: "12.25 task.end id=7\n", with: "12.25 task.end id=7\n12.5 task.end id=7\n")

  static func trace(_ text: String) throws -> RecordedTrace { try RecordedTrace(text: text) }
}
