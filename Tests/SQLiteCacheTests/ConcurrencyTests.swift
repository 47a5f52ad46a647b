import Foundation
import GraphQLLanguage
import NormalizedCache
import Testing

@testable import SQLiteCache

/// The store is shared between threads: writes one at a time, reads beside them where the store can.
@Suite("Concurrency")
struct ConcurrencyTests {
  /// Eight OS threads, not tasks: the cooperative pool has one thread per core (two here), so
  /// tasks would never have eight calls in flight at once.
  @Test("merges and loads from 8 threads at once all land", arguments: StoreConfiguration.all)
  func concurrentMergesAndLoads(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let threads = 8
    let recordsPerThread = 100
    let lock = NSLock()
    nonisolated(unsafe) var changedTotal = 0
    nonisolated(unsafe) var failures: [String] = []
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      let worker = Thread {
        defer { group.leave() }
        do {
          var changedCount = 0
          for start in stride(from: 0, to: recordsPerThread, by: 10) {
            let records = (start..<start + 10).map { index in
              Record(key: "Item:\(thread)-\(index)", ["task": .int(thread), "shared": .reference("Shared:1")])
            }
            changedCount += try store.merge(records: RecordSet(records: records)).count
            // Every thread writes the shared record too: only the first write of each value changes it.
            try store.merge(records: RecordSet(records: [Record(key: "Shared:1", ["lastTask": .int(thread % 2)])]))
            let loaded = try store.loadRecords(forKeys: records.map(\.key) + ["Shared:1"])
            if loaded.count != 11 { throw StoreFailure("thread \(thread) loaded \(loaded.count) of 11") }
            _ = try store.recordCount()
          }
          lock.lock()
          changedTotal += changedCount
          lock.unlock()
        } catch {
          lock.lock()
          failures.append("\(error)")
          lock.unlock()
        }
      }
      worker.start()
    }
    group.wait()
    #expect(failures.isEmpty, "\(failures)")
    #expect(changedTotal == threads * recordsPerThread * 2)
    #expect(try store.recordCount() == threads * recordsPerThread + 1)
    let keys = (0..<threads).flatMap { thread in (0..<recordsPerThread).map { "Item:\(thread)-\($0)" } }
    #expect(try store.loadRecords(forKeys: keys).count == keys.count)
  }

  struct StoreFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  @Test("two caches on one file share records and field numbers")
  func twoConnections() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.sqlite")
    let first = try SQLiteNormalizedCache(path: path)
    let second = try SQLiteNormalizedCache(path: path)
    try first.merge(records: RecordSet(records: [Record(key: "Item:1", ["a": 1])]))
    #expect(try second.loadRecords(forKeys: ["Item:1"])["Item:1"] == Record(key: "Item:1", ["a": 1]))
    // The first numbers `b`; the second learns it when it reads Item:2, or when it meets `b` in
    // a merge, instead of giving the number to a name of its own.
    try first.merge(records: RecordSet(records: [Record(key: "Item:2", ["b": 2])]))
    #expect(Set(try second.merge(records: RecordSet(records: [Record(key: "Item:3", ["c": 3, "b": 3])]))) == ["Item:3.c", "Item:3.b"])
    #expect(try second.loadRecords(forKeys: ["Item:2"])["Item:2"] == Record(key: "Item:2", ["b": 2]))
    #expect(try first.loadRecords(forKeys: ["Item:3"])["Item:3"] == Record(key: "Item:3", ["c": 3, "b": 3]))
    // clear() keeps the numbers: the other connection's stay right.
    try first.clear()
    try first.merge(records: RecordSet(records: [Record(key: "Item:4", ["d": 4, "a": 4])]))
    #expect(try second.loadRecords(forKeys: ["Item:4"])["Item:4"] == Record(key: "Item:4", ["d": 4, "a": 4]))
    let names = try second.withConnection { connection throws(SQLiteError) in
      try connection.text("SELECT group_concat(id || ':' || name, ' ') FROM (SELECT * FROM fields ORDER BY id)")
    }
    #expect(names == "1:a 2:b 3:c 4:d")
  }
}

/// Reads on threads while merges land: every read sees one committed state. The model: each merge
/// k writes the whole response with every `v` set to k, at three levels of records (`A:1`, `B:1`,
/// `C:1`), so the state after the first k merges reads back as response k. A read that loaded one
/// level before a merge and the next after it would hold two values of `v`, which no prefix of the
/// merges gives.
@Suite("Consistent reads under threads")
struct ConsistentReadTests {
  static let schema = """
    type Query { a: A }
    type A { id: ID v: Int b: B }
    type B { id: ID v: Int c: [C] }
    type C { id: ID v: Int }
    """
  static let extensions = """
    extend type A @typePolicy(keyFields: "id")
    extend type B @typePolicy(keyFields: "id")
    extend type C @typePolicy(keyFields: "id")
    """
  static let operation = "query Q { a { __typename id v b { __typename id v c { __typename id v } } } }"

  static func response(_ version: Int) -> String {
    let cs = (1...3).map { #"{"__typename": "C", "id": "\#($0)", "v": \#(version)}"# }.joined(separator: ", ")
    return
      #"{"data": {"a": {"__typename": "A", "id": "1", "v": \#(version), "b": {"__typename": "B", "id": "1", "v": \#(version), "c": [\#(cs)]}}}}"#
  }

  /// The stores under test: every configuration of the conformance suite, a bounded in-memory
  /// store and a chain.
  static let stores: [String] = StoreConfiguration.all.map(\.testDescription) + ["bounded memory", "chain"]

  static func makeStore(_ name: String, in directory: TemporaryDirectory) throws -> any NormalizedCache {
    if let configuration = StoreConfiguration.all.first(where: { $0.testDescription == name }) {
      return try configuration.makeStore(in: directory)
    }
    if name == "bounded memory" { return InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 1 << 30)) }
    return ChainedNormalizedCache(
      front: InMemoryNormalizedCache(budget: CacheBudget(maxSizeBytes: 1 << 30)),
      back: try SQLiteNormalizedCache(path: directory.path("back.sqlite")))
  }

  static func plan() throws -> OperationPlan {
    let schema = try Schema(parsing: [Source(name: "s.graphqls", text: Self.schema), Source(name: "e.graphqls", text: Self.extensions)])
    let document = try ExecutableDocument(parsing: [Source(name: "q.graphql", text: Self.operation)])
    return try OperationPlan(document: document, schema: schema)
  }

  @Test(
    "3 reader threads and a writer of 150 merges: every read equals the state after some prefix of the merges, never going back",
    arguments: stores)
  func readsSeeOnePrefix(_ name: String) throws {
    let plan = try Self.plan()
    let normalizer = Normalizer(strategy: .typePolicy)
    let merges = 150
    let responses = try (0...merges).map {
      try normalizer.normalize(JSONParser.parse(Self.response($0), file: "r.json"), plan: plan).records
    }

    // The model: the state after each prefix, read back by one thread from a store of its own.
    let model = InMemoryNormalizedCache()
    var prefixes: [JSONObject] = []
    for records in responses {
      try model.merge(records: records)
      prefixes.append(try #require(try CacheReader(cache: model).read(plan).data))
    }
    let expected = prefixes

    let directory = try TemporaryDirectory()
    let store = try Self.makeStore(name, in: directory)
    try store.merge(records: responses[0])
    let failures = Lock<[String]>([])
    let done = Lock(false)
    let readCounts = Lock<[Int]>([])
    let group = DispatchGroup()
    for thread in 0..<3 {
      group.enter()
      Thread {
        defer { group.leave() }
        let reader = CacheReader(cache: store)
        var last = 0
        var reads = 0
        do {
          // A plan of its own: plans fill their caches as they are read with, and are not shared.
          let plan = try Self.plan()
          while true {
            let finished = done.withLock { $0 }
            let result = try reader.read(plan)
            reads += 1
            guard let data = result.data else { throw ConcurrencyTests.StoreFailure("thread \(thread): a miss, \(result.miss!)") }
            guard let version = expected.firstIndex(of: data) else {
              throw ConcurrencyTests.StoreFailure("thread \(thread): a read no prefix gives: \(data)")
            }
            guard version >= last else {
              throw ConcurrencyTests.StoreFailure("thread \(thread): read the state after \(version) merges after that of \(last)")
            }
            last = version
            if finished { break }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
        readCounts.withLock { $0.append(reads) }
      }.start()
    }
    for version in 1...merges { try store.merge(records: responses[version]) }
    done.withLock { $0 = true }
    group.wait()
    #expect(failures.withLock { $0 } == [])
    // Each reader read at least once after the last merge.
    #expect(readCounts.withLock { $0.count } == 3)
    #expect(try CacheReader(cache: store).read(plan).data == expected[merges])
  }

  /// The store's own writer lock is held, with a write transaction open and a change made in it:
  /// a read on another thread must not wait for the lock (it would wait forever here, since this
  /// thread waits for it), and must see the last commit, not the change.
  @Test("a WAL store on a file reads while its writer holds a transaction open, and sees the last commit")
  func readsDuringAWrite() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteNormalizedCache(path: directory.path("cache.sqlite"))
    #expect(store.readsInParallel)
    try store.merge(records: RecordSet(records: [Record(key: "Item:1", ["v": 1])]))
    let read = Lock<[CacheKey: Record]?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let waited = try store.withConnection { connection throws(SQLiteError) -> DispatchTimeoutResult in
      try connection.execute("BEGIN IMMEDIATE; DELETE FROM records")
      Thread {
        let records = try? store.loadRecords(forKeys: ["Item:1"])
        read.withLock { $0 = records }
        finished.signal()
      }.start()
      // A guard against hanging the suite, not a timing: the read needs no lock this thread holds.
      let waited = finished.wait(timeout: .now() + 30)
      try connection.execute("ROLLBACK")
      return waited
    }
    #expect(waited == .success, "the read waited for the writer's lock")
    if waited == .timedOut { finished.wait() }
    #expect(read.withLock { $0 } == ["Item:1": Record(key: "Item:1", ["v": 1])])
  }

  @Test("which stores read in parallel: WAL on a file without a budget")
  func whichStoresReadInParallel() throws {
    let directory = try TemporaryDirectory()
    #expect(try SQLiteNormalizedCache(path: directory.path("a.sqlite")).readsInParallel)
    #expect(try !SQLiteNormalizedCache(path: directory.path("b.sqlite"), options: .init(journalMode: .delete)).readsInParallel)
    #expect(try !SQLiteNormalizedCache(path: ":memory:").readsInParallel)
    #expect(
      try !SQLiteNormalizedCache(path: directory.path("c.sqlite"), options: .init(budget: CacheBudget(maxSizeBytes: 1 << 20)))
        .readsInParallel)
  }
}
