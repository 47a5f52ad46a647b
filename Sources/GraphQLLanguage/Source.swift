/// A named piece of text: a GraphQL or JSON file as read from disk, or a string in a test.
///
/// The name is what error messages print, so it is usually the path the user gave.
public struct Source: Sendable {
  public let name: String
  public let text: String

  public init(name: String, text: String) {
    self.name = name
    self.text = text
  }
}

/// A position in a ``Source``: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public let file: String
  public let line: Int
  public let column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the form compilers and editors understand.
  public var description: String { "\(file):\(line):\(column)" }

  /// Computes the line and column of a byte offset in UTF-8 text.
  ///
  /// - Complexity: O(offset); the lexer resumes from its last location instead (``scan(to:in:from:)``).
  static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
    let end = scan(to: offset, in: bytes, from: Position(index: 0, line: 1, column: 1))
    return SourceLocation(file: file, line: end.line, column: end.column)
  }

  /// A byte offset with its line and column: where a scan stopped, to resume from.
  struct Position {
    var index: Int
    var line: Int
    var column: Int
  }

  /// The position of `offset`, scanning from `start` (at or before it).
  static func scan(to offset: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Position) -> Position {
    var line = start.line
    var column = start.column
    var index = start.index
    let end = min(offset, bytes.count)
    // Resuming between the \r and \n of one line break: the break is counted already.
    if index > 0, index < end, bytes[index - 1] == 0x0D, bytes[index] == 0x0A { index += 1 }
    while index < end {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte == 0x0D {
        // \r\n counts as one line break; a lone \r is a line break too.
        if index + 1 < end, bytes[index + 1] == 0x0A { index += 1 }
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return Position(index: index, line: line, column: column)
  }
}

/// UTF-8 checked before parsing: invalid bytes are an error, never quietly U+FFFD (which made the
/// ids `\xff` and `\xfe` one record).
public enum UTF8Validation {
  /// The byte offset of the first byte that is not well-formed UTF-8 (overlong forms, surrogates
  /// and code points past U+10FFFF included); nil when all of it is.
  public static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        // ASCII eight bytes at a time: JSON and GraphQL text is mostly ASCII.
        while index + 8 <= count,
          UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        }
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      guard index + length <= count else { return index }
      let second = bytes[index + 1]
      guard second >= low, second <= high else { return index }
      for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return index }
      index += length
    }
    return nil
  }

  public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidOffset($0) }
  }
}

extension Source {
  /// A source from the bytes of a file, which must be UTF-8.
  /// - Throws: ``GraphQLError`` at the line and column of the first invalid byte, with its offset.
  public init(name: String, utf8 bytes: [UInt8]) throws(GraphQLError) {
    if let offset = UTF8Validation.firstInvalidOffset(bytes) {
      let location = bytes.withUnsafeBufferPointer { SourceLocation.of(offset: offset, in: $0, file: name) }
      throw GraphQLError(
        "Invalid UTF-8 at byte offset \(offset) (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))", at: location)
    }
    self.init(name: name, text: String(decoding: bytes, as: UTF8.self))
  }
}

extension SourceLocation {
  /// The locations of byte offsets asked for in increasing order, each scan resumed where the
  /// previous one stopped: O(n) in the text for all of them together, where ``of(offset:in:file:)``
  /// for each would be O(n) each, quadratic for the keys of a large file.
  ///
  /// ```swift
  /// var locator = SourceLocation.Locator(file: "b.json")
  /// for (path, offset) in keys { locations[path] = locator.location(of: offset, in: buffer) }
  /// ```
  struct Locator {
    let file: String
    private var position = Position(index: 0, line: 1, column: 1)

    init(file: String) {
      self.file = file
    }

    /// The bytes scanned so far: at most the text's length, however many offsets were located.
    var scannedBytes: Int { position.index }

    /// The location of `offset`, which must not be before the last offset located.
    mutating func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
      precondition(offset >= position.index, "offsets located out of order: \(offset) after \(position.index)")
      position = SourceLocation.scan(to: offset, in: bytes, from: position)
      return SourceLocation(file: file, line: position.line, column: position.column)
    }
  }
}
