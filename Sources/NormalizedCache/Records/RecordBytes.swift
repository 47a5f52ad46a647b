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
/// inlined there, which cost +3..6.6% instructions on SQLite merges and reads (`make gate`).
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

// MARK: Walking a value (invariant 7)

/// Where the bytes a walk reads come from, which says what it checks (invariant 7).
@_spi(RecordBytes) public enum RecordValueSource: Sendable {
  /// ``RecordCodec``'s encoding, written by this package and kept in memory (invariant 2):
  /// nothing is checked.
  case trusted
  /// ``RecordCodec``'s encoding from outside (``Record/init(key:encodedFields:)``): every read
  /// inside the buffer, every varint in its shortest form.
  case checked
  /// The compact layout's stored form, from a file: ``RecordCodec``'s values, and a String or
  /// reference of fewer than ``RecordCodec/shortLengthLimit`` bytes with its length in its tag
  /// (``RecordCodec/shortStringTag``, ``RecordCodec/shortReferenceTag``). Every read inside the
  /// buffer; a varint need not be the shortest.
  case stored
}

/// What a walk of a value calls, in the value's order: each scalar with what it holds, and a list
/// as its head, then each element (the element's own calls, then ``append(_:to:)``), then its end.
/// Each call also gets the bytes it read (`token`: the tag and what follows it, up to a list's
/// count), for a visitor that copies the encoding rather than reads it.
///
/// ```swift
/// /// Counts the strings in a value, lists included.
/// struct StringCount: RecordValueVisitor {
///   static var source: RecordValueSource { .trusted }
///   var strings = 0
///   mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) { strings += 1 }
///   ...   // the other scalars do nothing; lists keep nothing (List == Void)
/// }
/// var count = StringCount()
/// try RecordValueWalk.walk(bytes, &offset, &count)
/// ```
/// Generic and `@inlinable`, so that a walk specializes for its visitor (in another module too),
/// and a visitor's empty calls cost nothing.
@_spi(RecordBytes) public protocol RecordValueVisitor {
  /// What a value becomes: `JSONValue` for the reader's leaves, `Void` for a visitor that writes
  /// as it goes.
  associatedtype Value
  /// What a list keeps while its elements are walked.
  associatedtype List
  associatedtype Failure: Error

  /// Where the bytes come from: what the walk checks.
  static var source: RecordValueSource { get }
  /// How deep lists may nest in bytes from outside; deeper is ``MalformedValue/Problem/tooDeep(_:)``.
  static var maximumDepth: Int { get }
  /// False for a visitor that copies tokens and reads no value: a walk of trusted bytes then
  /// finds where an Int ends without decoding it, and passes 0.
  static var readsValues: Bool { get }

  mutating func null(_ token: Range<Int>) throws(Failure) -> Value
  mutating func bool(_ value: Bool, _ token: Range<Int>) throws(Failure) -> Value
  mutating func int(_ value: Int, _ token: Range<Int>) throws(Failure) -> Value
  mutating func double(_ value: Double, _ token: Range<Int>) throws(Failure) -> Value
  /// A String's UTF-8.
  mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) throws(Failure) -> Value
  /// A reference's key, as UTF-8.
  mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) throws(Failure) -> Value
  /// A list of `count` elements begins; its elements come next.
  mutating func beginList(count: Int, _ token: Range<Int>) throws(Failure) -> List
  /// One element of the list, walked (given up: appended, it moves rather than copies).
  mutating func append(_ element: consuming Value, to list: inout List) throws(Failure)
  /// The list's elements are all walked (the list given up, as the element is).
  mutating func endList(_ list: consuming List) throws(Failure) -> Value

  /// The failure of a walk that met bytes outside the grammar (a checked walk's only).
  func malformed(_ value: MalformedValue) -> Failure
}

extension RecordValueVisitor {
  /// 512, as ``Record/init(key:encodedFields:)`` checks it.
  @inlinable public static var maximumDepth: Int { 512 }
  @inlinable public static var readsValues: Bool { true }

}

extension RecordValueVisitor where Failure == Never {
  /// A walk of trusted bytes, which cannot fail, never calls it.
  @inlinable public func malformed(_ value: MalformedValue) -> Never {
    preconditionFailure("a trusted walk met malformed bytes: \(value)")
  }
}

extension RecordValueVisitor where List == Void, Value == Void {
  @inlinable @inline(__always) public mutating func append(_ element: consuming Void, to list: inout Void) {}
  @inlinable @inline(__always) public mutating func endList(_ list: consuming Void) {}
}

/// A visitor that only walks: what it checks is its source's (``RecordValueSource``), and every
/// call does nothing. Opted into, so that a visitor that writes cannot miss a call unnoticed.
@_spi(RecordBytes) public protocol RecordValueChecker: RecordValueVisitor where Value == Void, List == Void {}

extension RecordValueChecker {
  @inlinable @inline(__always) public func null(_ token: Range<Int>) {}
  @inlinable @inline(__always) public func bool(_ value: Bool, _ token: Range<Int>) {}
  @inlinable @inline(__always) public func int(_ value: Int, _ token: Range<Int>) {}
  @inlinable @inline(__always) public func double(_ value: Double, _ token: Range<Int>) {}
  @inlinable @inline(__always) public func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) {}
  @inlinable @inline(__always) public func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) {}
  @inlinable @inline(__always) public func beginList(count: Int, _ token: Range<Int>) {}
}

/// Why bytes are not a value, and where: what a checked walk reports (invariant 7).
@_spi(RecordBytes) public struct MalformedValue: Error, Sendable, Hashable, CustomStringConvertible {
  /// The varints of a value.
  public enum Part: Sendable, Hashable {
    case int, stringLength, listCount

    var name: String {
      switch self {
      case .int: "an Int"
      case .stringLength: "a string's length"
      case .listCount: "a list's count"
      }
    }
  }

  public enum Problem: Sendable, Hashable {
    case tagPastEnd
    case unknownTag(UInt8)
    case varintPastEnd(Part)
    case varintTooLong(Part)
    case varintNotShortest(Part)
    case shortDouble
    /// A String or reference of this length, with this many bytes left.
    case stringPastEnd(length: UInt64, left: Int)
    case listPastEnd(count: UInt64)
    case tooDeep(Int)
  }

  /// The offset where the problem is: the value's tag, or the varint at fault.
  public let offset: Int
  public let problem: Problem

  @inlinable public init(offset: Int, problem: Problem) {
    self.offset = offset
    self.problem = problem
  }

  public var description: String {
    switch problem {
    case .tagPastEnd: "a value's tag past the end"
    case .unknownTag(let tag): "unknown tag \(tag)"
    case .varintPastEnd(let part): "\(part.name) past the end"
    case .varintTooLong(let part): "\(part.name) longer than 64 bits"
    case .varintNotShortest(let part): "\(part.name) not in its shortest form"
    case .shortDouble: "a Double of fewer than 8 bytes"
    case .stringPastEnd(let length, let left): "a string's length \(length) runs past the end (\(left) bytes left)"
    case .listPastEnd(let count): "a list of \(count) elements runs past the end"
    case .tooDeep(let depth): "lists nested deeper than \(depth)"
    }
  }
}

/// The one walk of a value's grammar (invariant 7; docs/records.md):
///
/// ```
/// value := 0x00 null | 0x01 false | 0x02 true | 0x03 zigzag-varint Int | 0x04 Double (8 bytes, little endian)
///        | 0x05 varint(length) UTF-8 String | 0x06 varint(length) UTF-8 reference key
///        | 0x07 varint(count) value*
///        | 0x20|n UTF-8 String of n < 32 bytes | 0x40|n reference of n < 32 bytes   (stored form only)
/// ```
@_spi(RecordBytes) public enum RecordValueWalk {
  /// Walks the value at `offset` through `visitor` and moves `offset` past it.
  /// - Throws: the visitor's failure; for bytes from outside, ``RecordValueVisitor/malformed(_:)``
  ///   of the first problem.
  @inlinable @inline(__always)
  public static func walk<Visitor: RecordValueVisitor>(
    _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, _ visitor: inout Visitor
  ) throws(Visitor.Failure) -> Visitor.Value {
    try value(bytes, &offset, &visitor, depth: 0)
  }

  @inlinable @inline(__always)
  static func value<Visitor: RecordValueVisitor>(
    _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, _ visitor: inout Visitor, depth: Int
  ) throws(Visitor.Failure) -> Visitor.Value {
    let checked = Visitor.source != .trusted
    let start = offset
    if checked, offset >= bytes.count { throw visitor.malformed(MalformedValue(offset: offset, problem: .tagPastEnd)) }
    let tag = bytes[offset]
    offset += 1
    switch tag {
    case RecordCodec.nullTag: return try visitor.null(Range(uncheckedBounds: (start, offset)))
    case RecordCodec.falseTag: return try visitor.bool(false, Range(uncheckedBounds: (start, offset)))
    case RecordCodec.trueTag: return try visitor.bool(true, Range(uncheckedBounds: (start, offset)))
    case RecordCodec.intTag:
      if !checked, !Visitor.readsValues {
        while bytes[offset] >= 0x80 { offset += 1 }
        offset += 1
        return try visitor.int(0, Range(uncheckedBounds: (start, offset)))
      }
      let zigzag = try varint(bytes, &offset, .int, &visitor)
      return try visitor.int(ZigZag.decode(zigzag), Range(uncheckedBounds: (start, offset)))
    case RecordCodec.doubleTag:
      if checked, bytes.count - offset < 8 { throw visitor.malformed(MalformedValue(offset: start, problem: .shortDouble)) }
      let bits = (bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self)
      offset += 8
      return try visitor.double(Double(bitPattern: UInt64(littleEndian: bits)), Range(uncheckedBounds: (start, offset)))
    case RecordCodec.stringTag, RecordCodec.referenceTag:
      let length = try self.length(bytes, &offset, &visitor)
      let utf8 = UnsafeRawBufferPointer(start: bytes.baseAddress! + offset, count: length)
      offset += length
      let token = Range(uncheckedBounds: (start, offset))
      return tag == RecordCodec.stringTag ? try visitor.string(utf8, token) : try visitor.reference(utf8, token)
    case RecordCodec.listTag:
      return try list(bytes, &offset, &visitor, depth: depth, start: start)
    case RecordCodec.shortStringTag..<(RecordCodec.shortReferenceTag + UInt8(RecordCodec.shortLengthLimit))
    where Visitor.source == .stored:
      let length = Int(tag & UInt8(RecordCodec.shortLengthLimit - 1))
      if bytes.count - offset < length {
        throw visitor.malformed(
          MalformedValue(offset: start, problem: .stringPastEnd(length: UInt64(length), left: bytes.count - offset)))
      }
      let utf8 = UnsafeRawBufferPointer(start: bytes.baseAddress! + offset, count: length)
      offset += length
      let token = Range(uncheckedBounds: (start, offset))
      return tag < RecordCodec.shortReferenceTag ? try visitor.string(utf8, token) : try visitor.reference(utf8, token)
    default:
      if !checked { preconditionFailure("corrupt record encoding: tag \(tag)") }
      throw visitor.malformed(MalformedValue(offset: start, problem: .unknownTag(tag)))
    }
  }

  /// A list: its count, then each element, between the visitor's begin and end.
  @inlinable
  static func list<Visitor: RecordValueVisitor>(
    _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, _ visitor: inout Visitor, depth: Int, start: Int
  ) throws(Visitor.Failure) -> Visitor.Value {
    let checked = Visitor.source != .trusted
    if checked, depth >= Visitor.maximumDepth {
      throw visitor.malformed(MalformedValue(offset: start, problem: .tooDeep(Visitor.maximumDepth)))
    }
    let count = try varint(bytes, &offset, .listCount, &visitor)
    // Every element takes at least one byte.
    if checked, count > UInt64(bytes.count - offset) {
      throw visitor.malformed(MalformedValue(offset: start, problem: .listPastEnd(count: count)))
    }
    var list = try visitor.beginList(count: Int(count), Range(uncheckedBounds: (start, offset)))
    for _ in 0..<Int(count) {
      let element = try value(bytes, &offset, &visitor, depth: depth + 1)
      try visitor.append(element, to: &list)
    }
    return try visitor.endList(list)
  }

  /// A varint: unchecked from trusted bytes; else inside the buffer, at most 64 bits, and from
  /// ``RecordValueSource/checked`` bytes in its shortest form (invariant 1).
  @inlinable @inline(__always)
  static func varint<Visitor: RecordValueVisitor>(
    _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, _ part: MalformedValue.Part, _ visitor: inout Visitor
  ) throws(Visitor.Failure) -> UInt64 {
    if Visitor.source == .trusted { return Varint.read(bytes, &offset) }
    let start = offset
    guard let value = Varint.readChecked(bytes, &offset) else {
      throw visitor.malformed(
        offset >= bytes.count
          ? MalformedValue(offset: offset, problem: .varintPastEnd(part))
          : MalformedValue(offset: start, problem: .varintTooLong(part)))
    }
    if Visitor.source == .checked, offset - start != Varint.size(value) {
      throw visitor.malformed(MalformedValue(offset: start, problem: .varintNotShortest(part)))
    }
    return value
  }

  /// A String's or reference's length, which must fit in what is left of the buffer.
  @inlinable @inline(__always)
  static func length<Visitor: RecordValueVisitor>(
    _ bytes: UnsafeRawBufferPointer, _ offset: inout Int, _ visitor: inout Visitor
  ) throws(Visitor.Failure) -> Int {
    let start = offset
    let length = try varint(bytes, &offset, .stringLength, &visitor)
    if Visitor.source != .trusted, length > UInt64(bytes.count - offset) {
      throw visitor.malformed(
        MalformedValue(offset: start, problem: .stringPastEnd(length: length, left: bytes.count - offset)))
    }
    return Int(length)
  }
}
