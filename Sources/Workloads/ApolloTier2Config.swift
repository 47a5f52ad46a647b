/// Apollo's Tier-2 scenarios' one setting (`"apolloTier2"`, docs/workloads.md#apollo-tier-2):
/// the sizes of the store each scenario runs in. With none, each runs as Apollo's does, in a store
/// holding its own records alone; with sizes, each runs once per size in a store that already
/// holds `records` background records of `fields` fields each, and a growth row per scenario
/// fits its cost over the sizes (docs/metrics.md#growth).
///
/// ```swift
/// var tier2 = ApolloTier2Config()
/// tier2.sizes = [.init(records: 1_000, fields: 10), .init(records: 500_000, fields: 10)]
/// tier2.quick().sizes      // the 1,000-record size alone
/// ```
public struct ApolloTier2Config: Sendable, Equatable {
  /// One store size: background records and the fields each holds.
  public struct Size: Sendable, Hashable {
    public var records: Int
    public var fields: Int

    public init(records: Int, fields: Int) {
      self.records = records
      self.fields = fields
    }
  }

  /// The store sizes, in the order they run, none twice; empty for Apollo's own scenarios.
  public var sizes: [Size] = []

  /// The most background records and fields one size may ask for.
  public static let largestRecords = 10_000_000
  public static let largestFields = 1_000

  /// The sizes `run --quick` keeps: those of 10,000 records or fewer, or else the smallest; the
  /// large stores are built in full runs alone.
  public static let quickRecords = 10_000

  public init() {}

  /// The sizes of `--quick`: up to ``quickRecords`` records (at least the smallest size).
  public func quick() -> ApolloTier2Config {
    var copy = self
    let small = sizes.filter { $0.records <= Self.quickRecords }
    copy.sizes = small.isEmpty ? Array(sizes.sorted { $0.records < $1.records }.prefix(1)) : small
    return copy
  }
}
