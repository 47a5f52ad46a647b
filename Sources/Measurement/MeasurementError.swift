#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a jemalloc statistic could not be read: a `mallctl` call that failed (with the control
/// name and the errno it returned), or a process that does not allocate through jemalloc.
///
/// Prints as `mallctl("stats.allocated") failed: error 2 (No such file or directory)`.
package enum MeasurementError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `mallctl(name, ...)` returned `code`: `ENOENT` for an unknown name, `EINVAL` for a value
  /// of the wrong size, `EFAULT` for a control that is not available, `EPERM` for a read-only one.
  case mallctl(name: String, code: Int32)
  /// Allocating `requested` bytes moved jemalloc's counter of this thread by only `observed`
  /// bytes: `malloc` is not jemalloc's, so every allocation statistic would be meaningless.
  case jemallocInactive(requested: Int, observed: Int)
  /// Instructions were to be counted, but the process does not run under valgrind.
  case notUnderCallgrind
  /// A callgrind dump that could not be read.
  case callgrindDump(path: String, reason: String)

  package var description: String {
    switch self {
    case .mallctl(let name, let code) where code == ENOSYS:
      "mallctl(\"\(name)\"): this build leaves jemalloc out (CACHEBENCH_NO_JEMALLOC, the sanitizer builds), and "
        + "its memory and allocation figures need it: build without the variable to run workloads"
    case .mallctl(let name, let code):
      "mallctl(\"\(name)\") failed: error \(code) (\(String(cString: strerror(code))))"
    case .jemallocInactive(let requested, let observed):
      "the process does not allocate through jemalloc: allocating \(requested) bytes moved "
        + "thread.allocated by \(observed) bytes"
    case .notUnderCallgrind:
      "instructions can only be counted under valgrind's callgrind"
    case .callgrindDump(let path, let reason):
      "cannot read the callgrind dump \(path): \(reason)"
    }
  }
}
