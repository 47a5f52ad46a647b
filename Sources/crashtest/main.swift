import Foundation
import NormalizedCache
import NormalizedCacheConformance
import SQLiteCache
import Support

// `make crash-test`: kills a process merging into SQLite at random moments, reopens the database
// and checks it (docs/stores.md: every merge is one transaction), for each layout x journal mode
// (WAL, DELETE), unbounded and bounded (a budget whose merges evict, each configuration with one of
// the three policies).
//
//   crashtest run [--kills N] [--seed S]     the whole test; exit 0 when every check passed
//   crashtest writer DB CONFIGURATION LOG    merges batch after batch until killed; after a merge
//                                            returns, appends its number to LOG (fsync'd)
//
// A batch b is 20 records `B<b>:<j>` holding b, plus the record `counter` set to b, plus a field
// of the record `wide` set to b (unbounded: field `b<b>`, so that it grows past 64 fields and is
// stored in chunks of 64 in the compact layout; bounded: field `b<b mod 80>`, still past 64, but
// of a bounded size). After a kill: PRAGMA integrity_check is ok; every batch LOG reports
// committed is there whole, or (bounded) was evicted: the last committed batch is there whole
// (its merge made it the most recent), and one missing or in part only from a store full enough to
// have evicted it; the batch in flight is there whole or not at all; `counter` is the last batch
// there; `wide` holds the last value of each of its fields. Bounded, the store reopened counts what
// its tables hold (its accounted bytes: every record's stored bytes, key again, layout and usage
// row overhead) and keeps to its budget.

let recordsPerBatch = 20
/// The fields of `wide` in a bounded store: past 64, so split in the compact layout.
let boundedWideFields = 80

/// One configuration of the test.
struct Configuration {
  let layout: SQLiteNormalizedCache.Layout
  let journal: SQLiteNormalizedCache.JournalMode
  let budget: CacheBudget?

  /// `compact wal`, `apollo delete bounded lfu`.
  var name: String { "\(layout) \(journal)" + (budget.map { " bounded \($0.policy)" } ?? "") }

  /// Some ten batches' worth: the merges evict every few batches.
  static let maxSizeBytes = 80_000

  static let all: [Configuration] = {
    var all: [Configuration] = []
    let policies: [EvictionPolicy] = [.lru, .fifo, .lfu, .lru, .fifo, .lfu]
    for bounded in [false, true] {
      for layout in SQLiteNormalizedCache.Layout.allCases {
        for journal in [SQLiteNormalizedCache.JournalMode.wal, .delete] {
          let policy = policies[all.count { $0.budget != nil } % policies.count]
          let budget = bounded ? CacheBudget(maxSizeBytes: maxSizeBytes, evictTo: 0.8, policy: policy) : nil
          all.append(Configuration(layout: layout, journal: journal, budget: budget))
        }
      }
    }
    return all
  }()

  /// The argument a writer gets: `compact:wal:none`, `apollo:delete:lru`.
  var argument: String { "\(layout.rawValue):\(journal.rawValue):\(budget?.policy.rawValue ?? "none")" }

  init(layout: SQLiteNormalizedCache.Layout, journal: SQLiteNormalizedCache.JournalMode, budget: CacheBudget?) {
    self.layout = layout
    self.journal = journal
    self.budget = budget
  }

  init?(argument: String) {
    let parts = argument.split(separator: ":").map(String.init)
    guard parts.count == 3, let layout = SQLiteNormalizedCache.Layout(rawValue: parts[0]),
      let journal = SQLiteNormalizedCache.JournalMode(rawValue: parts[1])
    else { return nil }
    let policy = EvictionPolicy(rawValue: parts[2])
    guard policy != nil || parts[2] == "none" else { return nil }
    self.init(
      layout: layout, journal: journal,
      budget: policy.map { CacheBudget(maxSizeBytes: Self.maxSizeBytes, evictTo: 0.8, policy: $0) })
  }

  var options: SQLiteNormalizedCache.Options {
    var options = SQLiteNormalizedCache.Options()
    options.layout = layout
    options.journalMode = journal
    options.budget = budget
    return options
  }

  /// The field of `wide` that batch `number` sets.
  func wideField(_ number: Int) -> String { budget == nil ? "b\(number)" : "b\(number % boundedWideFields)" }

  func batch(_ number: Int) -> RecordSet {
    var records: [Record] = []
    for index in 0..<recordsPerBatch {
      records.append(
        Record(
          key: "B\(number):\(index)",
          fields: [
            ("batch", .int(number)), ("index", .int(index)),
            ("payload", .string(String(repeating: "x", count: 50 + (number * 7 + index) % 400))),
          ]))
    }
    records.append(Record(key: "counter", fields: [("last", .int(number))]))
    records.append(Record(key: "wide", fields: [(wideField(number), .int(number))]))
    return RecordSet(records: records)
  }
}

func writer(database: String, configuration: Configuration, log: String) throws -> Never {
  let cache = try SQLiteNormalizedCache(path: database, options: configuration.options)
  let descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT, 0o644)
  precondition(descriptor >= 0, "cannot open \(log)")
  var number =
    (try cache.loadRecords(forKeys: ["counter"])["counter"]?["last"]).flatMap { value -> Int? in
      if case .int(let int) = value { return int + 1 }
      return nil
    } ?? 0
  while true {
    try cache.merge(records: configuration.batch(number))
    let line = Array("\(number)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    fsync(descriptor)
    number += 1
  }
}

/// Which batches a database holds, whole or in part.
struct Batches {
  /// Batches with all their records, in order.
  var whole: [Int] = []
  /// Batches with some of their records: (batch, records there).
  var partial: [(number: Int, count: Int)] = []
  var present: [Int] { (whole + partial.map(\.number)).sorted() }

  init(_ cache: SQLiteNormalizedCache, through last: Int) throws {
    for number in 0...max(last, 0) {
      let found = try cache.loadRecords(forKeys: (0..<recordsPerBatch).map { "B\(number):\($0)" })
      if found.count == recordsPerBatch { whole.append(number) } else if !found.isEmpty { partial.append((number, found.count)) }
    }
  }
}

/// The check after a kill; nil when the database is as it must be, else what is wrong. It reads
/// through an unbounded store on the file: a bounded one would count its reads as uses and write
/// them down when released, which changes what the next writer evicts.
func check(database: String, configuration: Configuration, log: String) throws -> String? {
  var unbounded = configuration.options
  unbounded.budget = nil
  let cache = try SQLiteNormalizedCache(path: database, options: unbounded)
  let integrity = try cache.integrityCheck()
  guard integrity == "ok" else { return "integrity_check: \(integrity)" }
  let logged = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) }
  let lastLogged = logged.max() ?? -1
  let batches = try Batches(cache, through: lastLogged + 1)
  for number in batches.whole {
    let found = try cache.loadRecords(forKeys: (0..<recordsPerBatch).map { "B\(number):\($0)" })
    for record in found.values where record["batch"] != .int(number) {
      return "record \(record.key) holds \(String(describing: record["batch"])), not batch \(number)"
    }
  }
  if let problem = configuration.budget == nil
    ? checkUnbounded(batches, lastLogged: lastLogged) : try checkBounded(cache, batches, lastLogged: lastLogged, configuration)
  {
    return problem
  }
  return try checkCounterAndWide(cache, lastPresent: batches.present.last ?? -1, configuration: configuration)
}

/// Every committed batch whole, the one in flight whole or absent.
func checkUnbounded(_ batches: Batches, lastLogged: Int) -> String? {
  if let part = batches.partial.first {
    return "batch \(part.number) is there in part: \(part.count) of \(recordsPerBatch) records"
  }
  if let missing = (0...max(lastLogged, 0)).first(where: { $0 <= lastLogged && !batches.whole.contains($0) }) {
    return "batch \(missing) was reported committed and is missing"
  }
  return nil
}

/// The last committed batch whole (its merge made it the most recent record there), the one in
/// flight whole or absent, and a committed batch missing or in part only in a store full enough to
/// have evicted it: a store reopened treats the records written since its usage rows were last
/// flushed as the least recent (docs/bounded-and-concurrent.md: a crash loses the order of the
/// last merges, never a record), so eviction after a crash need not take the oldest batch first.
/// The bounded store's own count of its bytes, reopened, is what its tables hold, within the budget.
func checkBounded(_ cache: SQLiteNormalizedCache, _ batches: Batches, lastLogged: Int, _ configuration: Configuration) throws -> String? {
  let present = batches.present
  // The batch in flight may have committed before the writer could log it (the kill fell between
  // the two): then it is the last committed, and its merge may have evicted part of the one before.
  let lastCommitted = batches.whole.contains(lastLogged + 1) ? lastLogged + 1 : lastLogged
  for part in batches.partial where part.number >= lastCommitted {
    return "batch \(part.number) is there in part: \(part.count) of \(recordsPerBatch) records"
  }
  if lastCommitted >= 0, !batches.whole.contains(lastCommitted) {
    return "batch \(lastCommitted), the last reported committed, is missing"
  }
  let accounted = try SQLiteNormalizedCache(path: cache.path, options: configuration.options).accountedBytes()
  let evicted = (0..<max(lastCommitted, 0)).filter { !batches.whole.contains($0) }
  if let first = evicted.first, accounted < Configuration.maxSizeBytes / 2 {
    return "batch \(first) was reported committed and is \(present.contains(first) ? "there in part" : "missing"), "
      + "and the store holds \(accounted) bytes, under half its budget: no eviction took it"
  }
  // What the tables hold, counted by the unbounded store (SQLite counts every record's stored
  // bytes when it opens), plus each record's usage row: its key again and its overhead.
  let keys = try cache.allKeys()
  let expected =
    cache.accountedBytes() + keys.reduce(0) { $0 + $1.utf8.count } + keys.count * SQLiteNormalizedCache.usageRowOverheadBytes
  if accounted != expected {
    return "the store counts \(accounted) bytes, its tables hold \(expected) (\(keys.count) records)"
  }
  if accounted > Configuration.maxSizeBytes {
    return "the store holds \(accounted) bytes, past its budget of \(Configuration.maxSizeBytes)"
  }
  return nil
}

/// `counter` is the last batch there; `wide` holds each field's last value up to it.
func checkCounterAndWide(_ cache: SQLiteNormalizedCache, lastPresent: Int, configuration: Configuration) throws -> String? {
  var expected: [String: RecordValue] = [:]
  if lastPresent >= 0 {
    for number in 0...lastPresent { expected[configuration.wideField(number)] = .int(number) }
  }
  let wide = try cache.loadRecords(forKeys: ["wide"])["wide"]
  let wideFields = Dictionary((wide?.fields ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
  if wideFields != expected {
    let extra = wideFields.keys.filter { expected[$0] != wideFields[$0] }.sorted()
    let missing = expected.keys.filter { wideFields[$0] == nil }.sorted()
    return "wide does not match the batches there: fields \(extra) extra or wrong, \(missing) missing"
  }
  let counter = try cache.loadRecords(forKeys: ["counter"])["counter"]?["last"]
  if lastPresent >= 0, counter != .int(lastPresent) {
    return "counter holds \(String(describing: counter)), but the last batch there is \(lastPresent)"
  }
  return nil
}

/// `kills` kills of a writer of one configuration, each followed by the check; the first problem.
func kill(_ configuration: Configuration, times kills: Int, random: inout SplitMix64) throws -> (
  problem: String?, midRun: Int, committed: Int
) {
  let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  let directory = NSTemporaryDirectory() + "cachebench-crash-\(getpid())-\(configuration.argument.replacingOccurrences(of: ":", with: "-"))"
  try? FileManager.default.removeItem(atPath: directory)
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let database = directory + "/cache.sqlite"
  let log = directory + "/committed.log"
  var midRun = 0
  for kill in 0..<kills {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["writer", database, configuration.argument, log]
    try process.run()
    // 5 to 150 ms: some kills land while the database is being created or opened.
    usleep(UInt32(5_000 + random.next() % 145_000))
    if process.isRunning { midRun += 1 }
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    if let found = try check(database: database, configuration: configuration, log: log) {
      return ("after kill \(kill + 1): \(found)", midRun, 0)
    }
  }
  let committed = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
  return (nil, midRun, committed)
}

func run(kills: Int, seed: UInt64) throws -> Int32 {
  var random = SplitMix64(seed: seed)
  var failures = 0
  for configuration in Configuration.all {
    let outcome = try kill(configuration, times: kills, random: &random)
    if let problem = outcome.problem {
      failures += 1
      print("\(configuration.name): FAILED \(problem)")
    } else {
      let verdict =
        configuration.budget == nil
        ? "none lost, none partial"
        : "none lost but to eviction past half the budget, none torn, bytes counted right and within the budget"
      print(
        "\(configuration.name): \(kills) kills (\(outcome.midRun) while running), \(outcome.committed) batches committed, integrity ok, \(verdict)"
      )
    }
  }
  return failures == 0 ? 0 : 1
}

/// The self-test's damages: what is damaged, in which store, how, and the start of the problem the
/// check must name; the batches the log says committed: 0 to 2, or (the last case) 0 and 1 only,
/// batch 2 having committed when the writer was killed before it could log it.
func selfTestDamages() -> [(String, Configuration, (SQLiteNormalizedCache) throws -> Void, String, lastLogged: Int)] {
  let unbounded = Configuration(layout: SQLiteNormalizedCache.Options().layout, journal: .wal, budget: nil)
  let bounded = Configuration.all.first { $0.budget != nil }!
  func remove(_ number: Int, _ indices: Range<Int> = 0..<recordsPerBatch) -> (SQLiteNormalizedCache) throws -> Void {
    { cache in for index in indices { try cache.removeRecord(for: "B\(number):\(index)") } }
  }
  let all = 2
  let unlogged = 1
  return [
    ("a committed batch removed", unbounded, remove(1), "batch 1 was reported committed and is missing", lastLogged: all),
    ("a batch in part", unbounded, remove(2, 7..<8), "batch 2 is there in part: 19 of 20 records", lastLogged: all),
    (
      "a stale counter", unbounded,
      { cache in try cache.merge(records: RecordSet(records: [Record(key: "counter", fields: [("last", .int(0))])])) },
      "counter holds Optional(NormalizedCache.RecordValue.int(0)), but the last batch there is 2", lastLogged: all
    ),
    (
      "a wide field of a batch not there", unbounded,
      { cache in try cache.merge(records: RecordSet(records: [Record(key: "wide", fields: [("b9", .int(9))])])) },
      "wide does not match the batches there: fields [\"b9\"] extra or wrong, [] missing", lastLogged: all
    ),
    (
      "bounded: a committed batch gone from a store that evicted nothing", bounded, remove(1),
      "batch 1 was reported committed and is missing, and the store holds ", lastLogged: all
    ),
    ("bounded: the last committed batch in part", bounded, remove(2, 3..<4), "batch 2 is there in part: 19 of 20 records", lastLogged: all),
    // Batch 2 is whole, so it committed: batch 1 in part is judged as an eviction would be (here
    // one the store's bytes cannot explain), not as a torn batch.
    (
      "bounded: the batch before one committed unlogged, in part", bounded, remove(1, 3..<4),
      "batch 1 was reported committed and is there in part, and the store holds ", lastLogged: unlogged
    ),
  ]
}

/// The check must see damage: a committed batch removed, a batch in part, a stale counter, a wide
/// field of a batch not there; bounded, a committed batch gone from a store that evicted nothing,
/// and the last committed batch in part.
func selfTest() throws -> Int32 {
  let directory = NSTemporaryDirectory() + "cachebench-crash-selftest-\(getpid())"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let damages = selfTestDamages()
  var failures = 0
  for (index, (name, configuration, damage, expected, lastLogged)) in damages.enumerated() {
    let database = directory + "/\(index).sqlite"
    let log = directory + "/\(index).log"
    let cache = try SQLiteNormalizedCache(path: database, options: configuration.options)
    for number in 0..<3 { try cache.merge(records: configuration.batch(number)) }
    try (0...lastLogged).map { "\($0)\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    guard try check(database: database, configuration: configuration, log: log) == nil else {
      print("self-test: the undamaged database failed the check")
      return 1
    }
    try damage(cache)
    let found = try check(database: database, configuration: configuration, log: log)
    if found?.hasPrefix(expected) == true {
      print("self-test: \(name): caught (\(found!))")
    } else {
      print("self-test: \(name): NOT caught as expected, got \(found ?? "nothing")")
      failures += 1
    }
  }
  return failures == 0 ? 0 : 1
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "writer" where arguments.count == 4:
    guard let configuration = Configuration(argument: arguments[2]) else { throw CrashTestError("bad configuration \(arguments[2])") }
    try writer(database: arguments[1], configuration: configuration, log: arguments[3])
  case "run":
    var kills = 50
    var seed: UInt64 = 1
    var index = 1
    while index + 1 < arguments.count {
      if arguments[index] == "--kills", let value = Int(arguments[index + 1]), value > 0 { kills = value }
      if arguments[index] == "--seed", let value = UInt64(arguments[index + 1]) { seed = value }
      index += 2
    }
    let selfTestStatus = try selfTest()
    guard selfTestStatus == 0 else { exit(selfTestStatus) }
    exit(try run(kills: kills, seed: seed))
  default:
    FileHandle.standardError.write(Data("usage: crashtest run [--kills N] [--seed S] | crashtest writer DB CONFIGURATION LOG\n".utf8))
    exit(64)
  }
} catch {
  FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
  exit(1)
}

struct CrashTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
