import Testing

@testable import NormalizedCache

@Suite("The in-memory store's table")
struct InMemoryStoreTests {
  /// A tiny deterministic generator for the model test.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test("inserts, updates and removals agree with a Dictionary through growth and backward shifts")
  func modelCheck() {
    var table = RecordTable()
    var model: [CacheKey: [UInt8]] = [:]
    var random = Random(state: 7)
    for step in 0..<20_000 {
      let key = "K:\(random.next(600))"
      switch random.next(3) {
      case 0:
        if let index = table.index(of: key) {
          table.update(at: index, fields: [UInt8(step & 0xFF)])
        } else {
          table.insert(key, fields: [UInt8(step & 0xFF)])
        }
        model[key] = [UInt8(step & 0xFF)]
      case 1:
        #expect(table.remove(key) == model.removeValue(forKey: key))
      default:
        #expect(table[key] == model[key])
      }
      #expect(table.count == model.count)
    }
    for key in (0..<600).map({ "K:\($0)" }) { #expect(table[key] == model[key]) }
    let keys = (0..<700).map { "K:\($0)" }
    let loaded = table.load(keys)
    for (key, record) in zip(keys, loaded) {
      #expect(record?.encodedFields == model[key])
      #expect(record.map(\.key) == (model[key] == nil ? nil : key))
    }
  }

  @Test("loads in order: duplicates, misses and long keys")
  func orderedLoads() throws {
    let cache = InMemoryNormalizedCache()
    let long = "QUERY_ROOT.items([args:[filterBy:deleted:false]]).edges.0.node"
    try cache.merge(records: RecordSet(records: [Record(key: "A", ["x": 1]), Record(key: long, ["y": 2])]))
    let records = cache.loadRecordsInOrder(forKeys: ["A", "missing", long, "A"])
    #expect(records.map { $0?.key } == ["A", nil, long, "A"])
    #expect(records[2]?["y"] == 2)
    #expect(cache.loadRecords(forKeys: ["A", "missing"]).keys.sorted() == ["A"])
  }
}
