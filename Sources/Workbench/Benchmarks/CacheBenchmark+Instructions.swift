import Measurement
import NormalizedCache
import Results

extension CacheBenchmark {
  /// The instructions of every parse, write (normalize, then merge) and read of the variant's responses
  /// into a fresh store, counted by callgrind: the process must run under it (`run --instructions`
  /// starts such a process). As in the allocation pass, one uncounted write and read come first.
  func countInstructions(into sink: inout MetricSamples, counter: inout InstructionCounter) throws {
    let normalizer = normalizer
    try warmUp(normalizer)
    defer { factory.removeFiles() }
    let store = try factory.make(configuration)
    let reader = makeReader(store)
    var samples = MetricSamples()
    for (index, item) in source.items.enumerated() {
      progress.update("counting instructions, response \(index + 1)/\(source.items.count)")
      let json = try item.json()
      let parse = try counter.counted { try item.parse(json) }
      let normalize = try counter.counted {
        try normalizer.normalize(parse.result, plan: item.plan, writtenAt: configuration.writtenAt)
      }
      let merge = try counter.counted { try store.merge(records: normalize.result.records) }
      let read = try counter.counted { try reader.read(item.plan) }
      samples.append(Double(parse.instructions), to: .parseInstructions)
      samples.append(Double(normalize.instructions + merge.instructions), to: .writeInstructions)
      samples.append(Double(normalize.instructions), to: .normalizeInstructions)
      samples.append(Double(merge.instructions), to: .mergeInstructions)
      samples.append(Double(read.instructions), to: .readInstructions)
      if let clock = configuration.clock {
        // The same read with a clock, permissive as the timed one (docs/ttl.md#what-dates-cost).
        let timed = try counter.counted { try reader.read(item.plan, clock: .permissive(at: clock.startAt)) }
        samples.append(Double(timed.instructions), to: .ttlInstructions)
      }
    }
    if let clock = configuration.clock { try countRefresh(store, clock: clock, into: &samples, counter: &counter) }
    sink.append(contentsOf: samples)
  }

  /// The merges of every response again, unchanged: first all at the date the store holds
  /// (nothing moves, as without dates), then all a step later (every date moves), as the timed
  /// refresh does. The first pass changes nothing, so the second finds the store as without it.
  private func countRefresh(
    _ store: any NormalizedCache, clock: WriteClock, into samples: inout MetricSamples, counter: inout InstructionCounter
  ) throws {
    let normalizer = normalizer
    for (metric, date) in [(Metric.refreshSameDateInstructions, clock.startAt), (.refreshInstructions, clock.time(atStep: 1))] {
      for (index, item) in source.items.enumerated() {
        progress.update("counting instructions, unchanged refetch \(index + 1)/\(source.items.count)")
        let records = try normalizer.normalize(try item.response(), plan: item.plan, writtenAt: date).records
        let merge = try counter.counted { try store.merge(records: records) }
        samples.append(Double(merge.instructions), to: metric)
      }
    }
  }
}
