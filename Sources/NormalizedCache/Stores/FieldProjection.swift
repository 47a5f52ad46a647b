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
public final class FieldSet: @unchecked Sendable, CustomStringConvertible {
  /// The field keys, unique, in the order a read looks at them.
  public let fieldKeys: [String]
  /// Each field key's UTF-8, sorted by bytes, and its index in ``fieldKeys``.
  public let sorted: [(utf8: [UInt8], index: Int)]
  /// What ``index(of:)`` searches, in memory of its own (immutable once made, freed with the set):
  /// for each sorted key, where its bytes end and its index in ``fieldKeys``, then the sorted
  /// keys' bytes one after another. An array per key cost a retain and a release a comparison.
  private let table: UnsafeMutableRawPointer
  private let count: Int
  /// A bit for each key, at ``sieveBit(_:)`` of its bytes: a name whose bit is not set is not in
  /// the set, found without a search (most names a projected load meets are not).
  private let sieve: UInt64

  /// - Precondition: no field key is empty.
  public init(_ fieldKeys: some Sequence<String>) {
    var seen: Set<String> = []
    let unique = fieldKeys.filter { seen.insert($0).inserted }
    precondition(!unique.contains(""), "a field key is never empty")
    self.fieldKeys = unique
    sorted = unique.enumerated().map { (Array($0.element.utf8), $0.offset) }.sorted { Self.less($0.utf8, $1.utf8) }
    count = sorted.count
    let bytes = sorted.reduce(0) { $0 + $1.utf8.count }
    table = UnsafeMutableRawPointer.allocate(
      byteCount: 2 * count * MemoryLayout<Int>.stride + bytes, alignment: MemoryLayout<Int>.alignment)
    let words = table.bindMemory(to: Int.self, capacity: 2 * count)
    sieve = sorted.reduce(0) { bits, key in key.utf8.withUnsafeBytes { bits | Self.sieveBit($0) } }
    var end = 0
    for (position, key) in sorted.enumerated() {
      key.utf8.withUnsafeBytes {
        (table + 2 * count * MemoryLayout<Int>.stride + end).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
      }
      end += key.utf8.count
      words[2 * position] = end
      words[2 * position + 1] = key.index
    }
  }

  deinit { table.deallocate() }

  /// The fields of both sets: this one's, then the other's it lacks.
  public func union(_ other: FieldSet) -> FieldSet { FieldSet(fieldKeys + other.fieldKeys) }

  /// Whether the set has the field key spelled by these UTF-8 bytes: a binary search.
  /// - Complexity: O(log n) comparisons of bytes.
  @inline(__always)
  public func contains(_ utf8: UnsafeRawBufferPointer) -> Bool { index(of: utf8) != nil }

  /// The index in ``fieldKeys`` of the field key spelled by these bytes; nil when the set lacks it.
  public func index(of utf8: UnsafeRawBufferPointer) -> Int? {
    guard sieve & Self.sieveBit(utf8) != 0 else { return nil }
    let words = UnsafePointer<Int>(table.assumingMemoryBound(to: Int.self))
    let bytes = UnsafeRawPointer(table + 2 * count * MemoryLayout<Int>.stride)
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) >> 1
      let start = middle == 0 ? 0 : words[2 * middle - 2]
      let order = Self.compare(UnsafeRawBufferPointer(start: bytes + start, count: words[2 * middle] - start), utf8)
      if order == 0 { return words[2 * middle + 1] }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// One of 64 bits, from a name's length, first and last byte: names that differ in any of them,
  /// as `field_0` and `field_1` do, mostly take different bits.
  @inline(__always)
  static func sieveBit(_ utf8: UnsafeRawBufferPointer) -> UInt64 {
    guard let first = utf8.first, let last = utf8.last else { return 1 }
    return 1 << UInt64((utf8.count &* 7 &+ Int(first) &* 5 &+ Int(last) &* 13) & 63)
  }

  public var description: String { "FieldSet(\(fieldKeys))" }

  /// Byte order, as SQLite's BINARY collation compares TEXT.
  @inline(__always)
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
