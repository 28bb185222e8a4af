/// What a queue did with requests enqueued under a unique name
/// (``WorkQueue/enqueueUniqueWork(_:policy:_:)``).
public struct EnqueuedUniqueWork: Sendable, Hashable {
  /// The works the requests became, in their order: the unique name itself for one
  /// request enqueued as the name's work, else an id of each one's own; empty when
  /// `keep` kept the name's unfinished work.
  public var works: [String]
  /// The works of the name each of ``works`` waits for (the name's leaves an `append`
  /// put them behind), recorded as `work.after`; empty otherwise.
  public var prerequisites: [String]

  /// Creates an answer.
  public init(works: [String], prerequisites: [String] = []) {
    self.works = works
    self.prerequisites = prerequisites
  }
}
