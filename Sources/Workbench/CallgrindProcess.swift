import Foundation
import Results

/// Runs `cachebench run --instructions-only` under valgrind's callgrind for `run --instructions`,
/// and reads back the instruction rows it writes: the timed run stays native, and only the
/// counting pays valgrind's slowdown.
public enum CallgrindProcess {
  /// The instruction rows of one workload file.
  ///
  /// - Parameters:
  ///   - workload: the workload file, as given to `run`.
  ///   - quick: whether the run is `--quick`.
  ///   - executable: this `cachebench`.
  /// - Throws: ``RunError`` when valgrind cannot be started or the counting run fails, with its
  ///   error output.
  public static func instructionRows(workload: String, quick: Bool, executable: String) throws -> [MetricRow] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-callgrind-\(UUID().uuidString)")
    try AtomicFile.createDirectory(directory.path, for: directory.path)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outFile = directory.appendingPathComponent("cg.out").path
    let rows = directory.appendingPathComponent("instructions.csv").path
    var arguments = [
      "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=\(outFile)", executable, "run", workload,
      "--instructions-only", outFile, "--out", rows, "--no-progress",
    ]
    if quick { arguments.append("--quick") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["valgrind"] + arguments
    // Swift seeds its hashing per process, which moves instruction counts by some 0.5%; jemalloc
    // returns memory to the system on a clock (decay), which moves the instructions of the
    // allocations that happen to do it.
    process.environment = ProcessInfo.processInfo.environment.merging([
      "SWIFT_DETERMINISTIC_HASHING": "1", "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1",
    ]) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw RunError("cannot start valgrind for --instructions: \(error.localizedDescription)")
    }
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = String(decoding: output, as: UTF8.self)
      let lines = text.split(separator: "\n").filter { !$0.hasPrefix("==") }.suffix(5).joined(separator: "\n")
      throw RunError("counting instructions under callgrind failed (exit \(process.terminationStatus)): \(lines)")
    }
    return try ResultsFile.read(MetricRow.self, from: rows)
  }

  /// Whether `valgrind` can be run from the PATH.
  public static var isAvailable: Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["valgrind", "--version"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
