import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A history of runs: one results CSV to which every run appends its rows (`run --history`), for
/// plotting metrics over time and revisions (`scripts/trend.py`).
///
/// ```swift
/// let history = try ResultsHistory(path: "results/history.csv")  // checks an existing file first
/// try history.append(rows)
/// ```
///
/// Appending reads the file and writes it back whole with the new rows (``AtomicFile``): an
/// interrupted run leaves the history as it was, never a half-written row.
package struct ResultsHistory: Sendable {
  package let path: String

  /// A history at `path`; an existing file must be a results CSV with exactly the columns of
  /// ``MetricRow``, in order.
  ///
  /// - Throws: ``CSVError`` naming the file when it has another header or a malformed row;
  ///   ``InputError`` when it exists but cannot be read; ``OutputError`` (74, as any output) when it
  ///   is a directory.
  package init(path: String) throws {
    self.path = path
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw OutputError(path: path, operation: "open", code: EISDIR)
    }
    _ = try existingRows()
  }

  /// Adds `rows` after the rows already there, creating the file with its header if missing.
  ///
  /// - Throws: ``CSVError`` or ``InputError`` as ``init(path:)``; ``OutputError`` when the file
  ///   cannot be written.
  package func append(_ rows: [MetricRow]) throws {
    let existing = try existingRows()
    try AtomicFile.createDirectory(for: path)
    try ResultsFile.write(existing + rows, to: path)
  }

  private func existingRows() throws -> [MetricRow] {
    guard access(path, F_OK) == 0 else { return [] }
    let bytes = try InputFile.bytes(path)
    let firstLine = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    let header = String(decoding: firstLine, as: UTF8.self)
    guard header == MetricRow.columns.joined(separator: ",") else {
      throw CSVError(
        file: path, line: 1,
        message: "not a history of results: its header is '\(header.prefix(80))', not the columns of 'cachebench run'")
    }
    return try ResultsFile.read(MetricRow.self, from: path)
  }
}
