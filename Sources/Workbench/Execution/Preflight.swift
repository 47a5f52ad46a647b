import NormalizedCache
import Results
import Workloads

/// What `run` finds of a workload before it measures that the file alone does not say, found the
/// way `run` finds it, for `validate`: every bounded store is made (a budget given as a share
/// resolved against an unbounded store's size) and every response written into it, so that a
/// record larger than the whole budget, or roots that do not fit in it, is refused at the store's
/// `maxSizeBytes` with the configuration, before anything is measured (docs/command-line.md#validate).
/// Of a sweep of budgets, only the smallest point is written: what fails a budget fails every
/// smaller one.
///
/// ```swift
/// try Preflight.check(workload)   // throws WorkloadError at stores[0].maxSizeBytes for "145"
/// ```
package enum Preflight {
  /// - Throws: what a run would throw for the workload's budgets (``WorkloadError``, exit 65),
  ///   or for its responses and stores.
  package static func check(_ workload: Workload) throws {
    let sequence = try ConfigurationSequence(workload)
    let factory = try StoreFactory()
    let checked = variantsToCheck(workload, count: sequence.variants.count)
    for (index, (variant, entries)) in sequence.variants.enumerated()
    where checked.contains(index) && entries.contains(where: \.spec.isBounded) {
      let prepared = try PreparedVariant(variant.source, workload: workload, progress: Progress(enabled: false))
      guard case .responses(let source) = prepared else { continue }
      // Stores that differ only in their eviction policy keep the same records within a budget or
      // fail it alike: one of them is written.
      var written: Set<Written> = []
      var normalized: [Normalized: [RecordSet]] = [:]
      for entry in entries where entry.spec.isBounded {
        let configuration = Configuration(entry, source: prepared)
        let kind = Normalized(strategy: entry.strategy.name, writtenAt: configuration.writtenAt)
        guard case .cache(let maker) = entry.spec.role,
          written.insert(Written(maker: maker.identity, size: maker.budget?.size, records: kind)).inserted
        else { continue }
        do {
          let records = try normalized[kind] ?? normalize(source, under: entry.strategy, writtenAt: kind.writtenAt)
          normalized[kind] = records
          let store = try factory.make(configuration)
          for recordSet in records { _ = try store.merge(records: recordSet) }
        } catch {
          throw Executor.reported(error, configuration: configuration, workload: workload, phase: "write")
        }
        factory.removeFiles()
      }
    }
  }

  /// A store written under a strategy: what its budget check depends on.
  private struct Written: Hashable {
    let maker: StoreMaker.Identity
    let size: BudgetOption.Size?
    let records: Normalized
  }

  /// The records of every response under a strategy, dated or not.
  private struct Normalized: Hashable {
    let strategy: String
    let writtenAt: Int?
  }

  /// The variants worth writing: all, except in a sweep of budgets given all as shares or all in
  /// bytes, where the smallest alone can fail. A record or the roots past a budget are past every
  /// smaller one, and the sweep gives every store the same value.
  static func variantsToCheck(_ workload: Workload, count: Int) -> Set<Int> {
    let all = Set(0..<count)
    guard let sweep = workload.sweep, case .budget = sweep.knob, sweep.values.count == count else { return all }
    let sizes = sweep.values.map { value -> (share: Bool, size: Double)? in
      switch value {
      case .int(let bytes): (false, Double(bytes))
      case .double(let bytes): (false, bytes)
      case .string(let text) where text.hasSuffix("%"): Double(text.dropLast()).map { (true, $0) }
      default: nil
      }
    }
    guard let first = sizes.first, let kind = first?.share, sizes.allSatisfy({ $0?.share == kind }) else { return all }
    let smallest = sizes.indices.min { sizes[$0]!.size < sizes[$1]!.size }!
    return [smallest]
  }

  /// Every response's records under `strategy`, written at `writtenAt` (nil: without dates).
  private static func normalize(_ source: PreparedSource, under strategy: NamedStrategy, writtenAt: Int?) throws -> [RecordSet] {
    let normalizer = Normalizer(strategy: strategy.strategy)
    return try source.items.map { try normalizer.normalize(try $0.response(), plan: $0.plan, writtenAt: writtenAt).records }
  }
}
