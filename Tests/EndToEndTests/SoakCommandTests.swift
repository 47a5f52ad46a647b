import Foundation
import Testing

@Suite("cachebench soak", .timeLimit(.minutes(10)))
struct SoakCommandTests {
  @Test("gate.json, quick: a table of every store × strategy's figures, the growth and the series written")
  func gate() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try await cachebench([
      "soak", "Workloads/gate.json", "--quick", "--every", "25", "--warmup", "25", "--out", directory + "/soak.csv",
      "--series", directory + "/series.csv", "--no-progress",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("Soak (growth: the least-squares slope of the samples after a warm-up of 25 steps, per 100,000 steps)\n"))
    #expect(run.stdout.contains("store                keys          figure           after warm-up  "))
    let growth = try CSVFile(path: directory + "/soak.csv")
    #expect(
      growth.header.joined(separator: ",")
        == "workload,variant,store,keys,figure,warmup_steps,samples,first,last,growth_per_100k_steps,complete")
    #expect(growth.rows.allSatisfy { $0["complete"] == "true" })
    let series = try CSVFile(path: directory + "/series.csv")
    #expect(
      series.header.joined(separator: ",")
        == "workload,variant,store,keys,step,rss_bytes,live_bytes,records,accounted_bytes,db_bytes,wal_bytes,complete")
    // 9 stores × 3 strategies; 100 steps (a tenth of 300, at least 100) sampled at 0, 25, 50, 75 and 100.
    #expect(series.rows.count == 27 * 5)
    #expect(Set(series.rows.map { $0["step"] }) == ["0", "25", "50", "75", "100"])
    #expect(
      run.stdout.hasSuffix("wrote \(growth.rows.count) rows to \(directory)/soak.csv\nwrote 135 samples to \(directory)/series.csv\n"))
  }

  @Test(
    "a signal stops the soak where it is: the samples so far written, marked complete=false, exit 130 or 143",
    arguments: [("INT", 130), ("TERM", 143)])
  func interrupted(signal: String, status: Int32) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The signal raised by the soak itself before step 60 of its first session: what a person's
    // Ctrl-C does, at a step that does not depend on the machine's load.
    let run = try await cachebench(
      [
        "soak", "Workloads/gate.json", "--quick", "--every", "25", "--warmup", "0", "--out", directory + "/soak.csv",
        "--series", directory + "/series.csv", "--no-progress",
      ], environment: ["CACHEBENCH_SOAK_SIGNAL_AT": "\(signal):60"])
    #expect(run.status == status, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "soak stopped by SIG\(signal) before its end: 4 samples (the last at step 60 of memory × path) written, marked complete=false"))
    // The first session's samples at 0, 25 and 50, then one where it stopped; no other session ran.
    let series = try CSVFile(path: directory + "/series.csv")
    #expect(series.rows.map { $0["step"] } == ["0", "25", "50", "60"])
    #expect(series.rows.allSatisfy { $0["store"] == "memory" && $0["keys"] == "path" && $0["complete"] == "false" })
    let growth = try CSVFile(path: directory + "/soak.csv")
    #expect(!growth.rows.isEmpty && growth.rows.allSatisfy { $0["samples"] == "4" && $0["complete"] == "false" })
  }

  @Test("a malformed CACHEBENCH_SOAK_SIGNAL_AT is a usage error")
  func malformedSignal() async throws {
    let run = try await cachebench(
      ["soak", "Workloads/gate.json", "--quick", "--no-progress", "--out", "/dev/null", "--series", "/tmp/unused-series.csv"],
      environment: ["CACHEBENCH_SOAK_SIGNAL_AT": "HUP:3"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("CACHEBENCH_SOAK_SIGNAL_AT must be INT:<step> or TERM:<step>, got \"HUP:3\""))
  }
}
