import Foundation
import Testing

/// `run --quick` of `Workloads/lists.json` (docs/metrics.md#lists), as CI runs it: a row of every
/// scenario, kind and size in every store the file lists, one iteration each, and the table.
@Suite("cachebench run Workloads/lists.json", .timeLimit(.minutes(10)))
struct ListsRunTests {
  @Test("--quick writes read, write and mutate rows of one iteration for every kind and size, and bytes per record, in every store")
  func quickRows() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let csv = directory + "/lists.csv"
    let run = try await cachebench(["run", "Workloads/lists.json", "--quick", "--out", csv, "--no-progress"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Lists (p50 of one iteration each; mutate changes element K = ⌊N × 0.5⌋;"))
    let tableLines = run.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(tableLines.contains { $0.starts(with: ["sqlite-rows-rowid", "nested", "1000", "500"]) })
    let rows = try CSVFile(path: csv).rows
    let stores = ["memory", "sqlite-apollo", "sqlite-compact", "sqlite-rows", "sqlite-rows-rowid", "sqlite-rows-ordered"]
    #expect(Set(rows.map { $0["store"]! }) == Set(stores))
    for store in stores {
      for elements in ["scalars", "references", "nested"] {
        for size in ["10", "100", "1000"] {
          for operation in ["read", "write", "mutate"] {
            let row = rows.first { $0["store"] == store && $0["metric"] == "\(operation)_\(elements)_\(size)" }
            #expect(
              row?["phase"] == "lists" && row?["keys"] == "typePolicy" && row?["unit"] == "ns" && row?["n"] == "1",
              "\(store) \(operation)_\(elements)_\(size)")
          }
          let bytes = rows.first { $0["store"] == store && $0["metric"] == "bytes_per_record_\(elements)_\(size)" }
          #expect(bytes?["unit"] == "bytes" && bytes?["deterministic"] == "true", "\(store) bytes_per_record_\(elements)_\(size)")
        }
      }
    }
  }
}
