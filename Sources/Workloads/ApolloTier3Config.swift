/// Apollo iOS's Tier-3 scenarios (`"apolloTier3"`, docs/workloads.md#apollotier3): the size of
/// the store they run on, or several sizes and a growth row per scenario over them
/// (docs/metrics.md#growth), and where to keep the files the stores built. The records (ten types,
/// their fields in a fixed order) and the six
/// scenarios are fixed; the iterations are the workload's `repetitions` and `warmup` (50 after 5,
/// as Tier 2).
///
/// ```json
/// "apolloTier3": {"records": 500000, "keep": "tier3-files"}
/// "apolloTier3": {"sizes": [[100, 5], [1000, 10], [10000, 10], [500000, 10]]}
/// ```
///
/// ```swift
/// var tier3 = ApolloTier3Config()
/// tier3.stores                 // [500,000 × 10]: Apollo's own store
/// tier3.sizes = [.init(records: 1_000, fields: 10), .init(records: 500_000, fields: 10)]
/// tier3.quick().stores         // [1,000 × 10]: the large stores are built in full runs alone
/// ```
public struct ApolloTier3Config: Sendable, Equatable {
  /// One store size: records, and the fields each holds (the first `fields` of the ten). The same
  /// pair as Tier 2's sizes.
  public typealias Size = ApolloTier2Config.Size

  /// The records of the one store each layout builds when ``sizes`` is empty: the perf plan's
  /// 500,000, of ten fields. Its rows are the scenarios' own names.
  public var records = 500_000
  /// The store sizes, in the order they run, none twice, two at least; empty for the one store of
  /// ``records``. Each is built once per layout, its rows named `<scenario>_at_<records>x<fields>`.
  public var sizes: [Size] = []
  /// A directory (resolved against the workload file's) where each store's file is copied, as
  /// `<label>.sqlite`, once its scenarios ran: the dataset for another program to open
  /// (`scripts/apollo3-tier3` opens a `rows` file with Apollo's own row store). Nil: removed with
  /// the run's scratch directory.
  public var keep: String?

  /// What a file may ask for: at least one record of each of the ten types.
  public static let recordRange = 10...10_000_000
  /// The fields a record may hold: the selection set's four (`__typename`, `id`, `name`, `mass`)
  /// to the generator's ten.
  public static let fieldRange = 4...10
  /// The store `run --quick` builds at most (for CI); with sizes, the sizes it keeps.
  public static let quickRecords = 10_000
  /// The most records a store is built with without `--allow-large` (about 300 bytes of file a
  /// record in the row layouts).
  public static let largeRecords = 2_000_000

  public init() {}

  /// The stores a layout builds, in order: each of ``sizes``, or ``records`` of ten fields.
  public var stores: [Size] {
    sizes.isEmpty ? [Size(records: records, fields: Self.fieldRange.upperBound)] : sizes
  }

  /// The form `run --quick` runs: ``records`` at most ``quickRecords``; the sizes up to
  /// ``quickRecords`` records (the smallest if none is).
  public func quick() -> ApolloTier3Config {
    var copy = self
    copy.records = min(records, Self.quickRecords)
    if !sizes.isEmpty {
      let small = sizes.filter { $0.records <= Self.quickRecords }
      copy.sizes = small.isEmpty ? Array(sizes.sorted { $0.records < $1.records }.prefix(1)) : small
    }
    return copy
  }

  /// Why a store is too large to build without `--allow-large`, or nil.
  public var tooLarge: String? {
    let records = stores.map(\.records).max() ?? 0
    return records > Self.largeRecords
      ? "builds a store of \(records) records, more than \(Self.largeRecords) (about \(records * 300 / 1_000_000) MB a layout)" : nil
  }
}
