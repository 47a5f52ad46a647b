import NormalizedCache
import Results
import Testing
import Workloads

@testable import Workbench

/// Apollo's Tier-2 scenarios at store sizes (docs/metrics.md#growth): a row per scenario and size,
/// the background left as it was built, and a growth row per scenario.
@Suite("Apollo's Tier-2 scenarios at store sizes")
struct ApolloTier2SizesTests {
  @Test("a background record holds its fields, strings and Ints alternating, under a key the pattern delete leaves alone")
  func backgroundRecords() {
    let record = ApolloTier2Records.background(index: 7, fields: 3)
    #expect(record.key == "Background_7" && !record.key.contains(ApolloTier2Records.pattern))
    #expect(record.fieldKeys == ["field_0", "field_1", "field_2"])
    #expect(record["field_0"] == "value_7_0" && record["field_1"] == 701)
  }

  @Test("every store gets each scenario at each size, then k and the ratio of each; the default names are left to the default")
  func rows() throws {
    let result = try runWorkload(
      #"""
      {"name": "t", "seed": 1, "apolloTier2": {"sizes": [[20, 3], [1000, 2]]}, "repetitions": 2, "warmup": 1,
       "stores": [{"kind": "memory"}, {"kind": "sqlite", "layout": "compact", "label": "sqlite-compact"},
                  {"kind": "sqlite", "layout": "rows", "label": "sqlite-rows"}]}
      """#)
    let sized = Metric.tier2Scenarios.flatMap { scenario in ["_at_20x3", "_at_1000x2"].map { scenario.name + $0 } }
    let growth = Metric.tier2Scenarios.flatMap { ["growth_" + $0.name, "growth_ratio_" + $0.name] }
    for store in ["memory", "sqlite-compact", "sqlite-rows"] {
      let rows = result.rows.filter { $0.key.store == store }
      #expect(Set(rows.map(\.key.phase)) == [.tier2] && Set(rows.map(\.key.keys)) == ["typePolicy"], "\(store)")
      #expect(Set(rows.map(\.key.metric)) == Set(sized + growth), "\(store)")
      #expect(rows.filter { $0.unit == .ns }.map(\.key.metric) == sizedOrder(), "\(store)")
      #expect(rows.filter { $0.unit == .ns }.allSatisfy { $0.summary.n == 2 && !$0.deterministic }, "\(store)")
      let exponents = rows.filter { $0.unit == .exponent }
      #expect(exponents.count == Metric.tier2Scenarios.count && exponents.allSatisfy { $0.summary.n == 1 && !$0.deterministic })
      // The ratio is the p50 at 1,000 records over itself: 1,000 is the reference and the largest.
      #expect(rows.filter { $0.key.metric.hasPrefix("growth_ratio_") }.allSatisfy { $0.summary.p50 == 1 }, "\(store)")
    }
    #expect(result.table.contains("Apollo iOS's Tier-2 scenarios at store sizes"))
    #expect(result.table.contains("pattern_delete_10k_records"))
  }

  /// The sized rows in the order the run measures them: each size's scenarios, then the next size.
  private func sizedOrder() -> [String] {
    ["_at_20x3", "_at_1000x2"].flatMap { suffix in Metric.tier2Scenarios.map { $0.name + suffix } }
  }
}
