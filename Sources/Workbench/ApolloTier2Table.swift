import Results
import Workloads

/// Apollo's Tier-2 scenarios' lines (docs/apollo.md), one per store × scenario (× store size, with
/// sizes): the iterations, their mean and percentiles, and the store's bytes after the 1,000-record
/// merge; beside the over-fetch's matched-type-case-only baseline, the perf plan's gate on the
/// pair (``OverfetchGate``: the over-fetch's mean over the baseline's, and its verdict); with
/// sizes, on each scenario's largest size, k of its p50 ∝ recordsᵏ and the p50 at the largest
/// size over the p50 at 1,000 records (docs/metrics.md#growth).
///
/// ```
/// Apollo iOS's Tier-2 scenarios (per iteration; bytes/record after merging 1,000 records)
/// store   scenario                                         n   mean     p50      p99      bytes/record  over-fetch gate
/// memory  single_key_load_10_fields                        50  210 ns   190 ns   420 ns
/// memory  inline_fragment_matched_type_case_only_8_fields  50  250 ns   240 ns   400 ns                 1.021x (parity): pass, neither lands
/// ```
enum ApolloTier2Table {
  static func render(_ configurations: [MeasuredConfiguration], sizes: [ApolloTier2Config.Size] = []) -> String {
    guard sizes.isEmpty else { return renderSizes(configurations, sizes: sizes) }
    let columns: [TextTable.Column] = ["store", "scenario", "n", "mean", "p50", "p99", "bytes/record", "over-fetch gate"]
    var rows: [[String]] = []
    for result in configurations {
      let bytes = result.summary(.bytesPerRecord).map { String(Int($0.p50.rounded())) } ?? "-"
      let gate = result.summary(.tier2OverfetchGateRatio).flatMap { OverfetchGate(ratio: $0.p50)?.summary } ?? "-"
      for metric in Metric.tier2Scenarios {
        guard let summary = result.summary(metric) else { continue }
        rows.append([
          result.scope.store, metric.name, String(summary.n), HumanFormat.nanoseconds(summary.mean),
          HumanFormat.nanoseconds(summary.p50), HumanFormat.nanoseconds(summary.p99), metric == .tier2ManyRecordMerge ? bytes : "",
          metric == .tier2MatchedTypeCaseOnly ? gate : "",
        ])
      }
    }
    guard !rows.isEmpty else { return "" }
    return "Apollo iOS's Tier-2 scenarios (one sample per iteration; bytes/record of the store after merging the 1,000 records; "
      + "over-fetch gate: the over-fetch's mean over its matched-type-case-only baseline's, regression at +5%)\n"
      + TextTable(columns: columns, rows: rows).render()
  }

  /// With store sizes: a line per store × scenario × size, and the growth on the largest.
  private static func renderSizes(_ configurations: [MeasuredConfiguration], sizes: [ApolloTier2Config.Size]) -> String {
    let columns: [TextTable.Column] = ["store", "scenario", "records × fields", "n", "p50", "p99", "k", "ratio"]
    let largest = sizes.map(\.records).max()
    var rows: [[String]] = []
    for result in configurations {
      for metric in Metric.tier2Scenarios {
        for size in sizes {
          guard let summary = result.summary(.tier2(metric, at: size)) else { continue }
          let last = size.records == largest
          rows.append([
            result.scope.store, metric.name, "\(size.records) × \(size.fields)", String(summary.n),
            HumanFormat.nanoseconds(summary.p50), HumanFormat.nanoseconds(summary.p99),
            last ? result.summary(.growth(metric.name, phase: .tier2)).map { HumanFormat.exponent($0.p50) } ?? "-" : "",
            last ? result.summary(.growthRatio(metric.name, phase: .tier2)).map { HumanFormat.ratio($0.p50) } ?? "-" : "",
          ])
        }
      }
    }
    guard !rows.isEmpty else { return "" }
    return "Apollo iOS's Tier-2 scenarios at store sizes (one sample per iteration, in a store also holding the background records; "
      + "k: p50 ∝ recordsᵏ over the sizes; ratio: p50 at the largest size over p50 at 1,000 records or the smallest)\n"
      + TextTable(columns: columns, rows: rows).render()
  }
}
