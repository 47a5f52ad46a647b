/// Records by key, in the order their keys were first seen: what normalizing a response produces,
/// and what a store merges.
///
/// ```swift
/// var records = RecordSet()
/// records.merge(record: Record(key: "QUERY_ROOT", ["favoriteBook": .reference("Book:bk123")]))
/// let changed = records.merge(records: otherResponse)   // ChangedKeys: "Book:bk123.genre", ...
/// ```
public struct RecordSet: Sendable, Sequence, Equatable, CustomStringConvertible {
  private var index: [CacheKey: Int] = [:]
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
    index[key].map { records[$0] }
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
    if let position = index[record.key] {
      if records[position].isEmpty {
        // A reserved position, or a record with no fields: the new record is all new.
        records[position] = record
        changed.insertAllFields(of: record)
      } else {
        changed.insert(fields: records[position].merge(record), of: record.key)
      }
    } else {
      index[record.key] = records.count
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
    let position = Self.claim(&index[key, default: -1], next)
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
