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
  /// - Complexity: O(offset); only called when an error or a node's location is needed.
  static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
    var line = 1
    var column = 1
    var index = 0
    let end = min(offset, bytes.count)
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
    return SourceLocation(file: file, line: line, column: column)
  }
}
