import Foundation
import NormalizedCache
import SQLiteCache

// `make crash-test`: kills a process merging into each SQLite layout x journal mode (WAL,
// DELETE) at random moments, reopens the database and checks it (docs/stores.md: every merge is one
// transaction).
//
//   crashtest run [--kills N] [--seed S]      the whole test; exit 0 when every check passed
//   crashtest writer DB LAYOUT JOURNAL LOG    merges batch after batch until killed; after a
//                                             merge returns, appends its number to LOG (fsync'd)
//
// A batch b is 20 records `B<b>:<j>` holding b, plus the record `counter` set to b, plus a field
// `b<b>` = b of the record `wide` (which grows past 64 fields and so is stored in chunks of 64
// fields in the compact layout). After a kill: PRAGMA integrity_check is ok; every batch LOG reports
// committed is there whole; any other batch (the one in flight) is there whole or not at all;
// `counter` is the last batch there; `wide` holds a field for exactly the batches there.

let recordsPerBatch = 20

func batch(_ number: Int) -> RecordSet {
  var records: [Record] = []
  for index in 0..<recordsPerBatch {
    records.append(
      Record(key: "B\(number):\(index)", fields: [
        ("batch", .int(number)), ("index", .int(index)),
        ("payload", .string(String(repeating: "x", count: 50 + (number * 7 + index) % 400))),
      ]))
  }
  records.append(Record(key: "counter", fields: [("last", .int(number))]))
  records.append(Record(key: "wide", fields: [("b\(number)", .int(number))]))
  return RecordSet(records: records)
}

func options(_ layout: String, _ journal: String) -> SQLiteNormalizedCache.Options {
  var options = SQLiteNormalizedCache.Options()
  options.layout = SQLiteNormalizedCache.Layout(rawValue: layout)!
  options.journalMode = SQLiteNormalizedCache.JournalMode(rawValue: journal)!
  return options
}

func writer(database: String, layout: String, journal: String, log: String) throws -> Never {
  let cache = try SQLiteNormalizedCache(path: database, options: options(layout, journal))
  let descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT, 0o644)
  precondition(descriptor >= 0, "cannot open \(log)")
  var number = (try cache.loadRecords(forKeys: ["counter"])["counter"]?["last"]).flatMap { value -> Int? in
    if case .int(let int) = value { return int + 1 }
    return nil
  } ?? 0
  while true {
    try cache.merge(records: batch(number))
    let line = Array("\(number)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    fsync(descriptor)
    number += 1
  }
}

/// The check after a kill; nil when the database is as it must be, else what is wrong.
func check(database: String, layout: String, journal: String, log: String) throws -> String? {
  let cache = try SQLiteNormalizedCache(path: database, options: options(layout, journal))
  let integrity = try cache.integrityCheck()
  guard integrity == "ok" else { return "integrity_check: \(integrity)" }
  let logged = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) }
  let lastLogged = logged.max() ?? -1
  var lastPresent = -1
  var present: [String: RecordValue] = [:]
  for number in 0...(lastLogged + 1) {
    let keys = (0..<recordsPerBatch).map { "B\(number):\($0)" }
    let found = try cache.loadRecords(forKeys: keys)
    if found.isEmpty {
      if number <= lastLogged { return "batch \(number) was reported committed and is missing" }
      continue
    }
    guard found.count == recordsPerBatch else {
      return "batch \(number) is there in part: \(found.count) of \(recordsPerBatch) records"
    }
    for record in found.values where record["batch"] != .int(number) {
      return "record \(record.key) holds \(String(describing: record["batch"])), not batch \(number)"
    }
    lastPresent = number
    present["b\(number)"] = .int(number)
  }
  let wide = try cache.loadRecords(forKeys: ["wide"])["wide"]
  let wideFields = Dictionary((wide?.fields ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
  if wideFields != present {
    let extra = wideFields.keys.filter { present[$0] != wideFields[$0] }.sorted()
    let missing = present.keys.filter { wideFields[$0] == nil }.sorted()
    return "wide does not match the batches there: fields \(extra) extra or wrong, \(missing) missing"
  }
  let counter = try cache.loadRecords(forKeys: ["counter"])["counter"]?["last"]
  if lastPresent >= 0, counter != .int(lastPresent) {
    return "counter holds \(String(describing: counter)), but the last batch there is \(lastPresent)"
  }
  return nil
}

func run(kills: Int, seed: UInt64) throws -> Int32 {
  let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  var random = seed
  func next() -> UInt64 {
    random &+= 0x9E37_79B9_7F4A_7C15
    var z = random
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  var failures = 0
  for layout in ["compact", "apollo"] {
    for journal in ["wal", "delete"] {
      let directory = NSTemporaryDirectory() + "cachebench-crash-\(getpid())-\(layout)-\(journal)"
      try? FileManager.default.removeItem(atPath: directory)
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let database = directory + "/cache.sqlite"
      let log = directory + "/committed.log"
      var problem: String?
      var killedMidRun = 0
      for kill in 0..<kills {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["writer", database, layout, journal, log]
        try process.run()
        // 5 to 150 ms: some kills land while the database is being created or opened.
        usleep(UInt32(5_000 + next() % 145_000))
        if process.isRunning { killedMidRun += 1 }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if let found = try check(database: database, layout: layout, journal: journal, log: log) {
          problem = "after kill \(kill + 1): \(found)"
          break
        }
      }
      let committed = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
      if let problem {
        failures += 1
        print("\(layout) \(journal): FAILED \(problem)")
      } else {
        print("\(layout) \(journal): \(kills) kills (\(killedMidRun) while running), \(committed) batches committed, integrity ok, none lost, none partial")
      }
    }
  }
  return failures == 0 ? 0 : 1
}

/// The check must see damage: a committed batch removed, a batch in part, a stale counter.
func selfTest() throws -> Int32 {
  let directory = NSTemporaryDirectory() + "cachebench-crash-selftest-\(getpid())"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  var failures = 0
  let damages: [(String, (SQLiteNormalizedCache) throws -> Void, String)] = [
    ("a committed batch removed", { cache in for index in 0..<recordsPerBatch { try cache.removeRecord(for: "B1:\(index)") } },
     "batch 1 was reported committed and is missing"),
    ("a batch in part", { cache in try cache.removeRecord(for: "B2:7") }, "batch 2 is there in part: 19 of 20 records"),
    ("a stale counter", { cache in try cache.merge(records: RecordSet(records: [Record(key: "counter", fields: [("last", .int(0))])])) },
     "counter holds Optional(NormalizedCache.RecordValue.int(0)), but the last batch there is 2"),
    ("a wide field of a batch not there", { cache in try cache.merge(records: RecordSet(records: [Record(key: "wide", fields: [("b9", .int(9))])])) },
     "wide does not match the batches there: fields [\"b9\"] extra or wrong, [] missing"),
  ]
  for (index, (name, damage, expected)) in damages.enumerated() {
    let database = directory + "/\(index).sqlite"
    let log = directory + "/\(index).log"
    let cache = try SQLiteNormalizedCache(path: database, options: options("compact", "wal"))
    for number in 0..<3 { try cache.merge(records: batch(number)) }
    try "0\n1\n2\n".write(toFile: log, atomically: true, encoding: .utf8)
    guard try check(database: database, layout: "compact", journal: "wal", log: log) == nil else {
      print("self-test: the undamaged database failed the check"); return 1
    }
    try damage(cache)
    let found = try check(database: database, layout: "compact", journal: "wal", log: log)
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
  case "writer" where arguments.count == 5:
    try writer(database: arguments[1], layout: arguments[2], journal: arguments[3], log: arguments[4])
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
    FileHandle.standardError.write(Data("usage: crashtest run [--kills N] [--seed S] | crashtest writer DB LAYOUT JOURNAL LOG\n".utf8))
    exit(64)
  }
} catch {
  FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
  exit(1)
}
