import Testing

@testable @_spi(RecordBytes) import NormalizedCache

@Suite("Records from outside bytes are checked")
struct RecordValidationTests {
  /// A record with every kind of value, nested lists and a long string (a two-byte length).
  static let everything = Record(
    key: "Zoo:1",
    [
      "null": nil, "no": false, "yes": true, "int": -300, "double": 1.5, "name": "Zoo",
      "keeper": .reference("Keeper:2"), "long": .string(String(repeating: "x", count: 200)),
      "nested": [[1, 2], [.reference("A:1"), "b"], []],
    ])

  @Test("the bytes of any record this package made pass, and the record equals the original")
  func wellFormedPasses() throws {
    let rebuilt = try Record(key: Self.everything.key, encodedFields: Self.everything.encodedFields)
    #expect(rebuilt == Self.everything)
    #expect(try Record(key: "Empty", encodedFields: []).isEmpty)
  }

  /// Field `a` with the value bytes given, its value length as they count.
  static func field(_ value: [UInt8]) -> [UInt8] { [1, UInt8(ascii: "a"), UInt8(value.count)] + value }

  @Test(
    "malformed bytes are refused with the offset and the problem",
    arguments: [
      // A name length past the end.
      ([5, UInt8(ascii: "a")], "malformed record encoding at byte 0: field name length 5 runs past the end (1 bytes left)"),
      // A value length past the end.
      ([1, UInt8(ascii: "a"), 9, 0], "malformed record encoding at byte 2: value length 9 runs past the end (1 bytes left)"),
      (field([9]), "malformed record encoding at byte 3: unknown tag 9"),
      (field([4, 0, 0]), "malformed record encoding at byte 3: a Double of fewer than 8 bytes"),
      (field([5, 3, 65]), "malformed record encoding at byte 4: a string's length 3 runs past the end (1 bytes left)"),
      (field([7, 5, 0]), "malformed record encoding at byte 3: a list of 5 elements runs past the end"),
      // A value shorter than its length: the length says 2, the null takes 1.
      ([1, UInt8(ascii: "a"), 2, 0, 0], "malformed record encoding at byte 4: the value ends before its length says"),
      // A varint with a needless continuation byte: 0x81 0x00 is 1 spelled in two bytes.
      (field([3, 0x81, 0x00]), "malformed record encoding at byte 4: an Int not in its shortest form"),
      (field([3] + [UInt8](repeating: 0xFF, count: 10) + [1]), "malformed record encoding at byte 4: an Int longer than 64 bits"),
      (field([0]) + field([1]), "malformed record encoding at byte 4: field \"a\" appears twice"),
    ] as [([UInt8], String)])
  func malformedRefused(bytes: [UInt8], message: String) {
    #expect(throws: RecordCodec.EncodingError.self) { try Record(key: "K", encodedFields: bytes) }
    do {
      _ = try Record(key: "K", encodedFields: bytes)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("every truncation of a well-formed record is refused (or is a shorter well-formed one)")
  func truncations() {
    let bytes = Self.everything.encodedFields
    // The offsets where a field ends: a cut there leaves whole fields.
    var fieldEnds: Set<Int> = [0]
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        _ = RecordCodec.readField(buffer, &offset)
        fieldEnds.insert(offset)
      }
    }
    for count in 0..<bytes.count {
      let cut = Array(bytes[..<count])
      let accepted = (try? Record(key: "K", encodedFields: cut)) != nil
      #expect(accepted == fieldEnds.contains(count), "cut at \(count)")
    }
  }

  @Test("lists nested past 512 levels are refused without exhausting the stack")
  func deepLists() {
    let depth = 100_000
    // [[[ ... null ... ]]]: a list of one element, 100,000 deep.
    var value: [UInt8] = []
    for _ in 0..<depth { value += [7, 1] }
    value.append(0)
    var bytes: [UInt8] = [1, UInt8(ascii: "a")]
    Varint.append(UInt64(value.count), to: &bytes)
    bytes += value
    #expect(throws: RecordCodec.EncodingError.self) { try Record(key: "K", encodedFields: bytes) }
  }
}
