#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files written whole or not at all (SPEC §6: "written atomically").
///
/// The text goes to a temporary file in the destination's directory (`.NAME.tmp-XXXXXX`, created
/// with `mkstemp`), which is synced and then renamed over the destination with `rename(2)`, atomic
/// within one file system. A reader sees the old file or the new one, never a part; on any failure
/// the temporary file is removed and the old file, if any, is left as it was.
///
/// The new file gets mode 0644. The directory must exist: creating `results/` is the caller's
/// choice.
public enum AtomicFile {
  /// Writes `text` as UTF-8 to `path`, replacing the file there.
  ///
  /// ```swift
  /// try AtomicFile.write(CSV.document(rows), to: "results/books.csv")
  /// ```
  ///
  /// - Throws: ``OutputError`` with `path`, the failed step and its errno.
  public static func write(_ text: String, to path: String) throws(OutputError) {
    try write(bytes: Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path`, replacing the file there.
  ///
  /// - Throws: ``OutputError`` with `path`, the failed step and its errno.
  public static func write(bytes: [UInt8], to path: String) throws(OutputError) {
    let (directory, name) = split(path)
    var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw OutputError(path: path, operation: "create a temporary file", code: errno)
    }
    let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }

    var open = true
    var renamed = false
    defer {
      if open { _ = close(descriptor) }
      if !renamed { _ = unlink(temporaryPath) }
    }
    func fail(_ operation: String) -> OutputError {
      OutputError(path: path, operation: operation, code: errno)
    }

    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes {
        systemWrite(descriptor, $0.baseAddress! + written, $0.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw fail("write")
      }
      written += result
    }
    guard fchmod(descriptor, 0o644) == 0 else { throw fail("set the file mode") }
    guard fsync(descriptor) == 0 else { throw fail("sync") }
    open = false
    guard close(descriptor) == 0 else { throw fail("close") }
    guard rename(temporaryPath, path) == 0 else { throw fail("rename into place") }
    renamed = true
  }

  /// Creates the directory that `path` goes into, and its parents, when they are missing
  /// (`mkdir -p` of the part before the last `/`).
  ///
  /// - Throws: ``OutputError`` naming `path` when a directory cannot be made, or when a file
  ///   stands where a directory should (`Not a directory`).
  public static func createDirectory(for path: String) throws(OutputError) {
    try createDirectory(split(path).directory, for: path)
  }

  /// Creates `directory` and its parents when they are missing; errors name `path`.
  ///
  /// - Throws: ``OutputError``.
  public static func createDirectory(_ directory: String, for path: String) throws(OutputError) {
    var prefix = directory.hasPrefix("/") ? "/" : ""
    for component in directory.split(separator: "/") where component != "." {
      prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
      if mkdir(prefix, 0o755) == 0 { continue }
      let code = errno
      var status = stat()
      guard code == EEXIST, stat(prefix, &status) == 0 else {
        throw OutputError(path: path, operation: "create the directory \(prefix)", code: code)
      }
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw OutputError(path: path, operation: "create the directory \(prefix)", code: ENOTDIR)
      }
    }
  }

  /// The directory (`.` for a bare name) and the last component of `path`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    return (directory, String(path[path.index(after: slash)...]))
  }
}

/// `write(2)`, out of reach of ``AtomicFile/write(_:to:)``'s name.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
