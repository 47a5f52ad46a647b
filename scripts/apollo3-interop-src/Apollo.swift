// Apollo's side: ApolloSQLiteDatabase of the harness copy (apollo-ios-dev, cache-rewrite/
// phase-1a-record-projection with phase-1a-cascade-delete merged), opened as tier2rows opens it:
// the schema-metadata table, the row-per-element table (which stamps version 3.0), SQLite's default
// journal. Writes through insertOrUpdate(records:), reads through selectRecords(forKeys:).
import Foundation
@_spi(Execution) import Apollo
@_spi(Execution) @_spi(Testing) import ApolloSQLite

private func apollo(_ v: V) -> Record.Value {
  switch v {
  case .null: return NSNull()
  case .bool(let b): return b
  case .int(let i): return i
  case .double(let d): return d
  case .string(let s): return s
  case .ref(let k): return CacheReference(k)
  // Lists and objects as the harness's JSON parsing makes them on Linux (JSONSerializationFormat.swift's
  // patch): [AnyHashable] and [String: AnyHashable].
  case .list(let l): return l.map { AnyHashable(apollo($0)) }
  case .object(let o): return Dictionary(uniqueKeysWithValues: o.map { ($0.0, AnyHashable(apollo($0.1))) })
  }
}
/// Exact types first: a Bool is never taken for an Int nor the reverse.
private func neutral(_ value: Any) -> V {
  let x = (value as? AnyHashable)?.base ?? value
  if x is NSNull { return .null }
  if let r = x as? CacheReference { return .ref(r.key) }
  if type(of: x) == Bool.self { return .bool(x as! Bool) }
  if type(of: x) == Int.self { return .int(x as! Int) }
  if type(of: x) == Double.self { return .double(x as! Double) }
  if let s = x as? String { return .string(s) }
  if let l = x as? [Any] { return .list(l.map(neutral)) }
  if let o = x as? [String: Any] { return .object(o.sorted { $0.key < $1.key }.map { ($0.key, neutral($0.value)) }) }
  // A list Apollo's reader assembles is `elements as Record.Value`, which on Linux bridges to an
  // NSArray: its numbers come back as NSNumber. Told apart as Apollo's own encoder tells them
  // (SQLiteFieldEncoding.encode(bridgedNumber:), its non-Darwin branch: objCType).
  if let n = x as? NSNumber {
    switch String(cString: n.objCType) {
    case "c", "B": return .bool(n.boolValue)
    case "f", "d": return .double(n.doubleValue)
    default: return .int(n.intValue)
    }
  }
  return .string("<unknown \(type(of: x)): \(x)>")
}

private func open(_ path: String, create: Bool) -> ApolloSQLiteDatabase {
  do {
    let db = try ApolloSQLiteDatabase(fileURL: URL(fileURLWithPath: path))
    if create {
      try db.createSchemaMetadataTableIfNeeded()
      try db.createNewRecordsTableIfNeeded()
    }
    return db
  } catch { fail("Apollo's ApolloSQLiteDatabase cannot open \(path): \(error)") }
}

/// One insertOrUpdate of every record, each field with its own date (CachedField.writtenAt).
func writeApollo(_ path: String, _ records: [FixtureRecord]) {
  let db = open(path, create: true)
  let apolloRecords = records.map { r in
    Record(key: r.key, fields: Dictionary(uniqueKeysWithValues: r.fields.map {
      ($0.name, CachedField(value: apollo($0.value), writtenAt: Int64($0.at)))
    }))
  }
  do { try db.insertOrUpdate(records: apolloRecords) } catch { fail("Apollo's insertOrUpdate failed: \(error)") }
  db.close()
}

/// Each key read alone, so that a record Apollo cannot read leaves the others to compare.
func readApollo(_ path: String, _ keys: [String]) -> [String] {
  let db = open(path, create: false)
  defer { db.close() }
  return keys.map { key in
    do {
      let found = try db.selectRecords(forKeys: [key])
      guard let record = found.first(where: { $0.key == key }) else { return absentLine(key) }
      return line(key, record.fields.map { Field(name: $0.key, value: neutral($0.value.value), at: Int($0.value.writtenAt)) })
    } catch { return errorLine(key, error) }
  }
}
