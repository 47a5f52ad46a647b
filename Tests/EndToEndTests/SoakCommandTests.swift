import Foundation
import Testing

@Suite("cachebench soak", .timeLimit(.minutes(3)))
struct SoakCommandTests {
  @Test("gate.json, quick: a table of every store × strategy's figures, the growth and the series written")
  func gate() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try cachebench([
      "soak", "Workloads/gate.json", "--quick", "--every", "25", "--warmup", "25", "--out", directory + "/soak.csv",
      "--series", directory + "/series.csv", "--no-progress",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("Soak (growth: the least-squares slope of the samples after a warm-up of 25 steps, per 100,000 steps)\n"))
    #expect(run.stdout.contains("store          keys          figure           after warm-up  "))
    let growth = try CSVFile(path: directory + "/soak.csv")
    #expect(growth.header.joined(separator: ",") == "workload,variant,store,keys,figure,warmup_steps,samples,first,last,growth_per_100k_steps")
    let series = try CSVFile(path: directory + "/series.csv")
    #expect(series.header.joined(separator: ",") == "workload,variant,store,keys,step,rss_bytes,live_bytes,records,accounted_bytes,db_bytes,wal_bytes")
    // 6 stores × 3 strategies; 100 steps (a tenth of 300, at least 100) sampled at 0, 25, 50, 75 and 100.
    #expect(series.rows.count == 18 * 5)
    #expect(Set(series.rows.map { $0["step"] }) == ["0", "25", "50", "75", "100"])
    #expect(run.stdout.hasSuffix("wrote \(growth.rows.count) rows to \(directory)/soak.csv\nwrote 90 samples to \(directory)/series.csv\n"))
  }
}
