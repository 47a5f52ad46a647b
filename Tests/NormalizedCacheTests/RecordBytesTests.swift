import Generator
import Support
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
  @Test(
    "the checked read refuses a varint cut short or longer than 64 bits",
    arguments: [
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

/// Invariant 7: the one walk of the value grammar, through visitors that write down what they see.
@Suite("Record bytes: the walk of a value")
struct RecordValueWalkTests {
  /// The bytes of one value, as the one encoder writes them.
  static func bytes(_ value: RecordValue) -> [UInt8] {
    var bytes: [UInt8] = []
    RecordCodec.appendValue(value, to: &bytes)
    return bytes
  }

  /// Walks `bytes` with `Log`; returns what it saw and where it stopped, or the problem.
  static func walk<Log: EventLog>(_ bytes: [UInt8], _ log: Log.Type) -> Result<(events: [String], end: Int), MalformedValue> {
    bytes.withUnsafeBytes { buffer in
      var visitor = Log()
      var offset = 0
      do throws(MalformedValue) {
        try RecordValueWalk.walk(buffer, &offset, &visitor)
        return .success((visitor.events, offset))
      } catch {
        return .failure(error)
      }
    }
  }

  /// The problem a walk met, nil when it walked.
  static func problem<Log: EventLog>(_ bytes: [UInt8], _ log: Log.Type) -> MalformedValue? {
    if case .failure(let problem) = walk(bytes, log) { return problem }
    return nil
  }

  @Test("a walk visits a value's parts in order, each with the bytes it read")
  func visitsInOrder() throws {
    let bytes = Self.bytes([1, [nil, "ab"], .reference("K"), 2.5, true])
    // 07 05 | 03 02 | 07 02 | 00 | 05 02 61 62 | 06 01 4B | 04 + 8 bytes | 02
    let expected = [
      "list 5 @0..<2", "int 1 @2..<4", "list 2 @4..<6", "null @6..<7", "string ab @7..<11", "end", "reference K @11..<14",
      "double 2.5 @14..<23", "bool true @23..<24", "end",
    ]
    for walked in [Self.walk(bytes, TrustedLog.self), Self.walk(bytes, CheckedLog.self), Self.walk(bytes, StoredLog.self)] {
      let (events, end) = try walked.get()
      #expect(events == expected)
      #expect(end == bytes.count)
    }
  }

  @Test("a checked walk refuses every truncation of a value, inside its buffer")
  func truncations() {
    let bytes = Self.bytes([1, [nil, "ab"], .reference("K"), 2.5, true, -300])
    for count in 0..<bytes.count {
      let cut = Array(bytes[..<count])
      for walked in [Self.walk(cut, CheckedLog.self), Self.walk(cut, StoredLog.self)] {
        guard case .failure(let problem) = walked else {
          Issue.record("a cut at \(count) walked")
          continue
        }
        #expect(problem.offset <= count, "cut at \(count): \(problem)")
      }
    }
  }

  @Test("the compact layout's short forms are read from the stored form only")
  func shortForms() throws {
    // 0x22 "hi": a String of 2 bytes; 0x41 "K": a reference of 1.
    let stored: [UInt8] = [7, 2, 0x22, UInt8(ascii: "h"), UInt8(ascii: "i"), 0x41, UInt8(ascii: "K")]
    #expect(try Self.walk(stored, StoredLog.self).get().events == ["list 2 @0..<2", "string hi @2..<5", "reference K @5..<7", "end"])
    #expect(Self.problem(stored, CheckedLog.self) == MalformedValue(offset: 2, problem: .unknownTag(0x22)))
  }

  @Test("lists nested deeper than the visitor allows are refused at the list too deep")
  func depth() {
    // Five lists of one element around a null; StoredLog allows four.
    var bytes: [UInt8] = []
    for _ in 0..<5 { bytes += [7, 1] }
    bytes.append(0)
    #expect(Self.problem(bytes, StoredLog.self) == MalformedValue(offset: 8, problem: .tooDeep(4)))
    #expect((try? Self.walk(Array(bytes[2...]), StoredLog.self).get())?.end == 9)
  }

  @Test("a varint in a longer form than it needs: refused from outside, read from the stored form")
  func longVarint() throws {
    // 0x81 0x00 is 1 (the zigzag of -1) in two bytes.
    let bytes: [UInt8] = [3, 0x81, 0x00]
    #expect(Self.problem(bytes, CheckedLog.self) == MalformedValue(offset: 1, problem: .varintNotShortest(.int)))
    #expect(try Self.walk(bytes, StoredLog.self).get().events == ["int -1 @0..<3"])
  }
}

/// A visitor that writes down every call: `int 1 @2..<4`.
protocol EventLog: RecordValueVisitor where Value == Void, List == Void, Failure == MalformedValue {
  init()
  var events: [String] { get set }
}

extension EventLog {
  mutating func null(_ token: Range<Int>) { events.append("null @\(token)") }
  mutating func bool(_ value: Bool, _ token: Range<Int>) { events.append("bool \(value) @\(token)") }
  mutating func int(_ value: Int, _ token: Range<Int>) { events.append("int \(value) @\(token)") }
  mutating func double(_ value: Double, _ token: Range<Int>) { events.append("double \(value) @\(token)") }
  mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) {
    events.append("string \(String(decoding: utf8, as: UTF8.self)) @\(token)")
  }
  mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) {
    events.append("reference \(String(decoding: key, as: UTF8.self)) @\(token)")
  }
  mutating func beginList(count: Int, _ token: Range<Int>) { events.append("list \(count) @\(token)") }
  mutating func endList(_ list: consuming Void) { events.append("end") }
  func malformed(_ value: MalformedValue) -> MalformedValue { value }
}

struct TrustedLog: EventLog {
  static var source: RecordValueSource { .trusted }
  var events: [String] = []
}

struct CheckedLog: EventLog {
  static var source: RecordValueSource { .checked }
  var events: [String] = []
}

struct StoredLog: EventLog {
  static var source: RecordValueSource { .stored }
  static var maximumDepth: Int { 4 }
  var events: [String] = []
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
    let record = Record(
      key: "Book:bk123",
      [
        "title": "Dune", "year": 1965, "inPrint": true, "rating": 4.5,
        "author": .reference("Author:7"), "tags": ["sf", nil],
      ])
    let expected = Self.bytes(
      """
      057469746C6506050444756E6504796561720303DA1E07696E5072696E74010206726174696E6709040000000000001240
      06617574686F720A0608417574686F723A3704746167730707020502736600
      """)
    #expect(expected.count == 80)
    #expect(record.encodedFields == expected)
  }
}
