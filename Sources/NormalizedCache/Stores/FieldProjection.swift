#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields a read needs of the records of one load (docs/stores.md#projected-loads), as Apollo
/// iOS 3.0's ADR 0007 has the executor tell its cache (as amended by apollo-ios-dev #1050: rows
/// filtered, columns not projected): each key's ``FieldSet``, which a store may use to load less.
///
/// ```swift
/// let projection = FieldProjection(sets: [bookFields], setIndices: [0, 0])   // two keys, one set
/// try snapshot.lendRecords(forKeys: ["Book:1", "Book:2"], projection: projection, to: &lent)
/// ```
/// A projected record holds at least the fields of its set that the record has (a store that
/// cannot project lends the whole record), and its dates for those; never a field the record lacks.
public struct FieldProjection: Sendable {
  /// The distinct sets of the load.
  public let sets: [FieldSet]
  /// For each key of the load, in order, the index of its set in ``sets``.
  public let setIndices: [Int]

  public init(sets: [FieldSet], setIndices: [Int]) {
    precondition(setIndices.allSatisfy { sets.indices.contains($0) }, "a key's set index is not one of the sets")
    self.sets = sets
    self.setIndices = setIndices
  }

  /// The set of the key at `position`.
  @inline(__always)
  public func set(ofKeyAt position: Int) -> FieldSet { sets[setIndices[position]] }
}

/// The field keys a read looks at in a record: every field a selection may read there, under any
/// runtime type, and `__typename` (by which the reader picks the runtime type). A record's dates
/// are not a field: a projected record keeps the dates of the fields it holds.
///
/// Its names are kept twice: in the order the selection reads them (a store that builds records
/// row by row writes them in that order, where the reader looks for them first), and sorted by
/// their UTF-8 bytes (for ``contains(_:)`` and for stores that meet names in that order).
public final class FieldSet: Sendable, CustomStringConvertible {
  /// The field keys, unique, in the order a read looks at them.
  public let fieldKeys: [String]
  /// Each field key's UTF-8, sorted by bytes, and its index in ``fieldKeys``.
  public let sorted: [(utf8: [UInt8], index: Int)]

  /// - Precondition: no field key is empty.
  public init(_ fieldKeys: some Sequence<String>) {
    var seen: Set<String> = []
    let unique = fieldKeys.filter { seen.insert($0).inserted }
    precondition(!unique.contains(""), "a field key is never empty")
    self.fieldKeys = unique
    sorted = unique.enumerated().map { (Array($0.element.utf8), $0.offset) }.sorted { Self.less($0.utf8, $1.utf8) }
  }

  /// The fields of both sets: this one's, then the other's it lacks.
  public func union(_ other: FieldSet) -> FieldSet { FieldSet(fieldKeys + other.fieldKeys) }

  /// Whether the set has the field key spelled by these UTF-8 bytes: a binary search.
  /// - Complexity: O(log n) comparisons of bytes.
  public func contains(_ utf8: UnsafeRawBufferPointer) -> Bool { index(of: utf8) != nil }

  /// The index in ``fieldKeys`` of the field key spelled by these bytes; nil when the set lacks it.
  public func index(of utf8: UnsafeRawBufferPointer) -> Int? {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      let order = sorted[middle].utf8.withUnsafeBytes { Self.compare($0, utf8) }
      if order == 0 { return sorted[middle].index }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  public var description: String { "FieldSet(\(fieldKeys))" }

  /// Byte order, as SQLite's BINARY collation compares TEXT.
  public static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0 {
      let order = memcmp(a.baseAddress!, b.baseAddress!, common)
      if order != 0 { return Int(order) }
    }
    return a.count - b.count
  }

  static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { a in b.withUnsafeBytes { b in compare(a, b) < 0 } }
  }
}
