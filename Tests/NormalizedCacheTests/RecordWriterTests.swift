import Testing

@testable @_spi(RecordBytes) import NormalizedCache

@Suite("The normalizer's record writer")
struct RecordWriterTests {
  static let values: [(String, RecordValue)] = [
    ("id", .string("1")), ("count", .int(-300)), ("price", .double(2.5)), ("flag", .bool(true)), ("none", .null),
    ("long", .string(String(repeating: "é", count: 150))), ("ref", .reference("Book:1")),
    ("list", .list([.int(1), .list([.string("a"), .null]), .reference("A:2")])),
    ("big", .list((0..<100).map { .int($0 * 1_000) })),
  ]

  @Test("writes what RecordCodec writes, long values included, and nested records come out whole")
  func sameBytes() {
    let writer = RecordWriter(capacity: 8)
    var expected: [UInt8] = []
    let outer = writer.count
    for (name, value) in Self.values {
      // A child record written and taken out in the middle of the parent's fields.
      let inner = writer.count
      writer.appendField(name: "x", .int(7))
      #expect(writer.take(from: inner) == Record(key: "C", ["x": 7]).encodedFields)
      writer.appendField(name: name, value)
      RecordCodec.appendField(name, value, to: &expected)
    }
    #expect(writer.take(from: outer) == expected)
    #expect(writer.count == 0)
  }

  @Test("a field written again under the same name takes the earlier one's place, shorter or longer")
  func replaceEarlierField() {
    for replacement in [RecordValue.null, .string(String(repeating: "z", count: 300)), .int(5)] {
      let writer = RecordWriter()
      writer.appendField(name: "pad", .int(1))
      let start = writer.count
      for (name, value) in Self.values.prefix(4) { writer.appendField(name: name, value) }
      let again = writer.count
      writer.appendField(name: "count", replacement)
      writer.replaceEarlierField(at: again, recordStart: start)
      let fresh = writer.count
      writer.appendField(name: "new", .bool(false))
      writer.replaceEarlierField(at: fresh, recordStart: start)
      var fields = Array(Self.values.prefix(4))
      fields[1].1 = replacement
      fields.append(("new", .bool(false)))
      #expect(writer.take(from: start) == Record(key: "K", fields: fields).encodedFields)
    }
  }

  @Test("a reference from its key's bytes is the reference RecordCodec writes: empty, short, and past a one-byte length")
  func referenceFromBytes() {
    for key in ["", "Item:7", String(repeating: "k", count: 127), String(repeating: "é", count: 100)] {
      // A writer of 4 bytes: the second reference must grow it.
      let writer = RecordWriter(capacity: 4)
      let start = writer.count
      for _ in 0..<2 {
        Array(key.utf8).withUnsafeBytes { writer.appendReference(utf8: $0) }
      }
      var expected: [UInt8] = []
      RecordCodec.appendValue(.reference(key), to: &expected)
      RecordCodec.appendValue(.reference(key), to: &expected)
      #expect(writer.take(from: start) == expected, "\(key.utf8.count) bytes")
    }
    // By hand: the reference tag, a length of 6, then the UTF-8.
    let writer = RecordWriter()
    Array("Item:7".utf8).withUnsafeBytes { writer.appendReference(utf8: $0) }
    #expect(writer.take(from: 0) == [RecordCodec.referenceTag, 6] + Array("Item:7".utf8))
  }
}
