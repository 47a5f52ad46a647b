import Foundation
import NormalizedCache
import Results
import Testing
import Workloads

@testable import Workbench

/// A recorded workload of two operations, `A` and `B`, each reading one object of its own (keyed
/// by path: `QUERY_ROOT.a`, `QUERY_ROOT.b`), their responses of one length.
private enum TwoOperations {
  static let responseA = #"{"data": {"a": {"__typename": "Item", "id": "1", "name": "xxxxxxxx"}}}"#
  static let responseB = #"{"data": {"b": {"__typename": "Item", "id": "2", "name": "yyyyyyyy"}}}"#
  static var responseBytes: Int { responseA.utf8.count }

  static let files = [
    "a.graphql": "query A { a { __typename id name } }", "b.graphql": "query B { b { __typename id name } }",
    "a.json": responseA, "b.json": responseB,
  ]

  /// The workload with these stores and this traffic section.
  static func workload(stores: String, traffic: String, operations: [String] = ["A", "B"]) -> String {
    let list = operations.map { name in
      #"{"document": "\#(name.lowercased()).graphql", "operationName": "\#(name)", "response": "\#(name.lowercased()).json"}"#
    }
    return #"""
      {"name": "traffic", "seed": 11, "recorded": {"schema": [], "operations": [\#(list.joined(separator: ", "))]},
       "keys": ["path"], "stores": \#(stores), "repetitions": 1, "warmup": 0,
       "read": {"pointLookups": 0, "fieldPolicyLookups": 0}, "traffic": \#(traffic)}
      """#
  }
}

/// Writes the workload and its files into a fresh directory, runs it, and removes the directory.
private func run(_ text: String, files: [String: String] = TwoOperations.files) throws -> WorkloadResult {
  try runWorkload(text, files: files)
}

/// Writes the workload (`w.json`) and its files into a fresh directory, runs it, and removes the
/// directory.
func runWorkload(_ text: String, files: [String: String]) throws -> WorkloadResult {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("traffic-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  for (name, contents) in files { try contents.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
  let path = directory.appendingPathComponent("w.json").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  let info = RunInfo(runID: "test", timestamp: "2026-11-25T00:00:00Z", gitRev: "abc", host: "h")
  return try WorkloadRunner.run(Workload.load(path), options: RunOptions(progress: false), run: info)
}

extension WorkloadResult {
  /// The p50 of one metric of one store (its first configuration: keys `path` here), or of one
  /// store × strategy × variant.
  func value(_ store: String, _ metric: Metric, keys: String? = nil, variant: String? = nil) -> Double? {
    configuration(store, keys: keys, variant: variant)?.summary(metric)?.p50
  }

  /// The sum of a per-step metric's samples.
  func total(_ store: String, _ metric: Metric, keys: String? = nil, variant: String? = nil) -> Double? {
    configuration(store, keys: keys, variant: variant).map { $0.samples[metric].reduce(0, +) }
  }

  func configuration(_ store: String, keys: String? = nil, variant: String? = nil) -> MeasuredConfiguration? {
    configurations.first { measured in
      measured.scope.store == store && (keys == nil || keys == measured.scope.keys)
        && (variant == nil || variant == measured.scope.variant)
    }
  }
}

@Suite("Traffic steps")
struct TrafficStepsTests {
  static func steps(zipf: Double = 1, refetchShare: Double = 0.1, items: Int = 8, seed: UInt64 = 5) -> TrafficSteps {
    var settings = TrafficSettings()
    settings.zipf = zipf
    settings.refetchShare = refetchShare
    return TrafficSteps(settings: settings, items: items, seed: seed)
  }

  static func draw(_ steps: inout TrafficSteps, _ count: Int) -> [TrafficSteps.Step] { (0..<count).map { _ in steps.next() } }

  @Test("one seed, one session: the same steps every time; another seed, other steps")
  func deterministic() {
    var first = Self.steps()
    var second = Self.steps()
    var other = Self.steps(seed: 6)
    let drawn = Self.draw(&first, 500)
    #expect(drawn == Self.draw(&second, 500))
    #expect(drawn != Self.draw(&other, 500))
  }

  @Test("refetchShare 0 only reads, 1 only refetches; 0.25 refetches about a quarter of 4,000 steps")
  func refetchShare() {
    var reads = Self.steps(refetchShare: 0)
    #expect(Self.draw(&reads, 1_000).allSatisfy { if case .read = $0 { true } else { false } })
    var refetches = Self.steps(refetchShare: 1)
    #expect(Self.draw(&refetches, 1_000).allSatisfy { if case .refetch = $0 { true } else { false } })
    var mixed = Self.steps(refetchShare: 0.25)
    let share = Double(Self.draw(&mixed, 4_000).count { if case .refetch = $0 { true } else { false } }) / 4_000
    #expect(abs(share - 0.25) < 0.03)
  }

  @Test("popularity is a permutation of the operations, and Zipf 1 reads the first about 1/k as often as the k-th")
  func popularity() {
    var steps = Self.steps(zipf: 1, refetchShare: 0, items: 8)
    #expect(steps.popularity.sorted() == Array(0..<8))
    var counts = [Int](repeating: 0, count: 8)
    for step in Self.draw(&steps, 20_000) {
      if case .read(let item) = step { counts[item] += 1 }
    }
    let byRank = steps.popularity.map { counts[$0] }
    // Harmonic weights 1, 1/2, ..., 1/8 sum to 2.718: the first is 36.8% of the reads, the fourth 9.2%.
    #expect(abs(Double(byRank[0]) / 20_000 - 0.368) < 0.02)
    #expect(abs(Double(byRank[3]) / 20_000 - 0.092) < 0.015)
    #expect(byRank == byRank.sorted(by: >))
  }

  @Test("Zipf 0 reads every operation alike")
  func uniform() {
    var steps = Self.steps(zipf: 0, refetchShare: 0, items: 4)
    var counts = [Int](repeating: 0, count: 4)
    for step in Self.draw(&steps, 8_000) {
      if case .read(let item) = step { counts[item] += 1 }
    }
    #expect(counts.allSatisfy { abs($0 - 2_000) < 200 })
  }
}

@Suite("Traffic, counted by hand")
struct TrafficByHandTests {
  @Test("one operation, unbounded, 5 reads: the first misses and is fetched, the other 4 hit")
  func oneOperation() throws {
    let result = try run(
      TwoOperations.workload(
        stores: #"[{"kind": "memory"}, {"kind": "sqlite"}]"#, traffic: #"{"steps": 5, "refetchShare": 0}"#, operations: ["A"]))
    for store in ["memory", "sqlite"] {
      #expect(result.value(store, .trafficHitRatio) == 0.8)
      #expect(result.value(store, .partialMissShare) == 0)
      #expect(result.value(store, .fetchedBytes) == Double(TwoOperations.responseBytes))
      #expect(result.total(store, .evictions) == 0)
      #expect(result.configurations.first { $0.scope.store == store }?.samples[.trafficReadLatency].count == 5)
      #expect(result.configurations.first { $0.scope.store == store }?.samples[.trafficWriteLatency].count == 1)
    }
  }

  @Test("refetchShare 1: six refetches, no reads; each one is fetched")
  func onlyRefetches() throws {
    let result = try run(TwoOperations.workload(stores: #"[{"kind": "memory"}]"#, traffic: #"{"steps": 6, "refetchShare": 1}"#))
    #expect(result.value("memory", .trafficHitRatio) == 0)
    #expect(result.value("memory", .fetchedBytes) == Double(6 * TwoOperations.responseBytes))
    #expect(result.configurations[0].samples[.trafficReadLatency].isEmpty)
  }

  /// Under a budget that holds the root and one operation's object but not both, with `lru` and
  /// `evictTo` 1, a read hits exactly when the step before it read the same operation: any other
  /// read missed and wrote its own object, which evicted the other one.
  @Test("a budget of one object: a read hits exactly when the read before it was of the same operation", arguments: ["memory", "sqlite"])
  func oneObjectBudget(kind: String) throws {
    let steps = 60
    let result = try run(
      TwoOperations.workload(
        stores: #"[{"kind": "\#(kind)", "maxSizeBytes": "85%", "evictTo": 1, "policy": "lru"}]"#,
        traffic: #"{"steps": \#(steps), "refetchShare": 0, "zipf": 0, "gc": false}"#))
    var settings = TrafficSettings()
    settings.zipf = 0
    settings.refetchShare = 0
    // The session's steps, as the benchmark draws them (the seed's derivation is the benchmark's).
    var drawn = TrafficSteps(settings: settings, items: 2, seed: 11 ^ 0x7A4F)
    let items = (0..<steps).map { _ -> Int in
      guard case .read(let item) = drawn.next() else { preconditionFailure("no refetches asked") }
      return item
    }
    let hits = (1..<steps).count { items[$0] == items[$0 - 1] }
    let misses = steps - hits
    #expect(hits > 10 && misses > 10, "the session alternates enough to tell")
    #expect(result.value(kind, .trafficHitRatio) == Double(hits) / Double(steps))
    #expect(result.value(kind, .fetchedBytes) == Double(misses * TwoOperations.responseBytes))
    // The first miss evicts nothing; each later one evicts the other operation's object.
    #expect(result.total(kind, .evictions) == Double(misses - 1))
    // A miss found the root only: none is partial.
    #expect(result.value(kind, .partialMissShare) == 0)
  }

  /// The write phase writes A's object, then B's, which evicts A's under a budget of one object:
  /// the store holds one record of the two objects, but the key strategy made two records of
  /// them, as the unbounded store beside it holds.
  @Test("a bounded store's records are those it holds, its object ratio the keys written's", arguments: ["memory", "sqlite"])
  func dedupOfBoundedStore(kind: String) throws {
    let result = try run(
      TwoOperations.workload(
        stores: #"[{"kind": "\#(kind)", "maxSizeBytes": "85%", "evictTo": 1, "label": "bounded"}, {"kind": "\#(kind)"}]"#,
        traffic: #"{"steps": 2, "refetchShare": 0, "gc": false}"#))
    #expect(result.value("bounded", .objects) == 2)
    #expect(result.value("bounded", .records) == 1)
    #expect(result.value("bounded", .objectRatio) == 1)
    #expect(result.value(kind, .records) == 2)
    #expect(result.value(kind, .objectRatio) == 1)
  }
}

@Suite("Size estimates")
struct SizeEstimateTests {
  /// Keys and names grow with the count's digits: 237 bytes a record at 1,000, 254 at 400,000.
  @Test("the store records' estimate per record is within 5% of what the benchmark makes at 100,000 records")
  func storeRecordBytes() {
    for count in [100_000] {
      let records = ItemRecords.make(count: count, seed: 42)
      let bytes = records.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count }
      let perRecord = Double(bytes) / Double(count)
      #expect(abs(perRecord / Double(StoreRecordsConfig.payloadBytesPerRecord) - 1) < 0.05, "\(count): \(perRecord)")
    }
  }

  @Test("store records and traffic sessions are refused past their limits, and allowed within them")
  func limits() {
    var records = StoreRecordsConfig()
    records.count = 7_000_000
    #expect(records.tooLarge == nil)
    records.count = 8_000_000
    #expect(records.tooLarge != nil, "2.03 GB")
    var traffic = TrafficSettings()
    traffic.steps = 20_000
    #expect(traffic.tooLarge(bytesPerResponse: 634_737) == nil, "calendar: 12.7 GB")
    traffic.steps = 40_000
    #expect(traffic.tooLarge(bytesPerResponse: 634_737) != nil, "25.4 GB")
  }
}
