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
