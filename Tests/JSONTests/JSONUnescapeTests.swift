import Testing

@testable import JSON

@Suite("JSON escapes: the one unescaper")
struct JSONUnescapeTests {
  /// Unescapes the escape at the start of `text`: the bytes written, or the failure, and where
  /// the position was left.
  static func unescape(_ text: String) -> (Result<[UInt8], JSONString.EscapeFailure>, Int) {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      var position = 0
      var out: [UInt8] = []
      do throws(JSONString.EscapeFailure) {
        try JSONString.unescape(buffer, at: &position, into: &out)
        return (.success(out), position)
      } catch {
        return (.failure(error), position)
      }
    }
  }

  @Test(
    "each escape resolves to its UTF-8 and moves past itself",
    arguments: [
      (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{8}"), (#"\f"#, "\u{C}"), (#"\n"#, "\n"), (#"\r"#, "\r"),
      (#"\t"#, "\t"), (#"\u0041"#, "A"), (#"\u00e9"#, "é"), (#"\u00E9"#, "é"), (#"\u20AC"#, "€"), (#"\uFFFF"#, "\u{FFFF}"),
      (#"\u0000"#, "\u{0}"), (#"\uD83D\uDE00"#, "😀"), (#"\ud83e\udd84"#, "🦄"), (#"\uDBFF\uDFFF"#, "\u{10FFFF}"),
      (#"\uD800\uDC00"#, "\u{10000}"),
    ])
  func resolves(_ text: String, _ expected: String) {
    let (result, position) = Self.unescape(text + "rest")
    #expect(result == .success(Array(expected.utf8)))
    #expect(position == text.utf8.count)
  }

  /// The lone-surrogate policy (refused, at the lone escape's backslash) and the other faults,
  /// each with the position it leaves: a lone high, a lone low, a high before an escape that is
  /// not a low one, a high at the end of the string and at the end of the input.
  @Test(
    "a lone surrogate is refused at its backslash; an unknown escape at its letter; bad hex where the digits start",
    arguments: [
      (#"\uD800x"#, JSONString.EscapeFailure.loneSurrogate(0xD800), 0),
      (#"\uDBFF"#, .loneSurrogate(0xDBFF), 0),
      (#"\uD800""#, .loneSurrogate(0xD800), 0),
      (#"\uDC00"#, .loneSurrogate(0xDC00), 0),
      (#"\uDFFF\uD800"#, .loneSurrogate(0xDFFF), 0),
      (#"\uD83D\u0041"#, .loneSurrogate(0xD83D), 0),
      (#"\uD83D\uD83D\uDE00"#, .loneSurrogate(0xD83D), 0),
      (#"\uD83D\n"#, .loneSurrogate(0xD83D), 0),
      (#"\uD83D\"#, .loneSurrogate(0xD83D), 0),
      (#"\uD83D\uDE0"#, .notHex, 8),
      (#"\uD83D\uZZZZ"#, .notHex, 8),
      (#"\u12"#, .notHex, 2),
      (#"\u12G4"#, .notHex, 2),
      (#"\x"#, .unknownEscape(UInt8(ascii: "x")), 1),
      (#"\U0041"#, .unknownEscape(UInt8(ascii: "U")), 1),
      (#"\"#, .endOfInput, 0),
    ])
  func refuses(_ text: String, _ failure: JSONString.EscapeFailure, _ position: Int) {
    let (result, at) = Self.unescape(text)
    #expect(result == .failure(failure))
    #expect(at == position)
  }

  @Test("every scalar of the Basic Multilingual Plane but the surrogates, and a sample above it, writes the UTF-8 Swift writes")
  func utf8() {
    var wrong: [String] = []
    for value in 0...0x10FFFF where value < 0x10000 || value % 0x101 == 0 {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      var out: [UInt8] = []
      JSONString.appendUTF8(of: UInt32(value), to: &out)
      if out != Array(String(Character(scalar)).utf8) { wrong.append("U+" + String(value, radix: 16)) }
    }
    #expect(wrong == [])
  }
}
