/// Files that cachebench writes and reads back (results and samples CSVs, verdicts, Apollo's
/// dataset) end with a line end, the last line too. A file whose last line has none was cut short
/// (a copy or an upload that stopped, a full disk) or not written whole: its last value may have
/// lost digits (`1234.5678` read as `1234.56`) and still parse. Such a file is refused, not read.
extension InputFile {
  /// The 1-based number of the last line of `bytes` when it has no line end (LF), nil when it
  /// ends with one or is empty.
  ///
  /// ```swift
  /// InputFile.unendedLastLine(Array("a,b\n1,2".utf8))    // 2
  /// InputFile.unendedLastLine(Array("a,b\n1,2\n".utf8))  // nil
  /// ```
  ///
  /// - Complexity: O(1) for a file that ends with a line end; O(n) for one that does not.
  package static func unendedLastLine(_ bytes: [UInt8]) -> Int? {
    guard let last = bytes.last, last != lineFeed else { return nil }
    return bytes.reduce(1) { $1 == lineFeed ? $0 + 1 : $0 }
  }

  /// What an error about an unended last line says after the file and line.
  package static let unendedLastLineMessage =
    "the last line has no line end: the file was cut short or not written whole (cachebench ends every file it writes with one)"

  private static let lineFeed = UInt8(ascii: "\n")
}
