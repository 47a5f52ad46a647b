import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// Reads with a clock over dates and clocks at the ends of Int (docs/ttl.md#reads-with-a-clock):
/// a record from outside bytes may hold any date of 0 or more, and the check must not trap.
@Suite("Reads with a clock: hostile dates and clocks")
struct TTLHostileReadTests {
  /// Book 1 written at `date`, with a title (Book's maxAge 60) and a stock (maxAge 0).
  func harness(writtenAt date: Int) throws -> TTLReadTests.Harness {
    let harness = try TTLReadTests.Harness()
    try harness.cache.merge(
      records: RecordSet(records: [
        Record(key: "QUERY_ROOT", writtenAt: date, ["book(id:1)": .reference("Book:1")]),
        Record(key: "Book:1", writtenAt: date, ["id": "1", "title": "T", "stock": 3]),
      ]))
    return harness
  }

  @Test("a date near Int.max, whose writtenAt + maxAge overflows, never expires; maxAge 0 still does")
  func dateNearIntMax() throws {
    let harness = try harness(writtenAt: Int.max - 5)
    for now in [0, Int.max - 5, Int.max] {
      let read = try harness.read("{ book(id: 1) { id title } }", at: now)
      #expect(read.outcome == .hit(["book": ["id": "1", "title": "T"]]), "at \(now)")
    }
    let stock = try harness.read("{ book(id: 1) { stock } }", at: Int.max)
    #expect(stock.expired.map(ReadResult.spelled) == ["book.stock"])
    #expect(stock.miss?.reason == .expired(writtenAt: Int.max - 5, maxAge: 0))
  }

  @Test("a clock at Int.min or Int.max: only what the rules say expires")
  func clockAtTheEnds() throws {
    let harness = try harness(writtenAt: 1_000)
    #expect(try harness.read("{ book(id: 1) { id title } }", at: Int.min).outcome.isHit)
    #expect(try harness.read("{ book(id: 1) { stock } }", at: Int.min).expired.map(ReadResult.spelled) == ["book.stock"])
    let late = try harness.read("{ book(id: 1) { id title stock } }", at: Int.max, .permissive)
    #expect(late.expired.map(ReadResult.spelled) == ["book.id", "book.stock", "book.title"])
    #expect(late.outcome == .stale(["book": ["id": "1", "title": "T", "stock": 3]]))
  }
}
