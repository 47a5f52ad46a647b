import Results
import Workloads

/// The readable table `cachebench run` prints: one line per store × key strategy (× variant).
enum ResultsTable {
  static func render(workload: Workload, rows: [MetricRow]) -> String {
    var header = "\(workload.name) (\(workload.source.kindName), seed \(workload.seed), \(workload.repetitions) repetition\(workload.repetitions == 1 ? "" : "s"))"
    if let description = workload.description { header += ": " + description }
    let groups = Groups(rows)
    if case .storeRecords = workload.source { return header + "\n" + storeRecordsTable(groups).render() }
    return header + "\n" + strategyTable(groups).render()
  }

  /// The rows grouped by variant, store and key strategy, in the order they were added.
  private struct Groups {
    var order: [GroupKey] = []
    var rows: [GroupKey: [MetricRow]] = [:]

    init(_ rows: [MetricRow]) {
      for row in rows {
        let key = GroupKey(variant: row.key.variant, store: row.key.store, keys: row.key.keys.rawValue)
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
      "store", "keys", "records", "dedup", "write p50", "write p99", "read p50", "read p99", "loads/read", "bytes/record",
    ]
    if hasVariants { columns.insert("variant", at: 0) }
    let lines = groups.order.map { key -> [String] in
      func metric(_ phase: Phase, _ name: String) -> Summary? { groups.metric(key, phase, name) }
      var line = [
        key.store, key.keys,
        metric(.dedup, "records").map { grouped($0.p50) } ?? "-",
        metric(.dedup, "object_ratio").map { HumanFormat.ratio($0.p50) } ?? "-",
        metric(.write, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.write, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(.read, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(.read, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(.lookup, "loads_per_read").map { HumanFormat.ratio($0.mean) } ?? "-",
        metric(.footprint, "bytes_per_record").map { String(Int($0.p50.rounded())) } ?? "-",
      ]
      if hasVariants { line.insert(key.variant, at: 0) }
      return line
    }
    return TextTable(columns: columns, rows: lines)
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

  private struct GroupKey: Hashable {
    let variant: String
    let store: String
    let keys: String
  }
}
