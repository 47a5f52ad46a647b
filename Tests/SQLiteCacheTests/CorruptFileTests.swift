import Foundation
import NormalizedCache
import Support
import Testing

@_spi(RecordBytes) @testable import SQLiteCache

/// A database file damaged while closed (issue 38, item 7): bytes of its record blobs, texts and
/// rows flipped, cut short, retyped or nulled. Reopened, every load, merge and removal either
/// succeeds or throws a store error: never a trap (the test process would die), never an
/// over-read (`make asan` runs this suite); and every record a load hands out can be read, dated,
/// printed and merged, which walk its bytes unchecked.
@Suite("A corrupt database file", .timeLimit(.minutes(10)))
struct CorruptFileTests {
  /// The layouts, the rows layout in both its table kinds.
  static let configurations = SQLiteNormalizedCache.Layout.allCases.map { SQLiteNormalizedCache.Options(layout: $0) }

  /// Records of every shape a file holds: dated and not, with one date and with exceptions,
  /// scalars of every kind, references, lists, nested lists, empty lists, and records past 64
  /// fields (the compact layout splits them into chunks).
  static func records(version: Int) -> [Record] {
    let date = 1_000 + version * 100
    var records: [Record] = []
    for index in 0..<6 {
      records.append(
        Record(
          key: "Item:\(index)", writtenAt: date,
          [
            "name": .string("item \(index) v\(version)"), "price": .double(Double(index) + 0.5), "stock": .int(index * version),
            "active": .bool(index % 2 == 0), "note": .null, "owner": .reference("Person:\(index % 3)"),
            "tags": .list([.string("a"), .string("b\(version)")]), "grid": .list([.list([.int(1), .int(index)]), .list([])]),
            "empty": .list([]),
          ]))
    }
    for index in 0..<3 {
      records.append(
        Record(key: "Person:\(index)", ["name": .string("person \(index)"), "friends": .list([.reference("Person:\((index + 1) % 3)")])]))
    }
    for index in 0..<2 {
      var wide = Record.Builder(key: "Wide:\(index)", writtenAt: date)
      for field in 0..<(version == 0 ? 140 : 150) {
        wide.set("f\(field)", field % 7 == 0 ? .list([.int(field), .reference("Item:\(field % 6)")]) : .int(field * (version + 1)))
      }
      records.append(wide.build())
    }
    records.append(Record(key: "QUERY_ROOT", ["items": .list((0..<6).map { .reference("Item:\($0)") })]))
    return records
  }

  /// Every key the file holds.
  static let keys: [CacheKey] = records(version: 0).map(\.key)

  /// A pristine file: the records written, then a later merge of a few of their fields, so that
  /// some records' dates have exceptions.
  static func writePristine(at path: String, options: SQLiteNormalizedCache.Options) throws {
    let store = try SQLiteNormalizedCache(path: path, options: options)
    try store.merge(records: RecordSet(records: records(version: 0)))
    try store.merge(
      records: RecordSet(records: [
        Record(key: "Item:1", writtenAt: 5_000, ["stock": .int(99)]),
        Record(key: "Wide:0", writtenAt: 5_000, ["f3": .int(-3), "f100": .string("late")]),
      ]))
  }

  /// A seeded generator (SplitMix64), so that each damage is the same on every run.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }

  /// Damages `count` values of the file at `path`, closed: each a column of a row of one of its
  /// tables (keys and positions too), chosen by `generator`. Returns what it did, for messages.
  static func damage(_ path: String, count: Int, generator: inout Generator) throws -> [String] {
    let connection = try Connection(path: path)
    func rows(_ sql: String, columns: Int32 = 1) throws -> [[String]] {
      let statement = try Statement(sql: sql, connection: connection, persistent: false)
      var rows: [[String]] = []
      while try statement.step() {
        var row: [String] = []
        for column in 0..<columns { row.append(try statement.text(at: column)) }
        rows.append(row)
      }
      return rows
    }
    let tables = try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").map { $0[0] }
    var done: [String] = []
    for _ in 0..<count {
      let table = tables[generator.below(tables.count)]
      let info = try rows("SELECT name, pk FROM pragma_table_info('\(table)') ORDER BY cid", columns: 2)
      let keyColumns = info.filter { $0[1] != "0" }.map { "\"\($0[0])\"" }
      let selected = keyColumns.isEmpty ? "rowid" : keyColumns.joined(separator: ", ")
      let rowKey = keyColumns.isEmpty ? "rowid" : "(" + selected + ")"
      let rowCount = Int(try rows("SELECT count(*) FROM \"\(table)\"")[0][0]) ?? 0
      guard rowCount > 0 else { continue }
      let column = "\"\(info[generator.below(info.count)][0])\""
      let row = generator.below(rowCount)
      let r = generator.below(1 << 20)
      let bytes = "CAST(\(column) AS BLOB)"
      let length = "max(length(\(bytes)), 1)"
      let at = "(1 + \(r) % \(length))"
      // The damage, then the value's own type put back where it had one (a blob stays a blob).
      let (what, damaged): (String, String) =
        switch generator.below(6) {
        case 0:
          (
            "a byte flipped",
            "substr(\(bytes), 1, \(at) - 1) || X'\(String(format: "%02X", generator.below(256)))' || substr(\(bytes), \(at) + 1)"
          )
        case 1: ("cut short", "substr(\(bytes), 1, \(r) % \(length))")
        case 2:
          (
            "a byte inserted",
            "substr(\(bytes), 1, \(at)) || X'\(String(format: "%02X", generator.below(256)))' || substr(\(bytes), \(at) + 1)"
          )
        case 3: ("an integer", ["-1", "0", "1", "2147483648", "-9223372036854775808", "9223372036854775807", "\(r % 300)"][r % 7])
        case 4: ("another type", ["NULL", "X''", "X'00'", "''", "1.5", "'x'"][r % 6])
        default: ("bytes doubled", "\(bytes) || \(bytes)")
        }
      let retyped =
        "CASE typeof(\(column)) WHEN 'text' THEN CAST(\(damaged) AS TEXT) WHEN 'blob' THEN CAST(\(damaged) AS BLOB) ELSE \(damaged) END"
      do {
        try connection.execute(
          "UPDATE OR IGNORE \"\(table)\" SET \(column) = \(retyped) WHERE \(rowKey) IN (SELECT \(selected) FROM \"\(table)\" ORDER BY \(selected) LIMIT 1 OFFSET \(row))"
        )
        done.append("\(table).\(column) of row \(row): \(what)")
      } catch {
        // SQLITE_MISMATCH: a rowid column takes integers alone; that damage cannot be made.
        guard error.resultCode == 20 else { throw error }
      }
    }
    return done
  }

  /// What a store operation did: succeeded, or threw a store error (anything else is recorded).
  enum Outcome { case succeeded, failed }

  static func attempt(_ what: String, _ damage: [String], _ body: () throws -> Void) -> Outcome {
    do {
      try body()
      return .succeeded
    } catch is SQLiteError {
      return .failed
    } catch {
      Issue.record("\(what) threw \(type(of: error)), not a store error: \(error); damage: \(damage)")
      return .failed
    }
  }

  /// What the rest of the package does with loaded records, which it reads unchecked: every
  /// field, value and date, their JSON, and a merge into the in-memory store and back. A damaged
  /// file may give wrong values (a flipped digit) or a record that breaks the encoding's rules (a
  /// field twice, when two numbers of the compact layout's name table came to name one field):
  /// that is wrong data, which no store can tell from right without a checksum, not a trap.
  static func use(_ records: some Sequence<Record>) throws {
    let memory = InMemoryNormalizedCache()
    for record in records {
      for (name, value) in record.fields {
        _ = (record[name], record.writtenAt(name), value.referencedKeys)
      }
      _ = (record.writtenAt, record.jsonObject, record.description)
      try memory.merge(records: RecordSet(records: [record]))
      _ = memory.loadRecordsInOrder(forKeys: [record.key])
    }
  }

  @Test("damaged blobs, texts and rows: loads, merges and removals succeed or throw a store error", arguments: configurations)
  func damagedFile(_ options: SQLiteNormalizedCache.Options) throws {
    let directory = try TemporaryDirectory()
    let pristine = directory.path("pristine.sqlite")
    try Self.writePristine(at: pristine, options: options)
    var generator = Generator(state: 38)
    var outcomes: [Outcome] = []
    for trial in 0..<60 {
      let path = directory.path("damaged-\(trial).sqlite")
      try FileManager.default.copyItem(atPath: pristine, toPath: path)
      let damage = try Self.damage(path, count: 1 + trial % 4, generator: &generator)
      let opened = Self.attempt("open", damage) { _ = try SQLiteNormalizedCache(path: path, options: options) }
      guard opened == .succeeded, let store = try? SQLiteNormalizedCache(path: path, options: options) else {
        outcomes.append(.failed)
        continue
      }
      outcomes.append(Self.attempt("load of every key", damage) { try Self.use(store.loadRecords(forKeys: Self.keys).values) })
      for key in Self.keys {
        outcomes.append(Self.attempt("load of \(key)", damage) { try Self.use(store.loadRecords(forKeys: [key]).values) })
      }
      outcomes.append(Self.attempt("merge", damage) { try store.merge(records: RecordSet(records: Self.records(version: 1))) })
      for record in Self.records(version: 2) {
        outcomes.append(Self.attempt("merge of \(record.key)", damage) { try store.merge(records: RecordSet(records: [record])) })
      }
      outcomes.append(Self.attempt("count", damage) { _ = try store.recordCount() })
      outcomes.append(Self.attempt("removal by key", damage) { try store.removeRecords(forKeys: ["Item:2", "Wide:1"]) })
      outcomes.append(Self.attempt("removal by pattern", damage) { try store.removeRecords(matching: "Person") })
      outcomes.append(Self.attempt("clear", damage) { try store.clear() })
    }
    // The damage was seen, and not everything failed: the test exercised both ways.
    #expect(outcomes.contains(.failed))
    #expect(outcomes.filter { $0 == .succeeded }.count > outcomes.count / 4)
  }

  /// Many small damages to one dated record's stored value, with exceptions in its dates, in
  /// each layout that keeps a record in one value (the rows layouts' dates are a column, checked
  /// by LayoutTests): each load is a record the encoding's check accepts (but a name twice, wrong
  /// data no store can tell) or a store error, and a merge into it succeeds or throws one.
  @Test(
    "damaged dated records load as records the encoding's check accepts, or fail as corrupt",
    arguments: [
      SQLiteNormalizedCache.Layout.compact, .apollo,
    ])
  func damagedDatedRecord(_ layout: SQLiteNormalizedCache.Layout) throws {
    let store = try SQLiteNormalizedCache(path: ":memory:", options: .init(layout: layout))
    try store.merge(
      records: RecordSet(records: [
        Record(key: "K", writtenAt: 1_000, ["a": 1, "b": "text", "c": .list([.reference("R:1"), .int(-7)]), "d": .null])
      ]))
    try store.merge(records: RecordSet(records: [Record(key: "K", writtenAt: 1_090, ["b": "later"])]))
    let column = layout == .compact ? "data" : "record"
    // The value as hex both ways: the record's bytes, a blob or the text's UTF-8.
    func stored() throws -> [UInt8] {
      let hex = try store.withConnection { connection throws(SQLiteError) in
        try connection.texts("SELECT hex(CAST(\(column) AS BLOB)) FROM records WHERE key = 'K'")
      }[0]
      let digits = Array(hex.utf8)
      return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
    func write(_ bytes: [UInt8]) throws {
      let hex = "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
      let value = layout == .compact ? hex : "CAST(\(hex) AS TEXT)"
      try store.withConnection { connection throws(SQLiteError) in
        try connection.execute("UPDATE records SET \(column) = \(value) WHERE key = 'K'")
      }
    }
    let pristine = try stored()
    var generator = Generator(state: 61)
    var loaded = 0
    var refused = 0
    for _ in 0..<1_500 {
      var damaged = pristine
      for _ in 0...generator.below(2) {
        let at = generator.below(damaged.count)
        switch generator.below(4) {
        case 0: damaged[at] = UInt8(generator.below(256))
        case 1: damaged[at] = [0, 1, 3, 7, 0x22, 0x2C, 0x3A, 0x5B, 0x5D, 0x80][generator.below(10)]
        case 2: damaged.remove(at: at)
        default: damaged.insert(UInt8(generator.below(256)), at: at)
        }
      }
      try write(damaged)
      do {
        for record in try store.loadRecords(forKeys: ["K"]).values {
          let problem: String? =
            switch Result(catching: { () throws(RecordCodec.EncodingError) in
              try Record(key: record.key, encodedFields: record.encodedFields)
            }) {
            case .success: nil
            case .failure(let error): error.problem
            }
          if let problem, !problem.hasSuffix("appears twice") { Issue.record("loaded \(damaged): \(problem)") }
          try Self.use([record])
        }
        loaded += 1
        try store.merge(records: RecordSet(records: [Record(key: "K", writtenAt: 2_000, ["a": 2, "e": true])]))
      } catch is SQLiteError {
        refused += 1
      }
    }
    // Both ways were taken.
    #expect(loaded > 0 && refused > 0)
  }
}
