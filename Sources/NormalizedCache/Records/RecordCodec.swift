import GraphQLLanguage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The compact binary encoding of a record's fields, shared by the in-memory store (which keeps
/// records encoded) and the SQLite `compact` layout (which stores the same bytes, with field names
/// replaced by numbers).
///
/// Fields are kept in the order they were first written (so listings read like Apollo's):
/// ```
/// field := varint(nameLength) name varint(valueLength) value
/// value := 0x00 null | 0x01 false | 0x02 true | 0x03 zigzag-varint Int | 0x04 Double (8 bytes, little endian)
///        | 0x05 varint(length) UTF-8 String | 0x06 varint(length) UTF-8 reference key
///        | 0x07 varint(count) value*
/// ```
/// Every value has one encoding, so two values are equal exactly when their bytes are.
public enum RecordCodec {
  @_spi(RecordBytes) @inlinable public static var nullTag: UInt8 { 0 }
  @_spi(RecordBytes) @inlinable public static var falseTag: UInt8 { 1 }
  @_spi(RecordBytes) @inlinable public static var trueTag: UInt8 { 2 }
  @_spi(RecordBytes) @inlinable public static var intTag: UInt8 { 3 }
  @_spi(RecordBytes) @inlinable public static var doubleTag: UInt8 { 4 }
  @_spi(RecordBytes) @inlinable public static var stringTag: UInt8 { 5 }
  @_spi(RecordBytes) @inlinable public static var referenceTag: UInt8 { 6 }
  @_spi(RecordBytes) @inlinable public static var listTag: UInt8 { 7 }
  /// The compact layout's short forms (docs/stores.md): `0x20 | n` is a String of n < 32 UTF-8
  /// bytes, `0x40 | n` a reference of n < 32 bytes: tag and length in one byte, where the
  /// encoding spends two. Only in the stored form (``RecordValueSource/stored``).
  @_spi(RecordBytes) @inlinable public static var shortStringTag: UInt8 { 0x20 }
  @_spi(RecordBytes) @inlinable public static var shortReferenceTag: UInt8 { 0x40 }
  @_spi(RecordBytes) @inlinable public static var shortLengthLimit: Int { 32 }

  // MARK: Encoding

  /// Appends one value, as ``RecordWriter`` (the one encoder) writes it.
  package static func appendValue(_ value: RecordValue, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: RecordWriter.encoded { $0.appendValue(value) })
  }

  /// Appends one field, as ``RecordWriter`` (the one encoder) writes it: its name, then its value
  /// with the value's length in front.
  package static func appendField(_ name: String, _ value: RecordValue, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: RecordWriter.encoded { $0.appendField(name: name, value) })
  }

  // MARK: Decoding

  /// Decodes the value that starts at `offset` and moves `offset` past it.
  /// Whether the value at `offset` is a list.
  @_spi(RecordBytes) @inlinable @inline(__always)
  public static func isList(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool { bytes[offset] == listTag }

  /// The UTF-8 of the String value at `offset`, read in place; nil when the value is not a String.
  @_spi(RecordBytes) @inlinable @inline(__always)
  public static func string(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UnsafeRawBufferPointer? {
    guard bytes[offset] == stringTag else { return nil }
    var start = offset + 1
    let length = Int(Varint.read(bytes, &start))
    return UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
  }

  @_spi(RecordBytes) public static func readValue(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> RecordValue {
    var decoder = ValueDecoder()
    return RecordValueWalk.walk(bytes, &offset, &decoder)
  }

  /// Decodes the value at `offset` as JSON and moves `offset` past it; nil when it holds a
  /// reference (anywhere in a list), which JSON has no place for.
  static func readJSON(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> JSONValue? {
    var decoder = JSONDecoder()
    return try? RecordValueWalk.walk(bytes, &offset, &decoder)
  }

  /// A value as a ``RecordValue`` (invariant 7 of `RecordBytes.swift`).
  struct ValueDecoder: RecordValueVisitor {
    typealias Value = RecordValue
    typealias List = [RecordValue]
    typealias Failure = Never
    static var source: RecordValueSource { .trusted }
    @inline(__always) func null(_ token: Range<Int>) -> RecordValue { .null }
    @inline(__always) func bool(_ value: Bool, _ token: Range<Int>) -> RecordValue { .bool(value) }
    @inline(__always) func int(_ value: Int, _ token: Range<Int>) -> RecordValue { .int(value) }
    @inline(__always) func double(_ value: Double, _ token: Range<Int>) -> RecordValue { .double(value) }
    @inline(__always)
    func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) -> RecordValue { .string(String(decoding: utf8, as: UTF8.self)) }
    @inline(__always)
    func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) -> RecordValue {
      .reference(CacheReference(String(decoding: key, as: UTF8.self)))
    }
    @inline(__always)
    func beginList(count: Int, _ token: Range<Int>) -> [RecordValue] {
      var values: [RecordValue] = []
      values.reserveCapacity(count)
      return values
    }
    @inline(__always) func append(_ element: consuming RecordValue, to list: inout [RecordValue]) { list.append(element) }
    @inline(__always) func endList(_ list: consuming [RecordValue]) -> RecordValue { .list(list) }
  }

  /// A value as JSON, straight from the bytes (the reader's leaves); a reference fails it.
  struct JSONDecoder: RecordValueVisitor {
    typealias Value = JSONValue
    typealias List = [JSONValue]
    /// A reference, which JSON has no place for.
    struct Failure: Error {}
    static var source: RecordValueSource { .trusted }
    @inline(__always) func null(_ token: Range<Int>) -> JSONValue { .null }
    @inline(__always) func bool(_ value: Bool, _ token: Range<Int>) -> JSONValue { .bool(value) }
    @inline(__always) func int(_ value: Int, _ token: Range<Int>) -> JSONValue { .int(value) }
    @inline(__always) func double(_ value: Double, _ token: Range<Int>) -> JSONValue { .double(value) }
    @inline(__always)
    func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) -> JSONValue { .string(String(decoding: utf8, as: UTF8.self)) }
    @inline(__always)
    func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) throws(Failure) -> JSONValue { throw Failure() }
    @inline(__always)
    func beginList(count: Int, _ token: Range<Int>) -> [JSONValue] {
      var elements: [JSONValue] = []
      elements.reserveCapacity(count)
      return elements
    }
    @inline(__always) func append(_ element: consuming JSONValue, to list: inout [JSONValue]) { list.append(element) }
    @inline(__always) func endList(_ list: consuming [JSONValue]) -> JSONValue { .array(list) }
    /// Trusted bytes: never called.
    func malformed(_ value: MalformedValue) -> Failure { Failure() }
  }

  @inline(__always)
  package static func readString(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> String {
    let length = Int(Varint.read(bytes, &offset))
    let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    offset += length
    return string
  }

  /// One field's place in an encoding: its name and its value as byte ranges.
  @_spi(RecordBytes) public struct FieldSpan {
    public var name: Range<Int>
    public var value: Range<Int>
    /// The whole field, name and length included.
    public var entry: Range<Int>
  }

  /// The number of fields of a record's bytes (checked bytes: a record's or a store's lent ones).
  @_spi(RecordBytes) public static func fieldCount(of bytes: UnsafeRawBufferPointer) -> Int {
    var count = 0
    var offset = RecordDates.fieldsStart(bytes)
    while offset < bytes.count {
      _ = readField(bytes, &offset)
      count += 1
    }
    return count
  }

  /// Reads the field that starts at `offset` and moves `offset` past it.
  @inline(__always)
  @_spi(RecordBytes) public static func readField(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> FieldSpan {
    let start = offset
    let nameLength = Int(Varint.read(bytes, &offset))
    let name = offset..<offset + nameLength
    offset += nameLength
    let valueLength = Int(Varint.read(bytes, &offset))
    let value = offset..<offset + valueLength
    offset += valueLength
    return FieldSpan(name: name, value: value, entry: start..<offset)
  }

  // MARK: Merging

  /// Merges the fields of `new` into `existing` (docs/records.md): fields of `new` overwrite,
  /// fields it does not mention are kept, new fields go at the end. Where either has dates
  /// (``RecordDates``), each field of `new` also takes its date, a changed date alone being no
  /// changed field (docs/records.md#dates).
  ///
  /// - Returns: nil when nothing changes; else the merged encoding and the names of the fields
  ///   whose values changed (none when only dates moved).
  /// - Complexity: O(n × m) name comparisons for n existing and m new fields (records are small),
  ///   and one comparison of the whole encodings first, which settles the common case of an unchanged record.
  public static func merge(existing: [UInt8], new: [UInt8]) -> (merged: [UInt8], changed: [String])? {
    if existing.count == new.count,
      existing.withUnsafeBytes({ a in new.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } })
    {
      return nil
    }
    return mergeUnequal(existing: existing, new: new)
  }

  /// ``merge(existing:new:)`` of two encodings known to differ (a caller that compared them).
  static func mergeUnequal(existing: [UInt8], new: [UInt8]) -> (merged: [UInt8], changed: [String])? {
    existing.withUnsafeBytes { old in
      new.withUnsafeBytes { incoming -> (merged: [UInt8], changed: [String])? in
        if RecordDates.isDated(old) || RecordDates.isDated(incoming) {
          if onlyDatesMoved(old, incoming) { return (new, []) }
          if changesNothing(old, incoming) { return nil }
          return mergeDated(existing: old, new: incoming)
        }
        // Pass 1: does anything change at all?
        var changedNew: [(span: FieldSpan, existing: FieldSpan?)] = []
        var offset = 0
        while offset < incoming.count {
          let span = readField(incoming, &offset)
          let name = UnsafeRawBufferPointer(rebasing: incoming[span.name])
          if let match = find(name, in: old) {
            if !ranges(old, match.value, incoming, span.value) { changedNew.append((span, match)) }
          } else {
            changedNew.append((span, nil))
          }
        }
        if changedNew.isEmpty { return nil }
        // Pass 2: copy existing fields, replacing the changed ones in place; append the new ones.
        var merged: [UInt8] = []
        merged.reserveCapacity(old.count + incoming.count)
        offset = 0
        while offset < old.count {
          let span = readField(old, &offset)
          if let replacement = changedNew.first(where: { $0.existing?.entry == span.entry }) {
            merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: incoming[replacement.span.entry]))
          } else {
            merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: old[span.entry]))
          }
        }
        for change in changedNew where change.existing == nil {
          merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: incoming[change.span.entry]))
        }
        let changed = changedNew.map {
          String(decoding: UnsafeRawBufferPointer(rebasing: incoming[$0.span.name]), as: UTF8.self)
        }
        return (merged, changed)
      }
    }
  }
}

extension RecordCodec {
  /// Whether `new` is an unchanged refetch of `old` at another date, all its fields at one: both
  /// dated, the same fields in the same order with the same values, `new`'s dates one Int. Then
  /// ``mergeDated(existing:new:)`` gives `new` itself (each field replaced by its equal and given
  /// the one new date, canonical), and no field changed: the common write of a TTL cache
  /// (docs/ttl.md#what-dates-cost) costs one comparison instead of a merge field by field.
  @_spi(RecordBytes) public static func onlyDatesMoved(_ old: UnsafeRawBufferPointer, _ incoming: UnsafeRawBufferPointer) -> Bool {
    guard RecordDates.isDated(old), RecordDates.isDated(incoming) else { return false }
    let oldStart = RecordDates.fieldsStart(old)
    let newStart = RecordDates.fieldsStart(incoming)
    // A record without fields: the canonical dates of no fields are 0, not `new`'s date.
    guard newStart < incoming.count, old.count - oldStart == incoming.count - newStart else { return false }
    let dates = RecordDates.valueRange(incoming)
    guard !dates.isEmpty, incoming[dates.lowerBound] == intTag else { return false }
    return memcmp(old.baseAddress! + oldStart, incoming.baseAddress! + newStart, old.count - oldStart) == 0
  }
}

extension RecordCodec {
  /// Whether merging `new` into `old`, both dated, changes nothing: each field of `new` is in
  /// `old` with the same value and the same date. Then ``mergeDated(existing:new:)`` would build
  /// `old` again and find it unchanged; this reads the two in place, building nothing: a record
  /// met again at the date it was written, as an entity shared by a response's objects is
  /// (docs/ttl.md#what-dates-cost).
  static func changesNothing(_ old: UnsafeRawBufferPointer, _ incoming: UnsafeRawBufferPointer) -> Bool {
    // (A record without fields: the merge writes the canonical dates of what it keeps, which may
    // not be the stored ones.)
    guard let oldDates = RecordDates.View(old), let newDates = RecordDates.View(incoming), newDates.fieldsStart < incoming.count
    else { return false }
    // One date each, the common case: every field's dates agree, or none does.
    let uniform = oldDates.isUniform && newDates.isUniform
    if uniform, oldDates.base != newDates.base { return false }
    var offset = newDates.fieldsStart
    var index = 0
    // Records of one selection list their fields in one order: each search starts past the
    // field found last.
    var hint = (offset: oldDates.fieldsStart, position: 0)
    while offset < incoming.count {
      let span = readField(incoming, &offset)
      let name = UnsafeRawBufferPointer(rebasing: incoming[span.name])
      guard let (match, position) = findField(name, in: old, fieldsStart: oldDates.fieldsStart, from: hint),
        ranges(old, match.value, incoming, span.value),
        uniform || oldDates.date(ofFieldAt: position, in: old) == newDates.date(ofFieldAt: index, in: incoming)
      else { return false }
      hint = (match.entry.upperBound, position + 1)
      index += 1
    }
    return true
  }

  /// The field named `name` among the fields of `bytes` (which start at `fieldsStart`) and its
  /// position among them, looked for from `hint` (a field's offset and position) to the end, then
  /// from the first field to `hint`.
  @inline(__always)
  static func findField(
    _ name: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer, fieldsStart: Int, from hint: (offset: Int, position: Int)
  ) -> (span: FieldSpan, position: Int)? {
    var offset = hint.offset
    var position = hint.position
    while offset < bytes.count {
      let candidate = readField(bytes, &offset)
      if Self.bytes(bytes, candidate.name, equal: name) { return (candidate, position) }
      position += 1
    }
    offset = fieldsStart
    position = 0
    while offset < hint.offset {
      let candidate = readField(bytes, &offset)
      if Self.bytes(bytes, candidate.name, equal: name) { return (candidate, position) }
      position += 1
    }
    return nil
  }
}

extension RecordCodec.FieldSpan: Equatable {}
