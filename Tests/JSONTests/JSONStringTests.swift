import GraphQLLanguage
import Testing

@testable import JSON

@Suite("JSON strings")
struct JSONStringTests {
  @Test("every ASCII byte, between multi-byte characters, round-trips through the escaper and the parser", arguments: 0..<0x80)
  func roundTrips(byte: Int) throws {
    let scalar = String(UnicodeScalar(UInt8(byte)))
    for text in [scalar, "é" + scalar + "😀", String(repeating: "plain text ", count: 2) + scalar + "ß"] {
      let quoted = JSONString.quoted(text)
      #expect(try JSONParser.parse(quoted) == .string(text), "\(byte): \(quoted)")
    }
  }

  @Test("controls take their short escape or \\u00XX in lowercase; a quote and a backslash a backslash; nothing else is escaped")
  func escapes() {
    let controls = String(decoding: Array(0..<0x20) as [UInt8], as: UTF8.self)
    #expect(
      JSONString.quoted(controls)
        == #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
        + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#)
    let printable = String(decoding: Array(0x20..<0x80) as [UInt8], as: UTF8.self)
    #expect(
      JSONString.quoted(printable)
        == "\"" + printable.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"")
    #expect(JSONString.quoted("") == #""""#)
  }

  /// Ordinary text as `JSONWriter.writeString`, the apollo layout's record JSON, `Record`'s
  /// listing and the results' exports each wrote it with their own escaper, before they shared
  /// this one: quotes, backslashes, `\n` `\r` `\t`, another control, `/`, DEL and UTF-8.
  static let ordinary = "Dune \"1\"\n\r\t\\ é 😀 a/b \u{1}\u{1F}\u{7F}"
  static let ordinaryJSON = #""Dune \"1\"\n\r\t\\ é 😀 a/b \u0001\u001f"# + "\u{7F}\""

  @Test("writes ordinary text as each of the four escapers it replaced did; a long plain run is copied whole")
  func ordinaryText() {
    #expect(JSONString.quoted(Self.ordinary) == Self.ordinaryJSON)
    #expect(JSONWriter.string(.string(Self.ordinary)) == Self.ordinaryJSON)
    #expect(
      JSONWriter.string(.object(JSONObject(members: [.init(key: Self.ordinary, value: .null)]))) == "{" + Self.ordinaryJSON + ":null}")
    let long = String(repeating: "abcdefgh", count: 9) + "\"" + String(repeating: "é", count: 9)
    #expect(JSONString.quoted(long) == "\"" + long.replacing("\"", with: "\\\"") + "\"")
  }
}
