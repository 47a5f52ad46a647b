import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import Support
import Testing

@testable import Measurement
@testable import Workbench

/// The estimate of what a run holds (``GeneratorConfig/HeldMemory``) against what building it
/// allocates. A whole `run` in process would measure the harness and the stores' machinery as
/// well, and other suites' threads besides; this measures, on this thread alone (jemalloc's
/// per-thread counters, live bytes = allocated − deallocated), the peak of building what a run
/// holds through the calls the run makes: ``PreparedSource/generated(seed:config:progress:)``
/// (generator, schema, operations, plans, kept responses), then every response normalized and
/// merged into one store's records (a ``RecordSet``), under `path` and under `typePolicy` in turn.
@Suite("What a run holds, estimated")
struct HeldMemoryTests {
  /// The most bytes live at once on this thread while `body` runs, sampled at each `sample()`.
  final class PeakMeter {
    let counters: ThreadAllocationCounters
    let start: UInt64
    private(set) var peak = 0

    init() throws {
      counters = try Jemalloc.threadCounters()
      start = counters.allocated &- counters.deallocated
    }

    func sample() {
      peak = max(peak, Int(truncatingIfNeeded: counters.allocated &- counters.deallocated &- start))
    }
  }

  /// The peak of building what a run of `config` holds, its records under `strategy`.
  static func peak(seed: UInt64, config: GeneratorConfig, strategy: KeyStrategy) throws -> Int {
    let meter = try PeakMeter()
    let source = try PreparedSource.generated(seed: seed, config: config, progress: Progress(enabled: false))
    meter.sample()
    var records = RecordSet()
    let normalizer = Normalizer(strategy: strategy)
    for item in source.items {
      let normalized = try normalizer.normalize(try item.response(), plan: item.plan)
      records.merge(records: normalized.records)
      meter.sample()
    }
    withExtendedLifetime((source, records)) {}
    return meter.peak
  }

  /// Generator settings drawn small: every knob, `narrowReads` and `cacheControl` a quarter of the
  /// time each; nil when they do not validate.
  static func draw(_ random: inout SplitMix64) -> GeneratorConfig? {
    var config = GeneratorConfig()
    config.responses = random.int(in: 1...60)
    config.operations = random.int(in: 1...12)
    config.depth = random.int(in: 1...4)
    config.fanOut = random.int(in: 1...3)
    let listMin = random.int(in: 0...3)
    config.listLength = .init(listMin, random.int(in: listMin...6))
    config.listShare = random.double()
    config.types = random.int(in: 1...80)
    config.fieldsPerType = random.int(in: 1...40)
    config.poolSize = random.int(in: 1...50)
    config.duplication = random.double()
    config.zipf = random.double() * 2
    config.keyedShare = random.double()
    config.compositeKeyShare = random.double()
    config.interfaces = random.int(in: 0...3)
    config.unions = random.int(in: 0...3)
    let stringMin = random.int(in: 0...30)
    config.stringLength = .init(stringMin, random.int(in: stringMin...200))
    if random.chance(percent: 25) { config.cacheControl = CacheControlConfig() }
    if random.chance(percent: 25) {
      let of = random.int(in: 1...80)
      config.narrowReads = NarrowReadsConfig(fields: random.int(in: 1...of), share: random.double())
      config.fieldsPerType = of
      config.listLength = .init(listMin, random.int(in: listMin...12))
    }
    return (try? config.validate()) == nil ? nil : config
  }

  /// The estimate bounds memory: the peak is at most twice it. It is no wild overestimate either
  /// (which would refuse what runs): the peak is at least a quarter of it. A response estimate is
  /// a mean over the operations drawn, so one or two operations may make responses a third the
  /// size; the bound below is looser than the one above for that.
  @Test("building what a run holds peaks within 2× of the estimate, over random small settings")
  func withinTwice() throws {
    let seed = ProcessInfo.processInfo.environment["CACHEBENCH_SEED"].flatMap { UInt64($0) } ?? 0x4E1D_2026
    var random = SplitMix64(seed: seed)
    var measured = 0
    while measured < 16 {
      guard let config = Self.draw(&random) else { continue }
      let estimate = config.estimate.held.total
      // Small enough to build in a moment on a busy runner.
      guard estimate < 20e6 else { continue }
      measured += 1
      let settingsSeed = random.next()
      let peak = try [KeyStrategy.path, .typePolicy].map { try Self.peak(seed: settingsSeed, config: config, strategy: $0) }.max()!
      let ratio = Double(peak) / estimate
      #expect(
        (0.25...2).contains(ratio),
        "seed \(seed) (CACHEBENCH_SEED), draw \(measured): peak \(peak) B against \(config.estimate.held) for \(JSONWriter.string(.object(config.json)))"
      )
    }
  }

  @Test(
    "the estimate counts the schema and the operations: types 3000 of 500 fields and 2 responses hold their schema and operations; 10,000 types are refused"
  )
  func schemaAndOperationsCount() {
    var config = GeneratorConfig()
    config.types = 3000
    config.narrowReads = NarrowReadsConfig(fields: 3, share: 0.5)
    config.fieldsPerType = 500
    config.responses = 2
    let held = config.estimate.held
    // It peaked at 1.6 GB of resident memory; 10,000 types at 5.1 GB.
    #expect(held.schema + held.operations > 500e6)
    #expect(held.responses < 1e6)
    config.types = 10_000
    #expect(config.tooLarge?.hasPrefix("a run would hold about 3 GB") == true, "\(config.tooLarge ?? "nil")")
  }
}
