/// The keys `recordKey.fieldKey` a read looked at (docs/keys.md#reading): what Apollo iOS's
/// watchers compare with a write's changed keys to know whether to read again.
///
/// ```swift
/// let result = try reader.read(plan)
/// let changed = try cache.merge(records: records)
/// if result.dependentKeys.intersects(ChangedKeys.Lookup(changed)) { /* read again */ }
/// Set(result.dependentKeys)   // ["QUERY_ROOT.hero", "Hero:1.name", ...]
/// ```
/// Kept as the records read and the fields looked at in each, so a read spends no strings on it;
/// the strings are built when the keys are iterated.
public struct DependentKeys: Sendable, Sequence {
  struct Entry: Sendable {
    let recordKey: CacheKey
    let fieldKeys: [String]
  }

  private(set) var entries: [Entry] = []

  public init() {}

  mutating func append(recordKey: CacheKey, fieldKeys: [String]) {
    guard !fieldKeys.isEmpty else { return }
    entries.append(Entry(recordKey: recordKey, fieldKeys: fieldKeys))
  }

  /// The records the read looked at, each once, in the order first read.
  public var recordKeys: [CacheKey] {
    var seen: Set<CacheKey> = []
    return entries.compactMap { seen.insert($0.recordKey).inserted ? $0.recordKey : nil }
  }

  /// The number of keys, counting a key looked at twice (two selections of one record) twice.
  public var count: Int { entries.reduce(0) { $0 + $1.fieldKeys.count } }

  /// Whether a write changed any key the read looked at.
  public func intersects(_ changed: ChangedKeys.Lookup) -> Bool {
    for entry in entries {
      guard let fields = changed.fields(of: entry.recordKey) else { continue }
      for field in entry.fieldKeys where fields.contains(field) { return true }
    }
    return false
  }

  /// Whether a write changed any field of a record the read looked at, read or not: what a
  /// dependent key that names only its record wakes on (docs/keys.md#dependent-keys-by-record-or-by-field).
  /// ``intersects(_:)`` is this with the fields the read looked at; a write it wakes, this wakes too.
  public func intersectsRecords(_ changed: ChangedKeys.Lookup) -> Bool {
    entries.contains { changed.fields(of: $0.recordKey) != nil }
  }

  public func makeIterator() -> Array<String>.Iterator {
    var keys: [String] = []
    for entry in entries {
      for field in entry.fieldKeys { keys.append(entry.recordKey + "." + field) }
    }
    return keys.makeIterator()
  }
}

extension ChangedKeys {
  /// A merge's changed keys by record, built once and asked by many watchers.
  public struct Lookup: Sendable {
    public enum Fields: Sendable {
      /// A new record: every field it has.
      case every(Record)
      case these(Set<String>)

      public func contains(_ fieldKey: String) -> Bool {
        switch self {
        case .every(let record): record.hasField(fieldKey)
        case .these(let fields): fields.contains(fieldKey)
        }
      }
    }

    private var byRecord: [CacheKey: Fields] = [:]

    public init(_ changed: ChangedKeys) {
      byRecord.reserveCapacity(changed.entries.count)
      for entry in changed.entries {
        switch entry {
        case .record(let record):
          byRecord[record.key] = .every(record)
        case .fields(let key, let fields):
          switch byRecord[key] {
          case .these(let existing)?: byRecord[key] = .these(existing.union(fields))
          case .every?: break
          case nil: byRecord[key] = .these(Set(fields))
          }
        }
      }
    }

    /// The changed fields of a record; nil when none changed.
    public func fields(of recordKey: CacheKey) -> Fields? { byRecord[recordKey] }
  }
}
