/// The fields a merge changed, as keys `recordKey.fieldKey` (docs/records.md): every field of a new
/// record, and the fields of an existing record whose value changed.
///
/// ```swift
/// let changed = try cache.merge(records: recordSet)
/// changed.contains("Book:bk123.title")
/// Set(changed)   // ["Book:bk123.title", "QUERY_ROOT.favoriteBook", ...]
/// ```
/// It is a sequence of those strings, built on demand: a merge of 100,000 new records would
/// otherwise spend more time building a million strings than storing the records. It remembers
/// which records changed and which of their fields; `Set(changed)` materializes the strings.
public struct ChangedKeys: Sendable, Sequence, Equatable, CustomStringConvertible {
  enum Entry: Sendable {
    /// A new record: all of its fields changed.
    case record(Record)
    /// An existing record: these fields changed.
    case fields(CacheKey, [String])
  }

  private(set) var entries: [Entry] = []
  /// The number of changed field keys.
  public private(set) var count = 0

  public init() {}

  public var isEmpty: Bool { count == 0 }

  /// The keys of the records that changed, in the order they changed.
  public var recordKeys: [CacheKey] {
    entries.map {
      switch $0 {
      case .record(let record): record.key
      case .fields(let key, _): key
      }
    }
  }

  /// The keys of the records that were new to the store (every field changed because there was
  /// none before), in order.
  var newRecordKeys: [CacheKey] {
    entries.compactMap {
      if case .record(let record) = $0 { return record.key }
      return nil
    }
  }

  /// Adds every field of a new record (a store's merge of a key it did not have).
  public mutating func insertAllFields(of record: Record) {
    let fieldCount = record.fieldCount
    guard fieldCount > 0 else { return }
    entries.append(.record(record))
    count += fieldCount
  }

  /// Adds the changed fields of an existing record.
  public mutating func insert(fields: [String], of key: CacheKey) {
    guard !fields.isEmpty else { return }
    entries.append(.fields(key, fields))
    count += fields.count
  }

  /// Adds another merge's changes (of other records).
  public mutating func formUnion(_ other: ChangedKeys) {
    entries += other.entries
    count += other.count
  }

  /// Whether `recordKey.fieldKey` changed.
  public func contains(_ changedKey: String) -> Bool {
    for entry in entries {
      switch entry {
      case .record(let record):
        guard changedKey.hasPrefix(record.key + "."), changedKey.utf8.count > record.key.utf8.count + 1 else { continue }
        let field = String(changedKey.dropFirst(record.key.count + 1))
        if record.hasField(field) { return true }
      case .fields(let key, let fields):
        guard changedKey.hasPrefix(key + ".") else { continue }
        let field = String(changedKey.dropFirst(key.count + 1))
        if fields.contains(field) { return true }
      }
    }
    return false
  }

  public func makeIterator() -> Array<String>.Iterator {
    var keys: [String] = []
    keys.reserveCapacity(count)
    for entry in entries {
      switch entry {
      case .record(let record):
        for field in record.fieldKeys { keys.append(record.key + "." + field) }
      case .fields(let key, let fields):
        for field in fields { keys.append(key + "." + field) }
      }
    }
    return keys.makeIterator()
  }

  /// Compared as sets of keys.
  public static func == (lhs: ChangedKeys, rhs: ChangedKeys) -> Bool {
    lhs.count == rhs.count && Set(lhs) == Set(rhs)
  }

  public var description: String { Array(self).sorted().description }
}
