import Testing

@testable import NormalizedCache

@Suite("The in-memory store's table")
struct InMemoryStoreTests {
  /// A tiny deterministic generator for the model test.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
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
    var lent = LentRecords()
    table.lend(keys, to: &lent)
    #expect(lent.count == keys.count)
    for (position, key) in keys.enumerated() { #expect(lent[position].map { Array($0) } == model[key]) }
  }

  /// The address of a record's bytes, as a load hands them out.
  static func address(_ record: Record?) -> UnsafeRawPointer? {
    record?.encodedFields.withUnsafeBytes { $0.baseAddress }
  }

  @Test("an unchanged refetch a step later writes its dates over the stored bytes, in place unless handed out")
  func refreshWritesDatesInPlace() throws {
    var table = RecordTable()
    let key: CacheKey = "Book:1"
    func fetched(at date: Int, title: RecordValue = "T") -> [UInt8] {
      Record(key: key, writtenAt: date, ["id": "1", "title": title]).encodedFields
    }
    func lentAddress() -> UnsafeRawPointer? {
      var lent = LentRecords()
      table.lend([key], to: &lent)
      return lent[0]?.baseAddress
    }
    func merge(_ new: [UInt8]) -> (changed: [String], grew: Int)? { table.merge(at: table.index(of: key)!, new) }
    func storedDate() -> Int? { table[key].flatMap { Record(key: key, uncheckedEncodedFields: $0).writtenAt("title") } }
    table.insert(key, fields: fetched(at: 100))
    let buffer = lentAddress()

    // The same values at the same date: nothing to do.
    #expect(merge(fetched(at: 100)) == nil)
    // A step later (dates of as many bytes): the merge's record, written over the stored buffer.
    let expected = try #require(RecordCodec.merge(existing: fetched(at: 100), new: fetched(at: 200)))
    #expect(expected.changed.isEmpty)
    let refresh = try #require(merge(fetched(at: 200)))
    #expect(refresh.changed.isEmpty && refresh.grew == 0)
    #expect(table[key] == expected.merged)
    #expect(storedDate() == 200)
    #expect(lentAddress() == buffer)

    // A record handed out before keeps its dates: the stored buffer is copied first.
    let handedOut = try #require(table.load([key])[0])
    _ = merge(fetched(at: 300))
    #expect(handedOut.writtenAt("title") == 200)
    #expect(storedDate() == 300)
    #expect(lentAddress() != buffer)

    // A date one byte longer (20,000: a varint of three bytes, 300 of two): the incoming record replaces the stored one.
    let longer = try #require(merge(fetched(at: 20_000)))
    #expect(longer.changed.isEmpty && longer.grew == 1)
    #expect(table[key] == fetched(at: 20_000))
    // A changed value is merged, not copied.
    let changed = try #require(merge(fetched(at: 20_000, title: "U")))
    #expect(changed.changed == ["title"])
    #expect(table[key] == fetched(at: 20_000, title: "U"))
  }

  @Test("a read is lent the table's own buffers, which stay put when entries shift back or the table grows")
  func lendsInPlace() {
    var table = RecordTable()
    let keys = (0..<12).map { "K:\($0)" }
    for (index, key) in keys.enumerated() { table.insert(key, fields: [UInt8(index), 1, 2]) }
    let before = table.load(keys).map(Self.address)
    var lent = LentRecords()
    table.lend(keys, to: &lent)
    #expect(keys.indices.map { lent[$0]?.baseAddress } == before)
    // Growth rehashes every entry; a removal shifts the entries after it back.
    for index in 12..<40 { table.insert("K:\(index)", fields: [UInt8(index)]) }
    table.remove("K:0")
    table.lend(keys, to: &lent)
    #expect(lent[0] == nil)
    #expect((1..<12).map { lent[$0]?.baseAddress } == Array(before[1...]))
    #expect((1..<12).map { lent[$0].map { Array($0) } } == (1..<12).map { [UInt8($0), 1, 2] })
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

  @Test("a pattern removal in one pass keeps every other key findable, its payload and count right")
  func patternRemoval() throws {
    let cache = InMemoryNormalizedCache()
    // Keys that collide and wrap around the table: removing most leaves holes in every probe run.
    let users = (0..<700).map { Record(key: "User_\($0)", ["n": .int($0)]) }
    let others = (0..<300).map { Record(key: "Other_\($0)", ["n": .int($0)]) }
    try cache.merge(records: RecordSet(records: users + others))
    cache.removeRecords(matching: "uSER_")
    let payload = others.reduce(0) { $0 + $1.key.utf8.count + $1.encodedFields.count }
    #expect(cache.statistics() == .init(recordCount: 300, payloadBytes: payload))
    let loaded = cache.loadRecordsInOrder(forKeys: others.map(\.key) + users.map(\.key))
    #expect(loaded.prefix(300).map { $0?.key } == others.map(\.key))
    #expect(loaded.dropFirst(300).allSatisfy { $0 == nil })
    #expect(cache.loadRecords(forKeys: ["Other_7", "User_7"]).keys.sorted() == ["Other_7"])
    // The table takes new keys after it, and removes nothing when nothing matches.
    try cache.merge(records: RecordSet(records: [Record(key: "User_1", ["n": 1])]))
    cache.removeRecords(matching: "nothing")
    #expect(cache.allKeys().count == 301)
    #expect(cache.loadRecords(forKeys: ["User_1"])["User_1"] == Record(key: "User_1", ["n": 1]))
  }

  /// An empty pattern matches nothing: a removal by it removes nothing, as in Apollo's stores.
  @Test(
    "a key pattern is a plain substring, ASCII case ignored",
    arguments: [
      ("User_1", "user_", true), ("User_1", "USER_1", true), ("UserA1", "User_", false), ("User:1", "r:", true),
      ("Book:1", "%", false), ("a%b", "%", true), ("Book:1", "", false), ("ab", "abc", false), ("ÉCOLE:1", "école", false),
      ("x.école", "école", true),
    ])
  func keyPattern(key: String, pattern: String, matches: Bool) {
    #expect(KeyPattern.matches(key, pattern) == matches)
    #expect(KeyPattern(pattern).matches(key) == matches)
  }

  @Test("loadRecords by key: one key, several, duplicates and misses")
  func loadsByKey() throws {
    let cache = InMemoryNormalizedCache()
    try cache.merge(records: RecordSet(records: (0..<50).map { Record(key: "K:\($0)", ["n": .int($0)]) }))
    #expect(cache.loadRecords(forKeys: ["K:3"]) == ["K:3": Record(key: "K:3", ["n": 3])])
    #expect(cache.loadRecords(forKeys: ["K:99"]).isEmpty)
    let many = cache.loadRecords(forKeys: ["K:1", "K:99", "K:49", "K:1"])
    #expect(many == ["K:1": Record(key: "K:1", ["n": 1]), "K:49": Record(key: "K:49", ["n": 49])])
  }
}
