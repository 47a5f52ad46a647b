import Foundation
import Results

/// Runs `cachebench run --instructions-only` under valgrind's callgrind for `run --instructions`,
/// and reads back the instruction rows it writes: the timed run stays native, and only the
/// counting pays valgrind's slowdown.
package enum CallgrindProcess {
  /// The instruction rows of one workload file.
  ///
  /// - Parameters:
  ///   - workload: the workload file, as given to `run`.
  ///   - quick: whether the run is `--quick`.
  ///   - shard: the run's `--shard`, which the counting run takes too.
  ///   - executable: this `cachebench`.
  ///   - timeout: how long the counting run may take before it is ended.
  /// - Throws: ``RunError`` when valgrind cannot be started, the counting run fails (with its
  ///   error output) or outlives `timeout`.
  package static func instructionRows(
    workload: String, quick: Bool, shard: Shard? = nil, executable: String, timeout: Duration
  ) throws -> [MetricRow] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachebench-callgrind-\(UUID().uuidString)")
    try AtomicFile.createDirectory(directory.path, for: directory.path)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outFile = directory.appendingPathComponent("cg.out").path
    let rows = directory.appendingPathComponent("instructions.csv").path
    let (linkedExecutable, linkedWorkload) = try link(executable: executable, workload: workload, into: directory)
    var arguments = [
      "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=\(outFile)", linkedExecutable, "run",
      linkedWorkload, "--instructions-only", outFile, "--out", rows,
      "--no-progress",
    ]
    if quick { arguments.append("--quick") }
    if let shard { arguments += ["--shard", shard.description] }
    guard let valgrind = valgrindPath else { throw RunError("--instructions needs valgrind, which is not on the PATH") }
    // Swift seeds its hashing per process, which moves instruction counts by some 0.5%; jemalloc
    // returns memory to the system on a clock (decay), which moves the instructions of the
    // allocations that happen to do it.
    var environment = [
      "PATH": "/usr/bin:/bin", "HOME": "/", "LANG": "C",
      "SWIFT_DETERMINISTIC_HASHING": "1", "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1",
    ]
    if let temporary = ProcessInfo.processInfo.environment["TMPDIR"] { environment["TMPDIR"] = temporary }
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(
        valgrind, arguments, environment: environment, directory: directory.path, output: .discard, timeout: timeout,
        captureLimit: 1 << 20)
    } catch {
      throw RunError("cannot start valgrind for --instructions: \(error)")
    }
    guard !outcome.timedOut else {
      throw RunError("counting instructions under callgrind took more than \(timeout) and was ended")
    }
    guard outcome.termination.succeeded else {
      let lines = outcome.errorText.split(separator: "\n").filter { !$0.hasPrefix("==") }.suffix(5).joined(separator: "\n")
      throw RunError("counting instructions under callgrind failed (\(outcome.termination)): \(lines)")
    }
    return try ResultsFile.read(MetricRow.self, from: rows)
  }

  /// Links this executable and the workload's directory into `directory`, for the counting run.
  ///
  /// Instruction counts follow the heap's layout (memcpy and memcmp take more instructions on
  /// unaligned buffers), and the layout follows the sizes of what the process allocates first:
  /// its arguments, environment and paths. So the counting process sees the same ones wherever it
  /// runs: the executable (a hard link or a copy, not a symbolic link: the runtime reads
  /// /proc/self/exe, which resolves symbolic links, so a clone in a longer path counted sqlite
  /// reads 0.5-1.3% apart) and the workload's directory through a link, both of one length in a
  /// fresh directory, which is also its working directory, and an environment of a few fixed
  /// variables.
  private static func link(executable: String, workload: String, into directory: URL) throws -> (executable: String, workload: String) {
    let workloadURL = URL(fileURLWithPath: workload).standardizedFileURL
    let linkedExecutable = directory.appendingPathComponent("cachebench").path
    let linkedDirectory = directory.appendingPathComponent("w").path
    do {
      if Foundation.link(executable, linkedExecutable) != 0 {
        try FileManager.default.copyItem(atPath: executable, toPath: linkedExecutable)
      }
      try FileManager.default.createSymbolicLink(
        atPath: linkedDirectory, withDestinationPath: workloadURL.deletingLastPathComponent().path)
    } catch {
      throw RunError("cannot prepare the directory for --instructions at \(directory.path): \(error.localizedDescription)")
    }
    return (linkedExecutable, linkedDirectory + "/" + workloadURL.lastPathComponent)
  }

  /// Whether `valgrind` is on the PATH.
  package static var isAvailable: Bool { valgrindPath != nil }

  /// The first executable `valgrind` on the PATH.
  static var valgrindPath: String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
