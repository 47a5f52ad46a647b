/// Records by key, in the order their keys were first seen: what normalizing a response produces,
/// and what a store merges.
///
/// ```swift
/// var records = RecordSet()
/// records.merge(record: Record(key: "QUERY_ROOT", ["favoriteBook": .reference("Book:bk123")]))
/// let changed = records.merge(records: otherResponse)   // ChangedKeys: "Book:bk123.genre", ...
/// ```
public struct RecordSet: Sendable, Sequence, Equatable, CustomStringConvertible {
  private var index: [HashedKey: Int] = [:]
  /// The records, in the order their keys were first seen.
  public private(set) var records: [Record] = []

  public init() {}

  public init(records: [Record]) {
    for record in records { merge(record: record) }
  }

  public var count: Int { records.count }
  public var isEmpty: Bool { records.isEmpty }
  public var keys: [CacheKey] { records.map(\.key) }

  public subscript(key: CacheKey) -> Record? {
    index[HashedKey(key)].map { records[$0] }
  }

  public func makeIterator() -> Array<Record>.Iterator { records.makeIterator() }

  /// Merges one record: a new key is added; an existing record takes the new fields (SPEC §2).
  /// - Returns: the changed keys `recordKey.fieldKey`.
  @discardableResult
  public mutating func merge(record: Record) -> ChangedKeys {
    var changed = ChangedKeys()
    mergeRecord(record, into: &changed)
    return changed
  }

  /// Merges every record of another set.
  /// - Returns: the changed keys `recordKey.fieldKey`.
  @discardableResult
  public mutating func merge(records other: RecordSet) -> ChangedKeys {
    var changed = ChangedKeys()
    for record in other.records { mergeRecord(record, into: &changed) }
    return changed
  }

  private mutating func mergeRecord(_ record: Record, into changed: inout ChangedKeys) {
    let key = HashedKey(record.key)
    if let position = index[key] {
      if records[position].isEmpty {
        // A reserved position, or a record with no fields: the new record is all new.
        records[position] = record
        changed.insertAllFields(of: record)
      } else {
        changed.insert(fields: records[position].merge(record), of: record.key)
      }
    } else {
      index[key] = records.count
      records.append(record)
      changed.insertAllFields(of: record)
    }
  }

  /// Reserves the position of a key before its record is complete, so that a parent object is
  /// listed before the objects below it (preorder, as Apollo's listings show them).
  /// - Returns: the key's position, for ``fill(_:with:)``: one hash of the key per object.
  @discardableResult
  mutating func reservePosition(for key: CacheKey) -> Int {
    let next = records.count
    let position = Self.claim(&index[HashedKey(key), default: -1], next)
    if position == next { records.append(Record(key: key, encodedFields: [])) }
    return position
  }

  /// `slot`'s position, set to `next` when it has none (-1): one lookup that finds or inserts.
  @inline(__always)
  private static func claim(_ slot: inout Int, _ next: Int) -> Int {
    if slot < 0 { slot = next }
    return slot
  }

  /// Merges `record` into the record at `position` (from ``reservePosition(for:)`` of its key).
  mutating func fill(_ position: Int, with record: Record) {
    if records[position].isEmpty {
      records[position] = record
    } else {
      _ = records[position].merge(record)
    }
  }

  /// Equal when they hold equal records under the same keys, in any order.
  public static func == (lhs: RecordSet, rhs: RecordSet) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.records.allSatisfy { rhs[$0.key] == $0 }
  }

  public var description: String { records.map(\.description).joined(separator: "\n") }
}

/// A cache key with its hash computed once, eight bytes at a time: the record set's index hashes
/// only that word, at every lookup and every time it grows, where a `String` key would run the
/// whole key through the hasher each time.
struct HashedKey: Hashable {
  let key: CacheKey
  let hash: UInt64

  @inline(__always)
  init(_ key: CacheKey) {
    self.key = key
    hash = Self.hash(key)
  }

  /// The hash of a key's UTF-8, read in place (a copy of the string to call `withUTF8` on would
  /// cost a retain and a release, atomic both).
  @inline(__always)
  static func hash(_ key: CacheKey, seed: UInt64 = 0) -> UInt64 {
    if let hash = key.utf8.withContiguousStorageIfAvailable({ hash($0, seed: seed) }) { return hash }
    var copy = key
    return copy.withUTF8 { hash($0, seed: seed) }
  }

  static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// A multiply-and-fold hash of the bytes: not for adversaries (the Hasher's per-process seed,
  /// applied to this word, keeps the table's layout unpredictable), good enough to spread keys.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
    var hash: UInt64 = (0x9E37_79B9_7F4A_7C15 ^ seed) ^ UInt64(truncatingIfNeeded: bytes.count)
    guard let base = bytes.baseAddress else { return hash }
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      hash = mix(hash ^ UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
      offset += 8
    }
    if offset < count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < count {
        tail |= UInt64(base[offset]) &<< shift
        shift &+= 8
        offset += 1
      }
      hash = mix(hash ^ tail)
    }
    return mix(hash)
  }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    let multiplied = (value ^ (value >> 31)) &* 0xFF51_AFD7_ED55_8CCD
    return multiplied ^ (multiplied >> 29)
  }
}
