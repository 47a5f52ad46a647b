import Testing

@testable import Results

@Suite("Merging the parts of a split run")
struct ResultsMergeTests {
  /// The rows an unsplit run of `configurations` writes: two rows a configuration, then a limit
  /// comparison for the first and an instruction count for each, as a run appends them.
  static func run(
    _ configurations: [(store: String, keys: String)], positions: [Int]? = nil, runID: String = "20261125T100000Z-seed4",
    gitRev: String = "abc"
  ) -> [MetricRow] {
    // Values from each configuration's position in the whole run, so that a part's rows are the
    // whole run's.
    let positions = positions ?? Array(configurations.indices)
    func row(_ store: String, _ keys: String, _ phase: Phase, _ metric: String, _ value: Double, unit: MetricUnit = .count) -> MetricRow {
      var summary = Summary(single: value)
      summary.n = 1
      return MetricRow(
        run: RunInfo(runID: runID, timestamp: "2026-11-25T10:00:00Z", gitRev: gitRev, host: "h"),
        key: MetricKey(workload: "w", store: store, keys: keys, phase: phase, metric: metric), unit: unit, better: .lower,
        deterministic: true, summary: summary)
    }
    var rows: [MetricRow] = []
    for (index, configuration) in zip(positions, configurations) {
      rows.append(row(configuration.store, configuration.keys, .write, "allocations", Double(index)))
      rows.append(row(configuration.store, configuration.keys, .dedup, "records", Double(100 + index)))
    }
    for (index, configuration) in zip(positions, configurations) where index % 3 == 0 {
      rows.append(row(configuration.store, configuration.keys, .merge, "latency_vs_limit", Double(index) / 10, unit: .ratio))
    }
    for (index, configuration) in zip(positions, configurations) {
      rows.append(row(configuration.store, configuration.keys, .read, "instructions", Double(1000 + index)))
    }
    return rows
  }

  static let configurations = [
    ("memory", "path"), ("memory", "typePolicy"), ("sqlite", "path"), ("sqlite", "typePolicy"), ("chain", "path"),
    ("chain", "typePolicy"), ("limit-dictionary", "path"),
  ].map { (store: $0.0, keys: $0.1) }

  /// Shard k of n: the configurations at k-1, k-1+n, ..., with the shard in the run ID.
  static func part(_ k: Int, of n: Int, seed: Int = 4, gitRev: String = "abc") -> ResultsMerge.Part {
    let mine = configurations.enumerated().filter { $0.offset % n == k - 1 }
    return ResultsMerge.Part(
      name: "part-\(k).csv",
      rows: Shard.appendingCounts(
        to: run(mine.map(\.element), positions: mine.map(\.offset), runID: "2026112\(k)T1000Z-seed\(seed)-shard\(k)of\(n)", gitRev: gitRev))
    )
  }

  static func keys(_ rows: [MetricRow]) -> [String] { rows.map { "\($0.key)=\($0.summary.p50)" } }

  /// The run's configurations, as the workload gives them.
  static let ids = configurations.map { ConfigurationID(variant: "", store: $0.store, keys: $0.keys) }

  static func merge(_ parts: [ResultsMerge.Part]) throws(MergeError) -> [MetricRow] {
    try ResultsMerge.merge(parts, configurations: ids)
  }

  /// Part `k` of `n` without its rows of `store × keys`.
  static func part(_ k: Int, of n: Int, losing store: String, _ keys: String) -> ResultsMerge.Part {
    let part = part(k, of: n)
    return ResultsMerge.Part(name: part.name, rows: part.rows.filter { $0.key.store != store || $0.key.keys != keys })
  }

  @Test(
    "the parts in any order give the unsplit run's rows in its order, the trailing rows after every configuration's",
    arguments: [1, 2, 3, 7])
  func order(shards: Int) throws {
    let parts = (1...shards).reversed().map { Self.part($0, of: shards) }
    let merged = try Self.merge(parts)
    #expect(Self.keys(merged) == Self.keys(Self.run(Self.configurations)))
    // One run: every row takes shard 1's run ID, without its shard.
    #expect(Set(merged.map(\.run.runID)) == ["20261121T1000Z-seed4"])
  }

  @Test(
    "parts that are not one run's, or do not cover it once, are refused with the file at fault",
    arguments: [
      ([part(1, of: 3), part(2, of: 3)], "shard 3/3 is missing"),
      ([part(1, of: 3), part(2, of: 3), part(2, of: 3), part(3, of: 3)], "part-2.csv and part-2.csv are both shard 2/3"),
      ([part(1, of: 2), part(2, of: 3)], "part-2.csv is shard 2/3, part-1.csv shard 1/2: one run has one N"),
      ([part(1, of: 2), part(2, of: 2, seed: 5)], "part-2.csv ran with seed 5, part-1.csv with seed 4"),
      ([part(1, of: 2), part(2, of: 2, gitRev: "def")], "part-2.csv was built from def, part-1.csv from abc: merge parts of one build"),
      (
        [ResultsMerge.Part(name: "whole.csv", rows: run(configurations))],
        "whole.csv is not a shard of a run: its run ID 20261125T100000Z-seed4 has no -shardKofN (run it with --shard K/N)"
      ),
      (
        [part(1, of: 2), ResultsMerge.Part(name: "part-2.csv", rows: Array(part(2, of: 2).rows.dropFirst(2)))],
        "part-2.csv lacks 1 of shard 2/2's 3 configurations (memory × typePolicy): it is not a whole part of this run"
      ),
      // Shard 1 of 3 holds one more configuration than the others: lost, the counts still agree.
      (
        [part(1, of: 3, losing: "limit-dictionary", "path"), part(2, of: 3), part(3, of: 3)],
        "part-1.csv lacks 1 of shard 1/3's 3 configurations (limit-dictionary × path): it is not a whole part of this run"
      ),
      // Shard 2 lost the second half of its rows.
      (
        [part(1, of: 3), ResultsMerge.Part(name: "part-2.csv", rows: Array(part(2, of: 3).rows.prefix(2))), part(3, of: 3)],
        "part-2.csv lacks 1 of shard 2/3's 2 configurations (chain × path): it is not a whole part of this run"
      ),
      (
        [
          part(1, of: 2),
          ResultsMerge.Part(
            name: "part-2.csv", rows: part(2, of: 2).rows + run([("memory", "path")], runID: "20261122T1000Z-seed4-shard2of2")),
        ],
        "part-2.csv holds the configuration memory × path, which is shard 1/2's, not 2/2's"
      ),
    ])
  func refused(parts: [ResultsMerge.Part], message: String) {
    #expect(throws: MergeError.self) { try Self.merge(parts) }
    do {
      _ = try Self.merge(parts)
    } catch {
      #expect(error.description == message)
      #expect(error.exitCode == .dataError)
    }
  }

  @Test("a shard is K/N with 1 <= K <= N; it owns every N-th configuration from K-1; run IDs name it")
  func shards() throws {
    #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "+1/+3", "1/+3", " 1/3"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    let shard = try #require(Shard(index: 2, count: 3))
    #expect((0..<9).filter(shard.contains) == [1, 4, 7])
    #expect(Shard.parse(runID: "20261125T090240Z-seed42" + shard.runIDSuffix)?.base == "20261125T090240Z-seed42")
    #expect(Shard.parse(runID: "20261125T090240Z-seed42" + shard.runIDSuffix)?.shard == shard)
    #expect(Shard.parse(runID: "20261125T090240Z-seed42") == nil)
  }
}

extension ResultsMergeTests {
  @Test("a part whose rows all name their configurations, but not all of them, is refused by its count rows, with the line")
  func counts() throws {
    // Part 2 of 3: memory × typePolicy (position 1) and chain × path (position 4), two rows each,
    // then an instruction count each (no limit comparison: neither position is a multiple of 3),
    // then the counts: 3 and 3. Lines: the header, rows 2-7, the counts on lines 8 and 9.
    let whole = Self.part(2, of: 3)
    #expect(
      whole.rows.suffix(2).map { "\($0.key)=\($0.summary.p50)" } == ["w/memory/typePolicy/shard/rows=3.0", "w/chain/path/shard/rows=3.0"])
    func merged(_ rows: [MetricRow]) throws(MergeError) {
      _ = try Self.merge([Self.part(1, of: 3), ResultsMerge.Part(name: "part-2.csv", rows: rows), Self.part(3, of: 3)])
    }
    try merged(whole.rows)
    // memory × typePolicy's dedup row (the part's second) lost from the middle.
    var lost = whole.rows
    lost.remove(at: 1)
    #expect(
      throws: MergeError.incomplete(
        "part-2.csv, line 7: memory × typePolicy has 2 rows in the part where its count row says 3: rows were lost")
    ) { try merged(lost) }
    // Cut at a line end: the last count, then both, then an instruction count too.
    #expect(throws: MergeError.incomplete("part-2.csv, line 8: the part ends without the count of chain × path's rows: it was cut short")) {
      try merged(Array(whole.rows.dropLast()))
    }
    #expect(throws: MergeError.incomplete("part-2.csv, line 7: the part ends without its count rows: it was cut short")) {
      try merged(Array(whole.rows.dropLast(2)))
    }
    #expect(throws: MergeError.incomplete("part-2.csv, line 6: the part ends without its count rows: it was cut short")) {
      try merged(Array(whole.rows.dropLast(3)))
    }
    // A row added, a row after the counts, and a count of a configuration that has no rows.
    var added = whole.rows
    added.insert(whole.rows[2], at: 3)
    #expect(
      throws: MergeError.incomplete("part-2.csv, line 10: chain × path has 4 rows in the part where its count row says 3: rows were added")
    ) { try merged(added) }
    #expect(throws: MergeError.incomplete("part-2.csv, line 10: a row after the part's count rows, which end a part")) {
      try merged(whole.rows + [whole.rows[4]])
    }
    #expect(throws: MergeError.incomplete("part-2.csv, line 10: a count of sqlite × path's rows, which the part has none of")) {
      try merged(whole.rows + [Self.renamed(whole.rows[7], to: "sqlite", "path")])
    }
  }

  @Test("every cut at a line end and every single row lost is told by the counts; a file that is not a part is read as it is")
  func everyCut() throws {
    let rows = Self.part(1, of: 2).rows
    #expect(try Shard.checkingCounts(of: rows).count == rows.count - 4)
    for end in 1..<rows.count {
      #expect(throws: Shard.CountMismatch.self) { try Shard.checkingCounts(of: Array(rows.prefix(end))) }
    }
    for lost in rows.indices.dropLast() {
      var kept = rows
      kept.remove(at: lost)
      #expect(throws: Shard.CountMismatch.self, "row \(lost)") { try Shard.checkingCounts(of: kept) }
    }
    let unsplit = Self.run(Self.configurations)
    #expect(try Shard.checkingCounts(of: unsplit) == unsplit)
    #expect(try Shard.checkingCounts(of: Array(unsplit.dropLast())) == Array(unsplit.dropLast()))
  }

  static func renamed(_ row: MetricRow, to store: String, _ keys: String) -> MetricRow {
    var row = row
    row.key.store = store
    row.key.keys = keys
    return row
  }

  @Test("parts of a run with more shards than the workload has configurations are refused: the workload is not theirs")
  func anotherWorkload() {
    let parts = (1...3).map { Self.part($0, of: 3) }
    #expect(throws: MergeError.incomplete("the parts are 3 shards of a run of 2 configurations: the workload is not theirs")) {
      try ResultsMerge.merge(parts, configurations: Array(Self.ids.prefix(2)))
    }
    #expect(throws: MergeError.self) { try ResultsMerge.merge(parts, configurations: Array(Self.ids.dropLast())) }
  }
}

@Suite("Merging: every configuration whole")
struct ResultsMergeWholeTests {
  static let memory = ConfigurationID(variant: "", store: "memory", keys: "path")
  static let limit = ConfigurationID(variant: "", store: "limit-dictionary", keys: "path")
  static let expectations = ResultsMerge.Expectations(
    limits: ["memory": "limit-dictionary"], readers: [1, 2], concurrentStores: ["memory"])

  static func row(_ store: String, _ phase: Phase, _ metric: String, _ p50: Double, unit: MetricUnit = .ns, readers: Int? = nil, shard: Int)
    -> MetricRow
  {
    MetricRow(
      run: RunInfo(runID: "20261125T100000Z-seed4-shard\(shard)of2", timestamp: "2026-11-25T10:00:00Z", gitRev: "abc", host: "h"),
      key: MetricKey(workload: "w", store: store, keys: "path", phase: phase, metric: metric, readers: readers), unit: unit, better: .lower,
      deterministic: false, summary: Summary(single: p50))
  }

  /// Shard 1 of 2: memory × path's write and read latency (the write's p50 0), its concurrency
  /// rows at 1 and 2 readers, its read against the limit store's. Shard 2: the limit store's
  /// read latency and records.
  static let first = [
    row("memory", .write, "latency", 0, shard: 1), row("memory", .read, "latency", 800, shard: 1),
    row("memory", .dedup, "records", 40, unit: .count, shard: 1),
    row("memory", .concurrency, "read_latency", 900, readers: 1, shard: 1),
    row("memory", .concurrency, "write_latency", 2000, readers: 1, shard: 1),
    row("memory", .concurrency, "read_latency", 950, readers: 2, shard: 1),
    row("memory", .concurrency, "write_latency", 2100, readers: 2, shard: 1),
    row("memory", .read, "latency_vs_limit", 0.5, unit: .ratio, shard: 1),
  ]
  static let second = [
    row("limit-dictionary", .write, "latency", 100, shard: 2), row("limit-dictionary", .read, "latency", 400, shard: 2),
    row("limit-dictionary", .dedup, "records", 40, unit: .count, shard: 2),
  ]

  static func merge(_ first: [MetricRow], _ second: [MetricRow] = second) throws(MergeError) -> [MetricRow] {
    try ResultsMerge.merge(
      [
        ResultsMerge.Part(name: "p1.csv", rows: Shard.appendingCounts(to: first)),
        ResultsMerge.Part(name: "p2.csv", rows: Shard.appendingCounts(to: second)),
      ], configurations: [memory, limit],
      expecting: expectations)
  }

  static func without(_ rows: [MetricRow], _ description: String) -> [MetricRow] {
    let kept = rows.filter { "\($0.key)" != description }
    precondition(kept.count == rows.count - 1, "no row \(description)")
    return kept
  }

  @Test("whole parts merge: a timing with a p50 of 0 has no row against the limit store")
  func whole() throws {
    #expect(try Self.merge(Self.first).count == 11)
  }

  @Test(
    "a part without one of a configuration's rows is refused, naming the configuration and the row",
    arguments: [
      (
        "w/memory/path/read/latency_vs_limit",
        "p1.csv lacks the row memory × path read/latency_vs_limit: it is not a whole part of this run"
      ),
      (
        "w/memory/path/read/latency",
        "p1.csv lacks the row memory × path read/latency, which its row read/latency_vs_limit is made from: it is not a whole part of this run"
      ),
      (
        "w[readers=2]/memory/path/concurrency/write_latency",
        "p1.csv lacks the row memory × path readers=2 concurrency/write_latency: it is not a whole part of this run"
      ),
    ])
  func lacksARow(removed: String, message: String) {
    #expect(throws: MergeError.incomplete(message)) { try Self.merge(Self.without(Self.first, removed)) }
  }

  @Test("a part without a reader count's rows, or whose limit store lost the timing a ratio is made from, is refused")
  func lacksRowsElsewhere() {
    // Every concurrency row gone, as from a part cut at a line end just before them.
    #expect(throws: MergeError.incomplete("p1.csv lacks the rows of memory × path at readers=1: it is not a whole part of this run")) {
      try Self.merge(Self.first.filter { $0.key.readers == nil })
    }
    let noSecondReaders = Self.first.filter { $0.key.readers != 2 }
    #expect(throws: MergeError.incomplete("p1.csv lacks the rows of memory × path at readers=2: it is not a whole part of this run")) {
      try Self.merge(noSecondReaders)
    }
    #expect(
      throws: MergeError.incomplete(
        "p2.csv lacks the row limit-dictionary × path read/latency, which memory × path's row read/latency_vs_limit is made from: it is not a whole part of this run"
      )
    ) { try Self.merge(Self.first, Self.without(Self.second, "w/limit-dictionary/path/read/latency")) }
    var zero = Self.first
    zero[0] = Self.row("memory", .write, "latency", 0, shard: 1)
    zero.append(Self.row("memory", .write, "latency_vs_limit", 1, unit: .ratio, shard: 1))
    #expect(
      throws: MergeError.incomplete("p1.csv holds the row memory × path write/latency_vs_limit, which a run does not write: its p50 is 0")
    ) { try Self.merge(zero) }
  }
}
