import Results

/// Apollo's Tier-2 scenarios' lines (docs/apollo.md), one per store × scenario: the iterations,
/// their mean and percentiles, and the store's bytes after the 1,000-record merge.
///
/// ```
/// Apollo iOS's Tier-2 scenarios (per iteration; bytes/record after merging 1,000 records)
/// store           scenario                        n   mean     p50      p99      bytes/record
/// memory          single_key_load_10_fields       50  210 ns   190 ns   420 ns   316
/// ```
enum ApolloTier2Table {
  static func render(_ configurations: [MeasuredConfiguration]) -> String {
    let columns: [TextTable.Column] = ["store", "scenario", "n", "mean", "p50", "p99", "bytes/record"]
    var rows: [[String]] = []
    for result in configurations {
      let bytes = result.summary(.bytesPerRecord).map { String(Int($0.p50.rounded())) } ?? "-"
      for metric in Metric.tier2Scenarios {
        guard let summary = result.summary(metric) else { continue }
        rows.append([
          result.scope.store, metric.name, String(summary.n), HumanFormat.nanoseconds(summary.mean),
          HumanFormat.nanoseconds(summary.p50), HumanFormat.nanoseconds(summary.p99), metric == .tier2ManyRecordMerge ? bytes : "",
        ])
      }
    }
    guard !rows.isEmpty else { return "" }
    return "Apollo iOS's Tier-2 scenarios (one sample per iteration; bytes/record of the store after merging the 1,000 records)\n"
      + TextTable(columns: columns, rows: rows).render()
  }
}
