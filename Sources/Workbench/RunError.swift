import Results

/// A failure while running a workload: a read-back that does not match, a store that lost
/// records. Exit code 1 unless it says otherwise.
public struct RunError: Error, Sendable, CustomStringConvertible, ExitCodeCarrying {
  public let message: String
  public let exitCode: ExitCode

  public init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}
