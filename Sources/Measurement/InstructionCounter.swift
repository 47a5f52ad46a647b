import CCallgrind
import Results
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the instructions a piece of code executes, exactly, when the process runs under
/// callgrind (`valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=FILE`): the
/// CPU metric that does not care how busy the machine is (docs/metrics.md, `instructions`).
///
/// ```swift
/// var counter = try InstructionCounter(outFile: "/tmp/x/cg.out")
/// let (records, instructions) = try counter.counted { try normalizer.normalize(response, plan: plan) }
/// ```
///
/// Each count zeroes callgrind's counters, switches collection on, runs `body`, switches it off
/// and has callgrind dump the counters to `FILE.<n>`, whose `totals:` line is the count; the file
/// is then removed. What lies between the two switches besides `body` (a closure call, the return
/// from one request and the entry into the other) is a constant of a few dozen instructions.
package struct InstructionCounter {
  private let outFile: String
  private var dumps = 0

  /// Whether this process runs under valgrind.
  package static var isUnderValgrind: Bool { cachebench_running_on_valgrind() > 0 }

  /// - Parameter outFile: the `--callgrind-out-file` the process was started with.
  /// - Throws: ``MeasurementError/notUnderCallgrind`` when the process does not run under valgrind.
  package init(outFile: String) throws(MeasurementError) {
    guard Self.isUnderValgrind else { throw .notUnderCallgrind }
    self.outFile = outFile
  }

  /// Runs `body` once and returns its result with the instructions it executed.
  ///
  /// - Throws: what `body` throws, or ``MeasurementError/callgrindDump(path:reason:)``.
  package mutating func counted<T>(_ body: () throws -> T) throws -> (result: T, instructions: Int) {
    cachebench_callgrind_zero_stats()
    cachebench_callgrind_toggle_collect()
    let result: T
    do {
      result = try body()
    } catch {
      cachebench_callgrind_toggle_collect()
      throw error
    }
    cachebench_callgrind_toggle_collect()
    cachebench_callgrind_dump_stats()
    dumps += 1
    return (result, try Self.totals(ofDump: "\(outFile).\(dumps)"))
  }

  /// The `totals:` of a callgrind dump file, which is then removed.
  static func totals(ofDump path: String) throws(MeasurementError) -> Int {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.bytes(path)
    } catch {
      throw .callgrindDump(path: path, reason: error.reason)
    }
    defer { _ = unlink(path) }
    let text = String(decoding: bytes, as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") {
      if let value = Int(line.dropFirst("totals:".count).split(separator: " ").first ?? "") { return value }
    }
    throw .callgrindDump(path: path, reason: "no totals line")
  }
}
