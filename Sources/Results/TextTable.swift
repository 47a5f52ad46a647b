/// A plain-text table with aligned columns, for terminals and logs.
///
/// ```swift
/// let table = TextTable(
///   columns: ["store", "keys", "p50"],
///   rows: [["memory", "path", "812 ns"], ["sqlite-wal", "typePolicy", "12.1 ms"]]
/// )
/// print(table.render())
/// // store       keys           p50
/// // ----------  ----------  -------
/// // memory      path         812 ns
/// // sqlite-wal  typePolicy  12.1 ms
/// ```
///
/// Columns are separated by two spaces; lines carry no trailing spaces and end with LF. Widths
/// count characters (`µ` is one).
package struct TextTable: Sendable, Hashable, CustomStringConvertible {
  package enum Alignment: Sendable, Hashable {
    case left, right
    /// Right when every non-empty cell of the column starts like a number (`812 ns`, `-5.0%`,
    /// `.5`) or is `-` (no value), and one is a number; left otherwise.
    case automatic
  }

  package struct Column: Sendable, Hashable, ExpressibleByStringLiteral {
    package var title: String
    package var alignment: Alignment

    package init(_ title: String, alignment: Alignment = .automatic) {
      self.title = title
      self.alignment = alignment
    }

    package init(stringLiteral title: String) {
      self.init(title)
    }
  }

  package var columns: [Column]
  package var rows: [[String]]

  /// A table; a row shorter than `columns` is padded with empty cells, a longer one traps.
  package init(columns: [Column], rows: [[String]]) {
    precondition(rows.allSatisfy { $0.count <= columns.count }, "a row has more cells than columns")
    self.columns = columns
    self.rows = rows
  }

  /// A table whose columns align automatically.
  package init(columns: [String], rows: [[String]]) {
    self.init(columns: columns.map { Column($0) }, rows: rows)
  }

  package var description: String { render() }

  /// The header, a rule of dashes, then the rows.
  package func render() -> String {
    let cells = rows.map { $0 + Array(repeating: "", count: columns.count - $0.count) }
    let widths = columns.indices.map { index in
      cells.reduce(columns[index].title.count) { Swift.max($0, $1[index].count) }
    }
    let rightAligned = columns.indices.map { index in
      switch columns[index].alignment {
      case .left: false
      case .right: true
      case .automatic:
        cells.contains { !$0[index].isEmpty && $0[index] != "-" } && cells.allSatisfy { Self.looksNumeric($0[index]) }
      }
    }
    func line(_ fields: [String]) -> String {
      var text = ""
      for (index, field) in fields.enumerated() {
        if index > 0 { text += "  " }
        let padding = String(repeating: " ", count: widths[index] - field.count)
        text += rightAligned[index] ? padding + field : field + padding
      }
      while text.last == " " { text.removeLast() }
      return text + "\n"
    }
    var text = line(columns.map(\.title))
    text += line(widths.map { String(repeating: "-", count: $0) })
    for row in cells { text += line(row) }
    return text
  }

  /// Empty, or a digit first, or a sign or a point and then a digit.
  static func looksNumeric(_ cell: String) -> Bool {
    // Empty, or "-" for no value: fits either alignment.
    guard let first = cell.first, cell != "-" else { return true }
    if first.isASCII && first.isNumber { return true }
    guard "+-.".contains(first) else { return false }
    let second = cell.dropFirst().first
    return second.map { $0.isASCII && $0.isNumber } ?? false
  }
}
