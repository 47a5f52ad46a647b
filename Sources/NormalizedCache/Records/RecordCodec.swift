#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import GraphQLLanguage

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
  @_spi(RecordBytes) public static let nullTag: UInt8 = 0
  @_spi(RecordBytes) public static let falseTag: UInt8 = 1
  @_spi(RecordBytes) public static let trueTag: UInt8 = 2
  @_spi(RecordBytes) public static let intTag: UInt8 = 3
  @_spi(RecordBytes) public static let doubleTag: UInt8 = 4
  @_spi(RecordBytes) public static let stringTag: UInt8 = 5
  @_spi(RecordBytes) public static let referenceTag: UInt8 = 6
  @_spi(RecordBytes) public static let listTag: UInt8 = 7

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
  @_spi(RecordBytes) public static func readValue(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> RecordValue {
    let tag = bytes[offset]
    offset += 1
    switch tag {
    case nullTag: return .null
    case falseTag: return .bool(false)
    case trueTag: return .bool(true)
    case intTag:
      return .int(ZigZag.decode(Varint.read(bytes, &offset)))
    case doubleTag:
      var bits: UInt64 = 0
      withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) }
      offset += 8
      return .double(Double(bitPattern: UInt64(littleEndian: bits)))
    case stringTag:
      return .string(readString(bytes, &offset))
    case referenceTag:
      return .reference(CacheReference(readString(bytes, &offset)))
    case listTag:
      let count = Int(Varint.read(bytes, &offset))
      var values: [RecordValue] = []
      values.reserveCapacity(count)
      for _ in 0..<count { values.append(readValue(bytes, &offset)) }
      return .list(values)
    default:
      preconditionFailure("corrupt record encoding: tag \(tag)")
    }
  }

  /// Decodes the value at `offset` as JSON and moves `offset` past it; nil when it holds a
  /// reference (anywhere in a list), which JSON has no place for.
  static func readJSON(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> JSONValue? {
    let tag = bytes[offset]
    switch tag {
    case nullTag:
      offset += 1
      return .null
    case falseTag:
      offset += 1
      return .bool(false)
    case trueTag:
      offset += 1
      return .bool(true)
    case stringTag:
      offset += 1
      return .string(readString(bytes, &offset))
    case referenceTag:
      return nil
    case listTag:
      offset += 1
      let count = Int(Varint.read(bytes, &offset))
      var elements: [JSONValue] = []
      elements.reserveCapacity(count)
      for _ in 0..<count {
        guard let element = readJSON(bytes, &offset) else { return nil }
        elements.append(element)
      }
      return .array(elements)
    default:
      switch readValue(bytes, &offset) {
      case .int(let int): return .int(int)
      case .double(let double): return .double(double)
      default: return nil
      }
    }
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
    if existing.count == new.count, existing.withUnsafeBytes({ a in new.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }) {
      return nil
    }
    return existing.withUnsafeBytes { old in
      new.withUnsafeBytes { incoming -> (merged: [UInt8], changed: [String])? in
        if RecordDates.isDated(old) || RecordDates.isDated(incoming) { return mergeDated(existing: old, new: incoming) }
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

extension RecordCodec.FieldSpan: Equatable {}
