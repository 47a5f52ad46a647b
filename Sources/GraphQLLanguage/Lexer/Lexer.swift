/// Splits GraphQL source text into tokens, skipping whitespace, commas, comments and the BOM.
///
/// See [GraphQL spec §2.1](https://spec.graphql.org/October2021/#sec-Language.Source-Text).
struct Lexer {
  let source: Source
  private let bytes: [UInt8]
  private var position = 0

  init(source: Source) {
    self.source = source
    self.bytes = Array(source.text.utf8)
  }

  /// The location of a byte offset, for error messages and AST nodes.
  ///
  /// Resumes from the last location asked for when this one is further on, as the parser asks in
  /// order: a document of 20,000 fragments took minutes when every location scanned from the start.
  func location(of offset: Int) -> SourceLocation {
    let start = offset >= lastLocation.position.index ? lastLocation.position : SourceLocation.Position(index: 0, line: 1, column: 1)
    let position = bytes.withUnsafeBufferPointer { SourceLocation.scan(to: offset, in: $0, from: start) }
    lastLocation.position = position
    return SourceLocation(file: source.name, line: position.line, column: position.column)
  }

  /// Where the last location was computed (a class: locations are asked of an immutable lexer).
  private final class LastLocation {
    var position = SourceLocation.Position(index: 0, line: 1, column: 1)
  }

  private let lastLocation = LastLocation()

  private func error(_ message: String, at offset: Int) -> GraphQLError {
    GraphQLError(message, at: location(of: offset))
  }

  /// Reads the next token.
  /// - Throws: ``GraphQLError`` for a character that starts no token, an unterminated string,
  ///   or a malformed number.
  mutating func next() throws(GraphQLError) -> Token {
    skipIgnored()
    let start = position
    guard position < bytes.count else { return Token(kind: .eof, start: start, end: start, value: "") }
    let first = bytes[position]
    func single(_ kind: TokenKind) -> Token {
      position += 1
      return Token(kind: kind, start: start, end: position, value: "")
    }
    switch first {
    case UInt8(ascii: "!"): return single(.bang)
    case UInt8(ascii: "$"): return single(.dollar)
    case UInt8(ascii: "&"): return single(.amp)
    case UInt8(ascii: "("): return single(.parenL)
    case UInt8(ascii: ")"): return single(.parenR)
    case UInt8(ascii: ":"): return single(.colon)
    case UInt8(ascii: "="): return single(.equals)
    case UInt8(ascii: "@"): return single(.at)
    case UInt8(ascii: "["): return single(.bracketL)
    case UInt8(ascii: "]"): return single(.bracketR)
    case UInt8(ascii: "{"): return single(.braceL)
    case UInt8(ascii: "|"): return single(.pipe)
    case UInt8(ascii: "}"): return single(.braceR)
    case UInt8(ascii: "."):
      if byte(at: position + 1) == UInt8(ascii: "."), byte(at: position + 2) == UInt8(ascii: ".") {
        position += 3
        return Token(kind: .spread, start: start, end: position, value: "")
      }
      throw error("Unexpected \".\"; did you mean \"...\"?", at: start)
    case UInt8(ascii: "\""):
      if byte(at: position + 1) == UInt8(ascii: "\""), byte(at: position + 2) == UInt8(ascii: "\"") {
        return try readBlockString()
      }
      return try readString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try readNumber()
    default:
      if isNameStart(first) { return readName() }
      throw error("Unexpected character \(describe(scalarAt: position))", at: start)
    }
  }

  private func byte(at index: Int) -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private func isNameStart(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }

  private func isNameContinue(_ byte: UInt8) -> Bool {
    isNameStart(byte) || isDigit(byte)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func describe(scalarAt offset: Int) -> String {
    let tail = bytes[offset..<min(offset + 4, bytes.count)]
    let text = String(decoding: tail, as: UTF8.self)
    guard let scalar = text.unicodeScalars.first else { return "<EOF>" }
    if scalar.value < 0x20 || scalar.value == 0x7F {
      return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
    }
    return "\"\(Character(scalar))\""
  }

  private mutating func skipIgnored() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","):
        position += 1
      case 0xEF where byte(at: position + 1) == 0xBB && byte(at: position + 2) == 0xBF:
        position += 3  // byte order mark
      case UInt8(ascii: "#"):
        while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
          position += 1
        }
      default:
        return
      }
    }
  }

  private mutating func readName() -> Token {
    let start = position
    while position < bytes.count, isNameContinue(bytes[position]) { position += 1 }
    return Token(
      kind: .name, start: start, end: position,
      value: String(decoding: bytes[start..<position], as: UTF8.self))
  }

  /// IntValue and FloatValue: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  private mutating func readNumber() throws(GraphQLError) -> Token {
    let start = position
    var isFloat = false
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    if byte(at: position) == UInt8(ascii: "0") {
      position += 1
      if let next = byte(at: position), isDigit(next) {
        throw error("Invalid number, unexpected digit after 0: \(describe(scalarAt: position))", at: position)
      }
    } else {
      try readDigits()
    }
    if byte(at: position) == UInt8(ascii: ".") {
      isFloat = true
      position += 1
      try readDigits()
    }
    if let e = byte(at: position), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      isFloat = true
      position += 1
      if let sign = byte(at: position), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        position += 1
      }
      try readDigits()
    }
    if let next = byte(at: position), next == UInt8(ascii: ".") || isNameStart(next) {
      throw error("Invalid number, expected digit but got: \(describe(scalarAt: position))", at: position)
    }
    return Token(
      kind: isFloat ? .float : .int, start: start, end: position,
      value: String(decoding: bytes[start..<position], as: UTF8.self))
  }

  private mutating func readDigits() throws(GraphQLError) {
    guard let first = byte(at: position), isDigit(first) else {
      let found = position < bytes.count ? describe(scalarAt: position) : "<EOF>"
      throw error("Invalid number, expected digit but got: \(found)", at: position)
    }
    while let next = byte(at: position), isDigit(next) { position += 1 }
  }

  /// A `"..."` string with escapes `\" \\ \/ \b \f \n \r \t \uXXXX`.
  private mutating func readString() throws(GraphQLError) -> Token {
    let start = position
    position += 1
    var value: [UInt8] = []
    while true {
      guard let byte = byte(at: position), byte != 0x0A, byte != 0x0D else {
        throw error("Unterminated string.", at: start)
      }
      if byte == UInt8(ascii: "\"") {
        position += 1
        return Token(kind: .string, start: start, end: position, value: String(decoding: value, as: UTF8.self))
      }
      if byte == UInt8(ascii: "\\") {
        guard let escape = self.byte(at: position + 1) else { throw error("Unterminated string.", at: start) }
        switch escape {
        case UInt8(ascii: "\""): value.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): value.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): value.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): value.append(0x08)
        case UInt8(ascii: "f"): value.append(0x0C)
        case UInt8(ascii: "n"): value.append(0x0A)
        case UInt8(ascii: "r"): value.append(0x0D)
        case UInt8(ascii: "t"): value.append(0x09)
        case UInt8(ascii: "u"):
          let scalar = try readUnicodeEscape(at: position)
          value.append(contentsOf: Array(String(Character(scalar)).utf8))
          continue
        default:
          throw error("Invalid character escape sequence: \\\(describe(scalarAt: position + 1))", at: position)
        }
        position += 2
        continue
      }
      if byte < 0x20, byte != 0x09 {
        throw error("Invalid character within String: \(describe(scalarAt: position))", at: position)
      }
      value.append(byte)
      position += 1
    }
  }

  /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`; leaves `position` after the escape.
  private mutating func readUnicodeEscape(at offset: Int) throws(GraphQLError) -> Unicode.Scalar {
    func hex(at index: Int) -> UInt32? {
      guard index + 4 <= bytes.count else { return nil }
      return UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    }
    guard let high = hex(at: offset + 2) else {
      throw error("Invalid Unicode escape sequence.", at: offset)
    }
    position = offset + 6
    if (0xD800...0xDBFF).contains(high) {
      if byte(at: position) == UInt8(ascii: "\\"), byte(at: position + 1) == UInt8(ascii: "u"),
        let low = hex(at: position + 2), (0xDC00...0xDFFF).contains(low)
      {
        position += 6
        let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        if let scalar = Unicode.Scalar(combined) { return scalar }
      }
      throw error("Invalid Unicode escape sequence: unpaired surrogate.", at: offset)
    }
    guard let scalar = Unicode.Scalar(high) else {
      throw error("Invalid Unicode escape sequence.", at: offset)
    }
    return scalar
  }

  /// A `"""..."""` block string, with the common indentation removed
  /// ([spec](https://spec.graphql.org/October2021/#BlockStringValue())).
  private mutating func readBlockString() throws(GraphQLError) -> Token {
    let start = position
    position += 3
    var raw: [UInt8] = []
    while true {
      guard let byte = byte(at: position) else { throw error("Unterminated string.", at: start) }
      if byte == UInt8(ascii: "\""), self.byte(at: position + 1) == UInt8(ascii: "\""),
        self.byte(at: position + 2) == UInt8(ascii: "\"")
      {
        position += 3
        return Token(kind: .blockString, start: start, end: position, value: Self.blockStringValue(raw))
      }
      if byte == UInt8(ascii: "\\"), self.byte(at: position + 1) == UInt8(ascii: "\""),
        self.byte(at: position + 2) == UInt8(ascii: "\""), self.byte(at: position + 3) == UInt8(ascii: "\"")
      {
        raw.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\""), UInt8(ascii: "\"")])
        position += 4
        continue
      }
      raw.append(byte)
      position += 1
    }
  }

  static func blockStringValue(_ raw: [UInt8]) -> String {
    let text = String(decoding: raw, as: UTF8.self)
    var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
      .map(String.init)
    func indent(_ line: String) -> Int { line.prefix(while: { $0 == " " || $0 == "\t" }).count }
    let common = lines.dropFirst().filter { indent($0) < $0.count }.map(indent).min() ?? 0
    if common > 0 {
      for index in lines.indices.dropFirst() { lines[index] = String(lines[index].dropFirst(common)) }
    }
    while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}

extension String {
  func leftPadded(to width: Int, with pad: Character = "0") -> String {
    count >= width ? self : String(repeating: pad, count: width - count) + self
  }
}
