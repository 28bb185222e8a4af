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
    /// The recorder stopped writing the file (a full disk, a file-size limit, an I/O
    /// error) and left a stop record saying why: ``lostEvents`` events recorded after it
    /// were not written (`nil` when the count is unreadable). A loss unless that is 0.
    case recordingStopped
  }

  /// The input's name.
  public var file: String?
  /// The byte offset where the damage starts.
  public var offset: Int
  /// How many bytes were skipped, when known.
  public var length: Int?
  /// How many events were lost, when the format knows exactly (`nil` when it does not:
  /// a file cut inside a chunk may have had more chunks after it).
  public var lostEvents: Int?
  /// How many events at least were lost: ``lostEvents`` when known, else the events of
  /// the damaged part the format can count (a torn chunk's), or 0.
  public var minimumLostEvents: Int
  /// One sentence saying what was damaged and what was lost.
  public var message: String
  /// A loss, or a note that loses nothing.
  public var kind: Kind
  /// Whether the events lost include the trace's last ones: the story stops before its
  /// end, so what was still open there did not necessarily stay open (a checker must
  /// not judge the end as the end of the recording).
  public var endsTrace: Bool

  /// Whether data may have been lost: every loss, and a stopped recording that did not
  /// write some events.
  public var isLoss: Bool {
    switch kind {
    case .loss: true
    case .unsealedTail: false
    case .recordingStopped: lostEvents != 0
    }
  }

  /// Creates a damage report.
  public init(
    file: String?, offset: Int, length: Int?, lostEvents: Int?, minimumLostEvents: Int? = nil, message: String,
    kind: Kind = .loss, endsTrace: Bool = false
  ) {
    self.minimumLostEvents = minimumLostEvents ?? lostEvents ?? 0
    self.file = file
    self.offset = offset
    self.length = length
    self.lostEvents = lostEvents
    self.message = message
    self.kind = kind
    self.endsTrace = endsTrace
  }

  /// In compiler style: `FILE: at byte N: error: message` for a loss (the `bgtrace`
  /// commands exit 2 for it), `FILE: at byte N: note: message` for what loses nothing.
  public var description: String {
    "\(file ?? "<input>"): at byte \(offset): \(isLoss ? "error" : "note"): \(message)"
  }
}
