import Foundation
import NormalizedCache
import Results
import Testing
import Workloads

@testable import Workbench

/// The concurrency phase from a workload file: rows under `readers=N`, the reads each run made.
@Suite("Concurrency phase")
struct ConcurrencyPhaseTests {
  static let files = [
    "a.graphql": "query A { a { __typename id name b { __typename id name } } }",
    "a.json": #"{"data": {"a": {"__typename": "Item", "id": "1", "name": "x", "b": {"__typename": "Item", "id": "2", "name": "y"}}}}"#,
    "c.graphql": "query C { c { __typename id name } }",
    "c.json": #"{"data": {"c": {"__typename": "Item", "id": "3", "name": "z"}}}"#,
  ]

  static func workload(stores: String, concurrency: String) -> String {
    #"""
    {"name": "conc", "seed": 5, "recorded": {"schema": [], "operations": [
       {"document": "a.graphql", "operationName": "A", "response": "a.json"},
       {"document": "c.graphql", "operationName": "C", "response": "c.json"}]},
     "keys": ["path"], "stores": \#(stores), "repetitions": 2, "warmup": 1,
     "read": {"pointLookups": 0, "fieldPolicyLookups": 0}, "concurrency": \#(concurrency)}
    """#
  }

  static func run(_ text: String, registry: Registry = .builtIn) throws -> WorkloadResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, contents) in files { try contents.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    let path = directory.appendingPathComponent("w.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let info = RunInfo(runID: "test", timestamp: "2026-11-25T00:00:00Z", gitRev: "abc", host: "h")
    return try WorkloadRunner.run(Workload.load(path, registry: registry), options: RunOptions(progress: false), run: info)
  }

  @Test(
    "each reader count is a configuration of its own: every read timed, one throughput per repetition, the writers' merges, the hot run",
    arguments: ["memory", "sqlite"])
  func rowsPerReaderCount(kind: String) throws {
    let result = try Self.run(
      Self.workload(stores: #"[{"kind": "\#(kind)"}]"#, concurrency: #"{"readers": [1, 3], "writers": 1, "operations": 61}"#))
    let runs = result.configurations.filter(ConcurrencyTable.isConcurrency)
    #expect(runs.map(\.scope.readers) == [1, 3])
    #expect(runs.allSatisfy { $0.scope.variant.isEmpty })
    let rows = result.rows.filter { $0.key.phase == .concurrency }
    #expect(Set(rows.map(\.key.variantColumn)) == ["readers=1", "readers=3"])
    for run in runs {
      #expect(run.scope.store == kind && run.scope.keys == "path")
      // 61 reads a run, shared among the readers, in each of the 2 measured repetitions (the warm-up's not kept).
      #expect(run.samples[.concurrentReadLatency].count == 122)
      #expect(run.samples[.concurrentReadLatencyWriting].count == 122)
      #expect(run.samples[.concurrentReadLatencyHot].count == 122)
      #expect(run.samples[.readsPerSecondHot].count == 2)
      #expect(run.samples[.readLockWaitHot].count == 2)
      #expect(run.samples[.readsPerSecond].count == 2)
      #expect(run.samples[.readsPerSecondWriting].count == 2)
      #expect(run.samples[.readLockWait].count == 2)
      #expect(run.samples[.writesPerSecond].count == 2)
      #expect(run.samples[.readsPerSecond].allSatisfy { $0 > 0 })
    }
    // The other phases' configuration is there as without the section, and has no concurrency rows.
    let plain = try #require(result.configurations.first { $0.scope.readers == nil })
    #expect(plain.samples.metrics.allSatisfy { $0.phase != .concurrency })
    let table = ResultsTable.render(result)
    #expect(table.contains("Concurrency, 61 reads a run, 1 writer"))
    #expect(table.contains("hot: every reader on the same operations, among the 1 most popular"))
    #expect(table.contains(" hot reads/s  hot x1 "))
    #expect(
      table.split(separator: "\n").filter { $0.hasPrefix(kind + " ") }.count == 3,
      "one line in the strategy table, two in the concurrency table")
  }

  @Test("without writers, the runs have no writing rows")
  func noWriters() throws {
    let result = try Self.run(
      Self.workload(stores: #"[{"kind": "memory"}]"#, concurrency: #"{"readers": [2], "writers": 0, "operations": 10}"#))
    let run = try #require(result.configurations.first(where: ConcurrencyTable.isConcurrency))
    #expect(run.samples[.concurrentReadLatency].count == 20)
    #expect(run.samples[.concurrentReadLatencyHot].count == 20)
    #expect(run.samples[.concurrentReadLatencyWriting].isEmpty)
    #expect(run.samples[.concurrentWriteLatency].isEmpty)
  }

  @Test(
    "the reader count is written into the CSV's variant column after the sweep point, and read back from there",
    arguments: [
      ("readers=4", "", 4), ("duplication=0.5 readers=2", "duplication=0.5", 2),
    ])
  func readerCount(column: String, variant: String, readers: Int) {
    let key = MetricKey(
      workload: "w", variant: variant, store: "memory", keys: "path", phase: .concurrency, metric: "read_latency", readers: readers)
    #expect(key.variantColumn == column)
    let parsed = MetricKey.parse(variantColumn: column)
    #expect(parsed.variant == variant && parsed.readers == readers)
    #expect(MetricKey.parse(variantColumn: "duplication=0.5") == ("duplication=0.5", nil))
    #expect(MetricKey.parse(variantColumn: "readers=+2") == ("readers=+2", nil))
  }

  @Test("hot readers all draw the same operations, among the hotOperations most popular; spread readers draw their own")
  func hotDraws() {
    var settings = ConcurrencySettings()
    settings.hotOperations = 3
    let popularity = [7, 2, 9, 0, 4, 1, 8, 3, 6, 5]
    let draws = ReaderDraws(popularity: popularity, settings: settings, seed: 11)
    let hot = (0..<4).map { draws.items(count: 500, thread: $0, round: 2, hot: true) }
    #expect(hot.allSatisfy { $0 == hot[0] })
    #expect(Set(hot[0]) == [7, 2, 9], "the three most popular, each drawn in 500")
    #expect(hot[0].filter { $0 == 7 }.count > hot[0].filter { $0 == 9 }.count, "the most popular most often")
    #expect(draws.items(count: 500, thread: 0, round: 3, hot: true) != hot[0], "a round of its own")
    let spread = (0..<2).map { draws.items(count: 500, thread: $0, round: 2, hot: false) }
    #expect(spread[0] != spread[1])
    #expect(Set(spread[0]).count > 3)
    settings.hotOperations = 50
    #expect(
      Set(ReaderDraws(popularity: popularity, settings: settings, seed: 11).items(count: 2_000, thread: 0, round: 0, hot: true))
        == Set(popularity), "more than there are: all of them")
  }
}
