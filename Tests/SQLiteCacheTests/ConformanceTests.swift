import NormalizedCache
import Testing

@testable import SQLiteCache

/// The contract of ``NormalizedCache`` (SPEC §2, §3), run against every store configuration: the
/// SQLite store must answer exactly as the in-memory store does.
@Suite("NormalizedCache conformance")
struct ConformanceTests {
  static let hero = Record(key: "QUERY_ROOT", ["hero": .reference("Character:1")])
  static let luke = Record(
    key: "Character:1",
    ["__typename": "Human", "name": "Luke", "friends": [.reference("Character:2"), .reference("Character:3")]])

  @Test(
    "loads in order: each key's record at its place, nil where missing, repeated keys, a key with NUL, past one chunk",
    arguments: StoreConfiguration.all)
  func loadInOrder(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let records = (0..<700).map { Record(key: "Item:\($0)", ["n": .int($0)]) } + [Record(key: "A\u{0}B", ["x": true])]
    try store.merge(records: RecordSet(records: records))
    var keys = (0..<1_200).map { "Item:\(($0 * 7) % 800)" }
    keys.insert("A\u{0}B", at: 3)
    keys.insert("Item:5", at: 600)
    let loaded = try store.loadRecordsInOrder(forKeys: keys)
    #expect(loaded.count == keys.count)
    for (key, record) in zip(keys, loaded) {
      let index = Int(key.dropFirst("Item:".count))
      if key == "A\u{0}B" {
        #expect(record?["x"] == .bool(true))
      } else if let index, index < 700 {
        #expect(record?.key == key && record?["n"] == .int(index), "\(key)")
      } else {
        #expect(record == nil, "\(key)")
      }
    }
  }

  @Test("merging new records reports every field of each", arguments: StoreConfiguration.all)
  func mergeNewRecords(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let changed = try store.merge(records: RecordSet(records: [Self.hero, Self.luke]))
    #expect(
      Set(changed) == ["QUERY_ROOT.hero", "Character:1.__typename", "Character:1.name", "Character:1.friends"])
    #expect(changed.count == 4)
    let loaded = try store.loadRecords(forKeys: ["QUERY_ROOT", "Character:1"])
    #expect(loaded == ["QUERY_ROOT": Self.hero, "Character:1": Self.luke])
    #expect(try store.recordCount() == 2)
  }

  @Test("a field-level overwrite keeps unmentioned fields and reports only the changed ones", arguments: StoreConfiguration.all)
  func fieldLevelOverwrite(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Record(key: "Character:1", ["name": "Luke", "height": 1.72, "side": "light"])]))
    let changed = try store.merge(
      records: RecordSet(records: [Record(key: "Character:1", ["name": "Luke Skywalker", "height": 1.72, "mass": 77])]))
    #expect(Set(changed) == ["Character:1.name", "Character:1.mass"])
    let record = try #require(try store.loadRecords(forKeys: ["Character:1"])["Character:1"])
    #expect(record == Record(key: "Character:1", ["name": "Luke Skywalker", "height": 1.72, "side": "light", "mass": 77]))
    // Fields keep the order they were first written in; a new one goes last.
    #expect(record.fieldKeys == ["name", "height", "side", "mass"])
  }

  @Test("merging identical records again changes nothing", arguments: StoreConfiguration.all)
  func identicalMerge(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let records = RecordSet(records: [Self.hero, Self.luke])
    try store.merge(records: records)
    let changed = try store.merge(records: records)
    #expect(changed.isEmpty)
    #expect(Set(changed) == [])
  }

  @Test("true and 1, and 1 and 1.0, are different values", arguments: StoreConfiguration.all)
  func boolIsNotInt(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": true, "b": 1])]))
    let changed = try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": 1, "b": 1.0])]))
    #expect(Set(changed) == ["Flags:1.a", "Flags:1.b"])
    let record = try #require(try store.loadRecords(forKeys: ["Flags:1"])["Flags:1"])
    #expect(record["a"] == .int(1))
    #expect(record["b"] == .double(1.0))
    #expect(try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": 1, "b": 1.0])])).isEmpty)
  }

  static let valueZoo = Record(
    key: "Zoo:ünïcödé \"quoted\" \\ %_",
    [
      "string": "Les guerriers du silence",
      "empty": "",
      "escapes": "quote \" backslash \\ slash / newline \n tab \t bell \u{07} nul \u{00} end",
      "unicode": "é 中文 🦄",
      "int": 1993,
      "negative": -42,
      "max": .int(Int.max),
      "min": .int(Int.min),
      "double": 1.99,
      "negativeZero": .double(-0.0),
      "tiny": .double(.leastNonzeroMagnitude),
      "huge": .double(1e300),
      "integral": 175.0,
      "true": true,
      "false": false,
      "null": nil,
      "reference": .reference("Book:bk123"),
      "list": ["a", 1, 2.5, false, nil, .reference("Author:Ray+Bradbury")],
      "emptyList": [],
      "nested": [[1, 2], [], [[.reference("Book:1")], ["deep"]]],
      "references": [.reference("Book:1"), .reference("Book:2")],
      "book(id:123)": .reference("Book:123"),
      "grid({k1:v1,k2:[a,b]})": [[1], [2, 3]],
    ])

  @Test("every kind of value round-trips: lists, nested lists, references, escapes", arguments: StoreConfiguration.all)
  func valuesRoundTrip(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let changed = try store.merge(records: RecordSet(records: [Self.valueZoo]))
    #expect(changed.count == Self.valueZoo.fieldCount)
    let loaded = try #require(try store.loadRecords(forKeys: [Self.valueZoo.key])[Self.valueZoo.key])
    #expect(loaded == Self.valueZoo)
    #expect(loaded.fieldKeys == Self.valueZoo.fieldKeys)
    // -0.0 == 0.0 as Doubles: check the sign survived too.
    if case .double(let zero) = loaded["negativeZero"] {
      #expect(zero.sign == .minus)
    } else {
      Issue.record("negativeZero is not a Double")
    }
    #expect(try store.merge(records: RecordSet(records: [Self.valueZoo])).isEmpty)
  }

  @Test("a record without fields is stored and loads as one", arguments: StoreConfiguration.all)
  func emptyRecord(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let changed = try store.merge(records: RecordSet(records: [Record(key: "Empty:1", uncheckedEncodedFields: [])]))
    #expect(changed.isEmpty)
    #expect(try store.loadRecords(forKeys: ["Empty:1"]) == ["Empty:1": Record(key: "Empty:1", uncheckedEncodedFields: [])])
    let filled = try store.merge(records: RecordSet(records: [Record(key: "Empty:1", ["a": 1])]))
    #expect(Set(filled) == ["Empty:1.a"])
  }

  @Test("removeRecord removes one record; a missing key is no error", arguments: StoreConfiguration.all)
  func removeRecord(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Self.hero, Self.luke]))
    try store.removeRecord(for: "Character:1")
    try store.removeRecord(for: "Character:404")
    #expect(try store.presentKeys(["QUERY_ROOT", "Character:1"]) == ["QUERY_ROOT"])
    #expect(try store.recordCount() == 1)
    // Merging the key again makes a new record: every field changes.
    #expect(Set(try store.merge(records: RecordSet(records: [Self.luke]))).count == 3)
  }

  static let patternKeys: [CacheKey] = [
    "Book:100%_off", "Book:100X_off", "book:100%Xoff", "Author:A_B", "Author:AxB", "QUERY_ROOT.favoriteBook",
    "Ünïcode:É", "ünïcode:é", "Path\\with\\backslash",
  ]

  /// Patterns and the keys they remove, worked out by hand: ASCII letters match without case,
  /// `%`, `_` and `\` only themselves, other letters only exactly.
  static let patterns: [(pattern: String, removed: Set<CacheKey>)] = [
    ("%_", ["Book:100%_off"]),
    ("%", ["Book:100%_off", "book:100%Xoff"]),
    ("_", ["Book:100%_off", "Book:100X_off", "Author:A_B", "QUERY_ROOT.favoriteBook"]),
    ("a_b", ["Author:A_B"]),
    ("BOOK:", ["Book:100%_off", "Book:100X_off", "book:100%Xoff"]),
    ("favoritebook", ["QUERY_ROOT.favoriteBook"]),
    ("é", ["ünïcode:é"]),
    ("ÜNÏCODE", []),
    ("ünïcode", ["ünïcode:é"]),
    ("\\w", ["Path\\with\\backslash"]),
    ("", Set(patternKeys)),
    ("nothing matches this", []),
  ]

  @Test(
    "removeRecords(matching:) ignores ASCII case only and takes % and _ literally",
    arguments: StoreConfiguration.all, patterns.indices)
  func removeMatching(_ configuration: StoreConfiguration, _ index: Int) throws {
    let (pattern, removed) = Self.patterns[index]
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: Self.patternKeys.map { Record(key: $0, ["id": .string($0)]) }))
    try store.removeRecords(matching: pattern)
    #expect(try store.presentKeys(Self.patternKeys) == Set(Self.patternKeys).subtracting(removed), "pattern \(pattern)")
    // The shared rule agrees with the table.
    #expect(Set(Self.patternKeys.filter { KeyPattern.matches($0, pattern) }) == removed)
  }

  @Test("clear removes everything, and the store works after", arguments: StoreConfiguration.all)
  func clear(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Self.hero, Self.luke]))
    try store.clear()
    #expect(try store.presentKeys(["QUERY_ROOT", "Character:1"]) == [])
    #expect(try store.recordCount() == 0)
    #expect(try store.payloadBytes() == 0)
    let changed = try store.merge(records: RecordSet(records: [Self.luke]))
    #expect(changed.count == 3)
    #expect(try store.loadRecords(forKeys: ["Character:1"]) == ["Character:1": Self.luke])
  }

  @Test("reopening the file keeps every record", arguments: StoreConfiguration.onFile)
  func reopen(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let records = RecordSet(records: [Self.hero, Self.luke, Self.valueZoo])
    do {
      let store = try configuration.makeStore(in: directory)
      try store.merge(records: records)
    }
    let reopened = try configuration.reopenStore(in: directory)
    let loaded = try reopened.loadRecords(forKeys: records.keys)
    #expect(RecordSet(records: Array(loaded.values)) == records)
    #expect(try reopened.merge(records: records).isEmpty)
    // New field names after reopening get numbers of their own.
    let changed = try reopened.merge(records: RecordSet(records: [Record(key: "Character:1", ["homeworld": "Tatooine"])]))
    #expect(Set(changed) == ["Character:1.homeworld"])
    let again = try configuration.reopenStore(in: directory)
    #expect(try again.loadRecords(forKeys: ["Character:1"])["Character:1"]?["homeworld"] == "Tatooine")
    #expect(try again.loadRecords(forKeys: ["Character:1"])["Character:1"]?["name"] == "Luke")
  }

  @Test("a load of 1,234 keys, more than a statement takes, returns every record", arguments: StoreConfiguration.all)
  func largeLoad(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let records = (0..<1_234).map { Record(key: "Item:\($0)", ["id": .int($0), "next": .reference("Item:\($0 + 1)")]) }
    let changed = try store.merge(records: RecordSet(records: records))
    #expect(changed.count == 2_468)
    // Present keys interleaved with missing ones, in an order of their own.
    let keys = (0..<1_500).reversed().map { "Item:\($0)" }
    let loaded = try store.loadRecords(forKeys: keys)
    #expect(loaded.count == 1_234)
    #expect(loaded["Item:1233"] == records[1_233])
    #expect(loaded["Item:1234"] == nil)
    #expect(Set(loaded.values.map(\.key)) == Set(records.map(\.key)))
    #expect(try store.recordCount() == 1_234)
  }

  @Test("a missing key is absent from a load", arguments: StoreConfiguration.all)
  func missingKey(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    try store.merge(records: RecordSet(records: [Self.hero]))
    #expect(try store.loadRecords(forKeys: ["Nope:1"]).isEmpty)
    #expect(try store.loadRecords(forKeys: []).isEmpty)
    #expect(try store.loadRecords(forKeys: ["Nope:1", "QUERY_ROOT", "Nope:2", "QUERY_ROOT"]) == ["QUERY_ROOT": Self.hero])
  }

  @Test("keys holding U+0000 and other control characters store and load", arguments: StoreConfiguration.all)
  func controlCharacterKeys(_ configuration: StoreConfiguration) throws {
    let directory = try TemporaryDirectory()
    let store = try configuration.makeStore(in: directory)
    let keys: [CacheKey] = ["Nul:\u{0}a", "Nul:\u{0}b", "Tab:\t", "Quote:\"", "Plain:1"]
    try store.merge(records: RecordSet(records: keys.map { Record(key: $0, ["k": .string($0)]) }))
    #expect(try store.presentKeys(keys + ["Nul:"]) == Set(keys))
    #expect(try store.presentKeys(["Nul:\u{0}a", "Plain:1"]) == ["Nul:\u{0}a", "Plain:1"])
    #expect(try store.presentKeys(["Nul:\u{0}b"]) == ["Nul:\u{0}b"])
    #expect(try store.loadRecords(forKeys: ["Nul:\u{0}a"])["Nul:\u{0}a"]?["k"] == .string("Nul:\u{0}a"))
  }
}
