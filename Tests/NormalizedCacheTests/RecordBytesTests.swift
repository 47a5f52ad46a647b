import Generator
import Testing

@testable @_spi(RecordBytes) import NormalizedCache

/// The invariants written at the top of `RecordBytes.swift`, one test each.
@Suite("Record bytes: varints, zigzag Ints, length prefixes")
struct RecordBytesTests {
  static func varint(_ value: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    Varint.append(value, to: &bytes)
    return bytes
  }

  /// Invariant 1: LEB128 in its shortest form. The bytes are worked out by hand: 300 is
  /// 0b10_0101100, so 0xAC (the low seven bits with the continuation bit) then 0x02.
  static let varints: [(UInt64, [UInt8])] = [
    (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
    (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
    (.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
  ]

  @Test("a varint is LEB128 in its shortest form, by hand", arguments: varints)
  func shortestForm(_ value: UInt64, _ expected: [UInt8]) {
    #expect(Self.varint(value) == expected)
    #expect(Varint.size(value) == expected.count)
    var written = [UInt8](repeating: 0xEE, count: Varint.maximumSize)
    let count = written.withUnsafeMutableBytes { Varint.write(value, to: $0.baseAddress!) }
    #expect(Array(written[..<count]) == expected)
    expected.withUnsafeBytes { bytes in
      var offset = 0
      #expect(Varint.read(bytes, &offset) == value)
      #expect(offset == expected.count)
      offset = 0
      #expect(Varint.readChecked(bytes, &offset) == value)
      #expect(offset == expected.count)
    }
  }

  /// Invariant 2: the checked read stops at the end of its buffer and at 64 bits.
  @Test("the checked read refuses a varint cut short or longer than 64 bits", arguments: [
    [UInt8](), [0x80], [0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
    [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x00],
  ])
  func checkedReadRefuses(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      #expect(Varint.readChecked(buffer, &offset) == nil)
      #expect(offset <= buffer.count)
    }
  }

  /// Invariant 3: zigzag, by hand at the ends, and both ways on seeded random Ints.
  @Test("zigzag maps 0, -1, 1, -2 to 0, 1, 2, 3 and inverts on every Int")
  func zigzag() {
    let pairs: [(Int, UInt64)] = [(0, 0), (-1, 1), (1, 2), (-2, 3), (63, 126), (-64, 127), (64, 128), (.max, .max - 1), (.min, .max)]
    for (int, encoded) in pairs {
      #expect(ZigZag.encode(int) == encoded)
      #expect(ZigZag.decode(encoded) == int)
    }
    var random = SplitMix64(seed: 0x2162)
    for _ in 0..<10_000 {
      let int = Int(bitPattern: UInt(random.next()))
      #expect(ZigZag.decode(ZigZag.encode(int)) == int)
    }
  }

  /// Invariant 4: a reserved length byte, closed, is the shortest varint of the length, the bytes
  /// after it moved up when it widens; in an array and in raw memory alike.
  @Test("a closed length prefix is the value's length in its shortest form", arguments: [0, 1, 127, 128, 300, 16_384])
  func lengthPrefix(_ length: Int) {
    let value = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let expected = [0xAA] + Self.varint(UInt64(length)) + value

    var array: [UInt8] = [0xAA, 0]
    array += value
    LengthPrefix.close(at: 1, in: &array)
    #expect(array == expected)

    var raw = [UInt8](repeating: 0, count: expected.count + 4)
    raw[0] = 0xAA
    raw.replaceSubrange(2..<(2 + length), with: value)
    var end = 2 + length
    let closed = raw.withUnsafeMutableBytes { LengthPrefix.close(at: 1, in: $0.baseAddress!, end: &end, capacity: $0.count) }
    #expect(closed)
    #expect(Array(raw[..<end]) == expected)
  }

  @Test("a length that would widen past the capacity leaves the bytes as they were")
  func lengthPrefixWithoutRoom() {
    var raw = [UInt8](repeating: 0x11, count: 130)
    raw[0] = 0
    var end = 129
    let closed = raw.withUnsafeMutableBytes { LengthPrefix.close(at: 0, in: $0.baseAddress!, end: &end, capacity: 129) }
    #expect(!closed)
    #expect(end == 129)
    #expect(raw == [0] + [UInt8](repeating: 0x11, count: 129))
  }
}

/// docs/records.md's worked example, byte for byte.
@Suite("docs/records.md's worked example")
struct RecordsDocExampleTests {
  static func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
  }

  @Test("Book:bk123's six fields encode to the 80 bytes the page lists")
  func encoding() {
    let record = Record(key: "Book:bk123", [
      "title": "Dune", "year": 1965, "inPrint": true, "rating": 4.5,
      "author": .reference("Author:7"), "tags": ["sf", nil],
    ])
    let expected = Self.bytes("""
      057469746C6506050444756E6504796561720303DA1E07696E5072696E74010206726174696E6709040000000000001240
      06617574686F720A0608417574686F723A3704746167730707020502736600
      """)
    #expect(expected.count == 80)
    #expect(record.encodedFields == expected)
  }
}
