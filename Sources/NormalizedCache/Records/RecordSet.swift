/// Records by key, in the order their keys were first seen: what normalizing a response produces,
/// and what a store merges.
///
/// ```swift
/// var records = RecordSet()
/// records.merge(record: Record(key: "QUERY_ROOT", ["favoriteBook": .reference("Book:bk123")]))
/// let changed = records.merge(records: otherResponse)   // ChangedKeys: "Book:bk123.genre", ...
/// ```
public struct RecordSet: Sendable, Sequence, Equatable, CustomStringConvertible {
  private var index = KeyIndex()
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
    index.position(of: key, in: records).map { records[$0] }
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
    let place = index.find(record.key, in: records)
    if let position = place.position {
      if records[position].isEmpty {
        // A reserved position, or a record with no fields: the new record is all new.
        records[position] = record
        changed.insertAllFields(of: record)
      } else {
        changed.insert(fields: records[position].merge(record), of: record.key)
      }
    } else {
      index.insert(records.count, at: place)
      records.append(record)
      changed.insertAllFields(of: record)
    }
  }

  /// Reserves the position of a key before its record is complete, so that a parent object is
  /// listed before the objects below it (preorder, as Apollo's listings show them).
  /// - Returns: the key's position, for ``fill(_:with:)``: one hash of the key per object.
  @discardableResult
  mutating func reservePosition(for key: CacheKey) -> Int {
    let place = index.find(key, in: records)
    if let found = place.position { return found }
    let position = records.count
    records.append(Record(key: key, uncheckedEncodedFields: []))
    index.insert(position, at: place)
    return position
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

/// A cache key with its hash computed once, eight bytes at a time (``hash(_:seed:)``, which the
/// record set's index and the in-memory store use too): a dictionary keyed by it hashes only
/// that word, where a `String` key would run the whole key through the hasher each time.
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
    key.withUTF8InPlace { hash($0, seed: seed) }
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

/// The record set's index: open addressing over the records' positions, each slot keeping its
/// key's hash (``HashedKey``, seeded per process), so that a lookup hashes the key once, compares
/// hashes first, and growing never hashes again.
struct KeyIndex {
  private struct Slot {
    var hash: UInt64 = 0
    /// -1 for an empty slot.
    var position: Int32 = -1
  }

  private var slots: [Slot] = []
  private var count = 0

  /// Where a key is, or would go: its slot and hash, and its position when the index has it.
  struct Place {
    let slot: Int
    let hash: UInt64
    let position: Int?
  }

  init() {}

  /// An index that takes `capacity` keys without growing.
  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = Array(repeating: Slot(), count: size)
  }

  /// Where `key` is or would go.
  @inline(__always)
  mutating func find(_ key: CacheKey, in records: [Record]) -> Place {
    find(key) { records[$0].key }
  }

  /// Where `key` is or would go, `keyAt` giving the key at a position the index holds.
  @inline(__always)
  mutating func find(_ key: CacheKey, keyAt: (Int) -> CacheKey) -> Place {
    if slots.isEmpty { slots = Array(repeating: Slot(), count: 16) }
    let hash = HashedKey.hash(key, seed: RecordTable.seed)
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = slots[slot]
        if entry.position < 0 { return Place(slot: slot, hash: hash, position: nil) }
        if entry.hash == hash, keyAt(Int(entry.position)) == key {
          return Place(slot: slot, hash: hash, position: Int(entry.position))
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The position of `key`, if the index has it.
  func position(of key: CacheKey, in records: [Record]) -> Int? {
    guard !slots.isEmpty else { return nil }
    let hash = HashedKey.hash(key, seed: RecordTable.seed)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot].position >= 0 {
      if slots[slot].hash == hash, records[Int(slots[slot].position)].key == key { return Int(slots[slot].position) }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Puts `position` where ``find(_:in:)`` found its key would go (nothing inserted since).
  @inline(__always)
  mutating func insert(_ position: Int, at place: Place) {
    slots[place.slot] = Slot(hash: place.hash, position: Int32(position))
    count += 1
    if count * 2 > slots.count { grow() }
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: old.count * 2)
    let mask = slots.count - 1
    for entry in old where entry.position >= 0 {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot].position >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }
}

extension String {
  /// Whether the two keys are equal, their lengths compared first: a probe of a key table mostly
  /// meets keys of other lengths, which `==` alone compares byte by byte.
  @inline(__always)
  func equalsKey(_ other: String) -> Bool {
    utf8.count == other.utf8.count && self == other
  }

  /// Lends `body` the string's UTF-8, in place where it is stored contiguously (a copy to call
  /// `withUTF8` on would cost an atomic retain and release).
  @inline(__always)
  func withUTF8InPlace<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return copy.withUTF8(body)
  }
}
