import Results
import Workloads

/// The concurrency phase's lines, one per store × key strategy × reader count: reads per second
/// and their speed-up over one reader, spread over the operations and on hot records, read
/// latency alone and beside the writers, and what the writers' merges took. Empty without a
/// concurrency section.
///
/// ```
/// Concurrency, 20,000 reads a run, 1 writer (x1: reads/s over one reader's; hot: every reader on the same operations; ...)
/// store   keys        readers  reads/s   x1    hot reads/s  hot x1  read p50  read p99  wait/read  | reads/s   read p99  p99 ratio  ...
/// memory  typePolicy        2   61.2 k/s  1.93     150 k/s    1.95    29 µs    120 µs     0 ns      | 40.1 k/s  310 µs    2.58      ...
/// ```
enum ConcurrencyTable {
  /// Whether a configuration is a concurrency run's (it ran with a number of readers).
  static func isConcurrency(_ configuration: MeasuredConfiguration) -> Bool {
    configuration.scope.readers != nil
  }

  static func render(_ configurations: [MeasuredConfiguration], settings: ConcurrencySettings?) -> String {
    let runs = configurations.filter(isConcurrency)
    guard !runs.isEmpty, let settings else { return "" }
    // One reader's reads per second, spread and hot, by the configuration without the reader count.
    var single: [ConfigurationID: Double] = [:]
    var singleHot: [ConfigurationID: Double] = [:]
    for run in runs where run.scope.readers == 1 {
      single[run.scope.configuration] = run.summary(.readsPerSecond)?.p50
      singleHot[run.scope.configuration] = run.summary(.readsPerSecondHot)?.p50
    }
    let hasVariants = runs.contains { !$0.scope.variant.isEmpty }
    let hasWriters = runs.contains { $0.summary(.readsPerSecondWriting) != nil }
    var columns: [TextTable.Column] = [
      "store", "keys", "readers", "reads/s", "x1", "hot reads/s", "hot x1", "read p50", "read p99", "wait/read",
    ]
    if hasWriters {
      columns += ["| reads/s", "read p50", "read p99", "p99 ratio", "merge p50", "merge p99", "merges/s", "wait/merge"]
    }
    if hasVariants { columns.insert("variant", at: 0) }
    let rows = runs.map { run -> [String] in
      let (base, count) = (run.scope.variant, run.scope.readers ?? 0)
      func value(_ metric: Metric, _ pick: (Summary) -> Double, _ format: (Double) -> String) -> String {
        run.summary(metric).map { format(pick($0)) } ?? "-"
      }
      func value(_ metric: Metric, _ format: (Double) -> String) -> String { value(metric, \.p50, format) }
      func speedUp(_ metric: Metric, over single: [ConfigurationID: Double]) -> String {
        guard let rate = run.summary(metric)?.p50, let one = single[run.scope.configuration] else { return "-" }
        return String(format: "%.2f", rate / one)
      }
      var row = [
        run.scope.store, run.scope.keys, String(count), value(.readsPerSecond, HumanFormat.perSecond),
        speedUp(.readsPerSecond, over: single),
        value(.readsPerSecondHot, HumanFormat.perSecond), speedUp(.readsPerSecondHot, over: singleHot),
        value(.concurrentReadLatency, HumanFormat.nanoseconds), value(.concurrentReadLatency, \.p99, HumanFormat.nanoseconds),
        value(.readLockWait, \.p50, HumanFormat.nanoseconds),
      ]
      if hasWriters {
        let ratio = run.summary(.concurrentReadLatencyWriting).flatMap { writing in
          run.summary(.concurrentReadLatency).map { String(format: "%.2f", writing.p99 / max($0.p99, 1)) }
        }
        row += [
          value(.readsPerSecondWriting, HumanFormat.perSecond), value(.concurrentReadLatencyWriting, HumanFormat.nanoseconds),
          value(.concurrentReadLatencyWriting, \.p99, HumanFormat.nanoseconds), ratio ?? "-",
          value(.concurrentWriteLatency, HumanFormat.nanoseconds), value(.concurrentWriteLatency, \.p99, HumanFormat.nanoseconds),
          value(.writesPerSecond, HumanFormat.perSecond), value(.writeLockWait, HumanFormat.nanoseconds),
        ]
      }
      if hasVariants { row.insert(base, at: 0) }
      return row
    }
    let title =
      "Concurrency, \(ResultsTable.grouped(Double(settings.operations))) reads a run, \(settings.writers) writer\(settings.writers == 1 ? "" : "s") "
      + "(x1: reads/s over one reader's; hot: every reader on the same operations, among the \(settings.hotOperations) most popular; "
      + "wait: time waiting for the store's locks; after |: beside the writers; "
      + "p99 ratio: read p99 beside the writers over alone)"
    return title + "\n" + TextTable(columns: columns, rows: rows).render()
  }
}
