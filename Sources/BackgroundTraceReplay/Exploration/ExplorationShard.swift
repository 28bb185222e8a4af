/// One of N deterministic slices of an exploration's runs: shard K of N takes runs K-1,
/// K-1+N, K-1+2N, …, so N jobs with shards 1/N … N/N together run exactly the runs one
/// job would, and their reports merge (docs/guides/exploration.md).
public struct ExplorationShard: Sendable, Hashable, CustomStringConvertible {
  /// K, from 1.
  public let index: Int
  /// N.
  public let count: Int

  /// Every run: shard 1 of 1.
  public static let all = ExplorationShard(validIndex: 1, count: 1)

  private init(validIndex index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Shard `index` of `count`; `nil` unless 1 ≤ `index` ≤ `count`.
  public init?(_ index: Int, of count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.init(validIndex: index, count: count)
  }

  /// Parses `K/N`, as `--shard` takes it; `nil` unless 1 ≤ K ≤ N.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index, of: count)
  }

  /// Whether run number `run` (from 0) belongs to this shard.
  public func contains(run: Int) -> Bool { run % count == index - 1 }

  /// `K/N`.
  public var description: String { "\(index)/\(count)" }
}
