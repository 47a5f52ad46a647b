#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and error written with `write(2)`, so that a failure is an error to report
/// rather than a trap: Foundation's `FileHandle.write` traps on `/dev/full` (SIGILL).
///
/// A closed pipe (`cachebench run ... | head -1`) still ends the process quietly by SIGPIPE, as
/// every Unix filter does; the results files are written before anything is printed.
package enum StandardStream {
  /// Writes all of `text` to standard output.
  /// - Throws: ``OutputError`` for `standard output` with the errno (`No space left on device`).
  package static func output(_ text: String) throws(OutputError) {
    try write(text, to: STDOUT_FILENO, name: "standard output")
  }

  /// Writes all of `text` to standard error.
  /// - Throws: ``OutputError`` for `standard error`.
  package static func error(_ text: String) throws(OutputError) {
    try write(text, to: STDERR_FILENO, name: "standard error")
  }

  /// Writes to standard error, ignoring a failure: for progress lines and for the last message of
  /// a process that is failing anyway.
  package static func errorIfPossible(_ text: String) {
    try? error(text)
  }

  private static func write(_ text: String, to descriptor: Int32, name: String) throws(OutputError) {
    var text = text
    let failure: Int32? = text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        #if canImport(Glibc)
          let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #else
          let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #endif
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw OutputError(path: name, operation: "write", code: failure) }
  }
}
