@_spi(RecordBytes) import NormalizedCache

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The compact layout's field names and their numbers: the `fields` table, held in memory.
///
/// A record's blob names each field by its number, so a field name (`related(first:3)`) is stored
/// once per database instead of once per record. Lookups hash the name's bytes straight from a
/// ``RecordCodec`` buffer, without making a `String`.
///
/// The table in memory is always a prefix of the `fields` table: numbers are given in order and
/// never taken back (not even by `clear()`), so a number means one name for the life of the file,
/// whichever connection gave it. Numbers given during a transaction are provisional until
/// ``mark()`` is called again: ``rollBack()`` forgets those given since the mark.
struct FieldNameTable {
  /// Every name as ``RecordCodec`` spells it in a field, `varint(length) name`, one after another.
  private(set) var arena: [UInt8] = []
  /// Where each name starts in ``arena``, by number, and where the last one ends: name `id` is
  /// `arena[starts[id - 1]..<starts[id]]`.
  private(set) var starts: [Int] = [0]
  /// Open addressing, linear probing; a slot holds a number, 0 when empty.
  private var slots: [Int32] = Array(repeating: 0, count: 64)
  /// The longest entry of ``arena``, length prefix included.
  private(set) var longestEntry = 0
  /// The number of names at the last ``mark()``.
  private var markedCount = 0
  /// Counts every change of what a number means (a name added, names rolled back): what was made
  /// from the numbers (``CompactRecordFormat/filter(for:)``) holds while it stays.
  var changes = 0

  /// The number of names; they are numbered 1 through `count`.
  var count: Int { starts.count - 1 }

  /// Whether a number names a field.
  @inline(__always)
  func contains(id: UInt64) -> Bool { id >= 1 && id < UInt64(starts.count) }

  /// The number of a name, or nil when the table does not have it.
  @inline(__always)
  func id(of name: UnsafeRawBufferPointer) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Self.hash(name) & mask
      while true {
        let id = Int(slots[slot])
        if id == 0 { return nil }
        if equals(id, name) { return id }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Whether name `id` is spelled, length prefix included, as `prefixedName`.
  @inline(__always)
  func entry(_ id: Int, equals prefixedName: UnsafeRawBufferPointer) -> Bool {
    guard id < starts.count else { return false }
    let start = starts[id - 1]
    let count = starts[id] - start
    guard count == prefixedName.count else { return false }
    return arena.withUnsafeBytes { arena in
      memcmp(arena.baseAddress! + start, prefixedName.baseAddress!, count) == 0
    }
  }

  /// Adds a name and returns its number, the next one free.
  /// - Precondition: the table does not have the name.
  mutating func insert(_ name: UnsafeRawBufferPointer) -> Int {
    let id = starts.count
    precondition(id < Int(Int32.max), "too many field names")
    changes += 1
    Varint.append(UInt64(name.count), to: &arena)
    arena.append(contentsOf: name)
    starts.append(arena.count)
    longestEntry = max(longestEntry, arena.count - starts[starts.count - 2])
    if starts.count * 2 > slots.count {
      rehash(capacity: slots.count * 2)
    } else {
      place(id)
    }
    return id
  }

  /// Keeps every name added so far, whatever happens later.
  mutating func mark() {
    markedCount = count
  }

  /// Forgets the names added since the last mark.
  mutating func rollBack() {
    guard count > markedCount else { return }
    changes += 1
    arena.removeSubrange(starts[markedCount]...)
    starts.removeSubrange((markedCount + 1)...)
    rehash(capacity: slots.count)
  }

  // MARK: Hashing

  /// The bytes of a name without its length prefix.
  @inline(__always)
  private func nameRange(_ id: Int) -> Range<Int> {
    var offset = starts[id - 1]
    let length = arena.withUnsafeBytes { Int(Varint.read($0, &offset)) }
    return offset..<offset + length
  }

  @inline(__always)
  private func equals(_ id: Int, _ name: UnsafeRawBufferPointer) -> Bool {
    let range = nameRange(id)
    guard range.count == name.count else { return false }
    return arena.withUnsafeBytes { arena in
      name.isEmpty || memcmp(arena.baseAddress! + range.lowerBound, name.baseAddress!, name.count) == 0
    }
  }

  private mutating func place(_ id: Int) {
    let mask = slots.count - 1
    let range = nameRange(id)
    var slot = arena.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[range])) } & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(id)
  }

  private mutating func rehash(capacity: Int) {
    slots = Array(repeating: 0, count: capacity)
    for id in stride(from: 1, through: count, by: 1) { place(id) }
  }

  /// FNV-1a: field names are short, and this needs no per-process seed.
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}
