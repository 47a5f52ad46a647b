import NormalizedCache
import Results
import Testing
import Workloads

@testable import Workbench

/// The list scenarios (docs/metrics.md#lists): their records, checked by hand, and one row per
/// scenario, kind and size in every store, with a sample per measured iteration.
@Suite("The list scenarios")
struct ListsTests {
  @Test("a record holds __typename, id, count and its list of N strings or references, in that order")
  func flatRecords() throws {
    let record = ListRecords.record(key: ListRecords.key(.scalars, size: 3), .scalars, size: 3)
    #expect(record.key == "Owner:scalars_3")
    #expect(record.fieldKeys == ["__typename", "id", "count", "items"])
    #expect(record["__typename"] == "Owner" && record["id"] == "scalars_3" && record["count"] == 3)
    #expect(record["items"] == .list(["item_0", "item_1", "item_2"]))
    let references = ListRecords.record(key: ListRecords.key(.references, size: 3, index: 7), .references, size: 3)
    #expect(references.key == "Owner:references_3_7" && references["id"] == "references_3_7")
    #expect(references["items"] == .list([.reference("Item:0"), .reference("Item:1"), .reference("Item:2")]))
  }

  @Test("a nested list of N holds ⌈N / 10⌉ lists of ten strings, the last the rest; a change lands in its inner list")
  func nestedRecords() throws {
    let record = ListRecords.record(key: "Owner:nested_12", .nested, size: 12, change: .init(index: 11, iteration: 4))
    let inner: [RecordValue] = ["item_0", "item_1", "item_2", "item_3", "item_4", "item_5", "item_6", "item_7", "item_8", "item_9"]
    #expect(record["items"] == .list([.list(inner), .list(["item_10", "changed_4"])]))
    let thousand = ListRecords.list(.nested, size: 1_000)
    guard case .list(let outer) = thousand else {
      Issue.record("not a list: \(thousand)")
      return
    }
    #expect(outer.count == 100)
    let flat = try #require(ListRecords.elements(of: thousand, .nested))
    #expect(flat.count == 1_000 && flat[500] == "item_500" && flat[999] == "item_999")
    #expect(ListRecords.elements(of: .list(["a"]), .nested) == nil)
  }

  @Test("a mutation changes exactly element K, to its iteration's own value", arguments: ListScenario.Elements.allCases)
  func oneElementChanged(elements: ListScenario.Elements) throws {
    let original = try #require(ListRecords.elements(of: ListRecords.list(elements, size: 1_000), elements))
    for iteration in [0, 1, 41] {
      let changed = try #require(
        ListRecords.elements(of: ListRecords.list(elements, size: 1_000, change: .init(index: 500, iteration: iteration)), elements))
      #expect(changed.count == 1_000)
      let differing = changed.indices.filter { changed[$0] != original[$0] }
      #expect(differing == [500])
      #expect(changed[500] == (elements == .references ? .reference("Item:changed_\(iteration)") : .string("changed_\(iteration)")))
    }
  }

  @Test("every store and layout gets read, write and mutate rows per kind and size, then bytes per record")
  func rows() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "lists": {"sizes": [3, 20], "position": 1}, "repetitions": 3, "warmup": 1,
       "stores": [{"kind": "memory"}, {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "label": "sqlite-apollo"},
                  {"kind": "sqlite", "layout": "compact", "label": "sqlite-compact"}]}
      """#)
    var timings: [String] = []
    var bytes: [String] = []
    for elements in ["scalars", "references", "nested"] {
      for size in [3, 20] {
        timings += ["read", "write", "mutate"].map { "\($0)_\(elements)_\(size)" }
        bytes.append("bytes_per_record_\(elements)_\(size)")
      }
    }
    for store in ["memory", "sqlite-apollo", "sqlite-compact"] {
      let rows = result.rows.filter { $0.key.store == store }
      #expect(Set(rows.map(\.key.keys)) == ["typePolicy"] && Set(rows.map(\.key.phase)) == [.lists])
      // Then how each operation's p50 grows from N = 3 to 20 (docs/metrics.md#growth).
      let growth = ["scalars", "references", "nested"].flatMap { elements in
        ["read", "write", "mutate"].flatMap { ["growth_\($0)_\(elements)", "growth_ratio_\($0)_\(elements)"] }
      }
      #expect(rows.map(\.key.metric) == timings + bytes + growth, "\(store)")
      let exponents = rows.filter { $0.unit == .exponent }
      #expect(
        exponents.count == 9 && exponents.allSatisfy { $0.summary.n == 1 && !$0.deterministic && $0.summary.p50.isFinite }, "\(store)")
      let timed = rows.filter { $0.unit == .ns }
      // The ratio of the growth: p50 at N = 20 over p50 at N = 3, from the rows themselves.
      let p50 = { (metric: String) in rows.first { $0.key.metric == metric }?.summary.p50 }
      let ratio = try #require(p50("growth_ratio_mutate_nested"))
      #expect(abs(ratio - (try #require(p50("mutate_nested_20"))) / (try #require(p50("mutate_nested_3")))) < 1e-9 * ratio, "\(store)")
      #expect(timed.allSatisfy { $0.summary.n == 3 && $0.summary.min > 0 && !$0.deterministic }, "\(store)")
      let sized = rows.filter { $0.unit == .bytes }
      #expect(sized.count == 6 && sized.allSatisfy { $0.summary.n == 1 && $0.deterministic }, "\(store)")
      // The memory store's are jemalloc's live bytes, which other suites running meanwhile move.
      if store != "memory" { #expect(sized.allSatisfy { $0.summary.min > 0 }, "\(store)") }
    }
    // Apollo's layout writes a reference as {"$reference":"Item:0"} (23 bytes) where a string is
    // "item_0" (8): 500 records of 20 references take more pages than 500 of 20 strings.
    let apollo = Dictionary(
      uniqueKeysWithValues: result.rows.filter { $0.key.store == "sqlite-apollo" }.map { ($0.key.metric, $0.summary.p50) })
    #expect(try #require(apollo["bytes_per_record_references_20"]) > 2 * (try #require(apollo["bytes_per_record_scalars_20"])))
    #expect(
      result.table.contains(
        "store           list         N   K  read p50  write p50  mutate p50  mutate p99  bytes/record  k read/write/mutate"))
    #expect(result.table.contains("sqlite-compact  nested      20  19  "))
  }

  @Test("with \"limits\": true the limit stores run the scenarios too, and each store gets a ratio per timing")
  func limits() throws {
    let rows = try runWorkload(
      #"{"name": "t", "seed": 1, "lists": {"sizes": [5]}, "stores": [{"kind": "memory"}], "limits": true, "repetitions": 1, "warmup": 0}"#
    ).rows
    #expect(rows.filter { $0.key.store == "limit-sqlite" && $0.unit == .ns }.count == 9)
    let ratios = rows.filter { $0.key.store == "memory" && $0.key.metric.hasSuffix("_vs_limit") }.map(\.key.metric)
    #expect(ratios.count == 9 && ratios.first == "read_scalars_5_vs_limit" && ratios.last == "mutate_nested_5_vs_limit")
  }
}
