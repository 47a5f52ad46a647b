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
          let scope = MetricSink.Scope(variant: variant, store: spec.label, keys: strategy.name)
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
    func git(_ arguments: [String]) -> String? {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["git"] + arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { return nil }
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { return nil }
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let revision = git(["rev-parse", "--short=12", "HEAD"]), !revision.isEmpty else { return "unknown" }
    let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
    return dirty ? revision + "-dirty" : revision
  }
}
