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
      let normalize = try counter.counted { try normalizer.normalize(parse.result, plan: item.plan) }
      let merge = try counter.counted { try store.merge(records: normalize.result.records) }
      let read = try counter.counted { try reader.read(item.plan) }
      samples.append(Double(parse.instructions), to: .parseInstructions)
      samples.append(Double(normalize.instructions + merge.instructions), to: .writeInstructions)
      samples.append(Double(normalize.instructions), to: .normalizeInstructions)
      samples.append(Double(merge.instructions), to: .mergeInstructions)
      samples.append(Double(read.instructions), to: .readInstructions)
    }
    sink.append(contentsOf: samples)
  }
}
