import Generator
import Testing

@testable import GraphQLLanguage

@Suite("JSON")
struct JSONTests {
  /// `{"k0": 0, "k1": 1, ...}` with these keys.
  static func object(keys: [String]) -> String {
    "{" + keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ", ") + "}"
  }

  @Test("keeps integers, doubles and booleans apart")
  func kinds() throws {
    let value = try JSONParser.parse(#"{"i": 1, "d": 1.0, "e": 1e3, "b": true, "n": null, "big": 12345678901234567890, "neg": -9223372036854775808}"#)
    let object = try #require(value.objectValue)
    #expect(object["i"] == .int(1))
    #expect(object["d"] == .double(1.0))
    #expect(object["e"] == .double(1000))
    #expect(object["b"] == .bool(true))
    #expect(object["n"] == .null)
    #expect(object["big"] == .double(12345678901234567890))
    #expect(object["neg"] == .int(Int.min))
    #expect(object["b"] != .int(1))
  }

  @Test("reads escapes and keeps member order")
  func stringsAndOrder() throws {
    let value = try JSONParser.parse(#"{"z": "a\"b\\c\nd\u00e9\ud83d\ude00", "a": [1, [2]]}"#)
    let object = try #require(value.objectValue)
    #expect(object.keys == ["z", "a"])
    #expect(object["z"] == .string("a\"b\\c\nd\u{e9}😀"))
    #expect(object["a"] == [1, [2]])
  }

  @Test(
    "malformed JSON is an error naming the file, line and column",
    arguments: [
      ("{\"a\": 1,\n \"b\" 2}", "r.json:2:6: Expected ':' after an object key, found '2'"),
      ("{\"a\": [1, 2}", "r.json:1:12: Expected ',' or ']' after an array element, found '}'"),
      ("{\"a\": tru}", "r.json:1:7: Expected a JSON value, found 't'"),
      ("{\"a\": 01}", "r.json:1:8: A number cannot have a leading zero"),
      ("{\"a\": \"x}", "r.json:1:7: Unterminated string"),
      ("[1] [2]", "r.json:1:5: Unexpected '[' after the JSON value"),
      ("", "r.json:1:1: Expected a JSON value, found end of input"),
      ("{\"a\": 1", "r.json:1:8: Expected ',' or '}' after an object member, found end of input"),
    ])
  func malformed(text: String, message: String) {
    let error = #expect(throws: GraphQLError.self) {
      try JSONParser.parse(text, file: "r.json")
    }
    #expect(error?.description == message)
  }

  @Test(
    "a key given twice is an error, short or long, in small objects and large",
    arguments: [
      #"{"a": 1, "b": 2, "a": 3}"#,
      #"{"a\u0062": 1, "ab": 2}"#,
      #"{"ab": 1, "a\u0062": 2}"#,
      JSONTests.object(keys: (0..<20).map { String(repeating: "k", count: 40) + String($0) } + [String(repeating: "k", count: 40) + "7"]),
      JSONTests.object(keys: (0..<20).map { "k" + String($0) } + ["k19"]),
    ])
  func duplicateKeys(text: String) {
    #expect(text.hasPrefix("{"))
    let error = #expect(throws: GraphQLError.self) { try JSONParser.parse(text, file: "d.json") }
    #expect(error?.description.contains("Duplicate key") == true, "\(String(describing: error))")
  }

  @Test("keys and values met again read the same; long, escaped and last strings too; nested objects keep their own members")
  func repeatedStrings() throws {
    let long = String(repeating: "x", count: 100)
    let text = """
      [{"id": "a", "name": "\(long)", "t": "Item"},\r\n\t{"id": "b", "name": "\(long)", "t": "Item",
      "child": {"id": "c", "t": "It\\u0065m", "deep": {"id": "d", "t": "Item"}}}, "tail-value-at-the-very-end"]
      """
    let value = try JSONParser.parse(text)
    let expected: JSONValue = [
      ["id": "a", "name": .string(long), "t": "Item"],
      ["id": "b", "name": .string(long), "t": "Item", "child": ["id": "c", "t": "Item", "deep": ["id": "d", "t": "Item"]]],
      "tail-value-at-the-very-end",
    ]
    #expect(value == expected)
    #expect(value.arrayValue?[1].objectValue?.keys == ["id", "name", "t", "child"])
    #expect(try JSONParser.parse(#""ab""#) == "ab")
    #expect(try JSONParser.parse(#"["abcdefgh", "abcdefgh", "abcdefghi"]"#) == ["abcdefgh", "abcdefgh", "abcdefghi"])
  }

  @Test("strings of every length up to 40 near the end of the input read back, with quotes, backslashes and controls found at any offset")
  func stringScan() throws {
    for length in 0...40 {
      let plain = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
      #expect(try JSONParser.parse("\"\(plain)\"") == .string(plain))
      #expect(try JSONParser.parse("[\"\(plain)\",\"\(plain)\"]") == [.string(plain), .string(plain)])
      #expect(try JSONParser.parse("\"\(plain)\\n\(plain)\"") == .string(plain + "\n" + plain))
      #expect(try JSONParser.parse("\"\(plain)é\(plain)\"") == .string(plain + "é" + plain))
      #expect(throws: GraphQLError.self) { try JSONParser.parse("\"\(plain)\u{01}\(plain)\"") }
    }
  }

  @Test("UTF-8 validation agrees with the standard library on random text, ASCII runs and all")
  func utf8Validation() {
    var random = SplitMix64(seed: 0x5EED)
    let pieces: [[UInt8]] = [
      Array("abcdefghijklmnop".utf8), Array("é".utf8), Array("😀".utf8), [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80],
      [0xF4, 0x90, 0x80, 0x80], Array("\t\n".utf8),
    ]
    for _ in 0..<2_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...8, using: &random) {
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
      let offset = UTF8Validation.firstInvalidOffset(bytes)
      #expect((offset == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
      if let offset {
        #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil, "\(bytes)")
        #expect(String(validating: bytes[...offset], as: UTF8.self) == nil || offset + 1 < bytes.count, "\(bytes)")
      }
    }
  }

  @Test("writes compact and pretty JSON that reads back equal")
  func roundTrip() throws {
    let value: JSONValue = ["b": [1, 2.5, "x\"y\n", nil, true], "a": ["nested": [:]], "e": []]
    #expect(JSONWriter.string(value) == #"{"b":[1,2.5,"x\"y\n",null,true],"a":{"nested":{}},"e":[]}"#)
    #expect(
      JSONWriter.string(value, style: .pretty(sortedKeys: true)) == """
        {
          "a": {
            "nested": {}
          },
          "b": [
            1,
            2.5,
            "x\\"y\\n",
            null,
            true
          ],
          "e": []
        }
        """)
    #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
  }

  @Test("object equality ignores member order")
  func unorderedEquality() {
    let a: JSONValue = ["x": 1, "y": 2]
    let b: JSONValue = ["y": 2, "x": 1]
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != ["x": 1, "y": 3])
  }
}
