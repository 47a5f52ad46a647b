import Foundation
import Results
import Support
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One subcommand of `cachebench`.
protocol Command {
  static var spec: CommandSpec { get }
  /// Runs with parsed arguments; returns the exit code, or throws an error ``Reporter`` maps to one.
  static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

/// What every command runs with besides its arguments: the resolvers and field-policy providers
/// workload files and `--resolver` may name.
struct CommandContext {
  let registry: Registry
}

/// An error with a message for the user and the exit code it means.
struct CommandError: Error, ExitCodeCarrying {
  let message: String
  let exitCode: ExitCode

  init(_ message: String, _ exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }
}

/// Writes errors to stderr as `Error: ...` (a usage error followed by the usage line), and picks their exit code.
enum Reporter {
  /// The code an error carries (``ExitCodeCarrying``); 1 for any other.
  static func exitCode(for error: Error) -> ExitCode {
    ExitCode(for: error)
  }

  static func message(for error: Error) -> String {
    switch error {
    case let error as UsageError: error.message
    case let error as CommandError: error.message
    case let error as CustomStringConvertible: error.description
    default: "\(error)"
    }
  }

  /// Messages longer than this are cut in the middle: an error may quote input, and a 10 MB
  /// string does not belong on a terminal.
  static let maximumMessageLength = 2_000

  static func shortened(_ message: String) -> String {
    guard message.count > maximumMessageLength else { return message }
    let half = maximumMessageLength / 2
    return String(message.prefix(half)) + " … (\(message.count - 2 * half) characters cut) … " + String(message.suffix(half))
  }

  /// `Error: <message>`; a usage error adds the usage line and where to read more (a failure
  /// of the run or of its input is not the command line's fault, and its usage would only bury it).
  static func report(_ error: Error, usage: String?) -> ExitCode {
    var text = "Error: \(shortened(message(for: error)))\n"
    if error is UsageError {
      if let usage { text += "Usage: cachebench \(usage)\n" }
      text += "  See 'cachebench \(usage.map { String($0.prefix(while: { $0 != " " })) } ?? "") --help'.\n"
    }
    StandardStream.errorIfPossible(text)
    return exitCode(for: error)
  }
}

/// Writes to standard output in one piece; a failed write (`> /dev/full`) is an ``OutputError``,
/// exit 74.
func writeStandardOutput(_ text: String) throws(OutputError) {
  try StandardStream.output(text)
}

/// Writes to standard error in one piece, ignoring a failure: nothing is left to tell it to.
func writeStandardError(_ text: String) {
  StandardStream.errorIfPossible(text)
}
