import Measurement
import NormalizedCache
import Results
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `cachebench soak` (docs/command-line.md#soak): a long app session, sampled as it goes, to find
/// what grows (apollo-ios #3365, "InMemoryNormalizedCache is a memory bomb").
///
/// For every variant × store × key strategy of the workload (not the limit stores): the workload's
/// traffic session (``TrafficSession``, `traffic.steps` steps, dated when the store has dates) on
/// a fresh store, without the write and read phases, keeping no per-step samples (the session's
/// own memory does not grow with its steps). Every `every` steps, it samples the process's
/// resident set and jemalloc's live bytes, and the store's records, accounted bytes, database
/// and WAL; then it fits a line through the samples taken after `warmup` steps: the growth per
/// 100,000 steps.
///
/// ```swift
/// let soak = try Soak.run(workload, options: SoakOptions(every: 10_000, warmup: 100_000))
/// soak.growth.first { $0.figure == .liveBytes }?.perHundredThousandSteps   // 1_024: about flat
/// ```
package enum Soak {
  /// Runs the workload's sessions.
  /// - Throws: ``RunError`` (exit 65) when the workload has no traffic section, or an `every` or
  ///   `warmup` that leaves fewer than two samples to fit; what a run throws for bad input and
  ///   store errors.
  package static func run(_ workload: Workload, options: SoakOptions) throws -> SoakResult {
    let workload = options.quick ? workload.quick() : workload
    guard let traffic = workload.traffic else {
      throw RunError("\(workload.file): soak runs the workload's traffic session: give it a \"traffic\" section", exitCode: .dataError)
    }
    let plan = try options.plan(steps: traffic.steps)
    try Jemalloc.checkActive()
    let progress = Progress(enabled: options.progress)
    defer { progress.finish() }
    let context = ExecutionContext(workload: workload, factory: try StoreFactory(), progress: progress)
    var samples: [SoakSample] = []
    variants: for (variant, entries) in try ConfigurationSequence(workload).variants {
      let source = try PreparedVariant(variant.source, workload: workload, progress: progress)
      guard case .responses(let prepared) = source, !prepared.items.isEmpty else { continue }
      for entry in entries where !entry.spec.isLimit {
        progress.setContext(
          "\(workload.name)\(variant.name.isEmpty ? "" : " [\(variant.name)]") \(entry.spec.label) × \(entry.strategy.name)")
        let configuration = Configuration(entry, source: source)
        do {
          samples += try session(configuration, source: prepared, plan: plan, context: context, options: options)
        } catch {
          throw Executor.reported(error, configuration: configuration, workload: workload, phase: "soak")
        }
        if SoakInterruption.signal != nil { break variants }
      }
    }
    return SoakResult(samples: samples, warmup: plan.warmup, interruption: SoakInterruption.signal)
  }

  /// One session, sampled every `plan.every` steps (and after its last step).
  private static func session(
    _ configuration: Configuration, source: PreparedSource, plan: SoakOptions.Plan, context: ExecutionContext,
    options: SoakOptions
  ) throws -> [SoakSample] {
    defer { context.factory.removeFiles() }
    let settings = configuration.traffic!
    let store = try context.factory.make(configuration)
    var session = TrafficSession(
      configuration, source: source, settings: settings, workload: context.workload, store: store, keepsStepSamples: false)
    var samples: [SoakSample] = []
    samples.reserveCapacity(settings.steps / plan.every + 2)
    samples.append(try sample(session, configuration, step: 0, workload: context.workload.name))
    for step in 0..<settings.steps {
      if step % 1_024 == 0 { context.progress.update("soak, step \(step + 1)/\(settings.steps)") }
      if step == options.signalAtStep?.step { raise(options.signalAtStep!.signal) }
      if SoakInterruption.signal != nil {
        // Stopped by a signal: a last sample where it stopped, unless it was just taken.
        if step % plan.every != 0 {
          samples.append(try sample(session, configuration, step: step, workload: context.workload.name))
        }
        return samples
      }
      try session.run(step: step)
      if (step + 1) % plan.every == 0 || step + 1 == settings.steps {
        samples.append(try sample(session, configuration, step: step + 1, workload: context.workload.name))
      }
    }
    return samples
  }

  /// What the process and the store hold after `step` steps.
  private static func sample(_ session: TrafficSession, _ configuration: Configuration, step: Int, workload: String) throws -> SoakSample {
    let live = try ProcessMemory.liveBytes()
    let footprint = try session.capabilities.footprint?.footprint(liveBytes: live)
    func detail(_ name: String) -> Int? { footprint?.details.first { $0.metric == name }?.bytes }
    return SoakSample(
      workload: workload, configuration: configuration.scope.configuration, step: step,
      figures: [
        .rssBytes: ProcessMemory.residentBytes(), .liveBytes: live, .records: footprint?.recordCount,
        .accountedBytes: try session.bounded?.accountedBytes(), .dbBytes: detail("db_bytes"), .walBytes: detail("wal_bytes"),
      ])
  }
}

/// How `cachebench soak` samples.
package struct SoakOptions: Sendable {
  /// Steps between samples; nil: a hundredth of the session (at least 1).
  package var every: Int?
  /// Steps before the fit starts; nil: a tenth of the session.
  package var warmup: Int?
  package var quick = false
  package var progress = true
  /// Raises a signal before a step, as if a person sent it (`CACHEBENCH_SOAK_SIGNAL_AT=INT:50`): for
  /// the tests of an interrupted soak, which must not depend on when a process gets the CPU.
  package var signalAtStep: (signal: Int32, step: Int)?

  package init(every: Int? = nil, warmup: Int? = nil, quick: Bool = false, progress: Bool = true) {
    self.every = every
    self.warmup = warmup
    self.quick = quick
    self.progress = progress
  }

  /// The sampling of a session of `steps` steps.
  struct Plan {
    let every: Int
    let warmup: Int
  }

  /// - Throws: ``RunError`` (65) when fewer than two samples would follow the warm-up.
  func plan(steps: Int) throws -> Plan {
    let every = every ?? max(1, steps / 100)
    let warmup = warmup ?? steps / 10
    // Samples at every multiple of `every` and at the end; those at or after the warm-up are fitted.
    let fitted = (steps / every - (warmup + every - 1) / every + 1) + (steps % every == 0 ? 0 : 1)
    guard warmup < steps, fitted >= 2 else {
      throw RunError(
        "a soak of \(steps) steps sampled every \(every) after a warm-up of \(warmup) steps leaves \(max(0, fitted)) sample\(fitted == 1 ? "" : "s") to fit a line through; it needs 2",
        exitCode: .dataError)
    }
    return Plan(every: every, warmup: warmup)
  }
}
