import Foundation

/// What the whole process holds, for a long session's samples (`cachebench soak`,
/// docs/command-line.md#soak): its resident set as the kernel counts it, and jemalloc's live
/// bytes.
///
/// ```swift
/// let rss = ProcessMemory.residentBytes()      // 48_234_496, from /proc/self/status's VmRSS
/// let live = try ProcessMemory.liveBytes()     // jemalloc's stats.allocated, refreshed
/// ```
package enum ProcessMemory {
  /// The resident set size (`VmRSS` in `/proc/self/status`, Linux's proc(5)), in bytes; nil where
  /// there is no such file or line.
  package static func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    return residentBytes(inStatus: status)
  }

  /// The `VmRSS:` line of a `/proc/<pid>/status` text (`VmRSS:\t   51234 kB`), in bytes.
  package static func residentBytes(inStatus status: String) -> Int? {
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let words = line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard words.count == 2, words[1] == "kB", let kilobytes = Int(words[0]) else { return nil }
      return kilobytes * 1_024
    }
    return nil
  }

  /// jemalloc's `stats.allocated` (the bytes of every live allocation of the process), after
  /// refreshing its statistics (``Jemalloc/refreshStatistics()``).
  /// - Throws: ``MeasurementError/mallctl(name:code:)``.
  package static func liveBytes() throws(MeasurementError) -> Int {
    try Jemalloc.refreshStatistics()
    return try Jemalloc.allocatedBytes()
  }
}
