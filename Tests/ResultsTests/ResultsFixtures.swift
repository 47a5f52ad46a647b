import Foundation
import Results

/// Made-up rows and scratch directories shared by the results suites.
enum Fixtures {
  static let run = RunInfo(
    runID: "r1", timestamp: "2025-11-22T07:39:12Z", gitRev: "a3f0feb", host: "bench-1")

  static func key(
    _ metric: String = "latency", phase: Phase = .write, store: String = "memory",
    keys: String = "path", variant: String = ""
  ) -> MetricKey {
    MetricKey(
      workload: "books", variant: variant, store: store, keys: keys, phase: phase, metric: metric)
  }

  static func row(
    _ metric: String = "latency", phase: Phase = .write, p50: Double, unit: MetricUnit = .ns,
    better: Better = .lower, deterministic: Bool = false, store: String = "memory"
  ) -> MetricRow {
    var summary = Summary(single: p50)
    summary.n = 20
    return MetricRow(
      run: run, key: key(metric, phase: phase, store: store), unit: unit, better: better,
      deterministic: deterministic, summary: summary)
  }

  /// A fresh empty directory under the system's temporary directory.
  static func scratchDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("cachebench-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  static func remove(_ directory: String) {
    try? FileManager.default.removeItem(atPath: directory)
  }

  static func contents(of directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }
}
