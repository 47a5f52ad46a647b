import GraphQLLanguage
@_spi(RecordBytes) import NormalizedCache

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A record's fields as the JSON text Apollo iOS stores in its SQLite `record` column
/// (`SQLiteSerialization`): one object, field keys to values, a reference written as
/// `{"$reference":"KEY"}`, fields in the record's order, no spaces.
///
/// ```swift
/// RecordJSON.string(of: Record(key: "Book:1", ["title": "Dune", "author": .reference("Author:2")]))
/// // {"title":"Dune","author":{"$reference":"Author:2"}}
/// ```
/// Both directions work straight on ``RecordCodec`` bytes, without building ``RecordValue``s.
/// An Int prints as digits and reads back as an Int; a Double prints as Swift's `String(Double)`
/// (`1.0`, `1e-05`), as `JSONWriter` does, and so reads back as a Double. A non-finite Double has
/// no JSON form and is written as `null`. See [RFC 8259](https://www.rfc-editor.org/rfc/rfc8259).
enum RecordJSON {
  /// The JSON text of a record's fields.
  static func string(of record: Record) -> String {
    var json: [UInt8] = []
    record.encodedFields.withUnsafeBytes { append(fields: $0, to: &json) }
    return String(decoding: json, as: UTF8.self)
  }

  /// Appends the JSON object of ``RecordCodec``-encoded fields.
  static func append(fields: UnsafeRawBufferPointer, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "{"))
    var offset = 0
    var first = true
    while offset < fields.count {
      let span = RecordCodec.readField(fields, &offset)
      if !first { json.append(UInt8(ascii: ",")) }
      first = false
      appendString(UnsafeRawBufferPointer(rebasing: fields[span.name]), to: &json)
      json.append(UInt8(ascii: ":"))
      var valueOffset = span.value.lowerBound
      appendValue(fields, &valueOffset, to: &json)
    }
    json.append(UInt8(ascii: "}"))
  }

  /// A value straight from its bytes to JSON text, without the ``RecordValue`` that
  /// ``RecordCodec/readValue(_:_:)`` would allocate for each string and list (the apollo layout
  /// writes every record this way); tested against ``RecordValue``'s own JSON in RecordJSONTests.
  private static func appendValue(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int, to json: inout [UInt8]) {
    let tag = bytes[offset]
    offset += 1
    switch tag {
    case EncodedValue.nullTag: appendASCII("null", to: &json)
    case EncodedValue.falseTag: appendASCII("false", to: &json)
    case EncodedValue.trueTag: appendASCII("true", to: &json)
    case EncodedValue.intTag:
      appendASCII(String(ZigZag.decode(Varint.read(bytes, &offset))), to: &json)
    case EncodedValue.doubleTag:
      var bits: UInt64 = 0
      withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) }
      offset += 8
      let double = Double(bitPattern: UInt64(littleEndian: bits))
      appendASCII(double.isFinite ? String(double) : "null", to: &json)
    case EncodedValue.stringTag, EncodedValue.referenceTag:
      let length = Int(Varint.read(bytes, &offset))
      let string = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
      offset += length
      if tag == EncodedValue.referenceTag {
        appendASCII("{\"$reference\":", to: &json)
        appendString(string, to: &json)
        json.append(UInt8(ascii: "}"))
      } else {
        appendString(string, to: &json)
      }
    case EncodedValue.listTag:
      let count = Int(Varint.read(bytes, &offset))
      json.append(UInt8(ascii: "["))
      for index in 0..<count {
        if index > 0 { json.append(UInt8(ascii: ",")) }
        appendValue(bytes, &offset, to: &json)
      }
      json.append(UInt8(ascii: "]"))
    default:
      preconditionFailure("corrupt record encoding: tag \(tag)")
    }
  }

  @inline(__always)
  private static func appendASCII(_ text: String, to json: inout [UInt8]) {
    json.append(contentsOf: text.utf8)
  }

  /// Appends a key as a JSON string, for `json_each`; appends nothing and returns false when the
  /// key holds U+0000, which `json_each` would cut short.
  static func appendKey(_ key: String, to json: inout [UInt8]) -> Bool {
    if let appended = key.utf8.withContiguousStorageIfAvailable({ appendKey(utf8: $0, to: &json) }) { return appended }
    var key = key
    return key.withUTF8 { appendKey(utf8: $0, to: &json) }
  }

  private static func appendKey(utf8: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) -> Bool {
    // Eight bytes at a time up to the first byte to escape, if any (keys seldom have one).
    var plain = true
    for byte in utf8[JSONParser.endOfPlainRun(utf8, from: 0)...]
    where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      if byte == 0 { return false }
      plain = false
    }
    if plain {
      // The common case: nothing to escape, one copy.
      json.append(UInt8(ascii: "\""))
      json.append(contentsOf: utf8)
      json.append(UInt8(ascii: "\""))
    } else {
      appendString(UnsafeRawBufferPointer(utf8), to: &json)
    }
    return true
  }

  /// A JSON string literal: `"`, `\` and control characters escaped, everything else as UTF-8
  /// (as `JSONWriter.writeString`).
  static func appendString(_ utf8: UnsafeRawBufferPointer, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "\""))
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        json.append(UInt8(ascii: "\\"))
        json.append(byte)
      case 0x0A: appendASCII("\\n", to: &json)
      case 0x0D: appendASCII("\\r", to: &json)
      case 0x09: appendASCII("\\t", to: &json)
      case 0x08: appendASCII("\\b", to: &json)
      case 0x0C: appendASCII("\\f", to: &json)
      case 0..<0x20:
        appendASCII("\\u00", to: &json)
        json.append(hexDigit(byte >> 4))
        json.append(hexDigit(byte & 0xF))
      default: json.append(byte)
      }
    }
    json.append(UInt8(ascii: "\""))
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}
