import JSON

/// Writes ``JSONValue``s as JSON text: compact (one line, members in order) or pretty
/// (two-space indent, optionally with object keys sorted).
///
/// Doubles print as Swift's `String(Double)` (`1.0`, `1.99`, `1e-05`), so a double stays a double
/// when read back and an integer stays an integer.
public struct JSONWriter {
  public enum Style: Sendable {
    case compact
    case pretty(sortedKeys: Bool)
  }

  public private(set) var bytes: [UInt8] = []
  let style: Style

  public init(style: Style = .compact) {
    self.style = style
  }

  /// The JSON text of a value.
  public static func string(_ value: JSONValue, style: Style = .compact) -> String {
    var writer = JSONWriter(style: style)
    writer.write(value)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The JSON text of a value as UTF-8 bytes.
  public static func data(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
    var writer = JSONWriter(style: style)
    writer.write(value)
    return writer.bytes
  }

  public mutating func write(_ value: JSONValue) {
    write(value, depth: 0)
  }

  private mutating func write(_ value: JSONValue, depth: Int) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .int(let int): append(String(int))
    case .double(let double): append(Self.format(double))
    case .string(let string): writeString(string)
    case .array(let array):
      if array.isEmpty {
        append("[]")
        return
      }
      bytes.append(UInt8(ascii: "["))
      for (index, element) in array.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        write(element, depth: depth + 1)
      }
      newline(depth)
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      if object.isEmpty {
        append("{}")
        return
      }
      bytes.append(UInt8(ascii: "{"))
      var members = object.members
      if case .pretty(sortedKeys: true) = style {
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      }
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        writeString(member.key)
        bytes.append(UInt8(ascii: ":"))
        if case .pretty = style { bytes.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1)
      }
      newline(depth)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private mutating func newline(_ depth: Int) {
    guard case .pretty = style else { return }
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
  }

  public mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// A JSON string literal, as ``JSONString`` escapes it.
  public mutating func writeString(_ string: String) {
    JSONString.append(string, to: &bytes)
  }

  /// Swift's shortest round-trip form; non-finite values (never read from JSON) print as `null`.
  public static func format(_ double: Double) -> String {
    double.isFinite ? String(double) : "null"
  }
}
