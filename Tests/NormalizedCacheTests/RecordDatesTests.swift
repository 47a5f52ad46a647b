import GraphQLLanguage
import Testing

@_spi(RecordBytes) @testable import NormalizedCache

@Suite("Dates in records (docs/records.md#dates)")
struct RecordDatesTests {
  /// 2026-01-01T00:00:00Z.
  static let epoch = 1_767_225_600

  @Test("a normalize at a date writes it first, as one Int: 8 bytes a record, every field that date")
  func normalizedRecordsAreDated() throws {
    let records = try normalize(
      "{ book { id title author { name } } }", #"{"book": {"id": "1", "title": "T", "author": {"name": "N"}}}"#,
      strategy: .path, writtenAt: Self.epoch)
    #expect(records.count == 3)
    for record in records {
      #expect(record.isDated)
      for field in record.fieldKeys { #expect(record.writtenAt(field) == Self.epoch) }
    }
    let book = try #require(records["QUERY_ROOT.book"])
    // The dates field: name length 0, value length 6, Int tag, zigzag(2 × epoch) = 3,534,451,200
    // as a varint (worked out by hand: 0x80 0xe4 0xad 0x95 0x0d). Then the fields as without dates.
    #expect(Array(book.encodedFields.prefix(8)) == [0x00, 0x06, 0x03, 0x80, 0xE4, 0xAD, 0x95, 0x0D])
    let undatedRecords = try normalize(
      "{ book { id title author { name } } }", #"{"book": {"id": "1", "title": "T", "author": {"name": "N"}}}"#)
    let undated = try #require(undatedRecords["QUERY_ROOT.book"])
    #expect(Array(book.encodedFields.dropFirst(8)) == undated.encodedFields)
    // The dates field is no field of the record.
    #expect(book.fieldKeys == ["id", "title", "author"])
    #expect(book.fieldCount == 3)
    #expect(book[""] == nil)
    #expect(book.writtenAt("nope") == nil)
    #expect(undated.writtenAt("id") == nil)
    #expect(!undated.isDated)
  }

  @Test("a refetch refreshes: the same values written later take the later date, and no field is reported changed")
  func refetchRefreshes() throws {
    var book = Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"])
    let changed = book.merge(Record(key: "Book:1", writtenAt: 200, ["id": "1", "title": "T"]))
    #expect(changed.isEmpty)
    #expect(book.writtenAt("id") == 200)
    #expect(book.writtenAt("title") == 200)
    #expect(book == Record(key: "Book:1", writtenAt: 200, ["id": "1", "title": "T"]))
    #expect(book != Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"]))
  }

  @Test(
    "an unchanged refetch at another date, or a record met again at its dates, is settled without a field-by-field merge, with its result")
  func refetchShortcut() throws {
    var partial = Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T", "price": 5])
    _ = partial.merge(Record(key: "Book:1", writtenAt: 250, ["title": "T"]))
    let cases: [(old: Record, new: Record, shortcut: Bool)] = [
      (
        Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"]), Record(key: "Book:1", writtenAt: 200, ["id": "1", "title": "T"]),
        true
      ),
      // The old record's dates had exceptions: every field now takes the one new date.
      (partial, Record(key: "Book:1", writtenAt: 300, ["id": "1", "title": "T", "price": 5]), true),
      // An earlier date: the shortcut does not look at which is later, nor does the merge.
      (Record(key: "Book:1", writtenAt: 200, ["id": "1"]), Record(key: "Book:1", writtenAt: 100, ["id": "1"]), true),
      (
        Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"]), Record(key: "Book:1", writtenAt: 200, ["id": "1", "title": "U"]),
        false
      ),
      (
        Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"]), Record(key: "Book:1", writtenAt: 200, ["title": "T", "id": "1"]),
        false
      ),
      (Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"]), Record(key: "Book:1", writtenAt: 200, ["id": "1"]), false),
      (Record(key: "Book:1", writtenAt: 100, [:]), Record(key: "Book:1", writtenAt: 200, [:]), false),
      (Record(key: "Book:1", ["id": "1"]), Record(key: "Book:1", writtenAt: 200, ["id": "1"]), false),
      // New dates with exceptions.
      (Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T", "price": 5]), partial, false),
      // Fewer fields, each at its stored date and value: nothing changes (changesNothing).
      (partial, Record(key: "Book:1", writtenAt: 250, ["title": "T"]), false),
      (partial, Record(key: "Book:1", writtenAt: 100, ["price": 5, "id": "1"]), false),
      // ... but not at another date, nor with another value, nor with a field it lacks.
      (partial, Record(key: "Book:1", writtenAt: 100, ["title": "T"]), false),
      (partial, Record(key: "Book:1", writtenAt: 250, ["title": "U"]), false),
      (partial, Record(key: "Book:1", writtenAt: 250, ["title": "T", "year": 1]), false),
    ]
    for (index, (old, new, shortcut)) in cases.enumerated() {
      let taken = old.encodedFields.withUnsafeBytes { a in new.encodedFields.withUnsafeBytes { b in RecordCodec.onlyDatesMoved(a, b) } }
      #expect(taken == shortcut, "case \(index)")
      let nothing = old.encodedFields.withUnsafeBytes { a in new.encodedFields.withUnsafeBytes { b in RecordCodec.changesNothing(a, b) } }
      #expect(nothing == (9...10).contains(index), "case \(index)")
      let merged = RecordCodec.merge(existing: old.encodedFields, new: new.encodedFields)
      let byField = old.encodedFields.withUnsafeBytes { a in
        new.encodedFields.withUnsafeBytes { b in RecordCodec.mergeDated(existing: a, new: b) }
      }
      #expect(merged?.merged == byField?.merged, "case \(index)")
      #expect(merged?.changed == byField?.changed, "case \(index)")
      if shortcut {
        #expect(merged?.merged == new.encodedFields, "case \(index)")
        #expect(merged?.changed == [], "case \(index)")
      }
    }
  }

  @Test("random merges of dated records agree with a model of each field's value and date, in its order")
  func randomMergesAgreeWithModel() throws {
    // A linear congruential generator: the same cases every run.
    var state: UInt64 = 11
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let names = ["a", "b", "c", "d", "e", "f"]
    for trial in 0..<400 {
      // The model: each field's name, value and date, in the record's order.
      var model: [(name: String, value: Int, date: Int)] = []
      var record: Record?
      for step in 0..<6 {
        // Some of the names, in an order of their own, each a value of two, all at one date of three.
        var chosen = names
        for index in chosen.indices.reversed() { chosen.swapAt(index, next(index + 1)) }
        chosen = Array(chosen.prefix(1 + next(names.count)))
        let date = [100, 200, 300][next(3)]
        var builder = Record.Builder(key: "K", writtenAt: date)
        let values = chosen.map { ($0, next(2)) }
        for (name, value) in values { builder.append(name, .int(value)) }
        let incoming = builder.build()
        guard var stored = record else {
          record = incoming
          model = values.map { ($0.0, $0.1, date) }
          continue
        }
        // What the merge must give: each incoming field's value and date in its place, new
        // fields after, in the incoming order; changed, those whose value is new.
        var expected = model
        var changed: [String] = []
        for (name, value) in values {
          if let index = expected.firstIndex(where: { $0.name == name }) {
            if expected[index].value != value { changed.append(name) }
            expected[index] = (name, value, date)
          } else {
            expected.append((name, value, date))
            changed.append(name)
          }
        }
        let unchanged = expected.elementsEqual(model) { $0.name == $1.name && $0.value == $1.value && $0.date == $1.date }
        let nothing = stored.encodedFields.withUnsafeBytes { a in
          incoming.encodedFields.withUnsafeBytes { RecordCodec.changesNothing(a, $0) }
        }
        let result = RecordCodec.merge(existing: stored.encodedFields, new: incoming.encodedFields)
        #expect((result == nil) == unchanged, "trial \(trial) step \(step)")
        if nothing { #expect(unchanged, "trial \(trial) step \(step)") }
        if let result {
          #expect(result.changed == changed, "trial \(trial) step \(step)")
          stored = Record(key: "K", uncheckedEncodedFields: result.merged)
        }
        #expect(stored.fieldKeys == expected.map(\.name), "trial \(trial) step \(step)")
        #expect(stored.fields.map(\.value) == expected.map { .int($0.value) }, "trial \(trial) step \(step)")
        #expect(stored.writtenAt?.map(\.writtenAt) == expected.map(\.date), "trial \(trial) step \(step)")
        record = stored
        model = expected
      }
    }
  }

  @Test("the same values at the same date change nothing at all")
  func sameDateNoChange() throws {
    let existing = Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T"])
    #expect(RecordCodec.merge(existing: existing.encodedFields, new: existing.encodedFields) == nil)
    let fewer = Record(key: "Book:1", writtenAt: 100, ["title": "T"])
    #expect(RecordCodec.merge(existing: existing.encodedFields, new: fewer.encodedFields) == nil)
  }

  @Test("a partial refetch refreshes only what it wrote: the others keep their dates as exceptions")
  func partialRefetch() throws {
    var book = Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T", "price": 5])
    let changed = book.merge(Record(key: "Book:1", writtenAt: 250, ["title": "U"]))
    #expect(changed == ["title"])
    #expect(book.writtenAt("id") == 100)
    #expect(book.writtenAt("title") == 250)
    #expect(book.writtenAt("price") == 100)
    #expect(book["title"] == "U")
    // [base 250, position 0, 150 before, position 2, 150 before], each an Int (zigzag: 2n).
    // 500 = 0xF4 0x03, 300 = 0xAC 0x02: the list is tag, count 5, then five Ints, 15 bytes in all.
    let expected: [UInt8] = [0x00, 0x0F, 0x07, 0x05, 0x03, 0xF4, 0x03, 0x03, 0x00, 0x03, 0xAC, 0x02, 0x03, 0x04, 0x03, 0xAC, 0x02]
    #expect(Array(book.encodedFields.prefix(expected.count)) == expected)
    #expect(book.writtenAt?.map(\.writtenAt) == [100, 250, 100])
  }

  @Test("a new field goes at the end with its date; a record without dates counts as written at 0")
  func newFieldsAndUndated() throws {
    var book = Record(key: "Book:1", writtenAt: 100, ["id": "1"])
    #expect(book.merge(Record(key: "Book:1", writtenAt: 300, ["title": "T"])) == ["title"])
    #expect(book.fieldKeys == ["id", "title"])
    #expect(book.writtenAt?.map(\.writtenAt) == [100, 300])

    var old = Record(key: "Book:1", ["id": "1", "title": "T"])
    #expect(old.merge(Record(key: "Book:1", writtenAt: 50, ["title": "T"])).isEmpty)
    #expect(old.writtenAt?.map(\.writtenAt) == [0, 50])
  }

  @Test("the dates field is canonical: the same dates reached by other merges have the same bytes")
  func canonical() throws {
    var first = Record(key: "K", writtenAt: 10, ["a": 1, "b": 2])
    first.merge(Record(key: "K", writtenAt: 20, ["b": 2]))
    first.merge(Record(key: "K", writtenAt: 20, ["a": 1]))
    #expect(first.encodedFields == Record(key: "K", writtenAt: 20, ["a": 1, "b": 2]).encodedFields)
  }

  @Test("a record set merges dated records as the stores do; an undated store's records stay undated")
  func recordSets() throws {
    var set = RecordSet(records: [Record(key: "K", writtenAt: 10, ["a": 1])])
    let changed = set.merge(record: Record(key: "K", writtenAt: 30, ["a": 1, "b": 2]))
    #expect(Set(changed) == ["K.b"])
    #expect(set["K"]?.writtenAt?.map(\.writtenAt) == [30, 30])
    #expect(RecordSet(records: [Record(key: "K", ["a": 1])])["K"]?.isDated == false)
  }
}

@Suite("The dates field of records from outside bytes is checked")
struct RecordDatesValidationTests {
  /// A field named `a` holding null, after `dates`: the dates field's value bytes.
  static func record(dates: [UInt8], fields: Int = 1) -> [UInt8] {
    var bytes: [UInt8] = [0, UInt8(dates.count)] + dates
    for index in 0..<fields { bytes += [1, UInt8(ascii: "a") + UInt8(index), 1, 0] }
    return bytes
  }

  @Test("dated records this package made pass, dates and all")
  func wellFormed() throws {
    var book = Record(key: "Book:1", writtenAt: 100, ["id": "1", "title": "T", "price": 5])
    book.merge(Record(key: "Book:1", writtenAt: 250, ["title": "U"]))
    let rebuilt = try Record(key: "Book:1", encodedFields: book.encodedFields)
    #expect(rebuilt == book)
    #expect(rebuilt.writtenAt("id") == 100)
  }

  @Test(
    "a malformed dates field is refused with the offset and the problem",
    arguments: [
      // The dates field second.
      (
        [1, UInt8(ascii: "a"), 1, 0, 0, 2, 3, 2],
        "malformed record encoding at byte 4: a field of empty name (a record's dates) that is not the first"
      ),
      (record(dates: [5, 0]), "malformed record encoding at byte 2: the dates field holds a value other than an Int"),
      (record(dates: [3, 1]), "malformed record encoding at byte 2: the dates field holds a date before 0"),
      (
        record(dates: [7, 2, 3, 2, 3, 0]), "malformed record encoding at byte 2: the dates field is a list of 2 Ints, not a base and pairs"
      ),
      // An empty list has no base; a list in the list is not an Int.
      (record(dates: [7, 0]), "malformed record encoding at byte 2: the dates field is a list of 0 Ints, not a base and pairs"),
      (
        record(dates: [7, 3, 7, 1, 3, 2, 3, 2, 3, 2]),
        "malformed record encoding at byte 4: the dates field holds a value other than an Int"
      ),
      // [base 100, position 1 of 1 field, 1 second before]: no field 1.
      (
        record(dates: [7, 3, 3, 200, 1, 3, 2, 3, 2]),
        "malformed record encoding at byte 7: the dates field's exception (1, 1) is not a later field of the 1 with a date from 1 to 100 seconds before its base"
      ),
      // Seconds before of 0: the field is at the base, no exception.
      (
        record(dates: [7, 3, 3, 200, 1, 3, 0, 3, 0]),
        "malformed record encoding at byte 7: the dates field's exception (0, 0) is not a later field of the 1 with a date from 1 to 100 seconds before its base"
      ),
    ])
  func malformed(bytes: [UInt8], message: String) {
    let error = #expect(throws: RecordCodec.EncodingError.self) { try Record(key: "K", encodedFields: bytes) }
    #expect(error?.description == message)
  }

  @Test("a dates value kept apart from its fields (a split record's) is checked as a record's dates are")
  func checkedValue() throws {
    // 100 (ZigZag 200, a varint of two bytes); then [base 100, field 1 at 1 second before].
    #expect(try ([3, 200, 1] as [UInt8]).withUnsafeBytes { try RecordCodec.checkedDates(ofValue: $0, fieldCount: 2) } == [100, 100])
    #expect(
      try ([7, 3, 3, 200, 1, 3, 2, 3, 2] as [UInt8]).withUnsafeBytes { try RecordCodec.checkedDates(ofValue: $0, fieldCount: 2) } == [
        100, 99,
      ])
    for (bytes, message) in [
      ([7, 0] as [UInt8], "malformed record encoding at byte 0: the dates field is a list of 0 Ints, not a base and pairs"),
      ([3, 200, 1, 3], "malformed record encoding at byte 3: bytes after the dates field's value"),
      ([5, 0], "malformed record encoding at byte 0: the dates field holds a value other than an Int"),
    ] {
      let error = #expect(throws: RecordCodec.EncodingError.self) {
        try bytes.withUnsafeBytes { try RecordCodec.checkedDates(ofValue: $0, fieldCount: 1) }
      }
      #expect(error?.description == message)
    }
  }

  /// The fast path for one date accepts only what the full check accepts, and every one date.
  @Test("one date is taken at a glance exactly where the full check takes it")
  func oneDateFastPath() throws {
    var values: [[UInt8]] = []
    for date in [0, 1, 63, 64, 100, 8_191, 8_192, RecordDatesTests.epoch, Int.max, -1, -64, Int.min] {
      var bytes: [UInt8] = []
      RecordCodec.appendValue(.int(date), to: &bytes)
      values.append(bytes)
      values.append(bytes + [0])  // bytes after the value
      // The varint made longer than it must be (a 0x80 continuation and a 0 byte).
      values.append(Array(bytes.dropLast()) + [bytes.last! | 0x80, 0])
    }
    // By hand: 0 and 100 (ZigZag 200 = C8 01); -1 (ZigZag 1); a varint of 10 bytes whose last
    // holds more than the 64th bit; one cut short; an empty value; a list; a String tag.
    values += [[3, 0], [3, 200, 1], [3, 1], [3] + [UInt8](repeating: 0xFF, count: 9) + [2], [3, 0x80], [], [7, 1, 3, 0], [5, 0]]
    for value in values {
      let full = value.withUnsafeBytes { (try? RecordCodec.checkDatesFully(ofValue: $0, fieldCount: 3)) != nil }
      let fast = value.withUnsafeBytes { RecordCodec.isOneDate($0) }
      // A list of one date's form is the full check's to take; everything else is one Int.
      let oneInt = value.first == RecordCodec.intTag
      #expect(fast == (full && oneInt), "\(value)")
      let checked = value.withUnsafeBytes { (try? RecordCodec.checkDates(ofValue: $0, fieldCount: 3)) != nil }
      #expect(checked == full, "\(value)")
    }
    #expect(([3, 0] as [UInt8]).withUnsafeBytes { RecordCodec.isOneDate($0) })
    #expect(!([3, 1] as [UInt8]).withUnsafeBytes { RecordCodec.isOneDate($0) })
  }
}
