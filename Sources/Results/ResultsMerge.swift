import Support

/// The parts of a run split across machines (`run --shard K/N`) joined into the CSV the unsplit
/// run would have written (`cachebench merge`).
///
/// A part's run ID ends `-shardKofN`. The parts must be one run's: one workload, seed and build
/// (git revision), one N, each K once. Configuration i of the run's order is in part `i mod N + 1`,
/// so its configurations are put back in order by taking one from each part in turn; the rows
/// that an unsplit run writes after all the configurations' own (each store against its limit,
/// `*_vs_limit`, and `--instructions`' counts) follow, in the order of their configurations.
/// Every row takes shard 1's run ID (without its shard) and timestamp; each keeps its host. The
/// workload says which configurations the run has (``ConfigurationID``, in its order), so a part
/// that lost one, or that holds one of another shard, is refused rather than merged short; so is
/// one whose count rows (``Shard/appendingCounts(to:)``, last in every part) disagree with its rows.
/// The merged rows have no count rows.
package enum ResultsMerge {
  /// One part: where it came from (for messages) and its rows.
  package struct Part: Sendable {
    package let name: String
    package let rows: [MetricRow]

    package init(name: String, rows: [MetricRow]) {
      self.name = name
      self.rows = rows
    }
  }

  /// What the workload says of a configuration's rows besides which configurations there are.
  package struct Expectations: Sendable {
    /// Each store's limit store (`"limits"`), by label: `memory` → `limit-dictionary`.
    package var limits: [String: String]
    /// The concurrency phase's reader counts, in the workload's order; empty without one.
    package var readers: [Int]
    /// The stores the concurrency phase runs on (every cache store, not the limit stores), by
    /// label; empty without one.
    package var concurrentStores: Set<String>

    package init(limits: [String: String] = [:], readers: [Int] = [], concurrentStores: Set<String> = []) {
      self.limits = limits
      self.readers = readers
      self.concurrentStores = concurrentStores
    }
  }

  /// The merged rows of a run of `configurations` (the workload's, in the run's order).
  ///
  /// - Throws: ``MergeError`` naming the part (and what it disagrees on) when the parts are not one
  ///   run's, or do not hold every configuration of the run exactly once, each in its shard's part;
  ///   or naming the part, the configuration and the row when a configuration is not whole
  ///   (``checkWhole(_:trailing:in:parts:expecting:)``).
  package static func merge(
    _ parts: [Part], configurations: [ConfigurationID], expecting expectations: Expectations = Expectations()
  ) throws(MergeError) -> [MetricRow] {
    let described = try parts.map(describe)
    try checkOneRun(described)
    let count = described[0].shard.count
    guard count <= max(configurations.count, 1) else {
      throw .incomplete("the parts are \(count) shards of a run of \(configurations.count) configurations: the workload is not theirs")
    }
    // Each part's configurations, in its order: consecutive rows of one variant, store and
    // strategy (a concurrency run's rows, with their reader counts, belong to the configuration).
    var byShard: [Int: [[MetricRow]]] = [:]
    for part in described {
      let groups = configurationGroups(part.rows.filter { !isTrailing($0) })
      let expected = configurations.indices.filter(part.shard.contains).map { configurations[$0] }
      try checkShare(groups.map { $0[0].key.configuration }, expected: expected, of: part, in: configurations)
      byShard[part.shard.index] = groups
    }
    let ordered = configurations.indices.map { position in byShard[position % count + 1]![position / count] }
    let positions = Dictionary(uniqueKeysWithValues: configurations.enumerated().map { ($1, $0) })
    // The trailing rows, stably by their configuration's position: first the limit comparisons,
    // then the instruction counts, as one run appends them.
    var trailing: [(section: Int, position: Int, order: Int, row: MetricRow)] = []
    for part in described {
      for row in part.rows where isTrailing(row) {
        guard let position = positions[row.key.configuration] else {
          throw .incomplete("\(part.part.name): a row of \(row.key.configuration), which the workload does not have (\(row.key))")
        }
        trailing.append((row.key.isInstructions ? 1 : 0, position, trailing.count, row))
      }
    }
    trailing.sort { ($0.section, $0.position, $0.order) < ($1.section, $1.position, $1.order) }
    let partNames = configurations.indices.map { position in described.first { $0.shard.index == position % count + 1 }!.part.name }
    try checkWhole(ordered, trailing: trailing.map(\.row), in: configurations, parts: partNames, expecting: expectations)
    // What the rows cannot tell (a part cut at a line end among a configuration's own rows, a row
    // lost from the middle), the part's count rows do.
    for part in described {
      do {
        _ = try Shard.checkingCounts(of: part.part.rows)
      } catch {
        throw .incomplete("\(part.part.name), line \(error.index + 2): \(error.message)")
      }
    }
    let first = described.first { $0.shard.index == 1 }!
    return (ordered.joined() + trailing.map(\.row)).map { row in
      var row = row
      row.run.runID = first.base
      row.run.timestamp = first.rows[0].run.timestamp
      return row
    }
  }

  /// Rows an unsplit run writes after every configuration's own.
  static func isTrailing(_ row: MetricRow) -> Bool {
    row.key.isVersusLimit || row.key.isInstructions
  }

  /// A part must hold exactly its shard's configurations, in the run's order: one it lacks, one
  /// of another shard, one the workload does not have or one twice is refused, by name.
  private static func checkShare(
    _ held: [ConfigurationID], expected: [ConfigurationID], of part: Described, in all: [ConfigurationID]
  ) throws(MergeError) {
    guard held != expected else { return }
    let name = part.part.name
    var seen: Set<ConfigurationID> = []
    for id in held where !seen.insert(id).inserted {
      throw .incomplete("\(name) holds the configuration \(id) twice")
    }
    if let stranger = held.first(where: { !all.contains($0) }) {
      throw .incomplete("\(name) holds the configuration \(stranger), which the workload does not have")
    }
    if let other = held.first(where: { !expected.contains($0) }), let position = all.firstIndex(of: other) {
      throw .incomplete(
        "\(name) holds the configuration \(other), which is shard \(position % part.shard.count + 1)/\(part.shard.count)'s, not \(part.shard)'s"
      )
    }
    let missing = expected.filter { !seen.contains($0) }
    if !missing.isEmpty {
      let listed =
        missing.prefix(3).map(\.description).joined(separator: ", ") + (missing.count > 3 ? " and \(missing.count - 3) more" : "")
      throw .incomplete(
        "\(name) lacks \(missing.count) of shard \(part.shard)'s \(expected.count) configurations (\(listed)): it is not a whole part of this run"
      )
    }
    throw .incomplete("\(name) holds shard \(part.shard)'s configurations in another order than the run's")
  }

  /// Each configuration's rows must be whole, as far as the rows of the run and the workload tell
  /// (a part cut at a line end, or that lost rows in its middle, holds every configuration and
  /// still lacks rows):
  /// - the concurrency phase's rows, on every store it runs on: one set for every reader count of
  ///   the workload, the same phases and metrics for each;
  /// - the rows of a configuration whose store has a limit store against it: one for each timing of
  ///   the configuration with a p50 above 0 that the limit store has too, and no other (the run
  ///   makes them from just those).
  ///
  /// Which other rows a configuration writes depends on its store, key strategy and source as
  /// the run measured them, and is not checked here.
  ///
  /// - Parameter groups: each configuration's own rows, in the order of `configurations`.
  /// - Parameter parts: the part each configuration came from, for messages.
  private static func checkWhole(
    _ groups: [[MetricRow]], trailing: [MetricRow], in configurations: [ConfigurationID], parts: [String],
    expecting expectations: Expectations
  ) throws(MergeError) {
    func name(_ row: MetricRow) -> String { "\(row.key.phase.rawValue)/\(row.key.metric)" }
    for (position, rows) in groups.enumerated() {
      let concurrency = Dictionary(grouping: rows.filter { $0.key.readers != nil }) { $0.key.readers! }
      let id = configurations[position]
      guard !concurrency.isEmpty || expectations.concurrentStores.contains(id.store) else { continue }
      for readers in expectations.readers where concurrency[readers] == nil {
        throw .incomplete("\(parts[position]) lacks the rows of \(id) at readers=\(readers): it is not a whole part of this run")
      }
      let every = Set(concurrency.values.joined().map(name))
      for (readers, held) in concurrency.sorted(by: { $0.key < $1.key }) {
        if let missing = every.subtracting(held.map(name)).min() {
          throw .incomplete("\(parts[position]) lacks the row \(id) readers=\(readers) \(missing): it is not a whole part of this run")
        }
      }
    }
    let positions = Dictionary(uniqueKeysWithValues: configurations.enumerated().map { ($1, $0) })
    var versusLimit: [ConfigurationID: Set<String>] = [:]
    for row in trailing where row.key.isVersusLimit && row.key.readers == nil {
      versusLimit[row.key.configuration, default: []].insert(name(row))
    }
    for (position, id) in configurations.enumerated() where expectations.limits[id.store] != nil {
      let own = groups[position].filter { $0.key.readers == nil }
      let limit = expectations.limits[id.store].flatMap { label in
        positions[ConfigurationID(variant: id.variant, store: label, keys: id.keys)]
      }
      let limitTimings = limit.map { Set(groups[$0].filter { $0.key.readers == nil }.map(name)) } ?? []
      let expected = Set(
        own.filter { $0.unit == .ns && $0.summary.p50 > 0 && limitTimings.contains(name($0)) }.map { name($0) + Metric.versusLimitSuffix })
      let held = versusLimit[id] ?? []
      if let missing = expected.subtracting(held).min() {
        throw .incomplete("\(parts[position]) lacks the row \(id) \(missing): it is not a whole part of this run")
      }
      guard let extra = held.subtracting(expected).min() else { continue }
      // A ratio row whose timings are not both there: one of them is the row that is missing.
      let timing = String(extra.dropLast(Metric.versusLimitSuffix.count))
      if !own.contains(where: { name($0) == timing }) {
        throw .incomplete(
          "\(parts[position]) lacks the row \(id) \(timing), which its row \(extra) is made from: it is not a whole part of this run")
      }
      if let limit, !limitTimings.contains(timing) {
        throw .incomplete(
          "\(parts[limit]) lacks the row \(configurations[limit]) \(timing), which \(id)'s row \(extra) is made from: it is not a whole part of this run"
        )
      }
      throw .incomplete("\(parts[position]) holds the row \(id) \(extra), which a run does not write: its p50 is 0")
    }
  }

  static func configurationGroups(_ rows: [MetricRow]) -> [[MetricRow]] {
    var groups: [[MetricRow]] = []
    var last: ConfigurationID?
    for row in rows {
      let id = row.key.configuration
      if id == last {
        groups[groups.count - 1].append(row)
      } else {
        groups.append([row])
        last = id
      }
    }
    return groups
  }

  private struct Described {
    let part: Part
    /// The part's rows without its count rows (``Shard/appendingCounts(to:)``).
    let rows: [MetricRow]
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
    let rows = part.rows.filter { !Shard.isCount($0) }
    guard !rows.isEmpty else { throw .notAPart("\(part.name) has no rows but its count rows") }
    return Described(part: part, rows: rows, shard: shard, base: base, seed: seed)
  }

  private static func checkOneRun(_ parts: [Described]) throws(MergeError) {
    guard let first = parts.first else { throw .incomplete("no parts to merge") }
    let workload = first.rows[0].key.workload
    for part in parts {
      let row = part.rows[0]
      if let other = part.rows.first(where: { $0.key.workload != workload }) {
        throw .notOneRun("\(part.part.name) is of the workload \(other.key.workload), \(first.part.name) of \(workload)")
      }
      if part.seed != first.seed {
        throw .notOneRun("\(part.part.name) ran with seed \(part.seed), \(first.part.name) with seed \(first.seed)")
      }
      if row.run.gitRev != first.rows[0].run.gitRev {
        throw .notOneRun(
          "\(part.part.name) was built from \(row.run.gitRev), \(first.part.name) from \(first.rows[0].run.gitRev): merge parts of one build"
        )
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
package enum MergeError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  /// A file that is not a part of a split run.
  case notAPart(String)
  /// Parts of different runs.
  case notOneRun(String)
  /// Parts that do not cover the run exactly once.
  case incomplete(String)

  package var description: String {
    switch self {
    case .notAPart(let message), .notOneRun(let message), .incomplete(let message): message
    }
  }

  package var exitCode: ExitCode { .dataError }
}
