import GraphQLLanguage
import Testing

@testable import JSON

@Suite("JSON numbers: the one lexer")
struct JSONNumberTests {
  static func scan(_ text: String) -> (Result<JSONNumber.Scanned, JSONNumber.Failure>, Int) {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      var position = 0
      let result = JSONNumber.scan(UnsafeBufferPointer(buffer), at: &position)
      return (result, position)
    }
  }

  /// Each case by RFC 8259 §6's grammar, with where the scan stops (the byte after the number, or
  /// the byte at fault).
  @Test(
    "integers that fit an Int are ints; fractions, exponents and what overflows are not; the grammar's four faults",
    arguments: [
      ("0", Result<JSONNumber.Scanned, JSONNumber.Failure>.success(.int(0)), 1),
      ("-0", .success(.int(0)), 2),
      ("12,", .success(.int(12)), 2),
      ("-12]", .success(.int(-12)), 3),
      ("9223372036854775807", .success(.int(Int.max)), 19),
      ("9223372036854775808", .success(.notInt), 19),
      ("-9223372036854775808", .success(.int(Int.min)), 20),
      ("-9223372036854775809", .success(.notInt), 20),
      ("99999999999999999999", .success(.notInt), 20),
      ("1.5", .success(.notInt), 3),
      ("1e3}", .success(.notInt), 3),
      ("1E+3", .success(.notInt), 4),
      ("0.25e-2", .success(.notInt), 7),
      ("01", .failure(.leadingZero), 1),
      ("-", .failure(.noDigit), 1),
      ("-a", .failure(.noDigit), 1),
      ("1.", .failure(.noDigitAfterPoint), 2),
      ("1.e5", .failure(.noDigitAfterPoint), 2),
      ("1e", .failure(.noDigitInExponent), 2),
      ("1e+", .failure(.noDigitInExponent), 3),
    ])
  func scans(text: String, expected: Result<JSONNumber.Scanned, JSONNumber.Failure>, end: Int) {
    let (result, position) = Self.scan(text)
    #expect(result == expected, "\(text)")
    #expect(position == end, "\(text)")
  }

  @Test("the parser reads through it: ints, doubles, and its own messages for the faults")
  func parser() throws {
    #expect(
      try JSONParser.parse("[0, -7, 1.5, 2e2, 9223372036854775808]")
        == .array([.int(0), .int(-7), .double(1.5), .double(200), .double(9_223_372_036_854_775_808)]))
    #expect(throws: GraphQLError.self) { try JSONParser.parse("[01]") }
    #expect(throws: GraphQLError.self) { try JSONParser.parse("[1e999]") }
  }
}
