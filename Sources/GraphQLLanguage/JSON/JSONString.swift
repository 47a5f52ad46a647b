/// JSON string literals ([RFC 8259 §7](https://www.rfc-editor.org/rfc/rfc8259#section-7)): the
/// package's one escaper, which every JSON it writes goes through (``JSONWriter``, the apollo
/// layout's record JSON, `Record`'s listing, the results' exports).
///
/// ```swift
/// JSONString.quoted("Dune \"1\"\n\u{7}")   // "Dune \"1\"\n\u0007"  (with its quotes)
/// ```
/// A quote and a backslash get a backslash; the controls with a short escape take it (`\b`, `\f`,
/// `\n`, `\r`, `\t`); every other byte below 0x20 is `\u00XX` in lowercase hex; everything else,
/// `/`, DEL and all of UTF-8 included, is copied as it is. The form is docs/records.md's (the
/// record JSON, and the apollo layout's `record` column), and ``JSONParser`` reads it back.
package enum JSONString {
  /// Appends `utf8` as a JSON string literal, quotes included.
  ///
  /// The bytes up to the next one to escape go in one copy (``JSONParser/endOfPlainBytes(_:from:)``,
  /// eight bytes at a time): the apollo layout prints every string of every record it writes here.
  /// - Complexity: O(n) for n bytes.
  @inlinable
  package static func append(_ utf8: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "\""))
    var start = 0
    while start < utf8.count {
      let end = JSONParser.endOfPlainBytes(utf8, from: start)
      if end > start { json.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end])) }
      guard end < utf8.count else { break }
      appendEscaped(utf8[end], to: &json)
      start = end + 1
    }
    json.append(UInt8(ascii: "\""))
  }

  /// Appends `string` as a JSON string literal, quotes included, a byte at a time (the
  /// generator's responses and ``JSONWriter``'s strings: short, and seldom escaped).
  @inlinable
  package static func append(_ string: String, to json: inout [UInt8]) {
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
  package static func quoted(_ string: String) -> String {
    var json: [UInt8] = []
    json.reserveCapacity(string.utf8.count + 2)
    append(string, to: &json)
    return String(decoding: json, as: UTF8.self)
  }

  /// Appends the escape of a byte that ``JSONParser/endOfPlainBytes(_:from:)`` stops at (a quote,
  /// a backslash or a control character); any other byte as it is.
  @inlinable
  package static func appendEscaped(_ byte: UInt8, to json: inout [UInt8]) {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    case 0..<0x20:
      json.append(contentsOf: "\\u00".utf8)
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
