import Foundation
import Measurement
import NormalizedCache
import Results
import Support
import Workloads

/// How `cachebench run` runs.
package struct RunOptions: Sendable {
  /// Shrink the workload for a smoke test (``Workload/quick()``).
  package var quick = false
  /// Keep every sample for `--samples`.
  package var keepSamples = false
  /// Progress lines on stderr for long runs.
  package var progress = true
  /// Only this share of the configurations (`run --shard K/N`); nil for all.
  package var shard: Shard?

  package init(quick: Bool = false, keepSamples: Bool = false, progress: Bool = true, shard: Shard? = nil) {
    self.quick = quick
    self.keepSamples = keepSamples
    self.progress = progress
    self.shard = shard
  }
}

/// What one workload's run produced: each configuration's samples, each store against its limit,
/// and the rows and samples of the CSVs made of them.
package struct WorkloadResult: Sendable {
  package let workload: Workload
  package let configurations: [MeasuredConfiguration]
  package let limitComparisons: [LimitComparison]
  package let rows: [MetricRow]
  package let samples: [SampleRow]

  /// - Parameter hidden: configurations measured only for their stores' limit comparisons (a
  ///   shard's limit stores that belong to another shard): no rows, no lines of their own.
  init(workload: Workload, configurations all: [MeasuredConfiguration], hidden: Set<ConfigurationID> = [], run: RunInfo, keepSamples: Bool)
  {
    self.workload = workload
    let configurations = all.filter { !hidden.contains($0.scope.configuration) }
    self.configurations = configurations
    limitComparisons = LimitComparison.make(all, stores: workload.variants.flatMap(\.stores))
      .filter { !hidden.contains($0.scope.configuration) }
    rows =
      configurations.flatMap { $0.rows(run: run, workload: workload.name) }
      + limitComparisons.flatMap { $0.rows(run: run, workload: workload.name) }
    samples = keepSamples ? configurations.flatMap { $0.sampleRows(run: run, workload: workload.name) } : []
  }

  private init(_ result: WorkloadResult, rows: [MetricRow]) {
    workload = result.workload
    configurations = result.configurations
    limitComparisons = result.limitComparisons
    self.rows = rows
    samples = result.samples
  }

  /// The readable table for stdout.
  package var table: String { ResultsTable.render(self) }

  /// This result with `rows` added after its own (the instruction counts of `run --instructions`,
  /// which the table does not show).
  package func adding(_ rows: [MetricRow]) -> WorkloadResult {
    WorkloadResult(self, rows: self.rows + rows)
  }
}

/// Runs workloads: every variant × store × key strategy, as docs/metrics.md says.
package enum WorkloadRunner {
  /// Runs one workload.
  ///
  /// - Throws: ``WorkloadError``, ``GraphQLError``, ``InputDataError`` for bad input (65);
  ///   ``InputError`` for a file it cannot open (66); ``RunError`` for a read-back that does not
  ///   match (1); the stores' errors (1).
  package static func run(_ workload: Workload, options: RunOptions, run: RunInfo) throws -> WorkloadResult {
    let workload = options.quick ? workload.quick() : workload
    let progress = Progress(enabled: options.progress)
    defer { progress.finish() }
    do {
      try Jemalloc.checkActive()
    } catch {
      throw RunError("the process does not allocate through jemalloc, so memory cannot be measured")
    }
    let executor = Executor(
      context: ExecutionContext(workload: workload, factory: try StoreFactory(), progress: progress), shard: options.shard)
    let (configurations, hidden) = try executor.runShare(.measure)
    return WorkloadResult(workload: workload, configurations: configurations, hidden: hidden, run: run, keepSamples: options.keepSamples)
  }

  /// Counts the instructions of every write, normalize, merge and read (docs/metrics.md,
  /// `instructions`), in a process that runs under callgrind with `--collect-atstart=no` and
  /// `--callgrind-out-file=outFile`. Only those rows; none for the store-level benchmark.
  ///
  /// - Throws: as ``run(_:options:run:)``, and ``MeasurementError`` when not under callgrind.
  package static func countInstructions(
    _ workload: Workload, options: RunOptions, run: RunInfo, outFile: String
  ) throws -> WorkloadResult {
    let workload = options.quick ? workload.quick() : workload
    let progress = Progress(enabled: options.progress)
    defer { progress.finish() }
    let executor = Executor(
      context: ExecutionContext(workload: workload, factory: try StoreFactory(), progress: progress), shard: options.shard)
    let (configurations, hidden) = try executor.runShare(.countInstructions(try InstructionCounter(outFile: outFile)))
    return WorkloadResult(workload: workload, configurations: configurations, hidden: hidden, run: run, keepSamples: false)
  }
}

extension RunInfo {
  /// This run: its start time and the workload's seed as the run ID, the git revision of the
  /// current directory (with `-dirty` when it has changes), and the host name.
  /// A shard's run ID ends `-shardKofN` (``Shard/runIDSuffix``), which `merge` reads.
  package static func current(seed: UInt64, shard: Shard? = nil, date: Date = Date()) -> RunInfo {
    let timestamp = RunInfo.timestamp(date)
    let compact = timestamp.filter { $0.isNumber || $0 == "T" || $0 == "Z" }
    return RunInfo(
      runID: "\(compact)-seed\(seed)" + (shard?.runIDSuffix ?? ""), timestamp: timestamp, gitRev: gitRevision(),
      host: ProcessInfo.processInfo.hostName)
  }

  package static func gitRevision() -> String {
    guard let revision = git(["rev-parse", "--short=12", "HEAD"]), !revision.isEmpty else { return "unknown" }
    let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
    return dirty ? revision + "-dirty" : revision
  }

  /// Runs `git` with `arguments` and returns its standard output, nil when it fails or takes
  /// more than 30 seconds. On this thread (``ChildProcess``): a watcher thread could still be
  /// running (and allocating) when the measurements start, and jemalloc's live bytes and
  /// callgrind's instruction counts are the whole process's.
  private static func git(_ arguments: [String]) -> String? {
    guard let outcome = try? ChildProcess.run("git", arguments, searchPath: true, errors: .discard, timeout: .seconds(30)),
      outcome.termination.succeeded
    else { return nil }
    return outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
