import Support

/// A row type with a fixed set of named CSV columns: written in the order of ``columns``, read back
/// by column name, so a reader finds its columns wherever a file puts them.
package protocol CSVRepresentable {
  /// The header, in the order rows are written.
  static var columns: [String] { get }
  /// The fields, in the order of ``columns``.
  var csvFields: [String] { get }
  /// Reads a row from a record whose fields are looked up by column name.
  init(csvFields: CSVFields) throws(CSVError)
}

/// One record's fields by column name, with typed accessors whose errors name the file, the line
/// and the column.
package struct CSVFields {
  let file: String
  let line: Int
  let index: [String: Int]
  let fields: [String]

  /// The field as written.
  package func string(_ column: String) -> String {
    fields[index[column]!]
  }

  /// The field as written, which must not be empty.
  package func nonEmpty(_ column: String) throws(CSVError) -> String {
    let text = string(column)
    guard !text.isEmpty else { throw error(column, "expected a name, found an empty field") }
    return text
  }

  /// A finite number (see ``CSVNumber``).
  package func number(_ column: String) throws(CSVError) -> Double {
    let text = string(column)
    guard let value = CSVNumber.parse(text) else {
      throw error(column, "expected a number, found '\(text)'")
    }
    return value
  }

  /// A number, or nil for an empty field.
  package func optionalNumber(_ column: String) throws(CSVError) -> Double? {
    string(column).isEmpty ? nil : try number(column)
  }

  /// A decimal integer.
  package func integer(_ column: String) throws(CSVError) -> Int {
    let text = string(column)
    guard let value = DecimalNumber.integer(text) else { throw error(column, "expected an integer, found '\(text)'") }
    return value
  }

  /// `true` or `false`.
  package func boolean(_ column: String) throws(CSVError) -> Bool {
    switch string(column) {
    case "true": return true
    case "false": return false
    case let text: throw error(column, "expected true or false, found '\(text)'")
    }
  }

  /// One of the raw values of `T`.
  package func value<T: RawRepresentable & CaseIterable>(
    _ column: String, as type: T.Type
  ) throws(CSVError) -> T where T.RawValue == String {
    let text = string(column)
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw error(column, "expected one of \(names), found '\(text)'")
    }
    return value
  }

  /// An error about this record's `column`.
  package func error(_ column: String, _ message: String) -> CSVError {
    CSVError(file: file, line: line, field: column, message: message)
  }
}

/// How numbers are written in the CSVs, so that they read well and read back exactly.
///
/// - An integral value (|x| < 2⁶³) is written as an integer: `812`, `0`, `-3`, never `812.0`.
///   Nanoseconds, bytes and counts, and every statistic of them that lands on an integer, read as
///   the integers they are.
/// - Any other value is written in Swift's shortest representation that parses back to the same
///   `Double` (`2.5`, `0.1`, `0.3333333333333333`, `1e-05`): full precision for ratios, nothing
///   spurious for means.
///
/// Reading accepts what `Double("...")` accepts, provided it is finite.
package enum CSVNumber {
  static let integralLimit = 9_223_372_036_854_775_808.0  // 2^63

  package static func format(_ value: Double) -> String {
    precondition(value.isFinite, "a non-finite number in a CSV row")
    if value == value.rounded(), abs(value) < integralLimit {
      return String(Int64(value))
    }
    return value.description
  }

  package static func parse(_ text: String) -> Double? {
    DecimalNumber.number(text)
  }
}

extension CSV {
  /// The CSV text of `rows`: their header, then one line each.
  package static func document<Row: CSVRepresentable>(_ rows: [Row]) -> String {
    document(header: Row.columns, records: rows.map(\.csvFields))
  }

  /// Reads rows of `type` from CSV text.
  ///
  /// The first record is the header. It must name every column of `type` once; columns it does not
  /// know are ignored. Every other record must have as many fields as the header.
  ///
  /// - Throws: ``CSVError`` naming `file`, the line, and the column or field at fault.
  package static func rows<Row: CSVRepresentable>(
    _ type: Row.Type, from text: String, file: String
  ) throws(CSVError) -> [Row] {
    try numberedRows(type, from: text, file: file).map(\.row)
  }

  /// The rows of `text` (as ``rows(_:from:file:)``), each with the 1-based line its record starts on.
  package static func numberedRows<Row: CSVRepresentable>(
    _ type: Row.Type, from text: String, file: String
  ) throws(CSVError) -> [(line: Int, row: Row)] {
    let records = try parse(text, file: file)
    guard let header = records.first else {
      throw CSVError(file: file, line: 1, message: "empty file, expected a header row")
    }
    var index: [String: Int] = [:]
    for (position, name) in header.fields.enumerated() {
      guard index[name] == nil else {
        throw CSVError(file: file, line: header.line, message: "duplicate column '\(name)'")
      }
      index[name] = position
    }
    for column in Row.columns where index[column] == nil {
      throw CSVError(file: file, line: header.line, message: "missing column '\(column)'")
    }
    var rows: [(line: Int, row: Row)] = []
    rows.reserveCapacity(records.count - 1)
    for record in records.dropFirst() {
      guard record.fields.count == header.fields.count else {
        throw CSVError(
          file: file, line: record.line,
          message:
            "expected \(header.fields.count) fields as in the header, found \(record.fields.count)"
        )
      }
      let fields = CSVFields(file: file, line: record.line, index: index, fields: record.fields)
      rows.append((record.line, try Row(csvFields: fields)))
    }
    return rows
  }
}
