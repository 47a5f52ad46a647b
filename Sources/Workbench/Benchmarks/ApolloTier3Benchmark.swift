import Foundation
import Measurement
import NormalizedCache
import Results
import SQLiteCache
import Workloads

/// Apollo iOS's Tier-3 "SQLite raw operations" (docs/apollo.md#tier-3), the six scenarios of the
/// perf plan (`cache-rewrite-phase1-perf.md`, §7.4 of `cache-rewrite-phase1-plan.md`), on a store
/// of `apolloTier3.records` records (``ApolloTier3Records``) built once per layout; with
/// `apolloTier3.sizes`, on a store of each size in turn, built once per layout and size, every row
/// named `<metric>_at_<records>x<fields>`, and after the sizes a growth row per scenario and the
/// build, `tier3/growth_<scenario>` and `tier3/growth_ratio_<scenario>` (``Growth``,
/// docs/metrics.md#growth).
///
/// A SQLite store builds its file through its own merges, 10,000 records a transaction, the
/// build timed (`tier3/build_store`, one sample: the merges alone, the records made outside the
/// clock), and keeps it for every scenario; each scenario leaves it as it was (an insert's record
/// is removed after the clock; an update sets a field to a new value, the count unchanged). Then
/// the scenarios, `warmup` iterations then `repetitions` measured ones (50 after 5), each timed
/// alone:
///
/// | Scenario | The store | Its floor (`limit-<layout>-…`) |
/// |---|---|---|
/// | `insert_one_field` | a one-field record merged | one row `INSERT` in a transaction (not `compact`) |
/// | `select_exact_key` | `loadRecords(forKeys:)` of one key | `SELECT *` by key |
/// | `select_like_*` | the SQL (a store has no such read) | none: the store's row is the SQL alone |
/// | `select_type_selection_set_ordered` | the projected load of the type's keys, in key order | the fields' rows, `IN` the keys, `ORDER BY` key |
/// | `update_composite_key` | a one-field merge | `UPDATE` by key and field (not `compact`) |
/// | `sort_by_field_cte` | the SQL; in `compact`, the type's `mass` loaded and sorted in Swift | none: as the `LIKE`s |
///
/// With `apolloTier3.keep`, the store's file is copied there, `<label>.sqlite`, after its scenarios.
///
/// The floor opens a copy of the file the layout's store built (the same rows), and runs the SQL
/// (``Tier3Operations``) of the scenarios the store runs through its own code, with nothing around
/// it; `compact`'s binary blob has no SQL for the insert and the update.
struct ApolloTier3Benchmark: IteratedBenchmark {
  let configuration: Configuration
  let context: ExecutionContext
  let config: ApolloTier3Config
  let floor: LayoutFloor
  /// Whether this is the layout's floor, which runs the SQL alone on a copy of the store's file.
  let isFloor: Bool

  /// Records merged a transaction while building.
  static let buildChunk = 10_000

  init?(_ configuration: Configuration, _ context: ExecutionContext) {
    guard case .apolloTier3(let config) = configuration.source else { return nil }
    switch configuration.spec.role {
    case .cache(let maker):
      guard let floor = maker.floor, maker.budget == nil else { return nil }
      self.floor = floor
      isFloor = false
    case .limit(.floor(let floor)):
      self.floor = floor
      isFloor = true
    case .limit:
      return nil
    }
    self.configuration = configuration
    self.context = context
    self.config = config
  }

  /// The stores the layout builds, in order: each size, or the one of `records`.
  var sizes: [ApolloTier3Size] {
    config.stores.map { ApolloTier3Size(records: $0.records, fields: $0.fields, named: !config.sizes.isEmpty) }
  }

  func measure(into sink: inout MetricSamples) throws {
    for size in sizes {
      defer { factory.removeFiles() }
      if isFloor {
        let built = try builtFile(size)
        let path = factory.newFilePath()
        try FileManager.default.copyItem(atPath: built, toPath: path)
        let operations = try Tier3Operations(path: path, layout: floor.layout, journal: floor.journal, synchronous: floor.synchronous)
        try measureFloor(operations, size, into: &sink)
      } else {
        let path = try measureStore(size, into: &sink)
        // The store and its connections closed: the file is whole, for the floor to copy.
        try keep(path, size)
        try copyToKeepDirectory(path, size)
      }
    }
    guard !config.sizes.isEmpty else { return }
    // How each scenario's p50, and the build, grow with the records (a floor's where it has them).
    for metric in Metric.tier3Scenarios + [.tier3Build] {
      sink.appendGrowth(metric.name, phase: .tier3, over: sizes.map { ($0.records, $0.metric(metric)) })
    }
  }

  // MARK: Building

  /// Builds the store's file of `size` through its own merges, timed.
  private func build(_ store: any NormalizedCache, _ size: ApolloTier3Size, into sink: inout MetricSamples) throws {
    let count = size.records
    var ns: UInt64 = 0
    for start in stride(from: 0, to: count, by: Self.buildChunk) {
      context.progress.update("building \(size), \(start)/\(count)")
      let records = ApolloTier3Records.chunk(start..<min(count, start + Self.buildChunk), seed: workload.seed, fields: size.fields)
      ns += try MonotonicClock.time { try store.merge(records: records) }
    }
    sink.append(Double(ns), to: size.metric(.tier3Build))
  }

  /// The layout's built file of `size`, kept between configurations: the one its store built, or
  /// (when the floor runs without it, in a shard) one built now by a store of the layout.
  private func builtFile(_ size: ApolloTier3Size) throws -> String {
    let kept = factory.keptPath(size.keptName(floor.label))
    if FileManager.default.fileExists(atPath: kept) { return kept }
    do {
      var options = SQLiteNormalizedCache.Options(layout: floor.layout)
      options.journalMode = floor.journal
      options.synchronous = floor.synchronous
      let store = try SQLiteNormalizedCache(path: kept, options: options)
      var unreported = MetricSamples()
      try build(store, size, into: &unreported)
    }
    return kept
  }

  /// Copies the store's closed file of `size` to where the layout's floor finds it.
  private func keep(_ path: String, _ size: ApolloTier3Size) throws {
    let kept = factory.keptPath(size.keptName(floor.label))
    guard !FileManager.default.fileExists(atPath: kept) else { return }
    try FileManager.default.copyItem(atPath: path, toPath: kept)
  }

  /// Copies the store's closed file to the workload's `keep` directory, as `<label>.sqlite`, or
  /// `<label>-<records>x<fields>.sqlite` with sizes (replacing one an earlier run left), for
  /// another program to open after the run.
  private func copyToKeepDirectory(_ path: String, _ size: ApolloTier3Size) throws {
    guard let directory = config.keep else { return }
    let target = (directory as NSString).appendingPathComponent((size.named ? size.keptName(label) : label) + ".sqlite")
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
      try FileManager.default.copyItem(atPath: path, toPath: target)
    } catch {
      throw RunError("\(label): cannot keep its file as \(target): \(error.localizedDescription)", exitCode: .cantCreate)
    }
  }

  // MARK: The store

  /// Builds the store, then runs the six scenarios through it (and its file's SQL where a store has
  /// no such read); returns its file's path once the store is closed.
  private func measureStore(_ size: ApolloTier3Size, into sink: inout MetricSamples) throws -> String {
    guard let store = try factory.make(configuration) as? SQLiteNormalizedCache else {
      throw RunError("\(label): Apollo's Tier-3 scenarios need a SQLite store")
    }
    let count = size.records
    try build(store, size, into: &sink)
    let operations = try Tier3Operations(path: store.path, layout: floor.layout, journal: floor.journal, synchronous: floor.synchronous)
    try measureSize(operations, size, path: store.path, into: &sink)

    try iterate(size.metric(.tier3Insert), into: &sink) { iteration in
      let key = ApolloTier3Records.insertKey(iteration: iteration)
      let record = RecordSet(records: [Self.oneField(key, value: iteration)])
      let ns = try MonotonicClock.time { try store.merge(records: record) }
      try store.removeRecords(forKeys: [key])
      return ns
    }
    try iterate(size.metric(.tier3ExactKey), into: &sink) { iteration in
      let key = ApolloTier3Records.exactKey(iteration: iteration, count: count)
      var found = 0
      let ns = try MonotonicClock.time { found = try store.loadRecords(forKeys: [key]).count }
      try expect(found == 1, "found no record \(key)")
      return ns
    }
    try measureLikes(operations, size, into: &sink)
    let keys = size.typeKeys
    let projection = FieldProjection(sets: [FieldSet(ApolloTier3Records.selection)], setIndices: Array(repeating: 0, count: keys.count))
    try iterate(size.metric(.tier3Selection), into: &sink) { _ in
      var found = 0
      let ns = try MonotonicClock.time {
        found = try store.withConsistentRead { snapshot in
          var lent = LentRecords()
          try snapshot.lendRecords(forKeys: keys, projection: projection, to: &lent)
          return lent.found
        }
      }
      try expect(found == keys.count, "lent \(found) of the \(keys.count) records of \(ApolloTier3Records.scenarioType)")
      return ns
    }
    try iterate(size.metric(.tier3Update), into: &sink) { iteration in
      let key = ApolloTier3Records.updateKey(iteration: iteration, count: count)
      let record = RecordSet(records: [Self.oneField(key, value: Self.updatedMass(iteration, floor: false))])
      return try MonotonicClock.time { try store.merge(records: record) }
    }
    try iterate(size.metric(.tier3Sort), into: &sink) { _ in
      var sorted = 0
      let ns = try MonotonicClock.time {
        if let keys = try operations.sortedByField(type: ApolloTier3Records.scenarioType, field: ApolloTier3Records.sortField) {
          sorted = keys.count
        } else {
          sorted = try Self.sortInSwift(store, keys: keys).count
        }
      }
      try expect(sorted == keys.count, "sorted \(sorted) of the \(keys.count) records of \(ApolloTier3Records.scenarioType)")
      return ns
    }
    return store.path
  }

  /// Where SQL cannot read a field (`compact`): the type's records' `mass` loaded through the
  /// store, projected, and sorted in Swift, then by key.
  static func sortInSwift(_ store: any NormalizedCache, keys: [CacheKey]) throws -> [CacheKey] {
    let records = try store.loadRecordsInOrder(forKeys: keys)
    var masses: [(key: CacheKey, mass: Int)] = []
    masses.reserveCapacity(records.count)
    for record in records {
      guard let record, case .int(let mass)? = record[ApolloTier3Records.sortField] else { continue }
      masses.append((record.key, mass))
    }
    masses.sort { $0.mass != $1.mass ? $0.mass < $1.mass : $0.key < $1.key }
    return masses.map(\.key)
  }

  // MARK: The floor

  /// The SQL alone, on a copy of the layout's file, of the scenarios its store runs through its own
  /// code: insert, exact key, selection set, update (in `compact` the exact key and the selection
  /// set: SQL cannot write its blob). The `LIKE`s and the CTE sort are the store's rows already:
  /// the store runs that same SQL on the same file, and a floor would time it twice.
  private func measureFloor(_ operations: Tier3Operations, _ size: ApolloTier3Size, into sink: inout MetricSamples) throws {
    let count = size.records
    if operations.readsFields {
      try iterate(size.metric(.tier3Insert), into: &sink) { iteration in
        let key = ApolloTier3Records.insertKey(iteration: iteration)
        var inserted = false
        let ns = try MonotonicClock.time {
          inserted = try operations.insertRecord(key: key, field: ApolloTier3Records.sortField, value: iteration)
        }
        try expect(inserted, "inserted no record \(key)")
        try operations.deleteRecord(key: key)
        return ns
      }
    }
    try iterate(size.metric(.tier3ExactKey), into: &sink) { iteration in
      let key = ApolloTier3Records.exactKey(iteration: iteration, count: count)
      var rows = 0
      let ns = try MonotonicClock.time { rows = try operations.selectByKey(key) }
      try expect(rows > 0, "read no row of \(key)")
      return ns
    }
    let keys = size.typeKeys
    try iterate(size.metric(.tier3Selection), into: &sink) { _ in
      var read: [CacheKey] = []
      let ns = try MonotonicClock.time { read = try operations.selection(keys: keys, fields: ApolloTier3Records.selection).keys }
      try expect(read.count == keys.count, "read \(read.count) of the \(keys.count) records of \(ApolloTier3Records.scenarioType)")
      return ns
    }
    guard operations.readsFields else { return }
    try iterate(size.metric(.tier3Update), into: &sink) { iteration in
      let key = ApolloTier3Records.updateKey(iteration: iteration, count: count)
      var changed: Int?
      let ns = try MonotonicClock.time {
        changed = try operations.updateField(key: key, field: ApolloTier3Records.sortField, to: Self.updatedMass(iteration, floor: true))
      }
      try expect(changed == 1, "changed \(changed ?? 0) rows updating \(key).mass")
      return ns
    }
  }

  // MARK: Shared

  /// The three `LIKE` patterns (the SQL alone: a store has no such read), each iteration's keys
  /// counted, the same every time.
  private func measureLikes(_ operations: Tier3Operations, _ size: ApolloTier3Size, into sink: inout MetricSamples) throws {
    let metrics: [Metric] = [.tier3LikePrefix, .tier3LikeMiddle, .tier3LikeSuffix]
    for (metric, like) in zip(metrics, ApolloTier3Records.likePatterns) {
      var matched: Int?
      try iterate(size.metric(metric), into: &sink) { _ in
        var keys = 0
        let ns = try MonotonicClock.time { keys = try operations.keys(like: like.pattern).count }
        try expect(matched == nil || matched == keys, "matched \(keys) keys with \(like.pattern), then \(matched ?? 0)")
        matched = keys
        return ns
      }
    }
  }

  /// The records and file bytes (with its WAL's) of the built store.
  private func measureSize(_ operations: Tier3Operations, _ size: ApolloTier3Size, path: String, into sink: inout MetricSamples) throws {
    let records = try operations.recordCount()
    try expect(records == size.records, "holds \(records) records after building \(size)")
    sink.append(Double(records), to: size.metric(.tier3Records))
    // The file and, in WAL, the log its pages are still in: what the store holds on disk.
    let bytes = [path, path + "-wal"].reduce(0) { total, file in
      total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
    }
    sink.append(Double(bytes), to: size.metric(.tier3FileBytes))
  }

  /// A record of one Int field, `mass`: what an insert adds and an update merges.
  static func oneField(_ key: CacheKey, value: Int) -> Record {
    var builder = Record.Builder(key: key, capacity: 16)
    builder.append(ApolloTier3Records.sortField, .int(value))
    return builder.build()
  }

  /// The `mass` an update of iteration `iteration` sets: above every built record's, and the
  /// floor's above the store's, so always a change (SQLite writes no page for an `UPDATE` that
  /// leaves a row as it was, and the floor's file is the store's after its updates).
  static func updatedMass(_ iteration: Int, floor: Bool) -> Int { (floor ? 2_000_000 : 1_000_000) + iteration }
}
