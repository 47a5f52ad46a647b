import Foundation
import Measurement
import NormalizedCache
import Results
import Workloads

/// How `cachebench run` runs.
public struct RunOptions: Sendable {
  /// Shrink the workload for a smoke test (``Workload/quick()``).
  public var quick = false
  /// Keep every sample for `--samples`.
  public var keepSamples = false
  /// Progress lines on stderr for long runs.
  public var progress = true

  public init(quick: Bool = false, keepSamples: Bool = false, progress: Bool = true) {
    self.quick = quick
    self.keepSamples = keepSamples
    self.progress = progress
  }
}

/// What one workload's run produced.
public struct WorkloadResult: Sendable {
  public let workload: Workload
  public let rows: [MetricRow]
  public let samples: [SampleRow]

  /// The readable table for stdout.
  public var table: String { ResultsTable.render(workload: workload, rows: rows) }

  /// This result with `rows` added after its own.
  public func adding(_ rows: [MetricRow]) -> WorkloadResult {
    WorkloadResult(workload: workload, rows: self.rows + rows, samples: samples)
  }
}

/// Runs workloads: every variant × store × key strategy, as SPEC §5 says.
public enum WorkloadRunner {
  /// Runs one workload.
  ///
  /// - Throws: ``WorkloadError``, ``GraphQLError``, ``InputDataError`` for bad input (65);
  ///   ``InputError`` for a file it cannot open (66); ``RunError`` for a read-back that does not
  ///   match (1); the stores' errors (1).
  public static func run(_ workload: Workload, options: RunOptions, run: RunInfo) throws -> WorkloadResult {
    let workload = options.quick ? workload.quick() : workload
    let progress = Progress(enabled: options.progress)
    defer { progress.finish() }
    var sink = MetricSink(run: run, workload: workload.name, keepSamples: options.keepSamples)
    let factory = try StoreFactory()
    do {
      try Jemalloc.checkActive()
    } catch {
      throw RunError("the process does not allocate through jemalloc, so memory cannot be measured")
    }
    try forEachConfiguration(of: workload, factory: factory, progress: progress, sink: &sink, limits: true) {
      measurement, sink in
      try measurement.run(into: &sink)
    }
    let ratios = WorkloadResult.limitRatios(sink.rows, stores: workload.measuredStores)
    return WorkloadResult(workload: workload, rows: sink.rows + ratios, samples: sink.samples)
  }

  /// Counts the instructions of every write, normalize, merge and read (SPEC §5, `instructions`),
  /// in a process that runs under callgrind with `--collect-atstart=no` and
  /// `--callgrind-out-file=outFile`. Only those rows; none for the store-level benchmark.
  ///
  /// - Throws: as ``run(_:options:run:)``, and ``MeasurementError`` when not under callgrind.
  public static func countInstructions(
    _ workload: Workload, options: RunOptions, run: RunInfo, outFile: String
  ) throws -> WorkloadResult {
    let workload = options.quick ? workload.quick() : workload
    let progress = Progress(enabled: options.progress)
    defer { progress.finish() }
    var sink = MetricSink(run: run, workload: workload.name, keepSamples: false)
    let factory = try StoreFactory()
    var counter = try InstructionCounter(outFile: outFile)
    try forEachConfiguration(of: workload, factory: factory, progress: progress, sink: &sink, storeRecords: false) {
      measurement, sink in
      try measurement.countInstructions(into: &sink, counter: &counter)
    }
    return WorkloadResult(workload: workload, rows: sink.rows, samples: [])
  }

  /// Every variant × store × key strategy of `workload`, each variant's responses prepared once;
  /// the store-level benchmark, when that is the workload's source and `storeRecords` is true; the
  /// limit stores (measured here, not by `body`) when `limits` is true and the workload asks.
  private static func forEachConfiguration(
    of workload: Workload, factory: StoreFactory, progress: Progress, sink: inout MetricSink, storeRecords: Bool = true,
    limits: Bool = false, _ body: (StrategyMeasurement, inout MetricSink) throws -> Void
  ) throws {
    for (variant, source) in try workload.variants {
      let context = workload.name + (variant.isEmpty ? "" : " [\(variant)]")
      progress.setContext(context)
      let prepared: PreparedSource
      switch source {
      case .storeRecords(let config):
        guard storeRecords else { continue }
        try StoreRecordsBenchmark(workload: workload, config: config, factory: factory, progress: progress)
          .run(into: &sink)
        continue
      case .generator(let config):
        prepared = try PreparedSource.generated(seed: workload.seed, config: config, progress: progress)
      case .recorded(let recorded):
        prepared = try PreparedSource.recorded(recorded, progress: progress)
      }
      for spec in workload.measuredStores where limits || !spec.kind.isLimit {
        for strategy in workload.keys {
          progress.setContext("\(context) \(spec.label) × \(strategy.name.rawValue)")
          let scope = MetricSink.Scope(variant: variant, store: spec.label, keys: strategy.name.rawValue)
          if spec.kind.isLimit {
            try LimitMeasurement(
              source: prepared, spec: spec, strategy: strategy, workload: workload, scope: scope, factory: factory,
              progress: progress
            ).run(into: &sink)
            continue
          }
          let measurement = StrategyMeasurement(
            source: prepared, spec: spec, strategy: strategy, workload: workload, scope: scope, factory: factory,
            progress: progress)
          do {
            try body(measurement, &sink)
          } catch let error as NormalizationError {
            throw InputDataError(file: workload.file, message: "\(error)")
          }
        }
      }
    }
  }
}

extension RunInfo {
  /// This run: its start time and the workload's seed as the run ID, the git revision of the
  /// current directory (with `-dirty` when it has changes), and the host name.
  public static func current(seed: UInt64, date: Date = Date()) -> RunInfo {
    let timestamp = RunInfo.timestamp(date)
    let compact = timestamp.filter { $0.isNumber || $0 == "T" || $0 == "Z" }
    return RunInfo(
      runID: "\(compact)-seed\(seed)", timestamp: timestamp, gitRev: gitRevision(),
      host: ProcessInfo.processInfo.hostName)
  }

  static func gitRevision() -> String {
    guard let revision = git(["rev-parse", "--short=12", "HEAD"]), !revision.isEmpty else { return "unknown" }
    let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
    return dirty ? revision + "-dirty" : revision
  }

  /// Runs `git` with `arguments` and returns its standard output, nil when it fails.
  ///
  /// Through `posix_spawnp` and `waitpid` on this thread: Foundation's `Process` watches its child
  /// from a thread of its own, which could still be running (and allocating) when the
  /// measurements start, and jemalloc's live bytes and callgrind's instruction counts are the
  /// whole process's.
  private static func git(_ arguments: [String]) -> String? {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, readEnd)
    posix_spawn_file_actions_addclose(&actions, writeEnd)
    let argv = (["git"] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawnp(&child, "git", &actions, nil, argv, environ)
    close(writeEnd)
    guard spawned == 0 else {
      close(readEnd)
      return nil
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, $0.count) }
      if count > 0 {
        output += buffer[..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(readEnd)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    // Exited (low 7 bits zero) with status 0.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
