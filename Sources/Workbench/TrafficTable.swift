import Results

/// The traffic's lines (docs/bounded-and-concurrent.md), one per store × key strategy (× variant)
/// that ran a session: what the cache served, what the network sent, what the budget cost, and what
/// garbage collection found after it. Empty without a traffic section.
///
/// ```
/// Traffic, 2,000 steps (hit: reads served whole; ...)
/// store       keys   hit    partial  fetched  evicted  evict/record  peak     read p50  write p50  gc removed  dangling
/// memory-lru  path   0.557  0.442    19.1 MB  4,210    2.1 µs        465 kB   134 µs    1.1 ms     66          155
/// ```
enum TrafficTable {
  static func render(_ configurations: [MeasuredConfiguration], steps: Int) -> String {
    let sessions = configurations.filter { $0.summary(.trafficHitRatio) != nil }
    guard !sessions.isEmpty else { return "" }
    let hasVariants = sessions.contains { !$0.scope.variant.isEmpty }
    let hasChain = sessions.contains { $0.summary(.frontHitRatio) != nil }
    var columns: [TextTable.Column] = [
      "store", "keys", "hit", "partial", "fetched", "evicted", "evict/record", "peak", "read p50", "write p50", "gc removed",
      "dangling",
    ]
    if hasChain { columns.insert("front hit", at: 3) }
    if hasVariants { columns.insert("variant", at: 0) }
    let rows = sessions.map { result -> [String] in
      func value(_ metric: Metric, _ format: (Double) -> String) -> String {
        result.summary(metric).map { format($0.p50) } ?? "-"
      }
      /// A per-step count's total over the session.
      func total(_ metric: Metric) -> String {
        result.summary(metric).map { ResultsTable.grouped($0.mean * Double($0.n)) } ?? "-"
      }
      var row = [
        result.scope.store, result.scope.keys,
        value(.trafficHitRatio, HumanFormat.ratio), value(.partialMissShare, HumanFormat.ratio),
        value(.fetchedBytes, HumanFormat.bytes),
        total(.evictions),
        value(.evictionPerRecord, HumanFormat.nanoseconds), value(.peakStoreBytes, HumanFormat.bytes),
        value(.trafficReadLatency, HumanFormat.nanoseconds), value(.trafficWriteLatency, HumanFormat.nanoseconds),
        value(.gcRecordsRemoved, { ResultsTable.grouped($0) }), value(.gcDanglingReferences, { ResultsTable.grouped($0) }),
      ]
      if hasChain { row.insert(value(.frontHitRatio, HumanFormat.ratio), at: 3) }
      if hasVariants { row.insert(result.scope.variant, at: 0) }
      return row
    }
    let title =
      "Traffic, \(ResultsTable.grouped(Double(steps))) steps (hit: reads served whole; partial: misses that found records "
      + "below the root; fetched: what the network sent; evicted: records in all; peak: the most bytes the budget counted)"
    return title + "\n" + TextTable(columns: columns, rows: rows).render()
  }
}
