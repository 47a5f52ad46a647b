import Results
import Workloads

/// Every configuration of a workload, in the one order a run measures them: variant × store ×
/// strategy, the limit stores included (docs/command-line.md#run). The executor runs it (its
/// `--shard` share), `run --shard` counts it, `merge` checks the parts against it, and the paired
/// run's worker steps its cache configurations in it.
///
/// ```swift
/// let sequence = try ConfigurationSequence(workload)
/// sequence.count                         // what run --shard splits
/// sequence.entries.filter { sequence.measures($0, in: shard).mine }
/// ```
package struct ConfigurationSequence {
  /// One configuration: where it sits in the run, and what it is made of.
  package struct Entry {
    /// Its place in the run's order, from 0: what `--shard` numbers.
    package let position: Int
    package let variant: Workload.Variant
    package let spec: StoreSpec
    package let strategy: NamedStrategy

    package var id: ConfigurationID { ConfigurationID(variant: variant.name, store: spec.label, keys: strategy.name) }

    /// The limit store's configuration this one is measured against (`"limits": true`), if any.
    package var limitID: ConfigurationID? {
      spec.limit.map { ConfigurationID(variant: variant.name, store: $0.label, keys: strategy.name) }
    }
  }

  /// The configurations of each variant, in order: a variant's source is prepared once for all.
  package let variants: [(variant: Workload.Variant, entries: [Entry])]

  /// - Throws: ``WorkloadError`` for a sweep value the generator refuses.
  package init(_ workload: Workload) throws {
    var position = 0
    var variants: [(Workload.Variant, [Entry])] = []
    for variant in workload.variants {
      var entries: [Entry] = []
      for spec in variant.stores {
        for strategy in Self.strategies(for: variant.source, workload: workload) {
          entries.append(Entry(position: position, variant: variant, spec: spec, strategy: strategy))
          position += 1
        }
      }
      variants.append((variant, entries))
    }
    self.variants = variants
  }

  /// The strategies a source is measured under: the workload's, or for the sources without
  /// operations (the store-level benchmark, whose records are keyed `Item:N` as a type policy keys
  /// them, and Apollo's Tier-2 scenarios, whose records carry keys of their own) `typePolicy` alone.
  static func strategies(for source: Workload.Source, workload: Workload) -> [NamedStrategy] {
    if source.noOperations != nil { return [NamedStrategy(name: "typePolicy", strategy: .typePolicy)] }
    return workload.keys
  }

  /// Every configuration, in order.
  package var entries: [Entry] { variants.flatMap(\.entries) }

  package var ids: [ConfigurationID] { entries.map(\.id) }

  /// How many configurations the run has: what `run --shard` splits.
  package var count: Int { variants.reduce(0) { $0 + $1.entries.count } }

  /// Whether `entry` is measured in `shard`'s run (every entry without a shard): its own, or a
  /// limit store of another shard that one of its own is measured against, measured but not its
  /// own (`mine` false).
  package func measures(_ entry: Entry, in shard: Shard?) -> (measured: Bool, mine: Bool) {
    let mine = shard?.contains(entry.position) ?? true
    guard !mine, entry.spec.isLimit, let shard else { return (mine, mine) }
    let needed = variants.contains { variant in
      variant.entries.contains { shard.contains($0.position) && $0.limitID == entry.id }
    }
    return (needed, false)
  }
}
