import GraphQLLanguage
@_spi(RecordBytes) import NormalizedCache
import Testing

@testable import SQLiteCache

/// The JSON text of the apollo layout, both ways.
@Suite("Record JSON")
struct RecordJSONTests {
  static func parse(_ json: String) throws -> Record {
    let fields = try Array(json.utf8).withUnsafeBytes { try RecordJSON.fields(fromJSON: $0) }
    return Record(key: "R", uncheckedEncodedFields: fields)
  }

  @Test("every value survives JSON and back, fields in order")
  func roundTrip() throws {
    let zoo = ConformanceTests.valueZoo
    let parsed = try Self.parse(RecordJSON.string(of: zoo))
    #expect(Record(key: zoo.key, uncheckedEncodedFields: parsed.encodedFields) == zoo)
    #expect(parsed.fieldKeys == zoo.fieldKeys)
  }

  /// The parser writes the encoding itself; its bytes must be the one encoder's (RecordWriter,
  /// behind Record's initializer), a value of over 127 bytes (a widened length) included.
  @Test("JSON text parses to the bytes the one encoder writes for the same values")
  func sameBytesAsTheEncoder() throws {
    let long = String(repeating: "long é ", count: 40)
    let record = Record(
      key: "R",
      [
        "s": .string(long), "n": .list((-70..<70).map { .int($0 * 1_000_003) }), "r": .reference("Book:1"),
        "d": 1.5, "b": true, "z": .null, "nested": .list([.list([.string("a")]), .list([])]),
      ])
    #expect(try Self.parse(RecordJSON.string(of: record)).encodedFields == record.encodedFields)
  }

  @Test(
    "numbers read as JSONParser reads them",
    arguments: [
      ("0", RecordValue.int(0)), ("-0", .int(0)), ("-0.0", .double(-0.0)), ("1.0", .double(1)), ("1e2", .double(100)),
      ("9223372036854775807", .int(Int.max)), ("-9223372036854775808", .int(Int.min)),
      ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("1.99", .double(1.99)), ("5e-324", .double(.leastNonzeroMagnitude)),
    ])
  func numbers(_ text: String, _ value: RecordValue) throws {
    #expect(try Self.parse(#"{"n":\#(text)}"#)["n"] == value)
  }

  /// A lone surrogate is refused, as JSONParser refuses it: JSONReadersTests.
  @Test("escapes and surrogate pairs decode")
  func strings() throws {
    let record = try Self.parse(#"{"s":"a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\ud83e\udd84x"}"#)
    #expect(record["s"] == .string("a\"b\\c/d\u{8}\u{C}\n\r\tAé🦄x"))
  }

  /// Strings are printed and parsed a run of plain bytes at a time: a byte to escape at every
  /// place of a string longer than one eight-byte word, before and after the word's end, must
  /// come back as it was, through the project's JSONParser and through the layout's own parser.
  @Test("a string with a byte to escape anywhere prints as JSON and parses back", arguments: 0..<20)
  func escapeAnywhere(position: Int) throws {
    for special in ["\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}", "é"] {
      var text = String(repeating: "v", count: 19)
      text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
      let record = Record(key: "R", ["s": .string(text), "t": .string(text + text)])
      let json = RecordJSON.string(of: record)
      #expect(try JSONParser.parse(Array(json.utf8)) == .object(["s": .string(text), "t": .string(text + text)]), "\(json)")
      #expect(try Self.parse(json).encodedFields == record.encodedFields, "\(json)")
    }
  }

  @Test("Ints print as Swift prints them", arguments: [0, 7, 9, 10, 99, 100, -1, -10, 1_000_003, Int.max, Int.min, Int.min + 1])
  func ints(_ value: Int) throws {
    #expect(RecordJSON.string(of: Record(key: "R", ["n": .int(value)])) == #"{"n":\#(value)}"#)
    #expect(try Self.parse(#"{"n":\#(value)}"#)["n"] == .int(value))
  }

  @Test("Doubles print as Swift prints them; a non-finite one has no JSON form and is null")
  func doubles() {
    let record = Record(key: "R", ["a": 1.0, "b": 1e-5, "c": 1e20, "d": .double(.infinity), "e": .double(.nan)])
    #expect(RecordJSON.string(of: record) == #"{"a":1.0,"b":1e-05,"c":1e+20,"d":null,"e":null}"#)
  }

  /// A projected parse keeps the dates member (the empty name) and the set's members, in the
  /// text's order, and says whether it left any out; what it keeps is the whole parse's bytes.
  @Test("a projected parse keeps the dates and the set's members, and says whether it left any out")
  func projectedParse() throws {
    // Dates of base 10, field 2 ("c") written 3 seconds before it (docs/records.md#dates).
    let json = #"{"":[10,2,3],"a":1,"b":{"$reference":"Book:1"},"c":["x",null]}"#
    func parse(_ set: FieldSet?) throws -> (Record, Bool) {
      let (fields, skipped) = try Array(json.utf8).withUnsafeBytes { try RecordJSON.fields(fromJSON: $0, keeping: set) }
      return (Record(key: "R", uncheckedEncodedFields: fields), skipped)
    }
    let whole = try Self.parse(json)
    #expect(whole.fieldKeys == ["a", "b", "c"])  // the dates member is no field key
    let (kept, skipped) = try parse(FieldSet(["c", "b", "z"]))
    #expect(skipped)
    // The dates as they are in the text: their positions are the whole record's (a store's
    // FieldFilter projects them after).
    let dates = Array(whole.encodedFields[..<whole.encodedFields.withUnsafeBytes(RecordDates.fieldsStart)])
    // A name of 0 bytes, a value of 8: the list tag, 3 elements, 10, 2 and 3 as zigzag Ints.
    #expect(dates == [0, 8, RecordCodec.listTag, 3] + [3, 20, 3, 4, 3, 6])
    let b = try Self.parse(#"{"b":{"$reference":"Book:1"},"c":["x",null]}"#).encodedFields
    #expect(kept.encodedFields == dates + b)
    let (none, skippedAll) = try parse(FieldSet(["z"]))
    #expect(skippedAll)
    #expect(none.encodedFields == dates)
    for set in [nil, FieldSet(["a", "b", "c"])] {
      let (all, skippedNone) = try parse(set)
      #expect(!skippedNone)
      #expect(all.encodedFields == whole.encodedFields)
    }
  }

  /// The member name is compared in place as the layout writes it; any other spelling of the
  /// same name (escapes, whitespace) is resolved first.
  @Test("a reference's member name is read however the JSON spells it")
  func referenceSpellings() throws {
    for json in [
      #"{"r":{"$reference":"Book:1"}}"#, #"{"r":{ "$reference" : "Book:1" }}"#,
      #"{"r":{"\u0024reference":"Book:1"}}"#, #"{"r":{"$refer\u0065nce":"Book:1"}}"#,
    ] {
      #expect(try Self.parse(json)["r"] == .reference("Book:1"), "\(json)")
    }
    // Keys the in-place path takes (plain, empty) and those it leaves to the general one (escapes).
    let list = #"{"l":[{"$reference":"A:1"},{"$reference":""},{"$reference":"B\"2"},{"$reference":"C\\3\n"}, {"$reference":"D"}]}"#
    #expect(
      try Self.parse(list)["l"] == .list([.reference("A:1"), .reference(""), .reference("B\"2"), .reference("C\\3\n"), .reference("D")]))
    // A list's elements that are references go straight to the reference, the others through
    // the value parser, in any order.
    let mixed = #"{"l":[{"$reference":"A"},1,"x",[{"$reference":"B"}],null,{"$reference":"C"}]}"#
    #expect(
      try Self.parse(mixed)["l"]
        == .list([.reference("A"), .int(1), .string("x"), .list([.reference("B")]), .null, .reference("C")]))
  }

  /// Damaged text (a file another program wrote, a torn page): the fast paths read no byte past
  /// the end, and what parses is a valid record that prints and parses back to itself.
  @Test("damaged JSON is refused or parses to a valid record, never read past its end")
  func damagedText() throws {
    let record = Record(
      key: "R",
      [
        "refs": .list((0..<6).map { .reference("Item:\($0)") }), "r": .reference("Book:1"), "s": "a\"b",
        "n": .list([.int(-12), .double(2.5), .null, .bool(true), .list([.reference("A"), .string("")])]),
      ])
    let text = Array(RecordJSON.string(of: record).utf8)
    let bytes: [UInt8] = Array(#"{}[]",:\ $0"#.utf8) + [0x00, 0x7F, 0xC3]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(bound))
    }
    var parsed = 0
    for _ in 0..<4_000 {
      var damaged = text
      for _ in 0...next(3) {
        let at = next(damaged.count)
        switch next(3) {
        case 0: damaged[at] = bytes[next(bytes.count)]
        case 1: damaged.remove(at: at)
        default: damaged.removeSubrange(at...)
        }
        if damaged.isEmpty { break }
      }
      // Parsed from a buffer of exactly its size: AddressSanitizer's builds catch a read past it.
      let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: damaged.count, alignment: 1)
      defer { copy.deallocate() }
      copy.copyMemory(from: UnsafeRawBufferPointer(start: damaged, count: damaged.count))
      guard let fields = try? RecordJSON.fields(fromJSON: UnsafeRawBufferPointer(copy)) else { continue }
      parsed += 1
      let valid = try Record(key: "R", encodedFields: fields)
      // Bytes that are not UTF-8 are kept as they are, and print as U+FFFD: only UTF-8 comes back whole.
      if String(validating: damaged, as: UTF8.self) != nil {
        #expect(try Self.parse(RecordJSON.string(of: valid)).encodedFields == fields, "\(String(decoding: damaged, as: UTF8.self))")
      }
    }
    // Some damage leaves valid JSON (a changed letter in a key or a string): both ways are taken.
    #expect(parsed > 0 && parsed < 4_000)
  }

  @Test(
    "text that is not a record is refused with its place",
    arguments: [
      ("", "expected '{' at 0"), ("[]", "expected '{' at 0"), (#"{"a":1} x"#, "unexpected text after the record at 8"),
      (#"{"a":"x"#, "unterminated string at 7"), ("{\"a\":\"\u{1}\"}", "a control character in a string at 6"),
      (#"{"a":{"$reference":"K","b":1}}"#, "a reference with more than one member at 22"), (#"{"a":tru}"#, "expected true at 5"),
      (#"{"a":{"$referencx":"K"}}"#, "an object that is not a reference at 5"), (#"{"a":{"$reference"}}"#, "expected ':' at 18"),
      (#"{"a":{"$ref"#, "unterminated string at 11"), (#"{"a":{}}"#, "expected a string at 6"),
      (#"{"a":[{"$reference":"K"},{"b":1}]}"#, "an object that is not a reference at 25"),
      (#"{"a":[{"$reference":"K"}"#, "expected ']' at 24"),
      (#"{"a":01}"#, "a number cannot have a leading zero at 6"), (#"{"a":1.}"#, "expected a digit after '.' at 7"),
      (#"{"a":"\x"}"#, "invalid escape at 7"),
    ])
  func refused(_ json: String, _ expected: String) {
    do {
      _ = try Self.parse(json)
      Issue.record("parsed \(json)")
    } catch let error as RecordJSON.ParseError {
      #expect("\(error.message) at \(error.offset)" == expected)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(
    "a key goes into json_each's array as a JSON string, escaped wherever its quote, backslash or control byte is; U+0000 is refused",
    arguments: 0..<20)
  func keyAsJSON(position: Int) throws {
    for special in ["\"", "\\", "\n", "\u{1F}"] {
      var key = String(repeating: "k", count: 20)
      key.insert(contentsOf: special, at: key.index(key.startIndex, offsetBy: position))
      var json: [UInt8] = []
      #expect(RecordJSON.appendKey(key, to: &json))
      #expect(try JSONParser.parse(json) == .string(key), "\(special) at \(position)")
    }
    let plain = "Itém:" + String(repeating: "é", count: position)
    var json: [UInt8] = []
    #expect(RecordJSON.appendKey(plain, to: &json))
    #expect(json == Array("\"\(plain)\"".utf8))
    var nul = String(repeating: "n", count: 20)
    nul.insert("\u{0}", at: nul.index(nul.startIndex, offsetBy: position))
    var refused: [UInt8] = [1]
    #expect(!RecordJSON.appendKey(nul, to: &refused))
    #expect(refused == [1])
  }

  /// The layout's strings go through GraphQLLanguage's one escaper, a plain run at a time; the
  /// bytes are the ones docs/records.md gives and the layout wrote before.
  @Test("strings print with docs/records.md's escapes, bytes as before")
  func escapesAsDocumented() {
    let record = Record(key: "R", ["t\"\n": .string("Dune \"1\"\n\r\t\\ é 😀 a/b \u{1}\u{8}\u{C}\u{1F}"), "r": .reference("A\\b")])
    #expect(RecordJSON.string(of: record) == #"{"t\"\n":"Dune \"1\"\n\r\t\\ é 😀 a/b \u0001\b\f\u001f","r":{"$reference":"A\\b"}}"#)
  }

  /// The apollo layout prints into a reused `RecordWriter`, the tests' `string(of:)` into an
  /// array: the one printer, the same bytes, escapes, lists, Doubles and an empty record included.
  @Test("the layout's writer and an array get the same JSON")
  func writerAndArrayAgree() {
    let escapes = Record(key: "R", ["t\"\n": .string("a \u{1} \\ \"b\" é"), "r": .reference("A\\b"), "l": .list([.null, 1.5, .list([])])])
    let writer = RecordWriter(capacity: 4)
    for record in [ConformanceTests.valueZoo, escapes, Record(key: "E", [:])] {
      writer.truncate(to: 0)
      var sink = writer
      record.encodedFields.withUnsafeBytes { RecordJSON.append(fields: $0, to: &sink) }
      #expect(String(decoding: writer.bytes(from: 0), as: UTF8.self) == RecordJSON.string(of: record), "\(record.key)")
    }
  }
}
