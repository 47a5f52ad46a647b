import NormalizedCache
import Results
import Testing

@testable import Workbench

/// Apollo's Tier-3 scenarios at store sizes (`apolloTier3.sizes`, docs/metrics.md#growth): records
/// of fewer fields, a row per scenario and size in every store and floor, and a growth row per
/// scenario fitted to those rows' p50s. No timing is judged.
@Suite("Apollo's Tier-3 scenarios at store sizes")
struct ApolloTier3SizesTests {
  @Test("a record of five fields is the first five of the ten-field record, the same values")
  func fewerFields() {
    for index in [0, 7, 12_345] {
      let whole = ApolloTier3Records.record(index, seed: 42)
      let five = ApolloTier3Records.record(index, seed: 42, fields: 5)
      #expect(five.key == whole.key)
      #expect(five.fields.map(\.key) == Array(ApolloTier3Records.fields.prefix(5)))
      #expect(five.fields.map(\.key) == ["__typename", "id", "name", "mass", "height"])
      for field in five.fields.map(\.key) { #expect(five[field] == whole[field], "\(index) \(field)") }
    }
    // The selection set is the first four fields: the fewest a size may have.
    #expect(Array(ApolloTier3Records.fields.prefix(4)) == ApolloTier3Records.selection)
    #expect(ApolloTier3Records.fields.count == 10 && ApolloTier3Records.fields.firstIndex(of: ApolloTier3Records.sortField)! < 4)
  }

  @Test("every store and floor gets each scenario at each size, then one growth row per scenario: k fitted to those p50s")
  func rows() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier3": {"sizes": [[20, 4], [300, 10], [100, 5]]}, "limits": "layouts", "repetitions": 2, "warmup": 1,
       "stores": [{"kind": "sqlite", "layout": "compact", "journal": "wal", "synchronous": "normal", "label": "c"},
                  {"kind": "sqlite", "layout": "rows", "journal": "wal", "synchronous": "normal", "label": "r"}]}
      """#)
    let sizes = [(20, 4), (300, 10), (100, 5)]
    let all = Metric.tier3Scenarios.map(\.name)
    let floor = ["insert_one_field", "select_exact_key", "select_type_selection_set_ordered", "update_composite_key"]
    let expected: [String: [String]] = [
      "c": all, "r": all, "limit-compact-wal-normal": ["select_exact_key", "select_type_selection_set_ordered"],
      "limit-rows-wal-normal": floor,
    ]
    for (store, scenarios) in expected {
      let rows = result.rows.filter { $0.key.store == store && $0.key.phase == .tier3 }
      let isStore = !store.hasPrefix("limit-")
      // Each size's rows, in the order the run builds them; the build is the store's alone.
      let timed = rows.filter { $0.unit == .ns && !$0.key.metric.hasPrefix("build_store") }.map(\.key.metric)
      #expect(timed == sizes.flatMap { records, fields in scenarios.map { "\($0)_at_\(records)x\(fields)" } }, "\(store)")
      #expect(rows.filter { $0.unit == .ns }.allSatisfy { $0.summary.n == ($0.key.metric.hasPrefix("build_store") ? 1 : 2) }, "\(store)")
      for (records, fields) in sizes {
        let held = rows.first { $0.key.metric == "store_records_at_\(records)x\(fields)" }
        #expect(isStore ? held?.summary.p50 == Double(records) && held?.unit == .count : held == nil, "\(store)")
      }
      // One k and one ratio per scenario (and the store's build), each a single value.
      let grown = scenarios + (isStore ? ["build_store"] : [])
      let exponents = rows.filter { $0.unit == .exponent }
      #expect(exponents.map(\.key.metric) == grown.map { "growth_" + $0 }, "\(store)")
      #expect(exponents.allSatisfy { $0.summary.n == 1 && !$0.deterministic && $0.better == .lower }, "\(store)")
      #expect(rows.filter { $0.key.metric.hasPrefix("growth_ratio_") }.map(\.key.metric) == grown.map { "growth_ratio_" + $0 }, "\(store)")
      #expect(rows.filter { $0.key.metric.hasPrefix("growth_ratio_") }.allSatisfy { $0.unit == .ratio }, "\(store)")
      // k and the ratio are the fit of the sized rows' p50s (no 1,000: the ratio is 300's over 20's).
      for scenario in grown {
        let points = sizes.compactMap { records, fields in
          rows.first { $0.key.metric == "\(scenario)_at_\(records)x\(fields)" }.map { (size: records, cost: $0.summary.p50) }
        }
        let fit = try Growth(points)
        let k = rows.first { $0.key.metric == "growth_" + scenario }?.summary.p50
        let ratio = rows.first { $0.key.metric == "growth_ratio_" + scenario }?.summary.p50
        #expect(k.map { abs($0 - fit.exponent) < 1e-9 } == true, "\(store) \(scenario)")
        #expect(ratio.map { abs($0 - fit.ratio) < 1e-9 } == true && fit.referenceSize == 20, "\(store) \(scenario)")
      }
      // Sized rows replace the scenarios' own.
      #expect(!rows.contains { all.contains($0.key.metric) || $0.key.metric == "build_store" }, "\(store)")
    }
    #expect(result.table.contains("Apollo iOS's Tier-3 scenarios at store sizes"))
    #expect(result.table.contains("300 × 10"))
    #expect(result.table.contains("c: built 20 × 4 in"))
  }
}
