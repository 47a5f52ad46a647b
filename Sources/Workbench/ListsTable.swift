import Results
import Workloads

/// The list scenarios' lines (docs/metrics.md#lists), one per store × kind of element × list size:
/// the p50 of each scenario, the p99 of the mutation, and the store's bytes per record; on the
/// largest N of each store and kind, k of each scenario's p50 ∝ Nᵏ (read/write/mutate,
/// docs/metrics.md#growth).
///
/// ```
/// Lists (p50 of one iteration each; mutate changes element K = ⌊N × 0.5⌋; bytes/record of a store holding ⌈10,000 / N⌉ such records; k: p50 ∝ Nᵏ over the sizes)
/// store           list        N      K     read p50  write p50  mutate p50  mutate p99  bytes/record  k read/write/mutate
/// memory          scalars     100    50    310 ns    1.2 µs     1.4 µs      2.0 µs      1180
/// memory          scalars     1000   500   2.1 µs    9.8 µs     11.0 µs     14.2 µs     10450         0.86/0.91/0.90
/// ```
enum ListsTable {
  static func render(_ configurations: [MeasuredConfiguration], lists: ListsConfig) -> String {
    let columns: [TextTable.Column] = [
      "store", "list", "N", "K", "read p50", "write p50", "mutate p50", "mutate p99", "bytes/record", "k read/write/mutate",
    ]
    var rows: [[String]] = []
    for result in configurations {
      for elements in ListScenario.Elements.allCases {
        let growth = ListScenario.Operation.allCases.map { result.summary(.listGrowth($0, elements)) }
        let k = growth.contains { $0 != nil } ? growth.map { $0.map { HumanFormat.exponent($0.p50) } ?? "-" }.joined(separator: "/") : ""
        for size in lists.sizes {
          let timings = ListScenario.Operation.allCases.map { result.summary(ListScenario($0, elements, size: size).metric) }
          guard timings.contains(where: { $0 != nil }) else { continue }
          let bytes = result.summary(.listBytesPerRecord(elements, size: size)).map { HumanFormat.count($0.p50.rounded()) }
          rows.append(
            [result.scope.store, elements.rawValue, String(size), String(lists.changedIndex(size: size))]
              + timings.map { $0.map { HumanFormat.nanoseconds($0.p50) } ?? "-" }
              + [timings[2].map { HumanFormat.nanoseconds($0.p99) } ?? "-", bytes ?? "-", size == lists.sizes.max() ? k : ""])
        }
      }
    }
    guard !rows.isEmpty else { return "" }
    return "Lists (p50 of one iteration each; mutate changes element K = ⌊N × \(position(lists.position))⌋; "
      + "bytes/record of a store holding ⌈\(ListsBenchmark.footprintElements) / N⌉ such records; k: p50 ∝ Nᵏ over the sizes)\n"
      + TextTable(columns: columns, rows: rows).render()
  }

  /// `0.5`, `1`, `0.333`: as the file would write it.
  static func position(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
