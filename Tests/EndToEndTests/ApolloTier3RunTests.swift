import Foundation
import Testing

/// `Workloads/apollo-tier3.json` as CI runs it (docs/apollo.md#tier-3): `--quick`, a store of
/// 10,000 records a layout, one iteration of each scenario. Figures are not judged.
@Suite("Apollo's Tier 3, run --quick", .timeLimit(.minutes(10)))
struct ApolloTier3RunTests {
  static let scenarios = [
    "insert_one_field", "select_exact_key", "select_like_prefix", "select_like_middle", "select_like_suffix",
    "select_type_selection_set_ordered", "update_composite_key", "sort_by_field_cte",
  ]

  @Test("every store gets a row of each scenario, each floor those it times; the table prints the gates as Apollo's")
  func quickRun() async throws {
    let directory = try temporaryDirectory()
    let out = directory + "/t3.csv"
    let run = try await cachebench(["run", "Workloads/apollo-tier3.json", "--quick", "--out", out, "--no-progress"])
    #expect(run.status == 0, "\(run.stderr)")
    let rows = try CSVFile(path: out).rows.filter { $0["phase"] == "tier3" }
    let timed = { (store: String) in
      rows.filter { $0["store"] == store && $0["unit"] == "ns" && $0["metric"] != "build_store" }.map { $0["metric"]! }
    }
    for layout in ["apollo", "compact", "rows", "rows-rowid", "rows-ordered"] {
      #expect(timed("sqlite-" + layout) == Self.scenarios, "\(layout)")
      #expect(rows.first { $0["store"] == "sqlite-" + layout && $0["metric"] == "store_records" }?["p50"] == "10000", "\(layout)")
      let floor =
        layout == "compact"
        ? ["select_exact_key", "select_type_selection_set_ordered"]
        : ["insert_one_field", "select_exact_key", "select_type_selection_set_ordered", "update_composite_key"]
      #expect(timed("limit-\(layout)-delete-full") == floor, "\(layout)")
    }
    #expect(rows.allSatisfy { $0["unit"] != "ns" || $0["n"] == "1" })
    #expect(run.stdout.contains("which Apollo sets for an iPhone 16 Pro"))
    #expect(run.stdout.contains("sqlite-rows: built 10000 records in"))
  }

  @Test("the growth workload --quick: each scenario at the sizes up to 10,000 records, a growth row of each in every store and floor")
  func quickGrowthRun() async throws {
    let directory = try temporaryDirectory()
    let out = directory + "/t3g.csv"
    let run = try await cachebench(["run", "Workloads/apollo-tier3-growth.json", "--quick", "--out", out, "--no-progress"])
    #expect(run.status == 0, "\(run.stderr)")
    let rows = try CSVFile(path: out).rows.filter { $0["phase"] == "tier3" }
    let sizes = ["100x5", "1000x10", "10000x10"]
    for layout in ["apollo", "compact", "rows", "rows-rowid", "rows-ordered"] {
      let floor =
        layout == "compact"
        ? ["select_exact_key", "select_type_selection_set_ordered"]
        : ["insert_one_field", "select_exact_key", "select_type_selection_set_ordered", "update_composite_key"]
      for (store, scenarios) in [("sqlite-" + layout, Self.scenarios), ("limit-\(layout)-wal-normal", floor)] {
        let timed = rows.filter { $0["store"] == store && $0["unit"] == "ns" && !$0["metric"]!.hasPrefix("build_store") }.map {
          $0["metric"]!
        }
        #expect(timed == sizes.flatMap { size in scenarios.map { "\($0)_at_\(size)" } }, "\(store)")
        let growth = rows.filter { $0["store"] == store && $0["unit"] == "exponent" }
        #expect(growth.map { $0["metric"]! }.filter { !$0.hasSuffix("build_store") } == scenarios.map { "growth_" + $0 }, "\(store)")
        #expect(growth.allSatisfy { $0["n"] == "1" && $0["deterministic"] == "false" }, "\(store)")
      }
    }
    #expect(run.stdout.contains("Apollo iOS's Tier-3 scenarios at store sizes"))
  }
}
