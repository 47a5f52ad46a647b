// MARK: Walking a value (invariant 7 of RecordBytes.swift)

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
