import Foundation
import NormalizedCache
import Results
import Synchronization
import Testing
import Workloads

@testable import Workbench

/// A store of a package's own, as docs/stores.md writes one: records in a Dictionary behind one
/// lock. It lists its keys and declares nothing else: no budget, no bytes of its own, no pages.
private final class DictionaryStore: KeyEnumerableCache {
  private let table = Mutex<[CacheKey: Record]>([:])

  var capabilities: StoreCapabilities { StoreCapabilities(keyListing: self) }

  func loadRecords(forKeys keys: [CacheKey]) -> [CacheKey: Record] {
    table.withLock { table in
      var found: [CacheKey: Record] = [:]
      for key in keys { if let record = table[key] { found[key] = record } }
      return found
    }
  }

  func merge(records: RecordSet) -> ChangedKeys {
    table.withLock { table in
      var changed = ChangedKeys()
      for record in records {
        if var existing = table[record.key] {
          changed.insert(fields: existing.merge(record), of: record.key)
          table[record.key] = existing
        } else {
          table[record.key] = record
          changed.insertAllFields(of: record)
        }
      }
      return changed
    }
  }

  func removeRecord(for key: CacheKey) { table.withLock { _ = $0.removeValue(forKey: key) } }
  func removeRecords(matching pattern: String) { table.withLock { $0 = $0.filter { !KeyPattern.matches($0.key, pattern) } } }
  func clear() { table.withLock { $0.removeAll() } }
  func allKeys() -> [CacheKey] { table.withLock { Array($0.keys) } }
}

/// Every phase on chains whose backs can do different things: what each measures follows what the
/// back declares (``StoreCapabilities``), and nothing a chain cannot do fails the run.
@Suite("Store capabilities: every phase on a chain, whatever its back")
struct StoreCapabilitiesTests {
  /// Three chains with the same front, in front of a memory store, of a store registered by a
  /// package (`dictionary`), and of SQLite; every phase: writes, reads, point lookups, the
  /// traffic with garbage collection, reads on several threads.
  static let workload = #"""
    {"name": "chains", "seed": 5, "recorded": {"schema": [], "operations": [
       {"document": "a.graphql", "operationName": "A", "response": "a.json"},
       {"document": "c.graphql", "operationName": "C", "response": "c.json"}]},
     "keys": ["path"],
     "stores": [
       {"kind": "chain", "front": {"kind": "memory", "maxSizeBytes": "60%"}, "back": {"kind": "memory"}, "label": "chain-memory"},
       {"kind": "chain", "front": {"kind": "memory", "maxSizeBytes": "60%"}, "back": {"kind": "dictionary"}, "label": "chain-dictionary"},
       {"kind": "chain", "front": {"kind": "memory", "maxSizeBytes": "60%"}, "back": {"kind": "sqlite"}, "label": "chain-sqlite"}],
     "repetitions": 1, "warmup": 0,
     "read": {"pointLookups": 5, "fieldPolicyLookups": 0},
     "traffic": {"steps": 60, "refetchShare": 0.2, "watchers": 1},
     "concurrency": {"readers": [1, 2], "writers": 1, "operations": 8}}
    """#

  /// The workload, loaded (and so validated) with `dictionary` registered, and run (on the two
  /// operations of ``ConcurrencyPhaseTests``).
  static func run() throws -> WorkloadResult {
    var registry = Registry.builtIn
    registry.stores.register("dictionary") { _ in DictionaryStore() }
    return try ConcurrencyPhaseTests.run(workload, registry: registry)
  }

  @Test("each chain gets the phases its back can do, and no run fails for what a back cannot do")
  func everyPhase() throws {
    let result = try Self.run()
    func samples(_ store: String) throws -> MetricSamples {
      try #require(result.configurations.first { $0.scope.store == store && $0.scope.readers == nil }).samples
    }
    for store in ["chain-memory", "chain-dictionary", "chain-sqlite"] {
      let samples = try samples(store)
      // Every chain: writes, reads, lookups, the session, its tiers and its front's budget,
      // garbage collection (each back lists its keys), and the concurrency phase's runs.
      for metric: Metric in [.records, .readLatency, .pointLookup, .trafficHitRatio, .frontHitRatio, .budgetBytes, .gcRecordsRemoved] {
        #expect(!samples[metric].isEmpty, "\(store): \(metric)")
      }
      let runs = result.configurations.filter { $0.scope.store == store && ConcurrencyTable.isConcurrency($0) }
      #expect(runs.map(\.scope.readers) == [1, 2], "\(store)")
      #expect(runs.allSatisfy { !$0.samples[.readLockWait].isEmpty }, "\(store): the chain's lock waits")
    }
    // A back that accounts its bytes makes the chain a bounded store; the registered one does not.
    #expect(!(try samples("chain-memory"))[.peakStoreBytes].isEmpty)
    #expect(!(try samples("chain-sqlite"))[.peakStoreBytes].isEmpty)
    #expect(try samples("chain-dictionary")[.peakStoreBytes].isEmpty)
    // Its footprint: the back's own where it measures itself, else counted by the workbench.
    #expect(!(try samples("chain-memory"))[.footprint("front_accounted_bytes")].isEmpty)
    #expect(try samples("chain-dictionary")[.footprint("front_accounted_bytes")].isEmpty)
    // Counted, it finds the 3 records besides QUERY_ROOT (QUERY_ROOT.a, QUERY_ROOT.a.b,
    // QUERY_ROOT.c), as the memory back's own footprint does.
    #expect(try samples("chain-dictionary")[.records] == [3])
    #expect(try samples("chain-memory")[.records] == [3])
    // The disk: only behind SQLite's pages; a chain with a back in memory has no disk rows.
    #expect(!(try samples("chain-sqlite"))[.fileBytes].isEmpty)
    #expect(try samples("chain-memory").metrics.allSatisfy { $0.phase != .disk })
    #expect(try samples("chain-dictionary").metrics.allSatisfy { $0.phase != .disk })
  }

  @Test("a chain declares what its back can do, and the conformances of a chain follow its back")
  func chainCapabilities() throws {
    let memoryBack = ChainedNormalizedCache(front: InMemoryNormalizedCache(), back: InMemoryNormalizedCache())
    let dictionaryBack = ChainedNormalizedCache(
      front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 5_000)), back: DictionaryStore())
    #expect(memoryBack.capabilities.bounded != nil)
    #expect(memoryBack.capabilities.footprint != nil)
    #expect(memoryBack.capabilities.pages == nil)
    #expect(dictionaryBack.capabilities.bounded == nil)
    #expect(dictionaryBack.capabilities.footprint == nil)
    #expect(dictionaryBack.capabilities.tiers?.frontBudget?.maxSizeBytes == 5_000)
    // The chain's keys are its back's, also where the front holds no copy.
    _ = try dictionaryBack.back.merge(records: RecordSet(records: [Record(key: "QUERY_ROOT", ["a": 1]), Record(key: "Item:1", ["b": 2])]))
    #expect(try Set(dictionaryBack.allKeys()) == ["QUERY_ROOT", "Item:1"])
    #expect(try Set(#require(dictionaryBack.capabilities.keyListing).allKeys()) == ["QUERY_ROOT", "Item:1"])
  }
}
