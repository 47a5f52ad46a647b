import NormalizedCache

/// The contract of ``NormalizedCache`` (docs/stores.md and docs/records.md) as checks a
/// store of yours can run, without a test framework: each check gets a fresh, empty store and
/// returns what it found wrong, nothing when the store conforms. cachebench runs them against the
/// in-memory store and every SQLite configuration; `Examples/AppTeam` runs them against its own.
///
/// ```swift
/// let problems = try StoreConformance.run { MyStore() }
/// #expect(problems == [])     // "merging new records reports every field of each: changed keys were [...]"
/// ```
public enum StoreConformance {
  /// One rule of the contract.
  public struct Check: Sendable {
    /// What it checks, as a sentence: the name problems are reported under.
    public let name: String
    let body: @Sendable (any NormalizedCache, inout Problems) throws -> Void

    /// Runs the check on `store`, fresh and empty, holding it to `promises`; the problems found.
    public func run(on store: any NormalizedCache, promises: Promises = .all) throws -> [String] {
      var problems = Problems(promises: promises)
      try body(store, &problems)
      return problems.list
    }
  }

  /// Every check, each on a store of its own from `makeStore`, held to `promises`; the problems,
  /// each prefixed by its check's name. Empty when the store conforms.
  public static func run(promises: Promises = .all, makeStore: () throws -> any NormalizedCache) throws -> [String] {
    try checks.flatMap { check in try check.run(on: try makeStore(), promises: promises).map { "\(check.name): \($0)" } }
  }

  /// What a store keeps beyond the fields' values and dates, which every store keeps. Every store
  /// of cachebench but Apollo iOS 3.0's row table keeps both; that table (the SQLite layouts
  /// `rows` and `rows-rowid`) has no place for either, and the checks then hold it to what it does instead
  /// (docs/stores.md#the-rows-layout-against-apollos-code).
  public struct Promises: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A record's fields load in the order they were first written; without it, in the order of
    /// their names' UTF-8 bytes.
    public static let fieldOrder = Promises(rawValue: 1 << 0)
    /// A record without fields is stored and loads as one; without it, it is not stored.
    public static let emptyRecords = Promises(rawValue: 1 << 1)
    public static let all: Promises = [.fieldOrder, .emptyRecords]
    /// Not what a store keeps but what it lends: a projected load
    /// (``RecordSnapshot/lendRecords(forKeys:projection:to:)``) lends only the fields asked (ADR
    /// 0007's `loadFields`); without it, whole records, the protocol's default, pass too. Every
    /// store of cachebench promises it; it is not in ``all``, so that a store of yours that keeps
    /// the default passes ``run(promises:makeStore:)`` as it did.
    public static let projectedLoads = Promises(rawValue: 1 << 2)
  }

  /// What a check found wrong.
  public struct Problems: Sendable {
    public fileprivate(set) var list: [String] = []
    /// What the store under check promises.
    let promises: Promises

    /// The field names a load returns for a record written with fields `written`.
    func loadedOrder(_ written: [String]) -> [String] {
      promises.contains(.fieldOrder) ? written : written.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Each field's date, by name where the store does not keep the order (nil: undated).
    func dates(_ record: Record?) -> [String: Int]? {
      record?.writtenAt.map { Dictionary($0.map { ($0.key, $0.writtenAt) }, uniquingKeysWith: { $1 }) }
    }

    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition { list.append(message()) }
    }
  }

  public static let checks: [Check] = [
    Check(
      name: "loads in order: each key's record at its place, nil where missing, repeated keys, a key with NUL, past 500 keys",
      body: loadInOrder),
    Check(name: "a consistent read lends each key's record as it loads it, a load replacing the one before", body: lendInOrder),
    Check(name: "merging new records reports every field of each", body: mergeNewRecords),
    Check(
      name: "a field-level overwrite keeps unmentioned fields, in their order, and reports only the changed ones", body: fieldLevelOverwrite
    ),
    Check(name: "merging identical records again changes nothing", body: identicalMerge),
    Check(name: "true and 1, and 1 and 1.0, are different values", body: boolIsNotInt),
    Check(name: "every kind of value round-trips: lists, nested lists, references, escapes, -0.0", body: valuesRoundTrip),
    Check(name: "a record without fields is stored and loads as one (or, not promised, is not stored)", body: emptyRecord),
    Check(name: "removeRecord removes one record; a missing key is no error", body: removeRecord),
    Check(name: "removeRecords(matching:) ignores ASCII case only and takes % and _ literally", body: removeMatching),
    Check(name: "clear removes everything, and the store works after", body: clear),
    Check(name: "a load of 1,234 keys returns every record", body: largeLoad),
    Check(name: "a missing key is absent from a load", body: missingKey),
    Check(name: "keys holding U+0000 and other control characters store and load", body: controlCharacterKeys),
    Check(name: "its capabilities declare the capability protocols it adopts", body: declaredCapabilities),
    Check(name: "dated records keep each field's date through merges, a rewrite refreshing it unreported", body: datedMerges),
    Check(name: "a record of more than 64 fields keeps its dates through partial merges", body: datedWideRecord),
    Check(
      name: "a projected load lends each record's asked fields with their dates, never a field it lacks, and (promised) none not asked",
      body: projectedLoad),
  ]

  /// A projected load (docs/stores.md#projected-loads): three records of which one is dated in
  /// two writes, a missing key, a key asked twice with two sets, and a record with none of the
  /// fields asked, which is there with no fields. Each record lent holds the fields asked that it
  /// has, with their values and dates; with ``Promises/projectedLoads``, those alone.
  static func projectedLoad(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(
      records: RecordSet(records: [
        Record(key: "Book:1", writtenAt: 100, ["__typename": "Book", "title": "Dune", "year": 1965, "pages": 412]),
        Record(key: "Book:2", ["__typename": "Book", "title": "Emma", "tags": ["novel", .null]]),
        Record(key: "Author:1", ["__typename": "Author", "name": "Frank"]),
      ]))
    try store.merge(records: RecordSet(records: [Record(key: "Book:1", writtenAt: 300, ["year": 1966])]))
    let whole = try store.loadRecords(forKeys: ["Book:1", "Book:2", "Author:1"])
    let sets = [FieldSet(["title", "year", "isbn"]), FieldSet(["__typename", "tags", "title"]), FieldSet(["isbn"])]
    let keys: [CacheKey] = ["Book:1", "Missing:1", "Book:2", "Book:1", "Author:1"]
    let projection = FieldProjection(sets: sets, setIndices: [0, 0, 1, 1, 2])
    var lent = LentRecords()
    let found = try store.withConsistentRead { snapshot in
      try snapshot.lendRecords(forKeys: keys, projection: projection, to: &lent)
      return try (0..<lent.count).map { position in try lent[position].map { try Record(key: keys[position], encodedFields: Array($0)) } }
    }
    problems.expect(found.count == keys.count, "\(found.count) records lent for \(keys.count) keys")
    guard found.count == keys.count else { return }
    problems.expect(found[1] == nil, "the missing key was lent \(String(describing: found[1]))")
    for (position, key) in keys.enumerated() where found[position] != nil || whole[key] != nil {
      guard let record = found[position], let stored = whole[key] else {
        problems.expect(false, "\(key) (position \(position)) was not lent")
        continue
      }
      let set = projection.set(ofKeyAt: position)
      let asked = stored.fieldKeys.filter { set.fieldKeys.contains($0) }
      let lentNames = record.fieldKeys
      problems.expect(Set(asked).isSubset(of: lentNames), "\(key) lent \(lentNames) for \(set.fieldKeys): \(asked) asked and held")
      problems.expect(Set(lentNames).isSubset(of: stored.fieldKeys), "\(key) lent \(lentNames), fields the record lacks among them")
      if problems.promises.contains(.projectedLoads) {
        problems.expect(Set(lentNames) == Set(asked), "\(key) lent \(lentNames) for \(set.fieldKeys): only \(asked) were asked and held")
      }
      for name in lentNames {
        problems.expect(
          record[name] == stored[name],
          "\(key).\(name) lent as \(String(describing: record[name])), not \(String(describing: stored[name]))")
        problems.expect(
          record.writtenAt(name) == stored.writtenAt(name),
          "\(key).\(name) lent written at \(String(describing: record.writtenAt(name))), not \(String(describing: stored.writtenAt(name)))")
      }
    }
  }

  /// The workbench measures what ``NormalizedCache/capabilities`` declares, not what a store
  /// adopts (docs/stores.md#capabilities): a protocol adopted and not declared is a phase the
  /// store does not get. (A chain declares less than it adopts on purpose: what its back cannot do.)
  static func declaredCapabilities(_ store: any NormalizedCache, _ problems: inout Problems) {
    let declared = store.capabilities
    func expect(_ adopts: Bool, _ declares: Bool, _ name: String, _ field: String) {
      problems.expect(!adopts || declares, "it adopts \(name) but capabilities.\(field) is nil: the workbench would not see it")
    }
    expect(store is any BoundedNormalizedCache, declared.bounded != nil, "BoundedNormalizedCache", "bounded")
    expect(store is any KeyListing, declared.keyListing != nil, "KeyEnumerableCache", "keyListing")
    expect(store is any PagedStore, declared.pages != nil, "PagedStore", "pages")
    expect(store is any TieredCache, declared.tiers != nil, "TieredCache", "tiers")
    expect(store is any LockWaitReporting, declared.lockWaits != nil, "LockWaitReporting", "lockWaits")
    expect(store is any FootprintReporting, declared.footprint != nil, "FootprintReporting", "footprint")
  }

  // MARK: Records the checks write

  public static let hero = Record(key: "QUERY_ROOT", ["hero": .reference("Character:1")])
  public static let luke = Record(
    key: "Character:1",
    ["__typename": "Human", "name": "Luke", "friends": [.reference("Character:2"), .reference("Character:3")]])

  /// A record holding every kind of value, escapes and extremes included.
  public static let valueZoo = Record(
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

  public static let patternKeys: [CacheKey] = [
    "Book:100%_off", "Book:100X_off", "book:100%Xoff", "Author:A_B", "Author:AxB", "QUERY_ROOT.favoriteBook",
    "Ünïcode:É", "ünïcode:é", "Path\\with\\backslash",
  ]

  /// Patterns and the keys they remove, worked out by hand: ASCII letters match without case,
  /// `%`, `_` and `\` only themselves, other letters only exactly.
  public static let patterns: [(pattern: String, removed: Set<CacheKey>)] = [
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
    // Apollo's stores (2.3 and 3.0, in memory and SQLite) begin with `guard !pattern.isEmpty`.
    ("", []),
    ("nothing matches this", []),
  ]

  // MARK: The checks

  static func present(_ store: any NormalizedCache, _ keys: [CacheKey]) throws -> Set<CacheKey> {
    Set(try store.loadRecords(forKeys: keys).keys)
  }

  static func loadInOrder(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let records = (0..<700).map { Record(key: "Item:\($0)", ["n": .int($0)]) } + [Record(key: "A\u{0}B", ["x": true])]
    try store.merge(records: RecordSet(records: records))
    var keys = (0..<1_200).map { "Item:\(($0 * 7) % 800)" }
    keys.insert("A\u{0}B", at: 3)
    keys.insert("Item:5", at: 600)
    let loaded = try store.loadRecordsInOrder(forKeys: keys)
    problems.expect(loaded.count == keys.count, "\(loaded.count) results for \(keys.count) keys")
    for (key, record) in zip(keys, loaded) {
      if key == "A\u{0}B" {
        problems.expect(record?["x"] == .bool(true), "the record of the key with NUL is \(String(describing: record))")
      } else if let index = Int(key.dropFirst("Item:".count)), index < 700 {
        problems.expect(record?.key == key && record?["n"] == .int(index), "\(key) loaded as \(String(describing: record))")
      } else {
        problems.expect(record == nil, "\(key), never written, loaded as \(String(describing: record))")
      }
    }
  }

  /// The reader's path (``RecordSnapshot/lendRecords(forKeys:to:)``) against the loads: the same
  /// bytes for each key, in one consistent read, twice into one ``LentRecords``.
  static func lendInOrder(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let records = (0..<600).map { Record(key: "Item:\($0)", ["n": .int($0)]) } + [Record(key: "Empty:1")]
    try store.merge(records: RecordSet(records: records))
    let keys = ["Item:3", "Missing:1", "Item:3", "Empty:1"] + (0..<600).reversed().map { "Item:\($0)" }
    var lent = LentRecords()
    let found = try store.withConsistentRead { snapshot in
      try snapshot.lendRecords(forKeys: ["Item:1", "Item:2"], to: &lent)
      let loaded = try snapshot.loadRecordsInOrder(forKeys: keys)
      try snapshot.lendRecords(forKeys: keys, to: &lent)
      return (loaded.map { $0?.encodedFields }, (0..<lent.count).map { lent[$0].map { Array($0) } })
    }
    problems.expect(found.1.count == keys.count, "\(found.1.count) records lent for \(keys.count) keys")
    for (key, (loaded, lent)) in zip(keys, zip(found.0, found.1)) where loaded != lent {
      problems.expect(false, "\(key) lent as \(String(describing: lent)), loaded as \(String(describing: loaded))")
    }
    problems.expect(found.1.first == [UInt8]?.some(records[3].encodedFields), "Item:3 was lent \(String(describing: found.1.first))")
    let empty: [UInt8]? = problems.promises.contains(.emptyRecords) ? [] : nil
    problems.expect(found.1[1] == nil && found.1[3] == empty, "a missing key or an empty record was lent wrong: \(found.1[1...3])")
  }

  static func mergeNewRecords(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let changed = try store.merge(records: RecordSet(records: [hero, luke]))
    let expected: Set<String> = ["QUERY_ROOT.hero", "Character:1.__typename", "Character:1.name", "Character:1.friends"]
    problems.expect(Set(changed) == expected && changed.count == 4, "changed keys were \(Array(changed).sorted())")
    let loaded = try store.loadRecords(forKeys: ["QUERY_ROOT", "Character:1"])
    problems.expect(loaded == ["QUERY_ROOT": hero, "Character:1": luke], "loaded \(loaded)")
  }

  static func fieldLevelOverwrite(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(records: RecordSet(records: [Record(key: "Character:1", ["name": "Luke", "height": 1.72, "side": "light"])]))
    let changed = try store.merge(
      records: RecordSet(records: [Record(key: "Character:1", ["name": "Luke Skywalker", "height": 1.72, "mass": 77])]))
    problems.expect(Set(changed) == ["Character:1.name", "Character:1.mass"], "changed keys were \(Array(changed).sorted())")
    let record = try store.loadRecords(forKeys: ["Character:1"])["Character:1"]
    let expected = Record(key: "Character:1", ["name": "Luke Skywalker", "height": 1.72, "side": "light", "mass": 77])
    problems.expect(record == expected, "the record is \(String(describing: record))")
    let order = problems.loadedOrder(["name", "height", "side", "mass"])
    problems.expect(record?.fieldKeys == order, "fields in the order \(record?.fieldKeys ?? []), not \(order)")
  }

  /// Dates (docs/records.md#dates): a rewrite takes its date and reports only changed values; the
  /// store's record equals a ``RecordSet``'s merge of the same records, dates and all.
  static func datedMerges(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let writes = [
      Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T", "price": 5]),
      Record(key: "Book:1", writtenAt: 250, ["title": "T", "price": 6]),
      Record(key: "Book:1", writtenAt: 400, ["stock": 3]),
      Record(key: "Book:1", writtenAt: 400, ["stock": 3]),
      Record(key: "Book:2", ["id": "2"]),
      Record(key: "Book:2", writtenAt: 50, ["id": "2", "title": "U"]),
    ]
    let expectedChanges: [Set<String>] = [
      ["Book:1.id", "Book:1.title", "Book:1.price"], ["Book:1.price"], ["Book:1.stock"], [], ["Book:2.id"], ["Book:2.title"],
    ]
    var reference = RecordSet()
    for (write, expected) in zip(writes, expectedChanges) {
      reference.merge(record: write)
      let changed = try store.merge(records: RecordSet(records: [write]))
      problems.expect(Set(changed) == expected, "after writing \(write), changed keys were \(Array(changed).sorted())")
    }
    let loaded = try store.loadRecords(forKeys: ["Book:1", "Book:2"])
    for key in ["Book:1", "Book:2"] {
      let record = loaded[key]
      let datesMatch =
        problems.promises.contains(.fieldOrder)
        ? record?.writtenAt?.map(\.writtenAt) == reference[key]?.writtenAt?.map(\.writtenAt)
        : problems.dates(record) == problems.dates(reference[key])
      problems.expect(
        record == reference[key] && datesMatch,
        "\(key) is \(String(describing: record)) written at \(String(describing: record?.writtenAt)), not \(String(describing: reference[key]?.writtenAt))"
      )
    }
    problems.expect(
      loaded["Book:1"]?.writtenAt("title") == 250 && loaded["Book:1"]?.writtenAt("id") == 100,
      "Book:1's dates are \(String(describing: loaded["Book:1"]?.writtenAt))")
  }

  /// A record wider than a chunk of the compact layout (64 fields), dated, merged in part.
  static func datedWideRecord(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let fields: [(String, RecordValue)] = (0..<100).map { ("f\($0)", .int($0)) }
    let wide = Record(key: "QUERY_ROOT")
    var reference = RecordSet()
    var builder = Record.Builder(key: wide.key, writtenAt: 1_000)
    for (name, value) in fields { builder.append(name, value) }
    let writes = [
      builder.build(),
      Record(key: wide.key, writtenAt: 2_000, ["f3": 3, "f70": -70, "f99": 99]),
      Record(key: wide.key, writtenAt: 3_000, ["f101": 101, "f0": 0]),
    ]
    for write in writes {
      reference.merge(record: write)
      try store.merge(records: RecordSet(records: [write]))
    }
    let loaded = try store.loadRecords(forKeys: [wide.key])[wide.key]
    let expectedDates = reference[wide.key]?.writtenAt?.map(\.writtenAt)
    let datesMatch =
      problems.promises.contains(.fieldOrder)
      ? loaded?.writtenAt?.map(\.writtenAt) == expectedDates : problems.dates(loaded) == problems.dates(reference[wide.key])
    problems.expect(
      loaded == reference[wide.key] && datesMatch,
      "QUERY_ROOT's dates are \(String(describing: loaded?.writtenAt?.map(\.writtenAt))), not \(String(describing: expectedDates))")
    problems.expect(
      loaded?.writtenAt("f70") == 2_000 && loaded?.writtenAt("f0") == 3_000 && loaded?.writtenAt("f50") == 1_000,
      "f70, f0, f50 written at \(String(describing: [loaded?.writtenAt("f70"), loaded?.writtenAt("f0"), loaded?.writtenAt("f50")]))")
  }

  static func identicalMerge(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let records = RecordSet(records: [hero, luke])
    try store.merge(records: records)
    let changed = try store.merge(records: records)
    problems.expect(changed.isEmpty, "changed keys were \(Array(changed).sorted())")
  }

  static func boolIsNotInt(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": true, "b": 1])]))
    let changed = try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": 1, "b": 1.0])]))
    problems.expect(Set(changed) == ["Flags:1.a", "Flags:1.b"], "changed keys were \(Array(changed).sorted())")
    let record = try store.loadRecords(forKeys: ["Flags:1"])["Flags:1"]
    problems.expect(record?["a"] == .int(1) && record?["b"] == .double(1.0), "the record is \(String(describing: record))")
    let again = try store.merge(records: RecordSet(records: [Record(key: "Flags:1", ["a": 1, "b": 1.0])]))
    problems.expect(again.isEmpty, "merged again, changed keys were \(Array(again).sorted())")
  }

  static func valuesRoundTrip(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let changed = try store.merge(records: RecordSet(records: [valueZoo]))
    problems.expect(changed.count == valueZoo.fieldCount, "\(changed.count) changed keys for \(valueZoo.fieldCount) fields")
    let loaded = try store.loadRecords(forKeys: [valueZoo.key])[valueZoo.key]
    problems.expect(loaded == valueZoo, "loaded \(String(describing: loaded))")
    let order = problems.loadedOrder(valueZoo.fieldKeys)
    problems.expect(loaded?.fieldKeys == order, "fields in the order \(loaded?.fieldKeys ?? []), not \(order)")
    // -0.0 == 0.0 as Doubles: the sign must survive too.
    if case .double(let zero) = loaded?["negativeZero"] {
      problems.expect(zero.sign == .minus, "-0.0 loaded as \(zero)")
    } else {
      problems.expect(false, "negativeZero is not a Double")
    }
    problems.expect(try store.merge(records: RecordSet(records: [valueZoo])).isEmpty, "merging it again changed something")
  }

  static func emptyRecord(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let empty = try Record(key: "Empty:1", encodedFields: [])
    let changed = try store.merge(records: RecordSet(records: [empty]))
    problems.expect(changed.isEmpty, "changed keys were \(Array(changed).sorted())")
    let loaded = try store.loadRecords(forKeys: ["Empty:1"])
    let expected = problems.promises.contains(.emptyRecords) ? ["Empty:1": empty] : [:]
    problems.expect(loaded == expected, "loaded \(loaded)")
    let filled = try store.merge(records: RecordSet(records: [Record(key: "Empty:1", ["a": 1])]))
    problems.expect(Set(filled) == ["Empty:1.a"], "filling it changed \(Array(filled).sorted())")
  }

  static func removeRecord(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(records: RecordSet(records: [hero, luke]))
    try store.removeRecord(for: "Character:1")
    try store.removeRecord(for: "Character:404")
    let present = try Self.present(store, ["QUERY_ROOT", "Character:1"])
    problems.expect(present == ["QUERY_ROOT"], "left \(present.sorted())")
    // Merging the key again makes a new record: every field changes.
    let changed = try store.merge(records: RecordSet(records: [luke]))
    problems.expect(Set(changed).count == 3, "merged again, changed \(Array(changed).sorted())")
  }

  static func removeMatching(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    for (pattern, removed) in patterns {
      try store.clear()
      try store.merge(records: RecordSet(records: patternKeys.map { Record(key: $0, ["id": .string($0)]) }))
      try store.removeRecords(matching: pattern)
      let present = try Self.present(store, patternKeys)
      problems.expect(
        present == Set(patternKeys).subtracting(removed),
        "pattern \"\(pattern)\" left \(present.sorted()), where it should remove \(removed.sorted())")
    }
  }

  static func clear(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(records: RecordSet(records: [hero, luke]))
    try store.clear()
    let present = try Self.present(store, ["QUERY_ROOT", "Character:1"])
    problems.expect(present.isEmpty, "left \(present.sorted())")
    let changed = try store.merge(records: RecordSet(records: [luke]))
    problems.expect(changed.count == 3, "after clear, a merge changed \(Array(changed).sorted())")
    let loaded = try store.loadRecords(forKeys: ["Character:1"])
    problems.expect(loaded == ["Character:1": luke], "after clear, loaded \(loaded)")
  }

  static func largeLoad(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let records = (0..<1_234).map { Record(key: "Item:\($0)", ["id": .int($0), "next": .reference("Item:\($0 + 1)")]) }
    let changed = try store.merge(records: RecordSet(records: records))
    problems.expect(changed.count == 2_468, "\(changed.count) changed keys for 2,468 fields")
    // Present keys interleaved with missing ones, in an order of their own.
    let keys = (0..<1_500).reversed().map { "Item:\($0)" }
    let loaded = try store.loadRecords(forKeys: keys)
    problems.expect(loaded.count == 1_234, "\(loaded.count) records of 1,234")
    problems.expect(loaded["Item:1233"] == records[1_233], "Item:1233 loaded as \(String(describing: loaded["Item:1233"]))")
    problems.expect(loaded["Item:1234"] == nil, "Item:1234, never written, loaded")
  }

  static func missingKey(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    try store.merge(records: RecordSet(records: [hero]))
    problems.expect(try store.loadRecords(forKeys: ["Nope:1"]).isEmpty, "a missing key loaded")
    problems.expect(try store.loadRecords(forKeys: []).isEmpty, "no keys loaded something")
    let loaded = try store.loadRecords(forKeys: ["Nope:1", "QUERY_ROOT", "Nope:2", "QUERY_ROOT"])
    problems.expect(loaded == ["QUERY_ROOT": hero], "loaded \(loaded)")
  }

  static func controlCharacterKeys(_ store: any NormalizedCache, _ problems: inout Problems) throws {
    let keys: [CacheKey] = ["Nul:\u{0}a", "Nul:\u{0}b", "Tab:\t", "Quote:\"", "Plain:1"]
    try store.merge(records: RecordSet(records: keys.map { Record(key: $0, ["k": .string($0)]) }))
    let present = try Self.present(store, keys + ["Nul:"])
    problems.expect(present == Set(keys), "present: \(present.sorted().map(\.debugDescription))")
    let one = try store.loadRecords(forKeys: ["Nul:\u{0}a"])["Nul:\u{0}a"]?["k"]
    problems.expect(one == .string("Nul:\u{0}a"), "Nul:\\0a holds \(String(describing: one))")
  }
}
