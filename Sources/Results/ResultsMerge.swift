/// The parts of a run split across machines (`run --shard K/N`) joined into the CSV the unsplit
/// run would have written (`cachebench merge`).
///
/// A part's run ID ends `-shardKofN`. The parts must be one run's: one workload, seed and build
/// (git revision), one N, each K once. Configuration i of the run's order is in part `i mod N + 1`,
/// so its configurations are put back in order by taking one from each part in turn; the rows
/// that an unsplit run writes after all the configurations' own (each store against its limit,
/// `*_vs_limit`, and `--instructions`' counts) follow, in the order of their configurations.
/// Every row takes shard 1's run ID (without its shard) and timestamp; each keeps its host.
public enum ResultsMerge {
  /// One part: where it came from (for messages) and its rows.
  public struct Part: Sendable {
    public let name: String
    public let rows: [MetricRow]

    public init(name: String, rows: [MetricRow]) {
      self.name = name
      self.rows = rows
    }
  }

  /// The merged rows.
  /// - Throws: ``MergeError`` naming the part (and what it disagrees on) when the parts are not one
  ///   run's, or do not cover it exactly once.
  public static func merge(_ parts: [Part]) throws(MergeError) -> [MetricRow] {
    let described = try parts.map(describe)
    try checkOneRun(described)
    // Each part's configurations, in its order: consecutive rows of one variant, store and
    // strategy (a concurrency run's `readers=N` rows belong to the configuration before them).
    let groups = described.map { part in configurationGroups(part.part.rows.filter { !isTrailing($0) }) }
    let count = described[0].shard.count
    // Shard k holds shard 1's count of configurations, or one fewer, and once one holds fewer, so
    // does every later one.
    let byIndex = described.indices.sorted { described[$0].shard.index < described[$1].shard.index }
    let firstCount = groups[byIndex[0]].count
    var fewer = false
    for position in byIndex.dropFirst() {
      let held = groups[position].count
      let allowed = fewer ? [firstCount - 1] : [firstCount, firstCount - 1]
      guard allowed.contains(held) else {
        throw .incomplete(
          "\(described[position].part.name) holds \(held) configurations, where shard \(described[position].shard) of these parts holds "
            + allowed.map(String.init).joined(separator: " or ") + " (shard 1/\(count) holds \(firstCount)): it is not a whole part of this run")
      }
      fewer = fewer || held < firstCount
    }
    var ordered: [[MetricRow]] = []
    var positions: [ConfigurationKey: Int] = [:]
    let byShard = Dictionary(uniqueKeysWithValues: zip(described.map(\.shard.index), groups))
    let total = groups.reduce(0) { $0 + $1.count }
    for position in 0..<total {
      let group = byShard[position % count + 1]![position / count]
      let key = ConfigurationKey(group[0].key)
      if positions[key] != nil {
        throw .incomplete("the configuration \(key) is in two parts")
      }
      positions[key] = position
      ordered.append(group)
    }
    // The trailing rows, stably by their configuration's position: first the limit comparisons,
    // then the instruction counts, as one run appends them.
    var trailing: [(section: Int, position: Int, order: Int, row: MetricRow)] = []
    for part in described {
      for row in part.part.rows where isTrailing(row) {
        guard let position = positions[ConfigurationKey(row.key)] else {
          throw .incomplete("\(part.part.name): a row of \(ConfigurationKey(row.key)), which no part measured (\(row.key))")
        }
        trailing.append((row.key.metric == "instructions" ? 1 : 0, position, trailing.count, row))
      }
    }
    trailing.sort { ($0.section, $0.position, $0.order) < ($1.section, $1.position, $1.order) }
    let first = described.first { $0.shard.index == 1 }!
    return (ordered.joined() + trailing.map(\.row)).map { row in
      var row = row
      row.run.runID = first.base
      row.run.timestamp = first.part.rows[0].run.timestamp
      return row
    }
  }

  /// Rows an unsplit run writes after every configuration's own.
  static func isTrailing(_ row: MetricRow) -> Bool {
    row.key.metric.hasSuffix("_vs_limit") || row.key.metric == "instructions"
  }

  /// A variant, store and strategy; a concurrency run's `readers=N` taken off the variant.
  struct ConfigurationKey: Hashable, CustomStringConvertible {
    let variant: String
    let store: String
    let keys: String

    init(_ key: MetricKey) {
      var words = key.variant.split(separator: " ")
      if let last = words.last, last.hasPrefix("readers=") { words.removeLast() }
      variant = words.joined(separator: " ")
      store = key.store
      keys = key.keys
    }

    var description: String { (variant.isEmpty ? "" : "[\(variant)] ") + "\(store) × \(keys)" }
  }

  static func configurationGroups(_ rows: [MetricRow]) -> [[MetricRow]] {
    var groups: [[MetricRow]] = []
    var last: ConfigurationKey?
    for row in rows {
      let key = ConfigurationKey(row.key)
      if key == last {
        groups[groups.count - 1].append(row)
      } else {
        groups.append([row])
        last = key
      }
    }
    return groups
  }

  private struct Described {
    let part: Part
    let shard: Shard
    /// The run ID without its shard: `20261125T090240Z-seed42`.
    let base: String
    let seed: String
  }

  private static func describe(_ part: Part) throws(MergeError) -> Described {
    guard let first = part.rows.first else { throw .notAPart("\(part.name) has no rows") }
    guard let (base, shard) = Shard.parse(runID: first.run.runID) else {
      throw .notAPart("\(part.name) is not a shard of a run: its run ID \(first.run.runID) has no -shardKofN (run it with --shard K/N)")
    }
    if let other = part.rows.first(where: { $0.run.runID != first.run.runID }) {
      throw .notAPart("\(part.name) holds two runs: \(first.run.runID) and \(other.run.runID)")
    }
    let seed = base.range(of: "-seed").map { String(base[$0.upperBound...]) } ?? ""
    return Described(part: part, shard: shard, base: base, seed: seed)
  }

  private static func checkOneRun(_ parts: [Described]) throws(MergeError) {
    guard let first = parts.first else { throw .incomplete("no parts to merge") }
    let workload = first.part.rows[0].key.workload
    for part in parts {
      let row = part.part.rows[0]
      if let other = part.part.rows.first(where: { $0.key.workload != workload }) {
        throw .notOneRun("\(part.part.name) is of the workload \(other.key.workload), \(first.part.name) of \(workload)")
      }
      if part.seed != first.seed {
        throw .notOneRun("\(part.part.name) ran with seed \(part.seed), \(first.part.name) with seed \(first.seed)")
      }
      if row.run.gitRev != first.part.rows[0].run.gitRev {
        throw .notOneRun(
          "\(part.part.name) was built from \(row.run.gitRev), \(first.part.name) from \(first.part.rows[0].run.gitRev): merge parts of one build")
      }
      if part.shard.count != first.shard.count {
        throw .notOneRun("\(part.part.name) is shard \(part.shard), \(first.part.name) shard \(first.shard): one run has one N")
      }
    }
    let count = first.shard.count
    for index in 1...count {
      let holders = parts.filter { $0.shard.index == index }
      if holders.count > 1 {
        throw .incomplete("\(holders[0].part.name) and \(holders[1].part.name) are both shard \(index)/\(count)")
      }
      if holders.isEmpty { throw .incomplete("shard \(index)/\(count) is missing") }
    }
  }
}

/// Parts that cannot be merged (exit 65: bad input data).
public enum MergeError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  /// A file that is not a part of a split run.
  case notAPart(String)
  /// Parts of different runs.
  case notOneRun(String)
  /// Parts that do not cover the run exactly once.
  case incomplete(String)

  public var description: String {
    switch self {
    case .notAPart(let message), .notOneRun(let message), .incomplete(let message): message
    }
  }

  public var exitCode: ExitCode { .dataError }
}
