import Testing

@testable import Support

@Suite("DecimalNumber: the one grammar for numbers in options and CSV fields")
struct DecimalNumberTests {
  @Test(
    "decimal numbers are read as Double reads them; the sign only where allowed",
    arguments: [
      ("0", 0.0), ("10", 10), ("-1.5", -1.5), ("3.2e1", 32), ("1e-05", 0.00001), ("2.5E+3", 2500),
      ("5e-324", 5e-324), ("1.7976931348623157e+308", 1.7976931348623157e308), ("007", 7),
    ])
  func numbers(text: String, value: Double) {
    #expect(DecimalNumber.number(text) == value)
    #expect(DecimalNumber.number(text, negative: false) == (text.hasPrefix("-") ? nil : value))
  }

  @Test(
    "what Swift's Double(_:) takes beyond the grammar is refused",
    arguments: [
      "0x10", "0x1p-1074", "+5", "inf", "-inf", "nan", "infinity", "1.", ".5", "1e", "1e+", "--1", "-", "", " 1", "1 ", "1e999", "1_000",
      "١",
    ])
  func notNumbers(text: String) {
    #expect(DecimalNumber.number(text) == nil)
  }

  @Test("integers: digits with a minus only where allowed; no hexadecimal, exponent, plus or overflow")
  func integers() {
    #expect(DecimalNumber.integer("20") == 20)
    #expect(DecimalNumber.integer("-20") == -20)
    #expect(DecimalNumber.integer("-20", negative: false) == nil)
    #expect(DecimalNumber.integer("9223372036854775807") == Int.max)
    for text in ["0x20", "3.2e1", "+3", "", "-", "1.0", "9223372036854775808", " 1"] {
      #expect(DecimalNumber.integer(text) == nil, "\(text)")
    }
  }
}
