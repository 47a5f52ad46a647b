import Foundation
import NormalizedCache
import Testing

@testable import SQLiteCache

/// The store is shared between threads: one lock serializes its calls.
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
