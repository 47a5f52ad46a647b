import Foundation
import Results
import Workloads

/// Apollo's Tier-3 scenarios' lines (docs/apollo.md#tier-3), one per store × scenario: the
/// iterations, mean, standard deviation, p50, p95 and p99 in milliseconds, and, beside the five
/// scenarios §7.4 gates, the gate and whether the p50 keeps to it. Then each store's build. With
/// `apolloTier3.sizes`, a line per store × scenario × size, and on each scenario's largest size k of
/// its p50 ∝ recordsᵏ and the p50 there over the p50 at 1,000 records (docs/metrics.md#growth).
///
/// ```
/// Apollo iOS's Tier-3 scenarios (ms per iteration; §7.4's gates are Apollo's, for an iPhone 16 Pro, on the p50)
/// store        scenario          n   mean   std    p50    p95    p99    gate      verdict
/// sqlite-rows  select_exact_key  50  0.031  0.004  0.030  0.038  0.041  < 0.2 ms  pass
/// ```
enum ApolloTier3Table {
  static func render(_ configurations: [MeasuredConfiguration], sizes: [ApolloTier3Config.Size] = []) -> String {
    guard sizes.isEmpty else { return renderSizes(configurations, sizes: sizes) }
    let columns: [TextTable.Column] = ["store", "scenario", "n", "mean", "std", "p50", "p95", "p99", "gate", "verdict"]
    var rows: [[String]] = []
    var builds: [String] = []
    for result in configurations {
      for metric in Metric.tier3Scenarios {
        let samples = result.samples[metric]
        guard !samples.isEmpty else { continue }
        let sorted = samples.sorted()
        let mean = Statistics.mean(sorted)
        let std = sorted.count > 1 ? Statistics.sampleStandardDeviation(sorted) : 0
        let p50 = Statistics.percentile(50, ofSorted: sorted)
        var row = [result.scope.store, metric.name, String(sorted.count)]
        row += [mean, std, p50, Statistics.percentile(95, ofSorted: sorted), Statistics.percentile(99, ofSorted: sorted)].map(milliseconds)
        if let gate = Metric.tier3Gates[metric] {
          row += ["< \(milliseconds(gate)) ms", p50 < gate ? "pass" : "FAIL"]
        } else {
          row += ["", ""]
        }
        rows.append(row)
      }
      if let build = result.samples[.tier3Build].first {
        let records = result.samples[.tier3Records].first.map { String(Int($0)) } ?? "?"
        let bytes = result.samples[.tier3FileBytes].first.map(HumanFormat.bytes) ?? "?"
        builds.append("\(result.scope.store): built \(records) records in \(HumanFormat.nanoseconds(build)), file \(bytes)")
      }
    }
    guard !rows.isEmpty else { return "" }
    return "Apollo iOS's Tier-3 scenarios (ms per iteration; the gates are §7.4's, which Apollo sets for an iPhone 16 Pro, on the p50)\n"
      + TextTable(columns: columns, rows: rows).render() + builds.map { $0 + "\n" }.joined()
  }

  /// With store sizes: a line per store × scenario × size, the gate's verdict on each, and the
  /// growth on the largest; then each store's builds.
  private static func renderSizes(_ configurations: [MeasuredConfiguration], sizes: [ApolloTier3Config.Size]) -> String {
    let columns: [TextTable.Column] = ["store", "scenario", "records × fields", "n", "p50", "p99", "gate", "verdict", "k", "ratio"]
    let largest = sizes.map(\.records).max()
    var rows: [[String]] = []
    var builds: [String] = []
    for result in configurations {
      for metric in Metric.tier3Scenarios {
        for size in sizes {
          guard let summary = result.summary(.tier3(metric, atRecords: size.records, fields: size.fields)) else { continue }
          var row = [result.scope.store, metric.name, "\(size.records) × \(size.fields)", String(summary.n)]
          row += [milliseconds(summary.p50), milliseconds(summary.p99)]
          row += Metric.tier3Gates[metric].map { ["< \(milliseconds($0)) ms", summary.p50 < $0 ? "pass" : "FAIL"] } ?? ["", ""]
          let last = size.records == largest
          row.append(last ? result.summary(.growth(metric.name, phase: .tier3)).map { HumanFormat.exponent($0.p50) } ?? "-" : "")
          row.append(last ? result.summary(.growthRatio(metric.name, phase: .tier3)).map { HumanFormat.ratio($0.p50) } ?? "-" : "")
          rows.append(row)
        }
      }
      let built = sizes.compactMap { size -> String? in
        guard let build = result.samples[.tier3(.tier3Build, atRecords: size.records, fields: size.fields)].first else { return nil }
        let bytes =
          result.samples[.tier3(.tier3FileBytes, atRecords: size.records, fields: size.fields)].first.map(HumanFormat.bytes) ?? "?"
        return "\(size.records) × \(size.fields) in \(HumanFormat.nanoseconds(build)) (file \(bytes))"
      }
      if !built.isEmpty { builds.append("\(result.scope.store): built " + built.joined(separator: ", ")) }
    }
    guard !rows.isEmpty else { return "" }
    return "Apollo iOS's Tier-3 scenarios at store sizes (ms per iteration; the gates are §7.4's, which Apollo sets for an iPhone 16 Pro, "
      + "on the p50; k: p50 ∝ recordsᵏ over the sizes; ratio: p50 at the largest size over p50 at 1,000 records or the smallest)\n"
      + TextTable(columns: columns, rows: rows).render() + builds.map { $0 + "\n" }.joined()
  }

  /// Nanoseconds as milliseconds to three significant places at least: `0.031`, `12.4`, `250`.
  static func milliseconds(_ ns: Double) -> String {
    let ms = ns / 1_000_000
    if ms >= 100 { return String(format: "%.0f", ms) }
    if ms >= 10 { return String(format: "%.1f", ms) }
    if ms >= 1 { return String(format: "%.2f", ms) }
    return String(format: "%.3f", ms)
  }
}
