import Support

/// Results CSVs on disk: rows written atomically, rows read back with errors that name the file.
///
/// ```swift
/// try ResultsFile.write(rows, to: "results/books.csv")          // [MetricRow]
/// try ResultsFile.write(samples, to: "results/books-samples.csv")  // [SampleRow]
/// let baseline = try ResultsFile.read(MetricRow.self, from: "baseline.csv")
/// ```
package enum ResultsFile {
  /// Writes the header and `rows` to `path` atomically (see ``AtomicFile``).
  ///
  /// - Throws: ``OutputError``.
  package static func write<Row: CSVRepresentable>(_ rows: [Row], to path: String)
    throws(OutputError)
  {
    try AtomicFile.write(CSV.document(rows), to: path)
  }

  /// Reads the rows of a CSV file written by ``write(_:to:)`` (or by hand, every line ended).
  ///
  /// - Throws: ``InputError`` when the file cannot be opened or read; ``CSVError`` (with the path,
  ///   the line and the column) when it is not valid UTF-8 CSV with the columns of `Row`, or when
  ///   its last line has no line end (``InputFile/unendedLastLine(_:)``: a file cut short).
  package static func read<Row: CSVRepresentable>(_ type: Row.Type, from path: String) throws
    -> [Row]
  {
    try numberedRows(type, from: path).map(\.row)
  }

  /// The rows of a CSV file (as ``read(_:from:)``), each with the 1-based line it starts on.
  package static func numberedRows<Row: CSVRepresentable>(_ type: Row.Type, from path: String) throws
    -> [(line: Int, row: Row)]
  {
    let bytes = try InputFile.bytes(path)
    if let line = InputFile.unendedLastLine(bytes) {
      throw CSVError(file: path, line: line, message: InputFile.unendedLastLineMessage)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      let valid = String(decoding: bytes, as: UTF8.self)
      let line = valid.prefix { $0 != "\u{FFFD}" }.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
      throw CSVError(file: path, line: line, message: "not UTF-8 text")
    }
    return try CSV.numberedRows(type, from: text, file: path)
  }

  /// A results CSV's rows (``read(_:from:)``); a part of a split run's without its count rows, once
  /// they agree with its rows (``Shard/checkingCounts(of:)``).
  ///
  /// - Throws: as ``read(_:from:)``, and ``CSVError`` naming the line of a count row that is
  ///   missing (the last line), out of place, or that counts other rows than the part holds.
  package static func readResults(from path: String) throws -> [MetricRow] {
    let rows = try readMetricRows(from: path)
    do {
      return try Shard.checkingCounts(of: rows)
    } catch {
      throw CSVError(file: path, line: error.index + 2, message: error.message)
    }
  }

  /// A results CSV's rows as written, count rows and all, once no two of them hold one metric (one
  /// ``MetricKey``: a run writes each once, and `compare` cannot judge a metric with two values).
  ///
  /// - Throws: as ``read(_:from:)``, and ``CSVError`` naming the line of the second row of a metric
  ///   and the line of the first.
  package static func readMetricRows(from path: String) throws -> [MetricRow] {
    let numbered = try numberedRows(MetricRow.self, from: path)
    var lines: [MetricKey: Int] = [:]
    lines.reserveCapacity(numbered.count)
    for (line, row) in numbered {
      if let first = lines[row.key] {
        throw CSVError(file: path, line: line, message: "a second row of \(row.key): line \(first) holds it already")
      }
      lines[row.key] = line
    }
    return numbered.map(\.row)
  }
}
