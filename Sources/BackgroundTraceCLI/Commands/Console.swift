import BackgroundTrace
import Synchronization

/// Where a command writes: standard output for results, standard error for
/// diagnostics. Tests use ``CapturingConsole`` to read both.
package protocol Console: AnyObject, Sendable {
  /// Writes `text` to standard output as is.
  func write(_ text: String)
  /// Writes `text` to standard error as is.
  func writeError(_ text: String)
}

/// The process's real standard output and standard error, unbuffered past each call.
package final class StandardConsole: Console {
  /// Creates the console.
  package init() {}

  /// Writes `text` to standard output, retrying interrupted writes; stops quietly at a
  /// closed pipe.
  package func write(_ text: String) { Self.write(text, to: 1) }
  /// Writes `text` to standard error, retrying interrupted writes; stops quietly at a
  /// closed pipe.
  package func writeError(_ text: String) { Self.write(text, to: 2) }

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    // A failure here is a closed pipe (`| head`): there is nothing more to do.
    _ = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
  }
}

/// A console that keeps what was written, for tests.
package final class CapturingConsole: Console {
  private let written = Mutex((output: "", errors: ""))

  /// Everything written to standard output.
  package var output: String { written.withLock { $0.output } }
  /// Everything written to standard error.
  package var errors: String { written.withLock { $0.errors } }

  /// Creates an empty console.
  package init() {}

  /// Appends `text` to ``output``.
  package func write(_ text: String) { written.withLock { $0.output += text } }
  /// Appends `text` to ``errors``.
  package func writeError(_ text: String) { written.withLock { $0.errors += text } }
}
