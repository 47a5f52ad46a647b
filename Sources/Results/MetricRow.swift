import Foundation

/// The part of the work a metric measures (the CSV's `phase` column, docs/csv.md).
package enum Phase: String, Sendable, Hashable, CaseIterable, Comparable {
  case parse, write, normalize, merge, read, fragment, watch, lookup, footprint, dedup, traffic, gc, disk, concurrency
  /// Apollo iOS's Tier-2 cache scenarios (docs/apollo.md), one metric each, named as their scenarios.
  case tier2
  /// Apollo iOS's Tier-3 "SQLite raw operations" (docs/apollo.md#tier-3) on a large store, one
  /// metric each, and the store's build.
  case tier3
  /// Records with a list of N elements read, written and changed at one element (docs/metrics.md#lists).
  case lists
  /// What dates cost a store that keeps them (docs/ttl.md#what-dates-cost): reads with a clock
  /// (`ttl`), and unchanged refetches that move every date (`refresh`).
  case ttl, refresh
  /// A part of a split run's count of each configuration's rows, last in the part
  /// (docs/csv.md#split-runs-and-the-merged-csv): read and dropped by every reader.
  case shard

  package static func < (lhs: Phase, rhs: Phase) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// What a metric's values count (the CSV's `unit` column).
///
/// Not named `Unit`: Foundation has a `Unit` class, and every file that imports both Foundation
/// and Workbench would find the name ambiguous.
package enum MetricUnit: String, Sendable, Hashable, CaseIterable {
  case ns, bytes, count, ratio
  /// Events per second: a throughput (`reads_per_second`).
  case perSecond = "per_s"
  /// A dimensionless power k of cost ∝ nᵏ: a growth (`growth_…` rows, docs/metrics.md#growth).
  case exponent
}

/// Which direction of change is an improvement (the CSV's `better` column).
package enum Better: String, Sendable, Hashable, CaseIterable {
  case lower, higher
}

/// What identifies one run of the workbench in every row it writes.
package struct RunInfo: Sendable, Hashable {
  /// Unique per run (the runner's choice, e.g. a timestamp and the seed).
  package var runID: String
  /// When the run started, ISO 8601 in UTC (see ``RunInfo/timestamp(_:)``).
  package var timestamp: String
  /// The revision of the current directory's checkout when the run started (`git rev-parse
  /// --short=12 HEAD`, `-dirty` when tracked files changed), `unknown` outside git.
  package var gitRev: String
  /// The machine's host name.
  package var host: String

  package init(runID: String, timestamp: String, gitRev: String, host: String) {
    self.runID = runID
    self.timestamp = timestamp
    self.gitRev = gitRev
    self.host = host
  }

  /// `date` as the `timestamp` column writes it: ISO 8601 in UTC, to the second
  /// (`2025-11-22T07:39:12Z`).
  package static func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
  }
}

/// What a metric is about: the columns `compare` joins a baseline and a current run on.
package struct MetricKey: Sendable, Hashable, CustomStringConvertible {
  /// The workload's `name`.
  package var workload: String
  /// The sweep point (`duplication=0.5`), or empty.
  package var variant: String
  /// The store's label (`memory`, `sqlite-wal`).
  package var store: String
  /// The key strategy's name as the workload gives it: `path`, `typePolicy`, `programmatic`, or a
  /// named resolver's `programmatic:sku`.
  package var keys: String
  package var phase: Phase
  /// The metric's name (`latency`, `allocations`, `hit_ratio`, ...).
  package var metric: String
  /// The concurrency phase's reader threads, nil for every other row. Written into the CSV's
  /// `variant` column after the sweep point (``variantColumn``), and read back from it there only.
  package var readers: Int?

  package init(
    workload: String, variant: String = "", store: String, keys: String, phase: Phase,
    metric: String, readers: Int? = nil
  ) {
    self.workload = workload
    self.variant = variant
    self.store = store
    self.keys = keys
    self.phase = phase
    self.metric = metric
    self.readers = readers
  }

  /// The configuration the row belongs to (a concurrency row's: the one it ran on).
  package var configuration: ConfigurationID { ConfigurationID(variant: variant, store: store, keys: keys) }

  /// The CSV's `variant` column: the sweep point, then `readers=N` for a concurrency row
  /// (`duplication=0.5 readers=2`, docs/csv.md).
  package var variantColumn: String {
    guard let readers else { return variant }
    return (variant.isEmpty ? "" : variant + " ") + "readers=\(readers)"
  }

  /// The sweep point and the reader count of a `variant` column: its last word when that is
  /// `readers=N`. The one place the column is taken apart.
  package static func parse(variantColumn column: String) -> (variant: String, readers: Int?) {
    var words = column.split(separator: " ", omittingEmptySubsequences: false)
    guard let last = words.last, last.hasPrefix("readers="), let count = Int(last.dropFirst("readers=".count)), count > 0,
      String(count) == last.dropFirst("readers=".count)
    else { return (column, nil) }
    words.removeLast()
    return (words.joined(separator: " "), count)
  }

  /// `workload[variant]/store/keys/phase/metric`, e.g. `books[duplication=0.5]/memory/path/write/latency`.
  package var description: String {
    let column = variantColumn
    let variantPart = column.isEmpty ? "" : "[\(column)]"
    return "\(workload)\(variantPart)/\(store)/\(keys)/\(phase.rawValue)/\(metric)"
  }
}

/// One row of the results CSV (docs/csv.md): one metric of one workload × store × key strategy,
/// with the statistics of its samples.
///
/// ```swift
/// let row = MetricRow(
///   run: run,
///   key: MetricKey(workload: "books", store: "memory", keys: "path", phase: .write, metric: "latency"),
///   unit: .ns, better: .lower, deterministic: false,
///   summary: Summary(latencies)!
/// )
/// ```
package struct MetricRow: Sendable, Hashable {
  package var run: RunInfo
  package var key: MetricKey
  package var unit: MetricUnit
  package var better: Better
  /// True for counts, bytes and ratios that must not change between runs of one build.
  package var deterministic: Bool
  package var summary: Summary

  package init(
    run: RunInfo, key: MetricKey, unit: MetricUnit, better: Better, deterministic: Bool,
    summary: Summary
  ) {
    self.run = run
    self.key = key
    self.unit = unit
    self.better = better
    self.deterministic = deterministic
    self.summary = summary
  }

  /// The columns of the results CSV, in order.
  package static let columns = [
    "run_id", "timestamp", "git_rev", "host", "workload", "variant", "store", "keys", "phase",
    "metric", "unit", "better", "deterministic", "n", "min", "p50", "p90", "p99", "max", "mean",
    "stddev",
  ]
}
