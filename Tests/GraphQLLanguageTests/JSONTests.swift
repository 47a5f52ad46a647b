import Testing

@testable import GraphQLLanguage

@Suite("JSON")
struct JSONTests {
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
