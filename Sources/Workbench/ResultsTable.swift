import Foundation
import Results
import Workloads

/// The readable table `cachebench run` prints: one line per store × key strategy (× variant),
/// read from the configurations' typed results.
enum ResultsTable {
  static func render(_ result: WorkloadResult) -> String {
    let workload = result.workload
    var header =
      "\(workload.name) (\(workload.source.kindName), seed \(workload.seed), \(workload.repetitions) repetition\(workload.repetitions == 1 ? "" : "s"))"
    if let description = workload.description { header += ": " + description }
    let limits = limitComparison(result.limitComparisons)
    var sections: [String] = []
    switch workload.source {
    case .storeRecords:
      sections.append(storeRecordsTable(result.configurations).render())
    case .apolloTier2(let config):
      sections.append(ApolloTier2Table.render(result.configurations, sizes: config.sizes))
    case .apolloTier3(let config):
      sections.append(ApolloTier3Table.render(result.configurations, sizes: config.sizes))
    case .lists(let config):
      sections.append(ListsTable.render(result.configurations, lists: config))
    case .generator, .recorded:
      let configurations = result.configurations.filter { !ConcurrencyTable.isConcurrency($0) }
      sections.append(strategyTable(configurations).render())
      sections.append(strategyComparison(configurations, stores: workload.measuredStores))
      sections.append(TrafficTable.render(configurations, steps: workload.traffic?.steps ?? 0))
      sections.append(ConcurrencyTable.render(result.configurations, settings: workload.concurrency))
    }
    sections.append(limits)
    return header + "\n" + sections.filter { !$0.isEmpty }.joined(separator: "\n")
  }

  /// How the limit comparison names each timing: `merge`, `read`, `lookup batch`.
  static let limitNames: [Metric: String] = [
    .mergeLatency: "merge", .readLatency: "read", .mergeNewPerRecord: "merge new", .mergeUnchangedPerRecord: "merge same",
    .loadBatchPerKey: "lookup batch", .loadAllPerKey: "lookup all", .pointLookup: "lookup point",
  ]

  /// Each store against its limit store: `memory × typePolicy vs limit-dictionary: merge 48%, read 9.1%`.
  static func limitComparison(_ comparisons: [LimitComparison]) -> String {
    let lines = comparisons.map { comparison in
      let parts = comparison.ratios.map { metric, ratio in "\(limitNames[metric] ?? metric.description) \(percent(ratio))" }
      let scope = comparison.scope
      let place = (scope.variant.isEmpty ? "" : scope.variant + ", ") + "\(scope.store) × \(scope.keys)"
      return "  \(place) vs \(comparison.limit.label): " + parts.joined(separator: ", ")
    }
    return lines.isEmpty
      ? ""
      : "Stores against their limit (the limit's p50 / the store's: 100% is as fast as storing the records' bytes at all)\n"
        + lines.joined(separator: "\n") + "\n"
  }

  /// `48%`, `9.1%`, `0.52%`.
  static func percent(_ ratio: Double) -> String {
    let value = ratio * 100
    if value >= 10 { return "\(Int(value.rounded()))%" }
    return String(format: value >= 1 ? "%.1f%%" : "%.2f%%", value)
  }

  /// The store-level benchmark: operations per second and bytes per record.
  private static func storeRecordsTable(_ configurations: [MeasuredConfiguration]) -> TextTable {
    let columns: [TextTable.Column] = [
      "store", "records", "merge new/s", "merge same/s", "batch load/s", "load all/s", "point p50", "bytes/record",
      "after checkpoint",
    ]
    let lines = configurations.map { result -> [String] in
      func perSecond(_ metric: Metric) -> String {
        guard let ns = result.summary(metric)?.p50, ns > 0 else { return "-" }
        return grouped(1e9 / ns)
      }
      return [
        result.scope.store, result.summary(.records).map { grouped($0.p50) } ?? "-",
        perSecond(.mergeNewPerRecord), perSecond(.mergeUnchangedPerRecord), perSecond(.loadBatchPerKey), perSecond(.loadAllPerKey),
        result.summary(.pointLookup).map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        result.summary(.bytesPerRecord).map { String(Int($0.p50.rounded())) } ?? "-",
        result.summary(.bytesPerRecordCheckpointed).map { String(Int($0.p50.rounded())) } ?? "-",
      ]
    }
    return TextTable(columns: columns, rows: lines)
  }

  /// One line per store × key strategy (× variant): records, dedup, latencies, loads, bytes.
  private static func strategyTable(_ configurations: [MeasuredConfiguration]) -> TextTable {
    let hasVariants = configurations.contains { !$0.scope.variant.isEmpty }
    var columns: [TextTable.Column] = [
      "store", "keys", "records", "dedup", "parse p50", "write p50", "write p99", "read p50", "read p99", "loads/read", "bytes/record",
    ]
    if hasVariants { columns.insert("variant", at: 0) }
    let hasFragments = configurations.contains { $0.summary(.fragmentLatency) != nil }
    let hasWatchers = configurations.contains { $0.summary(.invalidations) != nil }
    if hasFragments { columns.append("fragment p50") }
    if hasWatchers { columns += ["wakes/write", "re-read p50"] }
    let lines = configurations.map { result -> [String] in
      func nanoseconds(_ metric: Metric, p99: Bool = false) -> String {
        result.summary(metric).map { HumanFormat.nanoseconds(p99 ? $0.p99 : $0.p50) } ?? "-"
      }
      var line = [
        result.scope.store, result.scope.keys,
        result.summary(.records).map { grouped($0.p50) } ?? "-",
        result.summary(.objectRatio).map { HumanFormat.ratio($0.p50) } ?? "-",
        nanoseconds(.parseLatency), nanoseconds(.writeLatency), nanoseconds(.writeLatency, p99: true),
        nanoseconds(.readLatency), nanoseconds(.readLatency, p99: true),
        result.summary(.loadsPerRead).map { HumanFormat.ratio($0.mean) } ?? "-",
        result.summary(.bytesPerRecord).map { String(Int($0.p50.rounded())) } ?? "-",
      ]
      if hasFragments { line.append(nanoseconds(.fragmentLatency)) }
      if hasWatchers {
        line.append(result.summary(.invalidations).map { HumanFormat.ratio($0.mean) } ?? "-")
        line.append(nanoseconds(.rereadLatency))
      }
      if hasVariants { line.insert(result.scope.variant, at: 0) }
      return line
    }
    return TextTable(columns: columns, rows: lines)
  }

  /// The figures that choose a key strategy, each strategy relative to `path` in the same store
  /// (and variant): `typePolicy vs path: 0.58x records, 0.81x bytes, 0.62x write, 0.70x read, 161x wakes`.
  static func strategyComparison(_ configurations: [MeasuredConfiguration], stores: [StoreSpec]) -> String {
    let limits = Set(stores.filter(\.isLimit).map(\.label))
    let measures: [(label: String, metric: Metric, statistic: (Summary) -> Double)] = [
      ("records", .records, \.p50), ("bytes", .storeBytes, \.p50), ("write", .writeLatency, \.p50),
      ("read", .readLatency, \.p50), ("wakes", .invalidations, \.mean),
    ]
    var byScope: [Scope: MeasuredConfiguration] = [:]
    for result in configurations { byScope[result.scope] = result }
    var lines: [String] = []
    var lastPlace: (variant: String, store: String)?
    for result in configurations where result.scope.keys != "path" && !limits.contains(result.scope.store) {
      let scope = result.scope
      guard let base = byScope[Scope(variant: scope.variant, store: scope.store, keys: "path")] else { continue }
      let parts = measures.compactMap { measure -> String? in
        guard let value = result.summary(measure.metric).map(measure.statistic),
          let baseValue = base.summary(measure.metric).map(measure.statistic)
        else { return nil }
        return "\(relative(value, to: baseValue)) \(measure.label)"
      }
      guard !parts.isEmpty else { continue }
      if lastPlace?.variant != scope.variant || lastPlace?.store != scope.store {
        lines.append((scope.variant.isEmpty ? "" : scope.variant + ", ") + scope.store + ":")
        lastPlace = (scope.variant, scope.store)
      }
      lines.append("  \(scope.keys) vs path: " + parts.joined(separator: ", "))
    }
    return lines.isEmpty
      ? "" : "Key strategies against path (ratios of p50; wakes: watchers woken per write, mean)\n" + lines.joined(separator: "\n") + "\n"
  }

  /// `0.58x`; `=` for two zeros; `+∞` when only the base is zero.
  static func relative(_ value: Double, to base: Double) -> String {
    if base == 0 { return value == 0 ? "1.00x" : "∞x" }
    let ratio = value / base
    return (ratio >= 100 ? String(Int(ratio.rounded())) : String(format: "%.2f", ratio)) + "x"
  }

  /// An integer with thousands separators: `1,631,318`.
  static func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var result = ""
    for (index, character) in digits.reversed().enumerated() {
      if index > 0, index % 3 == 0, character != "-" { result.append(",") }
      result.append(character)
    }
    return String(result.reversed())
  }
}
