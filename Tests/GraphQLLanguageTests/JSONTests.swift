import Generator
import Support
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
    let value = try JSONParser.parse(
      #"{"i": 1, "d": 1.0, "e": 1e3, "b": true, "n": null, "big": 12345678901234567890, "neg": -9223372036854775808}"#)
    let object = try #require(value.objectValue)
    #expect(object["i"] == .int(1))
    #expect(object["d"] == .double(1.0))
    #expect(object["e"] == .double(1000))
    #expect(object["b"] == .bool(true))
    #expect(object["n"] == .null)
    #expect(object["big"] == .double(12_345_678_901_234_567_890))
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
      ("{\n \"a\": \"\\uDC00\"}", "r.json:2:8: Unpaired surrogate \\uDC00 in a string"),
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

@Suite("JSON key locations in one pass")
struct JSONKeyLocationTests {
  /// A dataset-like document of `count` results, four lines each, pretty-printed with CRLF line
  /// ends and multi-byte characters before a key on its line (columns count scalars, not bytes).
  static func document(_ count: Int) -> [UInt8] {
    let results = (0..<count).map { index in
      "    {\r\n      \"scenario\": \"tier2.s_\(index)\",\r\n      \"mean_ms\": \(index).5, \"näme\": \"ü\", \"iterations\": 50\r\n    }"
    }
    return Array(("{\r\n  \"version\": \"2.x\",\r\n  \"results\": [\r\n" + results.joined(separator: ",\r\n") + "\r\n  ]\r\n}\r\n").utf8)
  }

  @Test("every key's line and column, worked out from the document's layout")
  func everyKey() throws {
    let (_, locations) = try JSONParser.parseWithKeyLocations(Self.document(300), file: "b.json")
    #expect(locations.count == 2 + 300 * 4)
    #expect(locations["version"] == SourceLocation(file: "b.json", line: 2, column: 3))
    #expect(locations["results"] == SourceLocation(file: "b.json", line: 3, column: 3))
    for index in 0..<300 {
      // `      "mean_ms": 12.5, "näme": "ü", "iterations": 50`: 6 spaces, then 11 scalars and the value.
      let value = "\(index).5".count
      let expected = [
        ("scenario", 5 + 4 * index, 7), ("mean_ms", 6 + 4 * index, 7), ("näme", 6 + 4 * index, 7 + 11 + value + 2),
        ("iterations", 6 + 4 * index, 7 + 11 + value + 2 + 13),
      ]
      for (key, line, column) in expected {
        #expect(locations["results[\(index)].\(key)"] == SourceLocation(file: "b.json", line: line, column: column), "\(index) \(key)")
      }
    }
  }

  @Test("locating offsets in order scans each byte once, however many offsets, and agrees with a scan from the start")
  func scansOnce() {
    let bytes = Self.document(500)
    bytes.withUnsafeBufferPointer { buffer in
      var locator = SourceLocation.Locator(file: "b.json")
      var located = 0
      for offset in stride(from: 0, to: buffer.count, by: 7) {
        let location = locator.location(of: offset, in: buffer)
        located += 1
        if located % 97 == 0 { #expect(location == SourceLocation.of(offset: offset, in: buffer, file: "b.json"), "\(offset)") }
      }
      #expect(located > 2_000)
      // From the start each time, the scans would have covered about located × count / 2 bytes.
      #expect(locator.scannedBytes <= buffer.count)
    }
  }
}
