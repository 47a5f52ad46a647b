import Testing

@testable @_spi(RecordBytes) import NormalizedCache

@Suite("Record encoding")
struct RecordCodecTests {
  /// Names around the 16 bytes the fast comparison reads (length byte included), and past the
  /// one-byte length varint (128).
  static let names = [
    "a", "id", "seven77", "eight888", "fourteen141414", "fifteen15151515", "sixteen161616161", "x", String(repeating: "n", count: 128),
    "é名",
  ]

  @Test("a field is found by name from any hint, at any place in the record, up to its last byte")
  func findFromEveryHint() throws {
    var fields: [(String, RecordValue)] = []
    for (index, name) in Self.names.enumerated() { fields.append((name, .int(index))) }
    let record = Record(key: "K", fields: fields)
    try record.encodedFields.withUnsafeBytes { bytes in
      // Every place a field starts, and the end.
      var starts = [0]
      var offset = 0
      while offset < bytes.count {
        _ = RecordCodec.readField(bytes, &offset)
        starts.append(offset)
      }
      #expect(starts.count == Self.names.count + 1)
      for (index, name) in Self.names.enumerated() {
        let fieldName = RecordCodec.FieldName(name)
        for start in starts {
          var hint = start
          let found = try #require(
            withExtendedLifetime(fieldName) { RecordCodec.find(fieldName.probe, in: bytes, hint: &hint) }, "\(name) from \(start)")
          var valueOffset = found
          #expect(RecordCodec.readValue(bytes, &valueOffset) == .int(index))
          // The hint moves past the field found: to where the next one starts.
          #expect(hint == starts[index + 1])
        }
      }
    }
  }

  @Test(
    "names that only resemble a field's are not found",
    arguments: [
      "", "i", "ids", "iD", "fifteen1515151", "fifteen151515155", "sixteen16161616", "sixteen1616161616",
      String(repeating: "n", count: 127), "é",
    ])
  func lookalikes(name: String) {
    let record = Record(key: "K", fields: Self.names.map { ($0, RecordValue.null) })
    record.encodedFields.withUnsafeBytes { bytes in
      var second = 0
      _ = RecordCodec.readField(bytes, &second)
      for start in [0, second, bytes.count] {
        var hint = start
        let fieldName = RecordCodec.FieldName(name)
        #expect(withExtendedLifetime(fieldName) { RecordCodec.find(fieldName.probe, in: bytes, hint: &hint) } == nil)
        #expect(hint == start)
      }
    }
  }

  @Test("a record shorter than the 16 bytes compared at once: its one field found, others not")
  func shortRecord() {
    let record = Record(key: "K", ["id": "1"])
    #expect(record.encodedFields.count < 16)
    record.encodedFields.withUnsafeBytes { bytes in
      var hint = 0
      let id = RecordCodec.FieldName("id")
      let found = withExtendedLifetime(id) { RecordCodec.find(id.probe, in: bytes, hint: &hint) }
      #expect(
        found.map { offset in
          var offset = offset
          return RecordCodec.readValue(bytes, &offset)
        } == .string("1"))
      hint = 0
      let i = RecordCodec.FieldName("i")
      #expect(withExtendedLifetime(i) { RecordCodec.find(i.probe, in: bytes, hint: &hint) } == nil)
    }
  }
}
