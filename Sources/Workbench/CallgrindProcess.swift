import Foundation
import Results
import Support
import Synchronization

/// Runs `cachebench run --instructions-only` under valgrind's callgrind for `run --instructions`,
/// and reads back the instruction rows it writes: the timed run stays native, and only the
/// counting pays valgrind's slowdown.
package enum CallgrindProcess {
  /// The instruction rows of one workload file, each configuration counted in a process of its
  /// own.
  ///
  /// A configuration's counts depend on what ran before it in the process: the Swift runtime's
  /// metadata and conformance caches it finds filled or has to fill, and where the heap puts its
  /// buffers. Counted after five others in one process, the counts of the sixth moved by 0.5-1.1%
  /// when code it never runs changed (make gate judged those rows regressed). Alone in its process,
  /// a configuration is counted after the same start-up and the same preparation of its variant
  /// whatever else the workload holds. Up to as many processes as there are cores run at once:
  /// instruction counts do not depend on how busy the machine is.
  ///
  /// - Parameters:
  ///   - workload: the workload file, as given to `run`.
  ///   - configurations: how many configurations it has (``ConfigurationSequence``).
  ///   - quick: whether the run is `--quick`.
  ///   - shard: the run's `--shard`, which is then counted in one process.
  ///   - executable: this `cachebench`.
  ///   - timeout: how long one counting process may take before it is ended.
  /// - Throws: ``RunError`` when valgrind cannot be started, a counting process fails (with its
  ///   error output) or outlives `timeout`.
  package static func instructionRows(
    workload: String, configurations: Int, quick: Bool, shard: Shard? = nil, executable: String, timeout: Duration
  ) throws -> [MetricRow] {
    guard let valgrind = valgrindPath else { throw RunError("--instructions needs valgrind, which is not on the PATH") }
    let parts = countingProcesses(configurations: configurations, shard: shard)
    let outcomes = Mutex<[Int: Result<[MetricRow], RunError>]>([:])
    let width = max(1, min(ProcessInfo.processInfo.activeProcessorCount, parts.count))
    let next = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: width) { _ in
      while true {
        let index: Int = next.withLock { value in
          defer { value += 1 }
          return value
        }
        guard index < parts.count else { return }
        let outcome: Result<[MetricRow], RunError>
        do {
          outcome = .success(
            try count(valgrind: valgrind, workload: workload, quick: quick, shard: parts[index], executable: executable, timeout: timeout))
        } catch let error as RunError {
          outcome = .failure(error)
        } catch {
          outcome = .failure(RunError("counting instructions under callgrind failed: \(error)"))
        }
        outcomes.withLock { $0[index] = outcome }
        // A failed part ends the counting: the parts not yet started are not.
        if case .failure = outcome { next.withLock { $0 = parts.count } }
      }
    }
    // The rows in the configurations' order; the first failure in that order is the one reported.
    let results = outcomes.withLock { $0 }
    var rows: [MetricRow] = []
    for index in parts.indices {
      guard let result = results[index] else { continue }
      rows += try result.get()
    }
    return rows
  }

  /// What each counting process runs: one configuration (`--shard K/N` with N the workload's
  /// configurations), or with the run's own `--shard`, that shard; nil for a whole workload of
  /// one configuration.
  package static func countingProcesses(configurations: Int, shard: Shard?) -> [Shard?] {
    if shard != nil || configurations <= 1 { return [shard] }
    return (1...configurations).compactMap { Shard(index: $0, count: configurations) }
  }

  /// The instruction rows of one counting process: the whole workload, or one shard of it.
  private static func count(
    valgrind: String, workload: String, quick: Bool, shard: Shard?, executable: String, timeout: Duration
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
