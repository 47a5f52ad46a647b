#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The byte-level pieces of the record encoding (docs/records.md), each written once, for every
/// writer and reader of it in the package: ``RecordCodec``, the normalizer's ``RecordWriter``, the
/// SQLite layouts (`CompactRecordFormat`, `RecordJSON`, `EncodedValue`), the checked decoder
/// (``RecordCodec/validate(_:)``). Behind `@_spi(RecordBytes)`: the package's modules import it
/// as `@_spi(RecordBytes) import NormalizedCache`, a user of cachebench sees ``Record`` and its
/// validating initializer, never a pointer. Public (to that SPI) and `@inlinable`, because the
/// SQLite layouts' loops call them per byte from another module: `package` functions were not
/// inlined there, which cost SQLite merges and reads instructions the gate saw (`make gate`).
///
/// Invariants, each with its test (`RecordBytesTests`):
/// 1. A varint is LEB128, least significant 7 bits first, and every writer writes its shortest
///    form, so that equal values have equal bytes (merges compare values by their bytes).
/// 2. ``Varint/read(_:_:)`` trusts its buffer: it is for bytes this package wrote and kept in
///    memory. Bytes from a file or a user go through ``Varint/readChecked(_:_:)``, which never
///    reads past the end and refuses more than 64 bits.
/// 3. An Int is stored as its zigzag form (`0, -1, 1, -2` as `0, 1, 2, 3`), so small magnitudes of
///    either sign take one byte; ``ZigZag/decode(_:)`` inverts ``ZigZag/encode(_:)`` on every Int.
/// 4. A length written in front of bytes not yet written takes one reserved byte; closing it
///    widens it in place (moving the bytes up) when the length needs more, so that the result is
///    the shortest form of invariant 1 (``LengthPrefix``). A list's count written in front of
///    elements not yet counted (the JSON of the apollo layout) is closed the same way.
/// 5. A ``RecordCodec/FieldName/Probe`` points into bytes its ``RecordCodec/FieldName`` owns and
///    is used only while that object lives (the reader's steps hold both); it reads 16 bytes at
///    once, unaligned, only where 16 bytes remain in the record, else compares with `memcmp`
///    (RecordCodecTests: every name found from every hint, up to a record's last byte).
/// 6. Comparing and finding by name read only inside the record: a field's ranges come from
///    ``RecordCodec/readField(_:_:)`` on bytes of invariant 2.
/// 7. A value's grammar (docs/records.md) is walked in one place, ``RecordValueWalk``: whoever
///    reads a value (decoding it, printing it as JSON, checking it, skipping it, copying it into
///    or out of the compact layout's stored form, the reader's walk over a field's objects) is a
///    ``RecordValueVisitor`` of it. A walk of bytes from outside (``RecordValueSource/checked``,
///    ``RecordValueSource/stored``) never reads past its buffer, refuses an unknown tag and lists
///    nested deeper than the visitor's ``RecordValueVisitor/maximumDepth``, and reports the first
///    problem with its offset (``MalformedValue``); a walk of this package's own bytes checks
///    nothing (invariant 2).
@_spi(RecordBytes) public enum Varint {
  /// The largest number of bytes of a 64-bit varint.
  @inlinable public static var maximumSize: Int { 10 }

  /// The number of bytes of `value`'s varint.
  @inlinable @inline(__always)
  public static func size(_ value: UInt64) -> Int {
    (64 - value.leadingZeroBitCount + 6) / 7 + (value == 0 ? 1 : 0)
  }

  /// Writes `value` at `output` (which must have ``maximumSize`` bytes of room) and returns how
  /// many bytes it took.
  @inlinable @inline(__always)
  public static func write(_ value: UInt64, to output: UnsafeMutableRawPointer) -> Int {
    var value = value
    var count = 0
    while value >= 0x80 {
      output.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: count, as: UInt8.self)
      count += 1
      value >>= 7
    }
    output.storeBytes(of: UInt8(value), toByteOffset: count, as: UInt8.self)
    return count + 1
  }

  @inlinable @inline(__always)
  public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    if value < 0x80 {
      bytes.append(UInt8(value))
      return
    }
    withUnsafeTemporaryAllocation(byteCount: maximumSize, alignment: 1) { buffer in
      let count = write(value, to: buffer.baseAddress!)
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
  }

  /// Reads the varint at `offset` of bytes this package wrote (invariant 2) and moves past it.
  @inlinable @inline(__always)
  public static func read(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64 {
    // Lengths and field numbers are mostly below 128: one byte, no loop.
    let first = bytes[offset]
    if first < 0x80 {
      offset += 1
      return UInt64(first)
    }
    return readLong(bytes, &offset)
  }

  @usableFromInline @inline(never)
  static func readLong(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = bytes[offset]
      offset += 1
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
  }

  /// Reads the varint at `offset` of bytes from outside (invariant 2) and moves past it; nil when
  /// it runs past the end or past 64 bits. It need not be the shortest form: the validator checks
  /// that on its own (``RecordCodec/validate(_:)``).
  @inlinable @inline(__always)
  public static func readChecked(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
    if offset < bytes.count, bytes[offset] < 0x80 {
      offset += 1
      return UInt64(bytes[offset - 1])
    }
    return readLongChecked(bytes, &offset)
  }

  @usableFromInline @inline(never)
  static func readLongChecked(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      // The tenth byte holds the 64th bit alone.
      guard shift < 63 || byte <= 1 else { return nil }
      offset += 1
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
    return nil
  }
}

/// An Int as the varint stores it (invariant 3).
@_spi(RecordBytes) public enum ZigZag {
  @inlinable @inline(__always)
  public static func encode(_ int: Int) -> UInt64 { UInt64(bitPattern: Int64((int << 1) ^ (int >> 63))) }

  @inlinable @inline(__always)
  public static func decode(_ zigzag: UInt64) -> Int { Int(Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))) }
}

/// The length in front of a value written after it (invariant 4): reserve one byte, write the
/// value, close the length. A list's count, known only after its elements, is closed alike.
@_spi(RecordBytes) public enum LengthPrefix {
  /// Writes the length of the bytes from `lengthOffset + 1` to `end` into the byte reserved at
  /// `lengthOffset`, widening it when the length needs more (moving the bytes up, `end` with
  /// them). False, and nothing changed, when `capacity` has no room for the wider length.
  @inlinable @inline(__always)
  public static func close(
    at lengthOffset: Int, in base: UnsafeMutableRawPointer, end: inout Int, capacity: Int
  ) -> Bool {
    close(at: lengthOffset, value: UInt64(end - lengthOffset - 1), in: base, end: &end, capacity: capacity)
  }

  /// Writes `value` (a list's count) into the byte reserved at `offset`, widening it as
  /// ``close(at:in:end:capacity:)`` does.
  @inlinable @inline(__always)
  public static func close(
    at offset: Int, value: UInt64, in base: UnsafeMutableRawPointer, end: inout Int, capacity: Int
  ) -> Bool {
    if value < 0x80 {
      base.storeBytes(of: UInt8(value), toByteOffset: offset, as: UInt8.self)
      return true
    }
    return widen(at: offset, value: value, in: base, end: &end, capacity: capacity)
  }

  @usableFromInline @inline(never)
  static func widen(at offset: Int, value: UInt64, in base: UnsafeMutableRawPointer, end: inout Int, capacity: Int) -> Bool {
    let moved = end - offset - 1
    let extra = Varint.size(value) - 1
    guard capacity - end >= extra else { return false }
    // copyMemory moves: the two ranges overlap.
    (base + offset + 1 + extra).copyMemory(from: base + offset + 1, byteCount: moved)
    _ = Varint.write(value, to: base + offset)
    end += extra
    return true
  }

  /// ``close(at:in:end:capacity:)`` for a value at the end of an array.
  @inlinable @inline(__always)
  public static func close(at lengthOffset: Int, in bytes: inout [UInt8]) {
    let length = bytes.count - lengthOffset - 1
    if length < 0x80 {
      bytes[lengthOffset] = UInt8(length)
      return
    }
    let extra = Varint.size(UInt64(length)) - 1
    bytes.append(contentsOf: repeatElement(0, count: extra))
    bytes.withUnsafeMutableBytes { buffer in
      var end = buffer.count - extra
      _ = widen(at: lengthOffset, value: UInt64(length), in: buffer.baseAddress!, end: &end, capacity: buffer.count)
    }
  }
}

// MARK: Comparing and finding field names (invariants 5 and 6)

extension RecordCodec {
  /// Whether the bytes in `range` spell `name`.
  @_spi(RecordBytes) @inlinable @inline(__always)
  public static func bytes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, equal name: UnsafeRawBufferPointer) -> Bool {
    guard range.count == name.count else { return false }
    if range.isEmpty { return true }
    return memcmp(bytes.baseAddress! + range.lowerBound, name.baseAddress!, range.count) == 0
  }

  @inline(__always)
  static func ranges(
    _ a: UnsafeRawBufferPointer, _ ra: Range<Int>, _ b: UnsafeRawBufferPointer, _ rb: Range<Int>
  ) -> Bool {
    guard ra.count == rb.count else { return false }
    if ra.isEmpty { return true }
    return memcmp(a.baseAddress! + ra.lowerBound, b.baseAddress! + rb.lowerBound, ra.count) == 0
  }

  /// Finds a field by name.
  @inline(__always)
  static func find(_ name: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> FieldSpan? {
    var offset = 0
    while offset < bytes.count {
      let span = readField(bytes, &offset)
      if Self.bytes(bytes, span.name, equal: name) { return span }
    }
    return nil
  }
}

extension RecordCodec {
  /// A field name as it starts a field in the encoding (`varint(nameLength) name`), ready to be
  /// compared with the bytes where a field starts (``Probe``). A reader looks for the same few
  /// names in thousands of records.
  package final class FieldName: @unchecked Sendable {
    /// The comparison, plain values only: copying it counts no reference. Valid while the
    /// ``FieldName`` lives, which owns the bytes it points to.
    package let probe: Probe
    private let prefix: UnsafeMutableRawBufferPointer

    package init(_ name: String) {
      let encoded = Self.prefixes(of: [name])
      prefix = .allocate(byteCount: encoded.count, alignment: 8)
      prefix.copyBytes(from: encoded)
      probe = Probe(prefix: UnsafeRawBufferPointer(prefix))
    }

    deinit { prefix.deallocate() }

    /// The encoded prefixes of `names`, one after another: what ``Probe/init(prefix:)`` reads.
    package static func prefixes(of names: some Sequence<String>) -> [UInt8] {
      RecordWriter.encoded { writer in
        for name in names { writer.appendString(name) }
      }
    }

    /// A name's encoded prefix: up to 16 bytes compared as two masked words, longer ones (or near
    /// the end of a record) with `memcmp`. Sendable by the rule of its initializer: the prefix it
    /// points to outlives it, and nothing writes there.
    package struct Probe: @unchecked Sendable {
      /// The prefix's length.
      let count: Int
      /// Its first 16 bytes as two words (zero beyond the prefix), and the masks keeping them.
      let word0: UInt64
      let word1: UInt64
      let mask0: UInt64
      let mask1: UInt64
      let prefix: UnsafeRawPointer

      /// The probe of the encoded prefix at `prefix`, which must outlive it.
      package init(prefix: UnsafeRawBufferPointer) {
        var words: (UInt64, UInt64) = (0, 0)
        var masks: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { words in
          withUnsafeMutableBytes(of: &masks) { masks in
            for index in 0..<min(prefix.count, 16) {
              words[index] = prefix[index]
              masks[index] = 0xFF
            }
          }
        }
        count = prefix.count
        (word0, word1) = words
        (mask0, mask1) = masks
        self.prefix = prefix.baseAddress!
      }

      /// Whether the field starting at `offset` has this name; if so, moves `offset` to its value's length.
      @inline(__always)
      func matches(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Bool {
        if count <= 16, offset + 16 <= bytes.count {
          let start = bytes.baseAddress! + offset
          guard start.loadUnaligned(as: UInt64.self) & mask0 == word0,
            (start + 8).loadUnaligned(as: UInt64.self) & mask1 == word1
          else { return false }
        } else {
          guard offset + count <= bytes.count, memcmp(bytes.baseAddress! + offset, prefix, count) == 0 else { return false }
        }
        offset += count
        return true
      }
    }
  }

  /// The offset of the value of the field named `name`, looking from `hint` first (an offset where
  /// a field starts), which a found field moves past it: a reader asking for fields in the order
  /// they were written finds each at the first comparison.
  @inline(__always)
  static func find(_ name: FieldName.Probe, in bytes: UnsafeRawBufferPointer, hint: inout Int) -> Int? {
    var offset = hint
    if offset < bytes.count, name.matches(bytes, at: &offset) {
      let length = Int(Varint.read(bytes, &offset))
      hint = offset + length
      return offset
    }
    return scan(for: name, in: bytes, hint: &hint)
  }

  /// ``find(_:in:hint:)`` where the field at the hint is another: every field from the hint on, then
  /// those before it.
  @inline(never)
  static func scan(for name: FieldName.Probe, in bytes: UnsafeRawBufferPointer, hint: inout Int) -> Int? {
    let start = hint <= bytes.count ? hint : 0
    var offset = start
    var end = bytes.count
    var wrapped = false
    while true {
      while offset < end {
        var field = offset
        if name.matches(bytes, at: &field) {
          let length = Int(Varint.read(bytes, &field))
          hint = field + length
          return field
        }
        // Past the name and the value.
        let nameLength = Int(Varint.read(bytes, &offset))
        offset &+= nameLength
        let valueLength = Int(Varint.read(bytes, &offset))
        offset &+= valueLength
      }
      if wrapped { return nil }
      (offset, end, wrapped) = (0, start, true)
    }
  }
}
