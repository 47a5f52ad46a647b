import Foundation
import Testing

@testable import Workloads

/// `"apolloTier3"` (docs/workloads.md): its knobs (`records`, `keep`), its stores, its `--quick` form.
@Suite("The apolloTier3 section")
struct ApolloTier3WorkloadTests {
  @Test("--quick builds at most 10,000 records; the file's errors name their key")
  func decoding() throws {
    let workload = try load(#"{"name": "w", "seed": 1, "apolloTier3": {}, "stores": [{"kind": "sqlite"}]}"#)
    guard case .apolloTier3(let config) = workload.source, case .apolloTier3(let quick) = workload.quick().source else {
      Issue.record("not apolloTier3")
      return
    }
    #expect(config.records == 500_000 && quick.records == 10_000)
    #expect(config.keep == nil)
    #expect(workload.repetitions == 50 && workload.warmup == 5)
    let errors: [(String, String)] = [
      (#"{"name": "w", "seed": 1, "apolloTier3": {"records": 5}, "stores": [{"kind": "sqlite"}]}"#, "apolloTier3.records"),
      (#"{"name": "w", "seed": 1, "apolloTier3": {"rows": 5}, "stores": [{"kind": "sqlite"}]}"#, "apolloTier3.rows: unknown key"),
      (#"{"name": "w", "seed": 1, "apolloTier3": {"records": "many"}, "stores": [{"kind": "sqlite"}]}"#, "apolloTier3.records"),
      (#"{"name": "w", "seed": 1, "apolloTier3": 3, "stores": [{"kind": "sqlite"}]}"#, "apolloTier3: must be an object"),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"keep": ""}, "stores": [{"kind": "sqlite"}]}"#,
        "apolloTier3.keep: must be a directory, not empty"
      ),
      (#"{"name": "w", "seed": 1, "apolloTier3": {"keep": 3}, "stores": [{"kind": "sqlite"}]}"#, "apolloTier3.keep"),
      (#"{"name": "w", "seed": 1, "apolloTier3": {}}"#, #"stores: is required by "apolloTier3""#),
      (#"{"name": "w", "seed": 1, "apolloTier3": {}, "stores": [{"kind": "sqlite"}, {"kind": "memory"}]}"#, #"stores[1]: "memory" is not"#),
    ]
    for (text, message) in errors {
      #expect(throws: WorkloadError.self) { try load(text) }
      do { _ = try load(text) } catch { #expect("\(error)".contains(message), "\(error)") }
    }
  }

  @Test("sizes: the stores in the file's order, rows named by size; --quick keeps those of 10,000 records or fewer")
  func sizes() throws {
    func stores(_ workload: Workload) -> [[Int]] {
      guard case .apolloTier3(let config) = workload.source else { return [] }
      return config.stores.map { [$0.records, $0.fields] }
    }
    let plan = try load(
      #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [1000, 10], [10000, 10], [500000, 10]]}, "stores": [{"kind": "sqlite"}]}"#
    )
    #expect(stores(plan) == [[100, 5], [1_000, 10], [10_000, 10], [500_000, 10]])
    #expect(stores(plan.quick()) == [[100, 5], [1_000, 10], [10_000, 10]])
    guard case .apolloTier3(let config) = plan.quick().source else { return }
    #expect(config.sizes.count == 3, "sizes stay sizes: their rows keep the size in their names")
    // Only large sizes: --quick keeps the smallest, and so fits no growth.
    let large = try load(#"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[500000, 10], [20000, 4]]}, "stores": [{"kind": "sqlite"}]}"#)
    #expect(stores(large.quick()) == [[20_000, 4]])
    // records: one store of ten fields, as before.
    let one = try load(#"{"name": "w", "seed": 1, "apolloTier3": {"records": 2000}, "stores": [{"kind": "sqlite"}]}"#)
    #expect(stores(one) == [[2_000, 10]] && stores(one.quick()) == [[2_000, 10]])
    // The size limit looks at the largest size, and names sizes.
    let huge = #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [3000000, 10]]}, "stores": [{"kind": "sqlite"}]}"#
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("w.json").path
    try huge.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: WorkloadError.self) { try WorkloadChecker.check(try Workload.load(path)) }
    do { try WorkloadChecker.check(try Workload.load(path)) } catch {
      #expect("\(error)".contains("apolloTier3.sizes: builds a store of 3000000 records"), "\(error)")
    }
  }

  @Test("keep: a directory resolved against the workload file's, an absolute one as it is; --quick keeps it")
  func keep() throws {
    let relative = try load(#"{"name": "w", "seed": 1, "apolloTier3": {"keep": "files"}, "stores": [{"kind": "sqlite"}]}"#)
    guard case .apolloTier3(let config) = relative.source, case .apolloTier3(let quick) = relative.quick().source else {
      Issue.record("not apolloTier3")
      return
    }
    #expect(config.keep?.hasSuffix("/files") == true && config.keep?.hasPrefix("/") == true)
    #expect(config.keep.map { ($0 as NSString).deletingLastPathComponent.contains("workload-") } == true)
    #expect(quick.keep == config.keep)
    let absolute = try load(#"{"name": "w", "seed": 1, "apolloTier3": {"keep": "/tmp/t3"}, "stores": [{"kind": "sqlite"}]}"#)
    guard case .apolloTier3(let given) = absolute.source else {
      Issue.record("not apolloTier3")
      return
    }
    #expect(given.keep == "/tmp/t3")
  }
}
