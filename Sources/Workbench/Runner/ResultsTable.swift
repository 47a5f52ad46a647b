/// The readable table `cachebench run` prints: one line per store × key strategy (× variant).
enum ResultsTable {
  static func render(workload: Workload, rows: [MetricRow]) -> String {
    var header = "\(workload.name) (\(workload.source.kindName), seed \(workload.seed), \(workload.repetitions) repetition\(workload.repetitions == 1 ? "" : "s"))"
    if let description = workload.description { header += ": " + description }
    let groups = Dictionary(grouping: rows) { GroupKey(variant: $0.key.variant, store: $0.key.store, keys: $0.key.keys.rawValue) }
    let order = rows.reduce(into: [GroupKey]()) { order, row in
      let key = GroupKey(variant: row.key.variant, store: row.key.store, keys: row.key.keys.rawValue)
      if !order.contains(key) { order.append(key) }
    }
    let hasVariants = order.contains { !$0.variant.isEmpty }
    func metric(_ group: [MetricRow], _ phase: Phase, _ name: String) -> Summary? {
      group.first { $0.key.phase == phase && $0.key.metric == name }?.summary
    }
    if case .storeRecords = workload.source {
      let columns: [TextTable.Column] = [
        "store", "records", "merge new/s", "merge same/s", "batch load/s", "load all/s", "point p50", "bytes/record",
        "after checkpoint",
      ]
      let lines = order.map { key -> [String] in
        let group = groups[key] ?? []
        func perSecond(_ phase: Phase, _ name: String) -> String {
          guard let ns = metric(group, phase, name)?.p50, ns > 0 else { return "-" }
          return grouped(1e9 / ns)
        }
        return [
          key.store, metric(group, .dedup, "records").map { grouped($0.p50) } ?? "-",
          perSecond(.merge, "merge_new_per_record"), perSecond(.merge, "merge_unchanged_per_record"),
          perSecond(.lookup, "load_batch_per_key"), perSecond(.lookup, "load_all_per_key"),
          metric(group, .lookup, "point_lookup").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
          metric(group, .footprint, "bytes_per_record").map { String(Int($0.p50.rounded())) } ?? "-",
          metric(group, .footprint, "bytes_per_record_checkpointed").map { String(Int($0.p50.rounded())) } ?? "-",
        ]
      }
      return header + "\n" + TextTable(columns: columns, rows: lines).render()
    }
    var columns: [TextTable.Column] = [
      "store", "keys", "records", "dedup", "write p50", "write p99", "read p50", "read p99", "loads/read", "bytes/record",
    ]
    if hasVariants { columns.insert("variant", at: 0) }
    let lines = order.map { key -> [String] in
      let group = groups[key] ?? []
      var line = [
        key.store, key.keys,
        metric(group, .dedup, "records").map { grouped($0.p50) } ?? "-",
        metric(group, .dedup, "object_ratio").map { HumanFormat.ratio($0.p50) } ?? "-",
        metric(group, .write, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(group, .write, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(group, .read, "latency").map { HumanFormat.nanoseconds($0.p50) } ?? "-",
        metric(group, .read, "latency").map { HumanFormat.nanoseconds($0.p99) } ?? "-",
        metric(group, .lookup, "loads_per_read").map { HumanFormat.ratio($0.mean) } ?? "-",
        metric(group, .footprint, "bytes_per_record").map { String(Int($0.p50.rounded())) } ?? "-",
      ]
      if hasVariants { line.insert(key.variant, at: 0) }
      return line
    }
    return header + "\n" + TextTable(columns: columns, rows: lines).render()
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
