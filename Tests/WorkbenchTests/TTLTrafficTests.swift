import Foundation
import NormalizedCache
import Results
import Testing
import Workloads

@testable import Workbench

/// Two operations, `A` and `B`, each reading the same `Item:1` under its own root field; `Item`'s
/// fields (`__typename`, `id`, `name`: leaves, which inherit the type's `maxAge`) expire after 100
/// seconds, the root fields never (an object-typed field does not inherit).
private enum SharedItem {
  static let schema = """
    type Query { a: Item  b: Item }
    type Item { id: ID!  name: String }
    directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE
    directive @cacheControl(maxAge: Int, inheritMaxAge: Boolean) on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | FIELD
    extend type Item @typePolicy(keyFields: "id") @cacheControl(maxAge: 100)
    """
  static let responseA = #"{"data": {"a": {"__typename": "Item", "id": "1", "name": "x"}}}"#
  static let files = [
    "schema.graphqls": schema, "a.graphql": "query A { a { __typename id name } }", "b.graphql": "query B { b { __typename id name } }",
    "a.json": responseA, "b.json": #"{"data": {"b": {"__typename": "Item", "id": "1", "name": "x"}}}"#,
  ]
  static var responseBytes: Int { responseA.utf8.count }
  /// Fields a read of either operation finds expired when its item's are: `__typename`, `id`, `name`.
  static let expiringFields = 3

  static func workload(
    stores: String, keys: String = #"["path"]"#, traffic: String, sweep: String? = nil, operations: [String] = ["A", "B"]
  ) -> String {
    let list = operations.map { name in
      #"{"document": "\#(name.lowercased()).graphql", "operationName": "\#(name)", "response": "\#(name.lowercased()).json"}"#
    }
    return #"""
      {"name": "ttl", "seed": 5, "recorded": {"schema": ["schema.graphqls"], "operations": [\#(list.joined(separator: ", "))]},
       "keys": \#(keys), "stores": \#(stores), "repetitions": 1, "warmup": 0,
       "read": {"pointLookups": 0, "fieldPolicyLookups": 0}, "traffic": \#(traffic)\#(sweep.map { #", "sweep": \#($0)"# } ?? "")}
      """#
  }

  static func run(_ text: String) throws -> WorkloadResult { try runWorkload(text, files: files) }
}

@Suite("Traffic with dates (docs/ttl.md#traffic-with-dates)")
struct TTLTrafficTests {
  /// One operation read at every step, `Item` fresh for 100 seconds. At 60 seconds a step: step 0
  /// misses (nothing there) and fetches; the read 60 s after a write is fresh, the one 120 s after
  /// it expired (written at w, expired when w + 100 < now), so from step 1 reads alternate hit,
  /// TTL miss: steps 1, 3, 5, 7, 9 hit; 2, 4, 6, 8 miss. At 50 seconds a step the read 100 s
  /// after a write is at the boundary, fresh: from step 1, two hits then a TTL miss (steps 3, 6, 9).
  @Test("one operation by hand: 60 s a step alternates hit and TTL miss; at 50 s the read at writtenAt + maxAge is fresh")
  func oneOperationStrict() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}, {"kind": "memory"}]"#,
        traffic: #"{"steps": 10, "refetchShare": 0, "gc": false}"#, sweep: #"{"traffic.secondsPerStep": [60, 50]}"#,
        operations: ["A"]))
    let bytes = Double(SharedItem.responseBytes)
    for (variant, ttlMisses) in [("secondsPerStep=60", 4.0), ("secondsPerStep=50", 3.0)] {
      #expect(result.value("dated", .ttlMissShare, variant: variant) == ttlMisses / 10)
      #expect(result.value("dated", .trafficHitRatio, variant: variant) == (9 - ttlMisses) / 10)
      #expect(result.value("dated", .staleShare, variant: variant) == 0)
      #expect(result.value("dated", .expiredFields, variant: variant) == ttlMisses * Double(SharedItem.expiringFields) / 10)
      #expect(result.value("dated", .fetchedBytes, variant: variant) == (1 + ttlMisses) * bytes)
      #expect(result.value("dated", .ttlFetchedBytes, variant: variant) == ttlMisses * bytes)
      #expect(result.value("dated", .partialMissShare, variant: variant) == 0)
      // Without dates nothing expires: one miss, then hits; and no rows of the TTL.
      #expect(result.value("memory", .trafficHitRatio, variant: variant) == 0.9)
      #expect(result.value("memory", .ttlMissShare, variant: variant) == nil)
    }
  }

  @Test("permissive: the expired reads are served stale and revalidated, fetching what strict fetches")
  func oneOperationPermissive() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "sqlite", "dates": true, "label": "dated"}]"#,
        traffic: #"{"steps": 10, "refetchShare": 0, "gc": false, "ttl": "permissive"}"#, operations: ["A"]))
    let bytes = Double(SharedItem.responseBytes)
    #expect(result.value("dated", .staleShare) == 0.4)
    #expect(result.value("dated", .ttlMissShare) == 0)
    #expect(result.value("dated", .trafficHitRatio) == 0.9)
    #expect(result.value("dated", .expiredFields) == 4 * Double(SharedItem.expiringFields) / 10)
    #expect(result.value("dated", .fetchedBytes) == 5 * bytes)
    #expect(result.value("dated", .ttlFetchedBytes) == 4 * bytes)
  }

  /// The session's steps as the benchmark draws them (the seed's derivation is the benchmark's),
  /// and a reference of the rules: a read misses when its root field was never written; else it is
  /// a TTL miss when its item was last written more than 100 seconds before; a miss and a refetch
  /// write. Under typePolicy both operations write the one `Item:1`; under path each its own copy.
  static func reference(steps count: Int, secondsPerStep: Int, shared: Bool) -> (reads: Int, hits: Int, ttlMisses: Int) {
    var settings = TrafficSettings()
    settings.zipf = 0
    settings.refetchShare = 0.2
    var steps = TrafficSteps(settings: settings, items: 2, seed: 5 ^ 0x7A4F)
    var rootWritten: Set<Int> = []
    var itemWritten: [Int: Int] = [:]
    var tally = (reads: 0, hits: 0, ttlMisses: 0)
    for step in 0..<count {
      let now = step * secondsPerStep
      func write(_ item: Int) {
        rootWritten.insert(item)
        itemWritten[shared ? 0 : item] = now
      }
      switch steps.next() {
      case .refetch(let item):
        write(item)
      case .read(let item):
        tally.reads += 1
        if !rootWritten.contains(item) {
          write(item)
        } else if itemWritten[shared ? 0 : item]! + 100 < now {
          tally.ttlMisses += 1
          write(item)
        } else {
          tally.hits += 1
        }
      }
    }
    return tally
  }

  @Test("two operations reaching one item: typePolicy's one record is refreshed by either's write, path's copies age alone")
  func sharedRecord() throws {
    let steps = 400
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}]"#, keys: #"["path", "typePolicy"]"#,
        traffic: #"{"steps": \#(steps), "refetchShare": 0.2, "zipf": 0, "churn": 0, "gc": false, "secondsPerStep": 40}"#))
    var shares: [String: Double] = [:]
    for (keys, shared) in [("path", false), ("typePolicy", true)] {
      let expected = Self.reference(steps: steps, secondsPerStep: 40, shared: shared)
      #expect(result.value("dated", .ttlMissShare, keys: keys) == Double(expected.ttlMisses) / Double(expected.reads))
      #expect(result.value("dated", .trafficHitRatio, keys: keys) == Double(expected.hits) / Double(expected.reads))
      shares[keys] = Double(expected.ttlMisses) / Double(expected.reads)
    }
    #expect(shares["typePolicy"]! < shares["path"]!, "\(shares)")
  }

  @Test("strict and permissive write the same responses at the same steps: a strict TTL miss is a permissive stale hit")
  func modesAgree() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores:
          #"[{"kind": "memory", "dates": true, "label": "dated"}, {"kind": "sqlite", "layout": "apollo", "dates": true, "label": "apollo"}]"#,
        keys: #"["path", "typePolicy"]"#, traffic: #"{"steps": 300, "refetchShare": 0.1, "zipf": 0, "gc": false}"#,
        sweep: #"{"traffic.ttl": ["strict", "permissive"]}"#))
    for store in ["dated", "apollo"] {
      for keys in ["path", "typePolicy"] {
        func value(_ metric: Metric, _ mode: String) -> Double { result.value(store, metric, keys: keys, variant: "ttl=\(mode)") ?? -1 }
        #expect(value(.ttlMissShare, "strict") > 0.1)
        #expect(value(.staleShare, "permissive") == value(.ttlMissShare, "strict"))
        #expect(abs(value(.trafficHitRatio, "permissive") - (value(.trafficHitRatio, "strict") + value(.ttlMissShare, "strict"))) < 1e-12)
        #expect(value(.fetchedBytes, "permissive") == value(.fetchedBytes, "strict"))
        #expect(value(.ttlFetchedBytes, "permissive") == value(.ttlFetchedBytes, "strict"))
        #expect(value(.expiredFields, "permissive") == value(.expiredFields, "strict"))
      }
    }
  }
}

@Suite("Dates in the write and read phases (docs/ttl.md#what-dates-cost)")
struct DatedPhasesTests {
  static let workload = #"""
    {"name": "dated", "seed": 3,
     "generator": {"responses": 6, "operations": 3, "depth": 2, "types": 4, "poolSize": 8,
                   "cacheControl": {"share": 0.5, "maxAge": {"min": 60, "max": 600}, "zeroShare": 0.1}},
     "keys": ["path", "typePolicy"],
     "stores": [{"kind": "memory"}, {"kind": "memory", "dates": true, "label": "memory-dated"},
                {"kind": "sqlite", "label": "sqlite"}, {"kind": "sqlite", "dates": true, "label": "sqlite-dated"}],
     "repetitions": 2, "warmup": 0, "read": {"pointLookups": 5, "fieldPolicyLookups": 5, "watchers": 3}}
    """#

  @Test("a dated record costs 8 bytes more in memory (an epoch date written at once); the rest of the footprint follows")
  func payload() throws {
    let result = try runWorkload(Self.workload, files: [:])
    for keys in ["path", "typePolicy"] {
      let undated = try #require(result.value("memory", .payloadBytes, keys: keys))
      let dated = try #require(result.value("memory-dated", .payloadBytes, keys: keys))
      // Every record the writes left, the root among them: the dated count's plus one.
      let records = try #require(result.value("memory", .records, keys: keys)) + 1
      #expect(dated - undated == 8 * records)
      #expect(result.value("memory-dated", .records, keys: keys) == records - 1)
      #expect(try #require(result.value("sqlite-dated", .payloadBytes, keys: keys)) > result.value("sqlite", .payloadBytes, keys: keys)!)
    }
  }

  @Test("only a dated store has the ttl and refresh rows: a read with a clock per read-back, two unchanged merges per write")
  func rows() throws {
    let result = try runWorkload(Self.workload, files: [:])
    for store in ["memory", "memory-dated", "sqlite", "sqlite-dated"] {
      let measured = try #require(result.configuration(store, keys: "typePolicy"))
      let dated = store.hasSuffix("dated")
      #expect(measured.samples[.ttlLatency].count == (dated ? 12 : 0))
      #expect(measured.samples[.refreshLatency].count == (dated ? 12 : 0))
      #expect(measured.samples[.refreshSameDateLatency].count == (dated ? 12 : 0))
      #expect(measured.samples[.readLatency].count == 12)
    }
  }

  @Test("a refetch that moves only dates wakes no watcher: the watch phase's rows are the undated store's")
  func watchers() throws {
    let result = try runWorkload(Self.workload, files: [:])
    for (store, keys) in [("memory", "path"), ("memory", "typePolicy"), ("sqlite", "typePolicy")] {
      let undated = try #require(result.configuration(store, keys: keys))
      let dated = try #require(result.configuration(store + "-dated", keys: keys))
      #expect(!undated.samples[.invalidations].isEmpty)
      #expect(dated.samples[.invalidations] == undated.samples[.invalidations])
      #expect(dated.samples[.changedShare] == undated.samples[.changedShare])
    }
  }
}

/// Watched operations under TTL, as ADR 0004 decides (docs/ttl.md#watchers-under-ttl), on
/// ``SharedItem`` (`Item` fresh for 100 seconds), counted by hand.
@Suite("Traffic with dates: watched operations (docs/ttl.md#watchers-under-ttl)")
struct TTLWatcherTests {
  /// One operation read at every step, watched, 60 s a step. Step 0 misses and fetches at t; its
  /// watcher starts with a read of it: fresh until t + 100, so its timer is at t + 101. At step 2
  /// (t + 120) the timer fires before the step's read: the strict read misses, the watcher fetches
  /// (a write dated t + 120) and its timer moves to t + 221, step 4; then 6 and 8. So the
  /// session's own reads never expire: 9 hits of 10, no TTL miss (4 without the timers).
  @Test("refreshOnExpiry by hand: timers at steps 2, 4, 6 and 8 fetch before the reads would expire; 24 fetches a watched hour")
  func refreshOnExpiry() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}]"#,
        traffic: #"{"steps": 10, "refetchShare": 0, "gc": false, "watchers": 1, "refreshOnExpiry": true}"#, operations: ["A"]))
    let bytes = Double(SharedItem.responseBytes)
    #expect(result.value("dated", .trafficHitRatio) == 0.9)
    #expect(result.value("dated", .ttlMissShare) == 0)
    // One watched operation over 10 steps of a minute: a sixth of a watched hour.
    #expect(result.value("dated", .watcherRefetchesPerHour) == 24)
    #expect(result.value("dated", .watcherFetchedBytes) == 4 * bytes)
    #expect(result.value("dated", .watcherTimerFetchShare) == 1)
    #expect(result.value("dated", .fetchedBytes) == 5 * bytes)
    #expect(result.value("dated", .ttlFetchedBytes) == 4 * bytes)
    // Nothing changed a value: no watcher read again, and no fetch woke another.
    #expect(result.value("dated", .watcherRereadsPerHour) == 0)
    #expect(result.value("dated", .wokenPerWatcherRefetch) == 0)
  }

  /// The same session without timers: a watcher never fetches by itself, and the session is the
  /// one without watchers (steps 2, 4, 6 and 8 are TTL misses, as in ``TTLTrafficTests``).
  @Test("without refreshOnExpiry a watcher never fetches: the session's figures are those of no watcher")
  func noTimers() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}]"#,
        traffic: #"{"steps": 10, "refetchShare": 0, "gc": false, "watchers": 1}"#, operations: ["A"]))
    let unwatched = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}]"#,
        traffic: #"{"steps": 10, "refetchShare": 0, "gc": false, "watchers": 0}"#, operations: ["A"]))
    #expect(result.value("dated", .ttlMissShare) == 0.4)
    #expect(result.value("dated", .watcherRefetchesPerHour) == 0)
    #expect(result.value("dated", .watcherFetchedBytes) == 0)
    #expect(result.value("dated", .watcherTimerFetchShare) == nil)
    for metric in [Metric.trafficHitRatio, .ttlMissShare, .fetchedBytes, .ttlFetchedBytes, .expiredFields] {
      #expect(result.value("dated", metric) == unwatched.value("dated", metric), "\(metric)")
    }
    // No watcher, no watcher rows.
    #expect(unwatched.value("dated", .watcherRereadsPerHour) == nil)
  }

  /// Every step a refetch of A that changes its values (churn 1): step 0 writes A, and its watcher
  /// starts with a read; each of steps 1 to 4 changes `name`, which it read: 4 re-reads in 5 steps
  /// of a minute, 48 a watched hour, under either key strategy.
  @Test("a watcher reads again, permissively, on every write that changes a key it read: 48 re-reads a watched hour")
  func rereadOnChange() throws {
    let result = try SharedItem.run(
      SharedItem.workload(
        stores: #"[{"kind": "memory", "dates": true, "label": "dated"}]"#, keys: #"["path", "typePolicy"]"#,
        traffic: #"{"steps": 5, "refetchShare": 1, "churn": 1, "gc": false, "watchers": 1}"#, operations: ["A"]))
    for keys in ["path", "typePolicy"] {
      #expect(result.value("dated", .watcherRereadsPerHour, keys: keys) == 48)
      #expect(result.value("dated", .watcherRefetchesPerHour, keys: keys) == 0)
    }
  }
}
