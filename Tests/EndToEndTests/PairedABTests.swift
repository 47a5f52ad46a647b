import Foundation
import Testing

/// Runs `cachebench worker ARGUMENTS` with `input` on its standard input.
private func worker(_ arguments: [String], input: String, environment: [String: String] = [:]) async throws -> Run {
  try await cachebench(["worker"] + arguments, environment: environment, input: input)
}

/// The tiny workload with a memory and a SQLite store, in a fresh directory.
func tinyFile() throws -> (directory: String, path: String) {
  let directory = try temporaryDirectory()
  let path = directory + "/tiny.json"
  try tinyWorkload(stores: #"[{"kind": "memory"}, {"kind": "sqlite", "label": "sqlite"}]"#)
    .write(toFile: path, atomically: true, encoding: .utf8)
  return (directory, path)
}

extension HeavyRuns {
  @Suite("cachebench ab --paired and its workers", .timeLimit(.minutes(10)))
  struct PairedABTests {
    @Test("a worker answers hello, lists its rows after prepare, times a step, and quits")
    func protocolByHand() async throws {
      let (directory, path) = try tinyFile()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let run = try await worker([path], input: "hello\nprepare\nstep\t0\t0\t3\nstep\t5\t2\t1\nquit\n")
      #expect(run.status == 0, "\(run.stderr)")
      let lines = run.stdout.split(separator: "\n").map(String.init)
      #expect(lines[0].hasPrefix("cachebench-worker\t1\t"))
      #expect(lines[1] == "ready\ttiny\t2\t6")
      #expect(lines[2] == "row\t\tmemory\ttypePolicy\tmerge\t3")
      #expect(lines[5] == "row\t\tsqlite\ttypePolicy\tmerge\t3")
      #expect(lines.count == 10)
      for line in lines[8...] {
        let fields = line.split(separator: "\t")
        #expect(fields.count == 2 && fields[0] == "ns" && UInt64(fields[1]) != nil)
      }
    }

    @Test("a request a worker does not know is an error line and exit 64; a step before prepare too")
    func badRequests() async throws {
      let (directory, path) = try tinyFile()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let unknown = try await worker([path], input: "hello\nfrobnicate\n")
      #expect(unknown.status == 64)
      #expect(unknown.stdout.hasSuffix("error\tunknown request 'frobnicate'; expected hello, prepare, step or quit\n"))
      let early = try await worker([path], input: "step\t0\t0\t1\n")
      #expect(early.status == 64)
      #expect(early.stdout == "error\t'step' before 'prepare'\n")
      let slowdown = try await cachebench(["worker", path], environment: ["CACHEBENCH_INJECT_SLOWDOWN": "fast"])
      #expect(slowdown.status == 64)
      #expect(slowdown.stderr.hasPrefix("Error: CACHEBENCH_INJECT_SLOWDOWN='fast' is invalid; expected STORE:STEP:FRACTION"))
    }

    @Test(
      "ab --paired drives two workers step by step and finds a slowdown injected into one row of the current build",
      .timeLimit(.minutes(10)))
    func pairedRun() async throws {
      let (directory, path) = try tinyFile()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      // The current build's memory merges spin for as long again as they took: twice as slow.
      // What decides it is the number of pairs, not the size of the change: a sign test over
      // blocks of 8 pairs. On a runner whose cores are busy, 4 s gave 75 pairs (9 blocks, one of
      // them the wrong way: p 0.023, inconclusive after Holm's correction over 6 rows); 20 s gives
      // some 5 times as many even there, and a quiet machine decides it in fewer.
      let slowed = try script(
        in: directory, named: "slowed", "export CACHEBENCH_INJECT_SLOWDOWN=memory:merge:1\nexec '\(binary.path)' \"$@\"")
      let out = directory + "/paired.csv"
      let run = try await cachebench(["ab", "--paired", "--base", binary.path, "--current", slowed, path, "--seconds", "20", "--out", out])
      #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("cachebench ab --paired: preparing both workers"))
      for store in ["memory", "sqlite"] {
        for step in ["merge", "read", "lookup"] {
          #expect(run.stdout.contains(try Regex("\(store) +typePolicy +\(step) ")), "\(store) \(step)")
        }
      }
      #expect(run.stdout.contains(try Regex("memory +typePolicy +merge .* regressed\n")), "\(run.stdout)")
      #expect(run.stdout.contains("pairs a row in"))
      let csv = try CSVFile(path: out)
      #expect(csv.rows.count == 6)
      #expect(csv.rows.allSatisfy { $0["metric"] == "step" && $0["unit"] == "ns" })
      let slowedRow = csv.rows.first { $0["store"] == "memory" && $0["phase"] == "merge" }
      #expect(slowedRow?["status"] == "regressed", "\(csv.rows)")
    }

    @Test("a base without a worker mode fails the handshake, and ab falls back to runs in turns", .timeLimit(.minutes(10)))
    func fallback() async throws {
      let (directory, path) = try tinyFile()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      // An older build: cachebench in every way but the worker command.
      let old = try script(
        in: directory, named: "old-cachebench",
        "if [ \"$1\" = worker ]; then echo \"Error: Unknown command 'worker'.\" >&2; exit 64; fi\nexec '\(binary.path)' \"$@\"")
      // One build against itself, with a threshold no timing can pass: no row can regress, and the
      // deterministic rows are equal.
      let run = try await cachebench([
        "ab", "--paired", "--base", old, "--current", binary.path, path, "--rounds", "2", "--threshold", "1000",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(
        run.stderr.contains(
          "cachebench ab --paired: the base build has no worker mode (exited 64: Error: Unknown command 'worker'.); falling back to 2 runs of each side in turns"
        ), "\(run.stderr)")
      #expect(run.stderr.contains("round 2/2, current"))
      #expect(run.stdout.contains("0 regressed"), "\(run.stdout)")
    }

    @Test("--paired takes one workload that has responses, and --seconds needs --paired")
    func usage() async throws {
      let two = try await cachebench([
        "ab", "--paired", "--base", binary.path, "--current", binary.path, "Workloads/quick.json", "Workloads/calendar.json",
      ])
      #expect(two.status == 64)
      #expect(two.stderr.hasPrefix("Error: --paired measures one workload: give one workload file, not 2.\n"))
      let seconds = try await cachebench(["ab", "--base", binary.path, "--current", binary.path, "Workloads/quick.json", "--seconds", "5"])
      #expect(seconds.status == 64)
      #expect(seconds.stderr.hasPrefix("Error: --seconds needs --paired.\n"))
      let missing = try await cachebench(["ab", "--paired", "--base", binary.path, "--current", binary.path, "/nonexistent/w.json"])
      #expect(missing.status == 66)
      let records = try await cachebench([
        "ab", "--paired", "--base", binary.path, "--current", binary.path, "Workloads/store-records.json",
      ])
      #expect(records.status == 65)
      #expect(
        records.stderr.hasPrefix(
          "Error: Workloads/store-records.json is a storeRecords workload: it has no responses to merge and read step by step; run ab without --paired\n"
        ))
      let help = try await cachebench(["worker", "--help"])
      #expect(help.status == 0)
      #expect(help.stdout.hasPrefix("OVERVIEW: Load a workload once and time single steps on request"))
      #expect(help.stdout.contains("\nUSAGE: cachebench worker <workload> [--quick]\n"))
    }

  }
}
