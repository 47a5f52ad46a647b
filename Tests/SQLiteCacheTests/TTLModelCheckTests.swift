import NormalizedCache
import NormalizedCacheConformance
import Testing

@testable import SQLiteCache

/// Every SQLite layout, on a file in WAL mode and in `:memory:`, against the reference model of
/// time in the cache (docs/ttl.md#reads-with-a-clock): dated merges (a wide record's dates in
/// the compact layout's marker), values and dates loaded back, reads with a clock.
@Suite("TTL model check on SQLite")
struct SQLiteTTLModelCheckTests {
  static let configurations = StoreConfiguration.all.filter {
    if case .sqlite(_, _, .wal) = $0.kind { return true }
    return false
  }

  @Test("each layout agrees with the model over 3,000 steps, under type policies and path keys", arguments: configurations)
  func agreesWithModel(configuration: StoreConfiguration) throws {
    for (strategy, seed): (KeyStrategy, UInt64) in [(.typePolicy, 3), (.path, 4)] {
      let directory = try TemporaryDirectory()
      let failure = try TTLModelCheck.run(strategy: strategy, seed: seed, steps: 3_000, promises: configuration.promises) {
        try configuration.makeSQLiteStore(in: directory)
      }
      #expect(failure == nil, "\(strategy.name), seed \(seed)")
    }
  }
}
