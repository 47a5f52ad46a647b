/// JSON string literals ([RFC 8259 §7](https://www.rfc-editor.org/rfc/rfc8259#section-7)): the
/// package's one escaper, which every JSON it writes goes through (``JSONWriter``, the apollo
/// layout's record JSON, `Record`'s listing, the results' exports), and its one unescaper, which
/// both JSON readers go through (JSONString+Reading.swift).
///
/// ```swift
/// JSONString.quoted("Dune \"1\"\n\u{7}")   // "Dune \"1\"\n\u0007"  (with its quotes)
/// ```
/// A quote and a backslash get a backslash; the controls with a short escape take it (`\b`, `\f`,
/// `\n`, `\r`, `\t`); every other byte below 0x20 is `\u00XX` in lowercase hex; everything else,
/// `/`, DEL and all of UTF-8 included, is copied as it is. The form is docs/records.md's (the
/// record JSON, and the apollo layout's `record` column), and ``JSONParser`` reads it back.
///
/// `public`, not `package`, with the rest of this module's hot path (``JSONNumber/scan(_:at:)``,
/// ``JSONString/endOfPlainRun(_:from:)``, ``JSONString/unescape(_:at:into:)``): in a release
/// build with Swift 6.3, another module inlines a `public` `@inlinable` function but calls a
/// `package` one through its symbol. As `package`, moving them here cost the response parser 2%
/// more instructions and each apollo-layout load 1.8% (the gate's counts); as `public`, none.
public enum JSONString {
  /// Appends `string` as a JSON string literal, quotes included, a byte at a time (the
  /// generator's responses and ``JSONWriter``'s strings: short, and seldom escaped).
  @inlinable
  public static func append(_ string: String, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        appendEscaped(byte, to: &json)
      } else {
        json.append(byte)
      }
    }
    json.append(UInt8(ascii: "\""))
  }

  /// `string` as a JSON string literal, quotes included.
  public static func quoted(_ string: String) -> String {
    var json: [UInt8] = []
    json.reserveCapacity(string.utf8.count + 2)
    append(string, to: &json)
    return String(decoding: json, as: UTF8.self)
  }

  /// Appends the escape of a byte that ``JSONString/endOfPlainBytes(_:from:)`` stops at (a quote,
  /// a backslash or a control character); any other byte as it is. The apollo layout's record JSON
  /// (`RecordJSON`, in SQLiteCache) copies the plain runs between such bytes itself, into its own
  /// buffer, and calls this for each.
  @inlinable
  public static func appendEscaped<Sink: JSONByteSink>(_ byte: UInt8, to json: inout Sink) {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    case 0..<0x20:
      for byte in "\\u00".utf8 { json.append(byte) }
      json.append(hexDigit(byte >> 4))
      json.append(hexDigit(byte & 0xF))
      return
    default:
      json.append(byte)
      return
    }
    json.append(UInt8(ascii: "\\"))
    json.append(short)
  }

  @inlinable
  static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }
}

/// Where JSON text's bytes go: an array, or a buffer of the caller's (the apollo layout prints a
/// record's JSON into a `RecordWriter`, whose appends are a bounds check and a copy where an
/// array's check its uniqueness too).
public protocol JSONByteSink {
  mutating func append(_ byte: UInt8)
  mutating func append(_ bytes: UnsafeRawBufferPointer)
}

extension Array: JSONByteSink where Element == UInt8 {
  @inlinable
  public mutating func append(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self)) }
}
