import NormalizedCache
import Results

/// One store an `apolloTier3` run builds per layout: its records and fields, and whether its rows
/// carry the size (`apolloTier3.sizes`: `select_exact_key_at_500000x10`) or the scenarios' own
/// names (`apolloTier3.records`: `select_exact_key`).
struct ApolloTier3Size: CustomStringConvertible {
  let records: Int
  let fields: Int
  let named: Bool

  /// The row of `metric` in this store.
  func metric(_ metric: Metric) -> Metric { named ? .tier3(metric, atRecords: records, fields: fields) : metric }

  /// The keys of the scenarios' type (a tenth of the store), in key order.
  var typeKeys: [CacheKey] { ApolloTier3Records.keys(ofType: ApolloTier3Records.scenarioType, count: records) }

  /// The name of the built file a layout's floor copies: `limit-rows-wal-normal-500000x10`.
  func keptName(_ label: String) -> String { "\(label)-\(records)x\(fields)" }

  /// `500000 × 10`.
  var description: String { "\(records) × \(fields)" }
}
