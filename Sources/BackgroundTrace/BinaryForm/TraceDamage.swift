/// A part of a binary trace that could not be read, and what was lost with it; or a
/// note that loses nothing (``Kind/unsealedTail``).
public struct TraceDamage: Sendable, Hashable, CustomStringConvertible {
  /// Whether a report is a loss or a note.
  public enum Kind: Sendable, Hashable {
    /// Bytes that could not be read; events may be lost (``lostEvents``).
    case loss
    /// The last log chunk was never sealed, because the process recording it was
    /// killed or did not close the recorder: its committed events were all read, so
    /// nothing is lost. `bgtrace` prints it as a note and exits as for an intact trace.
    case unsealedTail
  }

  /// The input's name.
  public var file: String?
  /// The byte offset where the damage starts.
  public var offset: Int
  /// How many bytes were skipped, when known.
  public var length: Int?
  /// How many events were lost, when known.
  public var lostEvents: Int?
  /// One sentence saying what was damaged and what was lost.
  public var message: String
  /// A loss, or a note that loses nothing.
  public var kind: Kind

  /// Whether data may have been lost (every kind but ``Kind/unsealedTail``).
  public var isLoss: Bool { kind == .loss }

  /// Creates a damage report.
  public init(file: String?, offset: Int, length: Int?, lostEvents: Int?, message: String, kind: Kind = .loss) {
    self.file = file
    self.offset = offset
    self.length = length
    self.lostEvents = lostEvents
    self.message = message
    self.kind = kind
  }

  /// In compiler style: `FILE: at byte N: warning: message` for a loss,
  /// `FILE: at byte N: note: message` for an unsealed tail.
  public var description: String {
    "\(file ?? "<input>"): at byte \(offset): \(isLoss ? "warning" : "note"): \(message)"
  }
}
