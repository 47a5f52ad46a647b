// Apollo iOS's Tier-3 scenarios (docs/apollo.md#tier-3-through-apollos-own-row-store) through
// Apollo iOS 3.0's own row store, ApolloSQLiteDatabase (apollo-ios-dev,
// cache-rewrite/phase-1a-record-projection with phase-1a-cascade-delete merged, as the apollo3
// harness builds it), on a file cachebench's `rows` layout built (apolloTier3.keep): Apollo's merge
// writes 1,000 records in some 1.5 s here, too slow to build 500,000. Ours, not Apollo's: added to
// a scratch copy of the harness by scripts/apollo3-tier3.
//
//   apollo3-tier3 FILE [--iterations N] [--warmup W] [--json OUT.json]
//
// FILE: a copy of the kept file; the scenarios leave it as they found it but for the updated
// `mass` values. Each scenario runs where Apollo's code has the operation, through its own API and
// statements; where it has none, the output says so and nothing stands in for it:
//
// | scenario | Apollo's code |
// |---|---|
// | insert_one_field | insertOrUpdate(records:) of a new record of one field (its transaction) |
// | select_exact_key | selectRecords(forKeys:) of one key |
// | select_like_* | none: no read by pattern (deleteRecords(matchingKey:) alone takes one) |
// | select_type_selection_set_ordered | selectFields(_:) of the type's keys, four fields each (its SQL
//   orders by cache_key; it returns a dictionary); past SQLite's limit of bound values it fails, and
//   the failure is printed as the result |
// | update_composite_key | insertOrUpdate(records:) of one field of an existing record |
// | sort_by_field_cte | none: no read ordered by a field's value |
//
// Two rows beside them, not Apollo's scenarios: selectRecords(forKeys:) of the type's keys (its
// whole-record read, 500 keys a statement) and selectFields(_:) of one key.
//
// First a check that Apollo's code reads the file: selectRecords(forKeys:) of a sample of keys
// against the file's rows read with plain SQL (records found, fields per record, `__typename` and
// `mass`); exit 1 when they differ.
import Foundation
@_spi(Execution) import Apollo
@_spi(Execution) import ApolloSQLite
import SQLite3

func fail(_ message: String) -> Never {
  FileHandle.standardError.write("apollo3-tier3: \(message)\n".data(using: .utf8)!)
  exit(1)
}
var args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first, !path.hasPrefix("-") else { fail("usage: apollo3-tier3 FILE [--iterations N] [--warmup W] [--json OUT.json]") }
func option(_ name: String, _ fallback: String) -> String {
  guard let index = args.firstIndex(of: name) else { return fallback }
  guard index + 1 < args.count else { fail("\(name) needs a value") }
  return args[index + 1]
}
guard let iterations = Int(option("--iterations", "50")), iterations > 0,
      let warmup = Int(option("--warmup", "2")), warmup >= 0 else { fail("--iterations must be 1 or more, --warmup 0 or more") }
let jsonPath = option("--json", "")

// MARK: The file's own rows, read with plain SQL

func plainRows(_ sql: String) -> [[String]] {
  var handle: OpaquePointer?
  guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { fail("cannot open \(path)") }
  defer { sqlite3_close(handle) }
  var statement: OpaquePointer?
  guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
    fail("\(path): \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
  }
  defer { sqlite3_finalize(statement) }
  var rows: [[String]] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    rows.append((0..<sqlite3_column_count(statement)).map { column in
      sqlite3_column_type(statement, column) == SQLITE_NULL ? "NULL" : String(cString: sqlite3_column_text(statement, column))
    })
  }
  return rows
}

/// SQLite's limit of bound values a statement on a connection to the file.
func variableLimit() -> Int32 {
  var handle: OpaquePointer?
  guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return 0 }
  defer { sqlite3_close(handle) }
  return sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)
}

// Every record's key and type, in key order (as the table's B-tree holds them).
let typed = plainRows("SELECT cache_key, string_value FROM records WHERE field_name = '__typename' ORDER BY cache_key")
guard typed.count >= 10 else { fail("\(path) holds \(typed.count) records: no Tier-3 rows file (apolloTier3.keep of a rows store)") }
let keys = typed.map { $0[0] }
let scenarioType = "Planet"
let typeKeys = typed.filter { $0[1] == scenarioType }.map { $0[0] }
let selection: Set<String> = ["__typename", "id", "name", "mass"]
/// A key of the file for iteration `i`, spread over it by a stride prime to its count.
func spread(_ i: Int, _ offset: Int) -> CacheKey { keys[(i * 7_919 + offset) % keys.count] }

let db = try ApolloSQLiteDatabase(fileURL: URL(fileURLWithPath: path))
let version = try db.readSchemaVersion().map { "\($0)" } ?? "none"
print("file: \(path), \(keys.count) records, \(typeKeys.count) of type \(scenarioType), schema_metadata version \(version)")

// MARK: Apollo reads what we wrote

do {
  let sample = (0..<min(1_000, keys.count)).map { spread($0, 1) }
  let quoted = sample.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
  var expected: [CacheKey: [String: String]] = [:]
  for row in plainRows("SELECT cache_key, field_name, coalesce(int_value, string_value) FROM records WHERE cache_key IN (\(quoted))") {
    expected[row[0], default: [:]][row[1]] = row[2]
  }
  let read = try db.selectRecords(forKeys: Set(sample))
  var fields = 0
  var differ: [String] = []
  for record in read {
    fields += record.fields.count
    let rows = expected[record.key] ?? [:]
    if record.fields.count != rows.count { differ.append("\(record.key): \(record.fields.count) fields, \(rows.count) rows") }
    for name in ["__typename", "mass"] where record[name].map({ "\($0)" }) != rows[name] {
      differ.append("\(record.key).\(name): Apollo read \(record[name].map { "\($0)" } ?? "nothing"), the row holds \(rows[name] ?? "nothing")")
    }
  }
  let rowCount = expected.values.reduce(0) { $0 + $1.count }
  print("check: Apollo's selectRecords(forKeys:) read \(read.count) of \(sample.count) sampled records, \(fields) fields of the file's \(rowCount) rows; __typename and mass as the rows hold them: \(differ.isEmpty && read.count == sample.count ? "ok" : "DIFFERENT")")
  if !differ.isEmpty || read.count != sample.count { fail("Apollo's code reads the file otherwise: \(differ.prefix(5).joined(separator: "; "))") }
}

// MARK: Measuring (warm-ups, then the iterations; as cachebench's and Apollo's harness)

@inline(__always) func nowNs() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
func percentile(_ sorted: [Double], _ p: Double) -> Double {
  let rank = p * Double(sorted.count - 1)
  let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - Double(lo))
}
/// §7.4's gates, in ms (Apollo sets them for an iPhone 16 Pro).
let gates: [String: Double] = [
  "insert_one_field": 1, "select_exact_key": 0.2, "select_type_selection_set_ordered": 50, "update_composite_key": 1,
  "sort_by_field_cte": 250,
]
var results: [[String: Any]] = []
print("| scenario | Apollo's call | n | mean ms | std ms | p50 ms | p95 ms | p99 ms | §7.4 gate (p50) |")
print("|---|---|---|---|---|---|---|---|---|")
func measure(_ scenario: String, _ call: String, body: (Int) throws -> UInt64) throws {
  var ms: [Double] = []
  for i in 0..<(warmup + iterations) {
    let ns = try body(i)
    if i >= warmup { ms.append(Double(ns) / 1_000_000) }
  }
  let mean = ms.reduce(0, +) / Double(ms.count)
  let std = ms.count > 1 ? (ms.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) } / Double(ms.count - 1)).squareRoot() : 0
  let sorted = ms.sorted()
  let p50 = percentile(sorted, 0.5)
  let gate = gates[scenario].map { "< \($0) ms: " + (p50 < $0 ? "pass" : "FAIL") } ?? ""
  func f(_ value: Double) -> String { String(format: value < 1 ? "%.4f" : "%.2f", value) }
  print("| \(scenario) | \(call) | \(ms.count) | \(f(mean)) | \(f(std)) | \(f(p50)) | \(f(percentile(sorted, 0.95))) | \(f(percentile(sorted, 0.99))) | \(gate) |")
  results.append(["tier": 3, "scenario": "tier3.apollo_rows.\(scenario)", "iterations": ms.count, "mean_ms": mean, "std_ms": std,
                  "p50_ms": p50, "p95_ms": percentile(sorted, 0.95), "p99_ms": percentile(sorted, 0.99)])
}
func none(_ scenario: String, _ why: String) {
  let gate = gates[scenario].map { "< \($0) ms: no such operation" } ?? ""
  print("| \(scenario) | none: \(why) | 0 | | | | | | \(gate) |")
}
func timed(_ body: () throws -> Void) rethrows -> UInt64 {
  let start = nowNs()
  try body()
  return nowNs() &- start
}

try measure("insert_one_field", "insertOrUpdate(records:), a new key") { i in
  let key = "Inserted:\(i)"
  let ns = try timed { try db.insertOrUpdate(records: [Record(key: key, ["mass": i])]) }
  guard try db.selectRecords(forKeys: [key]).count == 1 else { fail("inserted no record \(key)") }
  try db.deleteRecord(forKey: key)
  return ns
}
try measure("select_exact_key", "selectRecords(forKeys:), one key") { i in
  let key = spread(i, 3)
  var found = 0
  let ns = try timed { found = try db.selectRecords(forKeys: [key]).count }
  guard found == 1 else { fail("found no record \(key)") }
  return ns
}
for like in ["select_like_prefix", "select_like_middle", "select_like_suffix"] {
  none(like, "no read by pattern (deleteRecords(matchingKey:) alone takes one)")
}
// selectFields binds two values a (key, field) pair in one statement: past SQLite's limit of bound
// values (SQLITE_LIMIT_VARIABLE_NUMBER) it fails, and the failure is the scenario's result.
let projections = typeKeys.map { RecordProjection(cacheKey: $0, fieldNames: selection) }
let selectFieldsCall = "selectFields(_:), \(typeKeys.count) keys × 4 fields, \(2 * typeKeys.count * selection.count) values bound"
do {
  try measure("select_type_selection_set_ordered", selectFieldsCall) { _ in
    var read: [CacheKey: Record] = [:]
    let ns = try timed { read = try db.selectFields(projections) }
    guard read.count == typeKeys.count, read.values.allSatisfy({ $0.fields.count == selection.count }) else {
      fail("selectFields read \(read.count) of the \(typeKeys.count) \(scenarioType) records")
    }
    return ns
  }
} catch {
  let limit = variableLimit()
  let why = "fails: \(error) (this SQLite binds at most \(limit) values a statement)"
  print("| select_type_selection_set_ordered | \(selectFieldsCall) | 0 | | | | | | < 50.0 ms: FAIL (\(why)) |")
  results.append(["tier": 3, "scenario": "tier3.apollo_rows.select_type_selection_set_ordered", "failed": why])
}
// Beside the scenario, not one of Apollo's: its other read of the same records (whole, through the
// primary key, 500 keys a statement), and its projected read of one record (the scan its projection
// statement makes whatever the keys).
try measure("extra_type_records_whole", "selectRecords(forKeys:), the \(typeKeys.count) \(scenarioType) keys, all fields") { _ in
  var read = 0
  let ns = try timed { read = try db.selectRecords(forKeys: Set(typeKeys)).count }
  guard read == typeKeys.count else { fail("selectRecords read \(read) of the \(typeKeys.count) \(scenarioType) records") }
  return ns
}
try measure("extra_select_fields_one_key", "selectFields(_:), one key × 4 fields") { i in
  let key = spread(i, 7)
  var read: [CacheKey: Record] = [:]
  let ns = try timed { read = try db.selectFields([RecordProjection(cacheKey: key, fieldNames: selection)]) }
  guard read[key]?.fields.count == selection.count else { fail("selectFields read no \(key)") }
  return ns
}
try measure("update_composite_key", "insertOrUpdate(records:), one field of a stored record") { i in
  let key = spread(i, 5)
  return try timed { try db.insertOrUpdate(records: [Record(key: key, ["mass": 3_000_000 + i])]) }
}
none("sort_by_field_cte", "no read ordered by a field's value")
print("(gates: §7.4 of cache-rewrite-phase1-plan.md, which Apollo sets for an iPhone 16 Pro: on another machine a scale, not a verdict)")

if !jsonPath.isEmpty {
  let data = try JSONSerialization.data(withJSONObject: ["version": "apollo3-tier3", "results": results], options: [.prettyPrinted, .sortedKeys])
  try data.write(to: URL(fileURLWithPath: jsonPath))
}
