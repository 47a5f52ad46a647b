/// RFC 4180 text: writing fields with the quoting it requires, and reading it back.
///
/// Writing:
/// - a field is quoted when it contains a comma, a double quote, a CR or an LF; a double quote
///   inside is doubled (`say "hi", then go` → `"say ""hi"", then go"`); other fields are written
///   as they are.
/// - records end with LF (`\n`), the last one too. RFC 4180 says CRLF; LF is what Unix tools,
///   `git diff` and every CSV library (Python's `csv`, pandas, R) expect or accept, and the reader
///   accepts both.
///
/// Reading accepts LF and CRLF line ends (and LF or CRLF inside quoted fields, kept as they are),
/// skips a UTF-8 byte order mark and empty lines, and fails with the line and column of a quote in
/// an unquoted field, characters after a closing quote, a lone CR, or an unterminated quoted field.
///
/// See [RFC 4180, section 2](https://www.rfc-editor.org/rfc/rfc4180#section-2).
package enum CSV {
  /// One record read from CSV text.
  package struct Record: Sendable, Hashable {
    /// 1-based line where the record starts (a quoted field may carry it over several lines).
    package var line: Int
    package var fields: [String]
  }

  /// `field`, quoted if RFC 4180 requires it.
  ///
  /// ```swift
  /// CSV.escape("a,b")  // "\"a,b\""
  /// ```
  package static func escape(_ field: String) -> String {
    let needsQuotes = field.utf8.contains { $0 == comma || $0 == quote || $0 == cr || $0 == lf }
    guard needsQuotes else { return field }
    var bytes: [UInt8] = [quote]
    bytes.reserveCapacity(field.utf8.count + 8)
    for byte in field.utf8 {
      bytes.append(byte)
      if byte == quote { bytes.append(quote) }
    }
    bytes.append(quote)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One record: escaped fields joined by commas, ended by LF.
  package static func line(_ fields: [String]) -> String {
    fields.map(escape).joined(separator: ",") + "\n"
  }

  /// A whole document: the header, then one line per record.
  package static func document(header: [String], records: [[String]]) -> String {
    var text = line(header)
    for record in records { text += line(record) }
    return text
  }

  /// Splits CSV text into records (the header is the first one).
  ///
  /// - Parameter file: the name errors report.
  /// - Throws: ``CSVError`` with the line and column of a syntax error.
  /// - Complexity: O(n) in the length of `text`.
  package static func parse(_ text: String, file: String) throws(CSVError) -> [Record] {
    var parser = Parser(bytes: Array(text.utf8), file: file)
    return try parser.records()
  }

  static let comma = UInt8(ascii: ",")
  static let quote = UInt8(ascii: "\"")
  static let cr = UInt8(ascii: "\r")
  static let lf = UInt8(ascii: "\n")

  private struct Parser {
    let bytes: [UInt8]
    let file: String
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8], file: String) {
      self.bytes = bytes
      self.file = file
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        position = 3
        lineStart = 3
      }
    }

    mutating func records() throws(CSVError) -> [Record] {
      var records: [Record] = []
      while position < bytes.count {
        if atLineEnd {  // an empty line
          try skipLineEnd()
          continue
        }
        let recordLine = line
        var fields: [String] = []
        while true {
          fields.append(try field())
          if position == bytes.count { break }
          if bytes[position] == CSV.comma {
            position += 1
            continue
          }
          try skipLineEnd()
          break
        }
        records.append(Record(line: recordLine, fields: fields))
      }
      return records
    }

    private var atLineEnd: Bool {
      bytes[position] == CSV.lf || bytes[position] == CSV.cr
    }

    /// Reads one field and stops before the comma, the line end or the end of the text after it.
    private mutating func field() throws(CSVError) -> String {
      guard position < bytes.count, bytes[position] == CSV.quote else { return unquotedField() }
      return try quotedField()
    }

    private mutating func unquotedField() -> String {
      let start = position
      while position < bytes.count {
        let byte = bytes[position]
        if byte == CSV.comma || byte == CSV.lf || byte == CSV.cr || byte == CSV.quote { break }
        position += 1
      }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func quotedField() throws(CSVError) -> String {
      // Where the field opens, for the error of an unterminated one: its column is counted only
      // then (counting it for every quoted field made a long line of them quadratic).
      let (openLine, openLineStart, openOffset) = (line, lineStart, position)
      position += 1
      var value: [UInt8] = []
      while true {
        guard position < bytes.count else {
          throw CSVError(
            file: file, line: openLine, column: column(of: openOffset, from: openLineStart), message: "unterminated quoted field")
        }
        let byte = bytes[position]
        position += 1
        if byte == CSV.quote {
          if position < bytes.count, bytes[position] == CSV.quote {
            value.append(CSV.quote)
            position += 1
            continue
          }
          break
        }
        value.append(byte)
        if byte == CSV.lf {
          line += 1
          lineStart = position
        }
      }
      if position < bytes.count {
        let next = bytes[position]
        if next != CSV.comma && next != CSV.lf && next != CSV.cr {
          throw error("unexpected character after a closing quote")
        }
      }
      return String(decoding: value, as: UTF8.self)
    }

    /// Consumes LF or CRLF; anything else here is a syntax error.
    private mutating func skipLineEnd() throws(CSVError) {
      switch bytes[position] {
      case CSV.lf:
        position += 1
      case CSV.cr where position + 1 < bytes.count && bytes[position + 1] == CSV.lf:
        position += 2
      case CSV.cr:
        throw error("carriage return not followed by a line feed")
      case CSV.quote:
        throw error("quote inside an unquoted field")
      default:
        throw error("unexpected character")
      }
      line += 1
      lineStart = position
    }

    private func column(of offset: Int, from start: Int? = nil) -> Int {
      String(decoding: bytes[(start ?? lineStart)..<offset], as: UTF8.self).count + 1
    }

    private func error(_ message: String) -> CSVError {
      CSVError(file: file, line: line, column: column(of: position), message: message)
    }
  }
}
