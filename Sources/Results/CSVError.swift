import Support

/// A CSV file that cannot be read: its path, the 1-based line of the record at fault, and either
/// the character column of a syntax error or the name of the column whose value is wrong.
///
/// Prints like a compiler diagnostic:
/// - `results.csv:3:7: quote inside an unquoted field`
/// - `results.csv:4: column 'p50': expected a number, found 'fast'`
/// - `results.csv:1: missing column 'p99'`
package struct CSVError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeCarrying {
  package var exitCode: ExitCode { .dataError }
  /// The path as given to the reader (or a name such as `<baseline>` for text).
  package let file: String
  /// 1-based line where the record (or the quoted field) at fault starts.
  package let line: Int
  /// 1-based character column, for syntax errors.
  package let column: Int?
  /// The header name of the field at fault, for value errors.
  package let field: String?
  package let message: String

  package init(file: String, line: Int, column: Int? = nil, field: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.field = field
    self.message = message
  }

  package var description: String {
    var location = "\(file):\(line)"
    if let column { location += ":\(column)" }
    if let field { return "\(location): column '\(field)': \(message)" }
    return "\(location): \(message)"
  }
}
