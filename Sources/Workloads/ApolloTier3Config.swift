/// Apollo iOS's Tier-3 scenarios (`"apolloTier3"`, docs/apollo.md#tier-3): the store's size, and
/// where to keep the files the stores built. The records (ten fields, ten types) and the six
/// scenarios are fixed; the iterations are the workload's `repetitions` and `warmup` (50 after 5,
/// as Tier 2).
///
/// ```json
/// "apolloTier3": {"records": 500000, "keep": "tier3-files"}
/// ```
public struct ApolloTier3Config: Sendable, Equatable {
  /// The records the store is built with, once per layout: the perf plan's 500,000.
  public var records = 500_000
  /// A directory (resolved against the workload file's) where each store's file is copied, as
  /// `<label>.sqlite`, once its scenarios ran: the dataset for another program to open
  /// (`scripts/apollo3-tier3` opens a `rows` file with Apollo's own row store). Nil: removed with
  /// the run's scratch directory.
  public var keep: String?

  /// What a file may ask for: at least one record of each of the ten types.
  public static let recordRange = 10...10_000_000
  /// The store `run --quick` builds at most (for CI).
  public static let quickRecords = 10_000
  /// The most records a store is built with without `--allow-large` (about 300 bytes of file a
  /// record in the row layouts).
  public static let largeRecords = 2_000_000

  public init() {}

  /// Why the store is too large to build without `--allow-large`, or nil.
  public var tooLarge: String? {
    records > Self.largeRecords
      ? "builds a store of \(records) records, more than \(Self.largeRecords) (about \(records * 300 / 1_000_000) MB a layout)" : nil
  }
}
