@_spi(RecordBytes) import NormalizedCache
import Testing

@testable import SQLiteCache

/// The pieces of the compact layout: field numbers and the checked reading of stored values.
@Suite("Compact format")
struct CompactFormatTests {
  @Test("names get numbers 1, 2, 3, ... and are found again by their bytes")
  func numbering() {
    var table = FieldNameTable()
    let names = (0..<1_000).map { "field\($0)(arg:\($0 % 7))" } + ["", "é"]
    for (index, name) in names.enumerated() {
      #expect(name.utf8.withContiguousStorageIfAvailable { table.id(of: UnsafeRawBufferPointer($0)) } == .some(nil))
      let id = Array(name.utf8).withUnsafeBytes { table.insert($0) }
      #expect(id == index + 1)
    }
    #expect(table.count == names.count)
    for (index, name) in names.enumerated() {
      #expect(Array(name.utf8).withUnsafeBytes { table.id(of: $0) } == index + 1)
    }
    // The arena spells each name as RecordCodec does: length, then bytes.
    #expect(Array(table.arena[table.starts[1]..<table.starts[2]]) == [13] + Array("field1(arg:1)".utf8))
  }

  @Test("a rollback forgets the names numbered since the mark, and the numbers are given again")
  func rollBack() {
    var table = FieldNameTable()
    _ = Array("a".utf8).withUnsafeBytes { table.insert($0) }
    table.mark()
    for name in ["b", "c", "d"] { _ = Array(name.utf8).withUnsafeBytes { table.insert($0) } }
    table.rollBack()
    #expect(table.count == 1)
    #expect(Array("c".utf8).withUnsafeBytes { table.id(of: $0) } == nil)
    #expect(Array("a".utf8).withUnsafeBytes { table.id(of: $0) } == 1)
    #expect(Array("d".utf8).withUnsafeBytes { table.insert($0) } == 2)
  }

  static func encoded(_ value: RecordValue) -> [UInt8] {
    var bytes: [UInt8] = []
    RecordCodec.appendValue(value, to: &bytes)
    return bytes
  }

  @Test(
    "skip steps over exactly one value of each kind",
    arguments: [
      RecordValue.null, true, false, 0, -1, .int(Int.max), .int(Int.min), 2.5, "", "text", .reference("Book:1"),
      [], [1, [2, [3, "x"]], [], .reference("A:1")],
    ])
  func skip(_ value: RecordValue) {
    let bytes = Self.encoded(value) + [0xEE]
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      #expect(EncodedValue.skip(buffer, &offset))
      #expect(offset == bytes.count - 1)
    }
  }

  @Test(
    "skip refuses truncated and unknown values",
    arguments: [
      [UInt8](), [0x03], [0x03, 0x80], [0x04, 1, 2, 3], [0x05, 0x05, 0x61], [0x07, 0x02, 0x00], [0x08], [0x07, 0xFF, 0xFF, 0x03],
    ])
  func skipRefuses(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      #expect(!EncodedValue.skip(buffer, &offset))
    }
  }
}
