#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files written whole or not at all (docs/csv.md: "written atomically").
///
/// The text goes to a temporary file in the destination's directory (`.NAME.tmp-XXXXXX`, created
/// with `mkstemp`), which is synced and then renamed over the destination with `rename(2)`, atomic
/// within one file system. A reader sees the old file or the new one, never a part; on any failure
/// the temporary file is removed and the old file, if any, is left as it was.
///
/// The new file gets mode 0644. The directory must exist: creating `results/` is the caller's
/// choice.
package enum AtomicFile {
  /// Writes `text` as UTF-8 to `path`, replacing the file there.
  ///
  /// ```swift
  /// try AtomicFile.write(CSV.document(rows), to: "results/books.csv")
  /// ```
  ///
  /// - Throws: ``OutputError`` with `path`, the failed step and its errno.
  package static func write(_ text: String, to path: String) throws(OutputError) {
    try write(bytes: Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path`, replacing the file there.
  ///
  /// - Throws: ``OutputError`` with `path`, the failed step and its errno.
  ///
  /// A symbolic link is followed: its target is replaced, the link stays. A destination that
  /// exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written through, not
  /// replaced; a directory is an error (`Is a directory`).
  package static func write(bytes: [UInt8], to path: String) throws(OutputError) {
    let (target, special) = try destination(path)
    if special {
      try writeThrough(bytes: bytes, to: target, path: path)
    } else {
      try replace(bytes: bytes, at: target, path: path)
    }
  }

  /// The file `path` names after its links, and whether it is a device or FIFO to write through
  /// (rather than a regular file, or none, to replace).
  /// - Throws: ``OutputError`` `Is a directory` for a directory.
  private static func destination(_ path: String) throws(OutputError) -> (target: String, special: Bool) {
    let target = followingSymbolicLinks(path)
    var status = stat()
    guard lstat(target, &status) == 0 else { return (target, false) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return (target, false)
    case S_IFDIR: throw OutputError(path: path, operation: "open", code: EISDIR)
    default: return (target, true)
    }
  }

  /// Checks, before a long run, that `path` can be written: its directory is made if missing and a
  /// temporary file is created there and removed (or the existing non-regular file opened).
  ///
  /// - Throws: ``OutputError`` as ``write(bytes:to:)`` would.
  package static func checkWritable(_ path: String) throws(OutputError) {
    try createDirectory(for: path)
    let (target, special) = try destination(path)
    if special {
      let descriptor = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { throw OutputError(path: path, operation: "open", code: errno) }
      _ = close(descriptor)
      return
    }
    let (directory, name) = split(target)
    var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw OutputError(path: path, operation: "create a temporary file", code: errno) }
    _ = close(descriptor)
    _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
  }

  /// The file a path names after its symbolic links (at most 40, as the kernel), even when the
  /// last one dangles.
  static func followingSymbolicLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, Int(PATH_MAX))
      guard count > 0 else { return current }
      let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = link.hasPrefix("/") ? link : split(current).directory + "/" + link
    }
    return current
  }

  /// Writes into an existing file that is not a regular one (a device, a FIFO), in place.
  private static func writeThrough(bytes: [UInt8], to target: String, path: String) throws(OutputError) {
    let descriptor = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw OutputError(path: path, operation: "open", code: errno) }
    defer { _ = close(descriptor) }
    // Blocking again for the writes: O_NONBLOCK only kept the open of a FIFO without a reader
    // from waiting forever (it fails with ENXIO instead).
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, $0.count - written) }
      if result < 0 {
        if errno == EINTR { continue }
        throw OutputError(path: path, operation: "write", code: errno)
      }
      written += result
    }
  }

  /// A regular file (or none) replaced by a temporary file renamed over it.
  private static func replace(bytes: [UInt8], at target: String, path: String) throws(OutputError) {
    let (directory, name) = split(target)
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
    guard rename(temporaryPath, target) == 0 else { throw fail("rename into place") }
    renamed = true
  }

  /// Creates the directory that `path` goes into, and its parents, when they are missing
  /// (`mkdir -p` of the part before the last `/`).
  ///
  /// - Throws: ``OutputError`` naming `path` when a directory cannot be made, or when a file
  ///   stands where a directory should (`Not a directory`).
  package static func createDirectory(for path: String) throws(OutputError) {
    try createDirectory(split(path).directory, for: path)
  }

  /// Creates `directory` and its parents when they are missing; errors name `path`.
  ///
  /// - Throws: ``OutputError``.
  package static func createDirectory(_ directory: String, for path: String) throws(OutputError) {
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
