// cachebench's side: the `rows` layout of SQLiteCache, opened as `cachebench` opens a store (journal
// DELETE here, so that the file is one file for Apollo's side; no read connections).
import Foundation
import NormalizedCache
import SQLiteCache

private func ours(_ v: V) -> RecordValue {
  switch v {
  case .null: return .null
  case .bool(let b): return .bool(b)
  case .int(let i): return .int(i)
  case .double(let d): return .double(d)
  case .string(let s): return .string(s)
  case .ref(let k): return .reference(CacheReference(k))
  case .list(let l): return .list(l.map(ours))
  case .object: fatalError("cachebench's record values hold no objects")
  }
}
private func neutral(_ v: RecordValue) -> V {
  switch v {
  case .null: return .null
  case .bool(let b): return .bool(b)
  case .int(let i): return .int(i)
  case .double(let d): return .double(d)
  case .string(let s): return .string(s)
  case .reference(let r): return .ref(r.key)
  case .list(let l): return .list(l.map(neutral))
  }
}

private func open(_ path: String) -> SQLiteNormalizedCache {
  do {
    return try SQLiteNormalizedCache(path: path, options: .init(layout: .rows, journalMode: .delete, readConnections: 0))
  } catch { fail("cachebench's rows layout cannot open \(path): \(error)") }
}

/// One merge a date: a record's fields written at one date go in together, the dates in order.
func writeOurs(_ path: String, _ records: [FixtureRecord]) {
  let store = open(path)
  let dates = Set(records.flatMap { $0.fields.map(\.at) }).sorted()
  for date in dates {
    var set: [Record] = []
    for r in records {
      let fields = r.fields.filter { $0.at == date }
      if fields.isEmpty { continue }
      let kv = fields.map { ($0.name, ours($0.value)) }
      if date == 0 {
        set.append(Record(key: r.key, fields: kv))
      } else {
        var builder = Record.Builder(key: r.key, writtenAt: date)
        for (name, value) in kv { builder.set(name, value) }
        set.append(builder.build())
      }
    }
    do { try store.merge(records: RecordSet(records: set)) } catch { fail("cachebench's merge failed: \(error)") }
  }
}

/// Each key loaded alone, so that a record that fails to load leaves the others to compare.
func readOurs(_ path: String, _ keys: [String]) -> [String] {
  let store = open(path)
  return keys.map { key in
    do {
      guard let record = try store.loadRecords(forKeys: [key])[key] else { return absentLine(key) }
      return line(key, record.fields.map { Field(name: $0.key, value: neutral($0.value), at: record.writtenAt($0.key) ?? 0) })
    } catch { return errorLine(key, error) }
  }
}
