import Foundation
import Results
import Workloads

/// The readable table `cachebench run` prints: one line per store × key strategy (× variant).
enum ResultsTable {
  static func render(workload: Workload, rows: [MetricRow]) -> String {
    var header = "\(workload.name) (\(workload.source.kindName), seed \(workload.seed), \(workload.repetitions) repetition\(workload.repetitions == 1 ? "" : "s"))"
    if let description = workload.description { header += ": " + description }
    let groups = Groups(rows)
    let limits = limitComparison(groups, stores: workload.measuredStores)
    if case .storeRecords = workload.source {
      return header + "\n" + storeRecordsTable(groups).render() + (limits.isEmpty ? "" : "\n" + limits)
    }
    let comparison = strategyComparison(groups, stores: workload.measuredStores)
    return header + "\n" + strategyTable(groups).render() + (comparison.isEmpty ? "" : "\n" + comparison)
      + (limits.isEmpty ? "" : "\n" + limits)
  }

  /// Each store against its limit store, from the `_vs_limit` rows:
  /// `memory × typePolicy vs limit-dictionary: merge 48%, read 9.1%`.
  static func limitComparison(_ groups: Groups, stores: [StoreSpec]) -> String {
    let names: [String: String] = [
      "latency": "", "merge_new_per_record": "new", "merge_unchanged_per_record": "same",
      "load_batch_per_key": "batch", "load_all_per_key": "all", "point_lookup": "point",
    ]
    var lines: [String] = []
    for key in groups.order {
      let ratios = (groups.rows[key] ?? []).filter { $0.key.metric.hasSuffix("_vs_limit") }
      guard !ratios.isEmpty else { continue }
      let parts = ratios.map { row -> String in
        let metric = String(row.key.metric.dropLast("_vs_limit".count))
        let name = names[metric].map { $0.isEmpty ? row.key.phase.rawValue : "\(row.key.phase.rawValue) \($0)" } ?? metric
        return "\(name) \(percent(row.summary.p50))"
      }
      let limit = stores.first { $0.label == key.store }?.kind.limit?.name
      let place = (key.variant.isEmpty ? "" : key.variant + ", ") + "\(key.store) × \(key.keys)"
      lines.append("  \(place)\(limit.map { " vs \($0)" } ?? ""): " + parts.joined(separator: ", "))
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

  /// The rows grouped by variant, store and key strategy, in the order they were added.
  struct Groups {
    var order: [GroupKey] = []
    var rows: [GroupKey: [MetricRow]] = [:]

    init(_ rows: [MetricRow]) {
      for row in rows {
        let key = GroupKey(variant: row.key.variant, store: row.key.store, keys: row.key.keys)
        if self.rows[key] == nil { order.append(key) }
        self.rows[key, default: []].append(row)
      }
    }

    /// The summary of one metric of one group.
    func metric(_ key: GroupKey, _ phase: Phase, _ name: String) -> Summary? {
      rows[key]?.first { $0.key.phase == phase && $0.key.metric == name }?.summary
    }
  }

  /// The store-level benchmark: operations per second and bytes per record.
  private static func storeRecordsTable(_ groups: Groups) -> TextTable {
    let columns: [TextTable.Column] = [
      "store", "records", "merge new/s", "merge same/s", "batch load/s", "load all/s", "point p50", "bytes/record",
      "after checkpoint",
    ]
    let lines = groups.order.map { key -> [String] in
      func metric(_ phase: Phase, _ name: String) -> Summary? { groups.metric(key, phase, name) }
      func perSecond(_ phase: Phase, _ name: String) -> String {
        guard let ns = metric(phase, name)?.p50, ns > 0 else { return "-" }
        return grouped(1e9 / ns)
      }
      return [
        key.store, metric(.dedup, "records").map { grouped($0.p50) } ?? "-",
        perSecond(.merge, "merge_new_per_record"), perSecond(.merge, "merge_unchanged_per_record"),
        perSecond(.lookup, "load_batch_per_key"), perSecond(.lookup, "load_all_per_key"),
        metric(.lookup, "point_lookup").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.footprint, "bytes_per_record").map { String(Int($0.p50.rounded())) } ?? "-",
        metric(.footprint, "bytes_per_record_checkpointed").map { String(Int($0.p50.rounded())) } ?? "-",
      ]
    }
    return TextTable(columns: columns, rows: lines)
  }

  /// One line per store × key strategy (× variant): records, dedup, latencies, loads, bytes.
  private static func strategyTable(_ groups: Groups) -> TextTable {
    let hasVariants = groups.order.contains { !$0.variant.isEmpty }
    var columns: [TextTable.Column] = [
      "store", "keys", "records", "dedup", "parse p50", "write p50", "write p99", "read p50", "read p99", "loads/read", "bytes/record",
    ]
    if hasVariants { columns.insert("variant", at: 0) }
    let hasFragments = groups.order.contains { groups.metric($0, .fragment, "latency") != nil }
    let hasWatchers = groups.order.contains { groups.metric($0, .watch, "invalidations") != nil }
    if hasFragments { columns.append("fragment p50") }
    if hasWatchers { columns += ["wakes/write", "re-read p50"] }
    let lines = groups.order.map { key -> [String] in
      func metric(_ phase: Phase, _ name: String) -> Summary? { groups.metric(key, phase, name) }
      var line = [
        key.store, key.keys,
        metric(.dedup, "records").map { grouped($0.p50) } ?? "-",
        metric(.dedup, "object_ratio").map { HumanFormat.ratio($0.p50) } ?? "-",
        metric(.parse, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.write, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.write, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(.read, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.read, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(.lookup, "loads_per_read").map { HumanFormat.ratio($0.mean) } ?? "-",
        metric(.footprint, "bytes_per_record").map { String(Int($0.p50.rounded())) } ?? "-",
      ]
      if hasFragments { line.append(metric(.fragment, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-") }
      if hasWatchers {
        line.append(metric(.watch, "invalidations").map { HumanFormat.ratio($0.mean) } ?? "-")
        line.append(metric(.watch, "reread_latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-")
      }
      if hasVariants { line.insert(key.variant, at: 0) }
      return line
    }
    return TextTable(columns: columns, rows: lines)
  }

  /// The figures that choose a key strategy, each strategy relative to `path` in the same store
  /// (and variant): `typePolicy vs path: 0.58x records, 0.81x bytes, 0.62x write, 0.70x read, 161x wakes`.
  static func strategyComparison(_ groups: Groups, stores: [StoreSpec]) -> String {
    let limits = Set(stores.filter(\.kind.isLimit).map(\.label))
    let measures: [(label: String, phase: Phase, metric: String, statistic: (Summary) -> Double)] = [
      ("records", .dedup, "records", \.p50), ("bytes", .dedup, "store_bytes", \.p50),
      ("write", .write, "latency", \.p50), ("read", .read, "latency", \.p50),
      ("wakes", .watch, "invalidations", \.mean),
    ]
    var lines: [String] = []
    var lastPlace: (variant: String, store: String)?
    for key in groups.order where key.keys != "path" && !limits.contains(key.store) {
      let base = GroupKey(variant: key.variant, store: key.store, keys: "path")
      guard groups.rows[base] != nil else { continue }
      let parts = measures.compactMap { measure -> String? in
        guard let value = groups.metric(key, measure.phase, measure.metric).map(measure.statistic),
          let baseValue = groups.metric(base, measure.phase, measure.metric).map(measure.statistic)
        else { return nil }
        return "\(relative(value, to: baseValue)) \(measure.label)"
      }
      guard !parts.isEmpty else { continue }
      if lastPlace?.variant != key.variant || lastPlace?.store != key.store {
        lines.append((key.variant.isEmpty ? "" : key.variant + ", ") + key.store + ":")
        lastPlace = (key.variant, key.store)
      }
      lines.append("  \(key.keys) vs path: " + parts.joined(separator: ", "))
    }
    return lines.isEmpty ? "" : "Key strategies against path (ratios of p50; wakes: watchers woken per write, mean)\n" + lines.joined(separator: "\n") + "\n"
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

  struct GroupKey: Hashable {
    let variant: String
    let store: String
    let keys: String
  }
}
