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

  /// Merges one record: a new key is added; an existing record takes the new fields
  /// (docs/records.md).
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
