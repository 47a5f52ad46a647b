#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every exit code of `cachebench`, in one place (SPEC §7; the values of BSD's `sysexits.h`).
enum ExitCode: Int32 {
  /// Success.
  case success = 0
  /// A failure at run time: a store error, a read-back that did not match its response.
  case failure = 1
  /// `compare` found a regression.
  case regression = 2
  /// Wrong usage: an unknown command or option, a missing or malformed argument.
  case usage = 64
  /// Bad input data: malformed JSON, GraphQL, or workload file; a response that does not fit its operation.
  case dataError = 65
  /// An input file that cannot be opened.
  case noInput = 66
  /// An output that cannot be written.
  case cantCreate = 74

  func exit() -> Never {
    #if canImport(Glibc)
    Glibc.exit(rawValue)
    #else
    Darwin.exit(rawValue)
    #endif
  }
}
