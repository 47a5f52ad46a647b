import GraphQLLanguage
@_spi(RecordBytes) import NormalizedCache
import Testing

@testable import SQLiteCache

/// The two JSON readers, the response parser (`JSONParser`) and the apollo layout's record parser
/// (`RecordJSON`), share one unescaper (`JSONString.unescape`, in the JSON module): fed the same
/// text, they read the same string or refuse it at the same byte (docs/records.md#reading-json).
@Suite("JSON readers: one unescaper, one policy for a lone surrogate")
struct JSONReadersTests {
  /// What both readers make of a text: its member `s`, or a refusal at a byte offset with each
  /// reader's own words for it.
  enum Outcome: Sendable, CustomStringConvertible {
    case string(String)
    case refused(offset: Int, response: String, record: String)

    static func loneSurrogate(_ unit: String, at offset: Int) -> Outcome {
      .refused(
        offset: offset, response: "Unpaired surrogate \\u\(unit) in a string", record: "an unpaired surrogate \\u\(unit) in a string")
    }

    var description: String {
      switch self {
      case .string(let string): "string \(string.debugDescription)"
      case .refused(let offset, let response, _): "refused at \(offset): \(response)"
      }
    }
  }

  /// `{"s":"` is six bytes: an escape just inside the string starts at offset 6.
  @Test(
    "a lone high, a lone low, a high before a non-low escape, at the end of the string and of the input: refused by both at the same byte; a pair read by both",
    arguments: [
      (#"{"s":"\uD800x"}"#, Outcome.loneSurrogate("D800", at: 6)),
      (#"{"s":"a\uDC00"}"#, .loneSurrogate("DC00", at: 7)),
      (#"{"s":"\uD800\u0041"}"#, .loneSurrogate("D800", at: 6)),
      (#"{"s":"\uD83D\uD83D\uDE00"}"#, .loneSurrogate("D83D", at: 6)),
      (#"{"s":"\uDE00\uD83D"}"#, .loneSurrogate("DE00", at: 6)),
      (#"{"s":"\uD83D\n"}"#, .loneSurrogate("D83D", at: 6)),
      (#"{"s":"x\uDBFF"}"#, .loneSurrogate("DBFF", at: 7)),
      (#"{"s":"\uD800"#, .loneSurrogate("D800", at: 6)),
      (#"{"s":"\uD800\"#, .loneSurrogate("D800", at: 6)),
      (
        #"{"s":"\uD800\uZZZZ"}"#,
        .refused(offset: 14, response: "Expected four hex digits after \\u", record: "expected four hex digits after \\u")
      ),
      (#"{"s":"\q"}"#, .refused(offset: 7, response: "Invalid escape '\\q' in a string", record: "invalid escape")),
      (#"{"s":"\uD83D\uDE00"}"#, .string("😀")),
      (#"{"s":"a\ud83e\udd84b"}"#, .string("a🦄b")),
      (#"{"s":"\uDBFF\uDFFF\u0000"}"#, .string("\u{10FFFF}\u{0}")),
      (#"{"s":"\u00e9\"\\\/\b\f\n\r\t"}"#, .string("é\"\\/\u{8}\u{C}\n\r\t")),
    ])
  func sameOutcome(_ json: String, _ outcome: Outcome) throws {
    let response = Result { () throws(GraphQLError) in try JSONParser.parse(json, file: "r.json") }
    let record: Result<[UInt8], RecordJSON.ParseError> = Array(json.utf8).withUnsafeBytes { bytes in
      Result { () throws(RecordJSON.ParseError) in try RecordJSON.fields(fromJSON: bytes) }
    }
    switch outcome {
    case .string(let string):
      #expect(try response.get() == .object(["s": .string(string)]))
      #expect(Record(key: "R", uncheckedEncodedFields: try record.get())["s"] == .string(string))
    case .refused(let offset, let responseMessage, let recordMessage):
      // One line of ASCII: the column is the offset plus one.
      #expect(response.error?.description == "r.json:1:\(offset + 1): \(responseMessage)")
      #expect(record.error.map { "\($0.message) at \($0.offset)" } == "\(recordMessage) at \(offset)")
    }
  }
}

extension Result {
  fileprivate var error: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
