import Foundation
import Results
import Testing
import Workloads

@testable import Workbench

private let small = #"""
  {"name": "small", "seed": 3, "generator": {"responses": 6, "operations": 2, "depth": 2, "types": 4, "poolSize": 8},
   "keys": ["path", "typePolicy"], "limits": true,
   "stores": [{"kind": "memory"}, {"kind": "sqlite", "label": "sqlite"}],
   "repetitions": 1, "warmup": 0}
  """#

/// Writes the workload into a fresh directory and loads it.
private func loaded(_ text: String) throws -> Workload {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent("w.json").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return try Workload.load(path)
}

@Suite("The paired run's worker and schedule")
struct StepWorkerTests {
  @Test("every cache store × strategy gives a merge, a read and a lookup row; the limit stores none")
  func rows() throws {
    let worker = try StepWorker(workload: try loaded(small), quick: false)
    #expect(worker.rows.count == 2 * 2 * 3)
    #expect(Set(worker.rows.map(\.store)) == ["memory", "sqlite"])
    #expect(worker.rows.prefix(3).map(\.kind) == [.merge, .read, .lookup])
    #expect(worker.rows.filter { $0.kind != .lookup }.allSatisfy { $0.size == 6 })
    #expect(worker.rows.filter { $0.kind == .lookup }.allSatisfy { $0.size > 6 })
  }

  @Test("every step runs, wraps around its row's size, and a row that does not exist is an error")
  func steps() throws {
    let worker = try StepWorker(workload: try loaded(small), quick: false)
    for row in worker.rows.indices {
      // Twice round each row: the merges write every response as refetched, then as written.
      _ = try worker.step(row: row, index: 4, count: 2 * worker.rows[row].size)
    }
    #expect(throws: RunError.self) { try worker.step(row: 12, index: 0, count: 1) }
    #expect(throws: RunError.self) { try worker.step(row: 0, index: 0, count: 0) }
  }

  @Test("an injected slowdown is parsed as STORE:STEP:FRACTION, and anything else says what it expects")
  func slowdown() throws {
    let slowdown = try InjectedSlowdown(parsing: "memory:merge:0.05")
    #expect(slowdown.applies(store: "memory", kind: .merge))
    #expect(!slowdown.applies(store: "memory", kind: .read))
    #expect(!slowdown.applies(store: "sqlite", kind: .merge))
    for text in ["memory-merge:0.05", "memory:write:0.05", "memory:merge:-1", ":merge:0.1"] {
      #expect(throws: RunError.self) { try InjectedSlowdown(parsing: text) }
    }
    do {
      _ = try InjectedSlowdown(parsing: "memory:merge")
    } catch {
      #expect(
        error.message
          == "CACHEBENCH_INJECT_SLOWDOWN='memory:merge' is invalid; expected STORE:STEP:FRACTION with STEP one of merge, read, lookup and FRACTION in (0, 10], such as memory:merge:0.05"
      )
      #expect(error.exitCode == .usage)
    }
  }

  @Test("the schedule: one seed, one order; every row once a round; both builds first about as often; steps walk on")
  func schedule() {
    var first = PairedSchedule(seed: 42, sizes: [5, 7, 100], counts: [1, 2, 30])
    var second = PairedSchedule(seed: 42, sizes: [5, 7, 100], counts: [1, 2, 30])
    var baseFirst = 0
    var previous: [Int: Int] = [:]
    for _ in 0..<200 {
      let round = first.nextRound()
      #expect(round == second.nextRound())
      #expect(round.map(\.row).sorted() == [0, 1, 2])
      for step in round {
        if let last = previous[step.row] { #expect(step.index == (last + step.count) % [5, 7, 100][step.row]) }
        previous[step.row] = step.index
        if step.baseFirst { baseFirst += 1 }
      }
    }
    #expect((240...360).contains(baseFirst))
    var other = PairedSchedule(seed: 43, sizes: [5, 7, 100], counts: [1, 2, 30])
    var again = PairedSchedule(seed: 42, sizes: [5, 7, 100], counts: [1, 2, 30])
    #expect((0..<5).map { _ in other.nextRound() } != (0..<5).map { _ in again.nextRound() })
  }
}
