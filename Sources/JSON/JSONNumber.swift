/// JSON numbers ([RFC 8259 §6](https://www.rfc-editor.org/rfc/rfc8259#section-6)): the package's
/// one number lexer, which both JSON readers go through (``JSONParser`` for responses and files,
/// the apollo layout's record JSON in SQLiteCache).
///
/// ```swift
/// var position = 0
/// JSONNumber.scan(bytes, at: &position)   // "-12," → .success(.int(-12)), position 3
///                                         // "1.5e3" → .success(.notInt), position 5
///                                         // "01" → .failure(.leadingZero)
/// ```
/// It checks the grammar (`-`? then `0` or a digit run not starting with `0`, then an optional
/// `.` and digits, then an optional `e`/`E`, sign and digits) and returns an integer that fits in
/// an `Int` as one; everything else (a fraction, an exponent, an integer past `Int`'s range) is
/// `.notInt`, whose text `[start, position)` each reader turns into a `Double` its own way.
public enum JSONNumber {
  public enum Scanned: Equatable, Sendable {
    case int(Int)
    case notInt
  }

  /// Where the grammar failed; the position is left at the byte at fault.
  public enum Failure: Error, Equatable {
    /// No digit where the number, or its part after `-`, begins.
    case noDigit
    /// A `0` followed by a digit.
    case leadingZero
    /// No digit after `.`.
    case noDigitAfterPoint
    /// No digit in the exponent.
    case noDigitInExponent
  }

  /// Scans the number at `position` (at its `-` or first digit) and moves past it. Typed bytes,
  /// not raw ones: a raw buffer's subscript unwraps its base address at every byte.
  /// - Complexity: O(n) for its n bytes.
  @inlinable @inline(__always)
  public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> Result<Scanned, Failure> {
    @inline(__always) func isDigit(_ index: Int) -> Bool {
      index < bytes.count && bytes[index] &- UInt8(ascii: "0") < 10
    }
    let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    guard isDigit(position) else { return .failure(.noDigit) }
    var magnitude: UInt64 = 0
    var overflow = false
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if isDigit(position) { return .failure(.leadingZero) }
    } else {
      while isDigit(position) {
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[position] &- UInt8(ascii: "0")))
        overflow = overflow || o1 || o2
        magnitude = sum
        position += 1
      }
    }
    var isInteger = true
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard isDigit(position) else { return .failure(.noDigitAfterPoint) }
      while isDigit(position) { position += 1 }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard isDigit(position) else { return .failure(.noDigitInExponent) }
      while isDigit(position) { position += 1 }
    }
    let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
    guard isInteger, !overflow, magnitude <= limit else { return .success(.notInt) }
    return .success(.int(negative ? Int(Int64(bitPattern: 0 &- magnitude)) : Int(magnitude)))
  }
}
