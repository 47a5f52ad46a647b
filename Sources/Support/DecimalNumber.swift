/// The one grammar for a number that a person types (an option's value) or that a CSV field holds
/// (docs/command-line.md, Conventions: Numbers; docs/csv.md#numbers): decimal digits, then for a real number an optional fraction and
/// exponent,
///
/// ```
/// integer = ["-"] digit {digit}
/// number  = ["-"] digit {digit} ["." digit {digit}] [("e" | "E") ["+" | "-"] digit {digit}]
/// ```
///
/// with a minus sign only where the caller allows a negative value, and never a plus sign before
/// the digits. Swift's `Double(_:)` and `Int(_:)` take more: hexadecimal (`0x10`, `0x1p-1074`),
/// `inf`, `nan`, a leading `+`; each of those is a typo or a trick in a file or a command line,
/// and here it is refused.
///
/// ```swift
/// DecimalNumber.integer("20")               // 20
/// DecimalNumber.integer("0x20")             // nil
/// DecimalNumber.number("3.2e1")             // 32.0
/// DecimalNumber.number("-1", negative: false) // nil
/// ```
package enum DecimalNumber {
  /// The whole number `text` spells, or nil when it is not of the grammar or past `Int`.
  package static func integer(_ text: some StringProtocol, negative: Bool = true) -> Int? {
    guard let digits = unsigned(text, negative: negative), isDigits(digits), !digits.isEmpty else { return nil }
    return Int(text)
  }

  /// The finite number `text` spells, or nil when it is not of the grammar or past a `Double`.
  package static func number(_ text: some StringProtocol, negative: Bool = true) -> Double? {
    guard let body = unsigned(text, negative: negative), isDecimal(body) else { return nil }
    guard let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  /// `text` without its minus sign, when the sign is allowed; nil for a sign that is not.
  private static func unsigned(_ text: some StringProtocol, negative: Bool) -> Substring.UTF8View? {
    let utf8 = Substring(text).utf8
    guard utf8.first == UInt8(ascii: "-") else { return utf8 }
    return negative ? utf8.dropFirst() : nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func isDigits(_ bytes: Substring.UTF8View) -> Bool { bytes.allSatisfy(isDigit) }

  /// Digits, an optional fraction of one digit or more, an optional exponent.
  private static func isDecimal(_ bytes: Substring.UTF8View) -> Bool {
    var rest = bytes[...]
    func digits() -> Bool {
      let count = rest.prefix(while: isDigit).count
      rest = rest.dropFirst(count)
      return count > 0
    }
    guard digits() else { return false }
    if rest.first == UInt8(ascii: ".") {
      rest = rest.dropFirst()
      guard digits() else { return false }
    }
    if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
      rest = rest.dropFirst()
      if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
      guard digits() else { return false }
    }
    return rest.isEmpty
  }
}
