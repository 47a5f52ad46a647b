import Foundation
import Results
import Testing
import Workloads

@testable import Workbench

@Suite("cachebench soak: samples and growth")
struct SoakTests {
  @Test("the plan: every hundredth of the session and a tenth's warm-up by default; too few samples to fit is an error")
  func plan() throws {
    let defaults = try SoakOptions().plan(steps: 1_000_000)
    #expect(defaults.every == 10_000 && defaults.warmup == 100_000)
    #expect(try SoakOptions(every: 7, warmup: 0).plan(steps: 10).every == 7)
    // Samples at 0, 4 and 8 and at the end (10); after a warm-up of 9 only the end is left.
    let error = #expect(throws: RunError.self) { try SoakOptions(every: 4, warmup: 9).plan(steps: 10) }
    #expect(
      error?.description
        == "a soak of 10 steps sampled every 4 after a warm-up of 9 steps leaves 1 sample to fit a line through; it needs 2")
    #expect(try SoakOptions(every: 4, warmup: 8).plan(steps: 10).warmup == 8)
    #expect(throws: RunError.self) { try SoakOptions(every: 5, warmup: 10).plan(steps: 10) }
  }

  static func sample(_ store: String, step: Int, live: Int, records: Int?) -> SoakSample {
    SoakSample(
      workload: "w", configuration: ConfigurationID(variant: "", store: store, keys: "path"), step: step,
      figures: [.liveBytes: live, .records: records, .rssBytes: nil])
  }

  @Test("growth: a line through each session's samples after the warm-up, per 100,000 steps; none for a figure it lacks")
  func fit() throws {
    let samples = [
      Self.sample("a", step: 0, live: 0, records: 0), Self.sample("a", step: 100, live: 9_999, records: 5),
      Self.sample("a", step: 200, live: 1_000, records: 5), Self.sample("a", step: 300, live: 1_300, records: 5),
      Self.sample("b", step: 100, live: 50, records: nil), Self.sample("b", step: 200, live: 40, records: nil),
    ]
    let growth = SoakGrowth.fit(samples, warmup: 150)
    // a: (200, 1000) and (300, 1300), 3 bytes a step; b: (200, 40) alone is too few for a line,
    // and neither has an rss_bytes.
    #expect(growth.map { "\($0.configuration.store) \($0.figure.rawValue)" } == ["a live_bytes", "a records"])
    #expect(growth.map(\.samples) == [2, 2])
    #expect(growth[0].perHundredThousandSteps == 300_000)
    #expect(growth[0].first == 1_000 && growth[0].last == 1_300)
    #expect(growth[1].perHundredThousandSteps == 0)
  }

  @Test(
    "a soak of a bounded store: a sample every N steps and at the end, its records within the budget, the same deterministic figures twice")
  func session() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("w.json").path
    try #"""
    {"name": "soak", "seed": 4, "generator": {"responses": 8, "operations": 4, "depth": 2, "types": 4, "poolSize": 8},
     "keys": ["typePolicy"], "stores": [{"kind": "sqlite", "maxSizeBytes": "30%", "dates": true, "label": "bounded"}],
     "traffic": {"steps": 250}}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let workload = try Workload.load(path)
    let first = try Soak.run(workload, options: SoakOptions(every: 100, warmup: 100, progress: false))
    #expect(first.samples.map(\.step) == [0, 100, 200, 250])
    for sample in first.samples {
      #expect(sample.figures[.dbBytes] != nil && sample.figures[.walBytes] != nil && sample.figures[.accountedBytes] != nil)
    }
    #expect(first.growth.map(\.figure) == SoakFigure.allCases)
    #expect(first.growth.allSatisfy { $0.samples == 3 && $0.warmup == 100 })
    let second = try Soak.run(workload, options: SoakOptions(every: 100, warmup: 100, progress: false))
    for figure in [SoakFigure.records, .accountedBytes, .dbBytes, .walBytes] {
      #expect(first.samples.map { $0.figures[figure] } == second.samples.map { $0.figures[figure] }, "\(figure)")
    }
  }

  @Test("a workload without a traffic section has nothing to soak")
  func noTraffic() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("w.json").path
    try #"{"name": "w", "seed": 1, "generator": {"responses": 2}}"#.write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: RunError.self) { try Soak.run(try Workload.load(path), options: SoakOptions(progress: false)) }
    #expect(error?.exitCode == .dataError)
    #expect(error?.description == "\(path): soak runs the workload's traffic session: give it a \"traffic\" section")
  }
}
