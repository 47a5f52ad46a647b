import Testing

@testable import NormalizedCache

@Suite("Record sets")
struct RecordSetTests {
  @Test("keys stay findable as the index grows; a key merged again keeps its place and takes the new fields")
  func growth() {
    var set = RecordSet()
    for index in 0..<3_000 { set.merge(record: Record(key: "Item:\(index)", ["n": .int(index)])) }
    let changed = set.merge(record: Record(key: "Item:7", ["n": .int(7), "extra": true]))
    #expect(Set(changed) == ["Item:7.extra"])
    #expect(set.count == 3_000)
    #expect(set.keys.prefix(3) == ["Item:0", "Item:1", "Item:2"])
    for index in stride(from: 0, to: 3_000, by: 97) { #expect(set["Item:\(index)"]?["n"] == .int(index)) }
    #expect(set["Item:7"]?["extra"] == .bool(true))
    #expect(set["Item:3000"] == nil)
    #expect(set.reservePosition(for: "Item:5") == 5)
    #expect(set.reservePosition(for: "New:1") == 3_000)
    #expect(set["New:1"]?.isEmpty == true)
  }

  /// A record's listing quotes strings with GraphQLLanguage's one JSON escaper: ordinary text as
  /// it did before; U+0008 and U+000C, `\u0008` and `\u000c` before, are now `\b` and `\f`.
  @Test("a record's listing quotes strings and references as JSON strings")
  func listing() {
    let record = Record(
      key: "R", ["s": .string("Dune \"1\"\n\t\\ é \u{1}\u{8}\u{C}"), "r": .reference("A\\b"), "n": .list([.int(1), .null])])
    #expect(record.description == #"R {s: "Dune \"1\"\n\t\\ é \u0001\b\f", r: "-> #A\\b", n: [1, null]}"#)
  }
}
