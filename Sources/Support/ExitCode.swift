/// Every exit code of `cachebench`, in one place (docs/command-line.md; the values of BSD's
/// `sysexits.h`).
///
/// Errors say which code they mean by adopting ``ExitCodeCarrying``, next to their declaration
/// (``InputError`` and ``OutputError`` here, `CSVError` in Results, `WorkloadError` in
/// Workloads); the command line maps any other error to ``failure``. Here, in Support, so that a
/// module that only reports errors (Generator, Workloads) need not import Results for them.
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
  /// Success.
  case success = 0
  /// A failure at run time: a store error, a read-back that did not match its response.
  case failure = 1
  /// `compare` or `ab` found a regression.
  case regression = 2
  /// Wrong usage: an unknown command or option, a missing or malformed argument.
  case usage = 64
  /// Bad input data: malformed JSON, GraphQL, CSV or workload file; a response that does not fit
  /// its operation.
  case dataError = 65
  /// An input file that cannot be opened.
  case noInput = 66
  /// An output that cannot be written.
  case cantCreate = 74
  /// Ended by SIGINT (128 + 2) after writing what it had: `soak`.
  case interrupted = 130
  /// Ended by SIGTERM (128 + 15) after writing what it had: `soak`.
  case terminated = 143
}

/// An error that knows the exit code it means.
public protocol ExitCodeCarrying: Error {
  var exitCode: ExitCode { get }
}

extension ExitCode {
  /// The code `error` means: its own when it carries one, ``failure`` otherwise.
  public init(for error: any Error) {
    self = (error as? any ExitCodeCarrying)?.exitCode ?? .failure
  }
}

extension InputError: ExitCodeCarrying {
  public var exitCode: ExitCode { .noInput }
}

extension OutputError: ExitCodeCarrying {
  public var exitCode: ExitCode { .cantCreate }
}
