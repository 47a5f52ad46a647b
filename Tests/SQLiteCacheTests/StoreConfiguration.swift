import Foundation
import NormalizedCache
import NormalizedCacheConformance
import Testing

@testable import SQLiteCache

/// One store the conformance suite runs against: the in-memory store, or the SQLite store in a
/// layout, on a file or in memory, in a journal mode.
struct StoreConfiguration: Sendable, CustomTestStringConvertible {
  enum Kind: Sendable {
    case inMemory
    case sqlite(SQLiteNormalizedCache.Layout, onFile: Bool, SQLiteNormalizedCache.JournalMode)
  }

  let kind: Kind

  var testDescription: String {
    switch kind {
    case .inMemory: "InMemoryNormalizedCache"
    case .sqlite(let layout, let onFile, let journal):
      "SQLite \(layout) \(onFile ? "file" : ":memory:") \(journal)"
    }
  }

  /// Every configuration: in-memory, and SQLite in every layout, each on a file and on
  /// `:memory:`, in `delete` and `wal` journal modes (the rows layout's rowid table is a layout).
  static let all: [StoreConfiguration] =
    [StoreConfiguration(kind: .inMemory)]
    + SQLiteNormalizedCache.Layout.allCases.flatMap { layout in
      [true, false].flatMap { onFile in
        [SQLiteNormalizedCache.JournalMode.delete, .wal].map {
          StoreConfiguration(kind: .sqlite(layout, onFile: onFile, $0))
        }
      }
    }

  /// What the store keeps beyond values and dates: all but Apollo's own rows (`rows` and
  /// `rows-rowid`), which keep neither the fields' order nor a record without fields; and every
  /// store lends only the fields a projected load asks.
  var promises: StoreConformance.Promises {
    guard case .sqlite(let layout, _, _) = kind, layout.descriptor.schemaVersion != nil else { return [.all, .projectedLoads] }
    return .projectedLoads
  }

  /// The bytes this store loads for `record` written into an empty store: its own, but where the
  /// store keeps no order (`rows`, `rows-rowid`) its fields in the order of their names' UTF-8 bytes, and
  /// nothing for a record without fields. Undated records only.
  func loaded(_ record: Record?) -> [UInt8]? {
    guard let record, promises.contains(.emptyRecords) || record.fieldCount > 0 else { return nil }
    precondition(!record.isDated, "loaded(_:) reorders undated records only")
    guard !promises.contains(.fieldOrder) else { return record.encodedFields }
    let fields = record.fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    return Record(key: record.key, fields: fields.map { ($0.key, $0.value) }).encodedFields
  }

  /// The field names this store loads for a record written with `names`.
  func loadedOrder(_ names: [String]) -> [String] {
    promises.contains(.fieldOrder) ? names : names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The configurations that keep their records in a file.
  static let onFile: [StoreConfiguration] = all.filter(\.isOnFile)

  var isOnFile: Bool {
    if case .sqlite(_, true, _) = kind { return true }
    return false
  }

  var options: SQLiteNormalizedCache.Options? {
    guard case .sqlite(let layout, _, let journal) = kind else { return nil }
    return SQLiteNormalizedCache.Options(layout: layout, journalMode: journal)
  }

  /// A fresh, empty store; `directory` holds its file.
  func makeStore(in directory: TemporaryDirectory) throws -> any InspectableStore {
    switch kind {
    case .inMemory:
      InMemoryNormalizedCache()
    case .sqlite:
      try makeSQLiteStore(in: directory)
    }
  }

  /// A fresh, empty SQLite store, for the suites that reach past the cache protocol (its
  /// connection, its statistics); `directory` holds its file. Only for SQLite configurations.
  func makeSQLiteStore(in directory: TemporaryDirectory) throws -> SQLiteNormalizedCache {
    guard case .sqlite(_, let onFile, _) = kind, let options else {
      preconditionFailure("\(testDescription) is not a SQLite configuration")
    }
    return try SQLiteNormalizedCache(path: onFile ? directory.path("cache.sqlite") : ":memory:", options: options)
  }

  /// The store of the file ``makeStore(in:)`` created, opened again.
  func reopenStore(in directory: TemporaryDirectory) throws -> any InspectableStore {
    precondition(isOnFile)
    return try SQLiteNormalizedCache(path: directory.path("cache.sqlite"), options: options!)
  }
}

/// A directory of its own under the system's temporary directory, removed with everything in it
/// when the value goes.
final class TemporaryDirectory: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}

extension NormalizedCache {
  /// Which of `keys` the store has.
  func presentKeys(_ keys: [CacheKey]) throws -> Set<CacheKey> {
    Set(try loadRecords(forKeys: keys).keys)
  }
}

/// A store under test that can say how much it holds: each store answers from its own
/// statistics, since the cache protocol holds cache operations only.
protocol InspectableStore: NormalizedCache {
  func recordCount() throws -> Int
  func payloadBytes() throws -> Int
}

extension InMemoryNormalizedCache: InspectableStore {
  func recordCount() -> Int { statistics().recordCount }
  func payloadBytes() -> Int { statistics().payloadBytes }
}

extension SQLiteNormalizedCache: InspectableStore {
  func recordCount() throws -> Int { try statistics().recordCount }
  func payloadBytes() throws -> Int { try statistics().payloadBytes }
}
