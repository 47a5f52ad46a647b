#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A results file that could not be written (the command line's exit code 74). Carries the path
/// of the file that was to be written, the step that failed and its errno.
///
/// Prints as `cannot write results/none/x.csv: No such file or directory`.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The destination path, as given.
  public let path: String
  /// The failed step: `create a temporary file`, `write`, `sync`, `rename into place`.
  public let operation: String
  /// The errno of the failed call.
  public let code: Int32

  public init(path: String, operation: String, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
  }

  public var description: String {
    "cannot write \(path): \(String(cString: strerror(code)))"
  }
}
