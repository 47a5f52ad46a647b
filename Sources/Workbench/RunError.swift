import Support

/// A failure while running a workload: a read-back that does not match, a store that lost
/// records. Exit code 1 unless it says otherwise.
package struct RunError: Error, Sendable, CustomStringConvertible, ExitCodeCarrying {
  package let message: String
  package let exitCode: ExitCode

  package init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }

  package var description: String { message }
}
