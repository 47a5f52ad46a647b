import NormalizedCache
import NormalizedCacheConformance
import ShopCache
import Testing

@Suite("The shop's LRU store")
struct LRUDictionaryStoreTests {
  @Test(
    "evicts what cachebench's reference model evicts, over 3,000 random steps",
    arguments: [
      CacheBudget(maxSizeBytes: 2_500, evictTo: 1, policy: .lru),
      CacheBudget(maxSizeBytes: 3_000, evictTo: 0.6, policy: .lru),
    ])
  func agreesWithModel(budget: CacheBudget) throws {
    for seed: UInt64 in [1, 2] {
      let failure = try EvictionModelCheck.run(
        budget: budget, accountedBytes: ReferenceEviction.keyAndFields(overhead: LRUDictionaryStore.recordOverheadBytes),
        seed: seed, steps: 3_000
      ) { LRUDictionaryStore(budget: $0) }
      #expect(failure == nil, "seed \(seed)")
    }
  }

  @Test("keeps each field's date and reads with a clock as cachebench's reference model says, over 3,000 random steps")
  func agreesWithTTLModel() throws {
    let failure = try TTLModelCheck.run(seed: 1, steps: 3_000) { LRUDictionaryStore() }
    #expect(failure == nil)
  }

  @Test("keeps cachebench's store contract: loads, field-by-field merges, changed keys, removals, clear")
  func conforms() throws {
    #expect(try StoreConformance.run { LRUDictionaryStore() } == [])
    #expect(try StoreConformance.run { LRUDictionaryStore(budget: CacheBudget(maxSizeBytes: 1 << 30)) } == [])
  }
}
