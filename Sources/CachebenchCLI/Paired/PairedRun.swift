import Foundation
import Results
import Workbench

/// A side whose build has no worker mode (an older cachebench): its `hello` failed.
struct NoWorkerMode: Error {
  let side: String
  let detail: String
}

/// `ab --paired`: both builds started as workers on one workload, driven step by step in turns
/// (``PairedSchedule``), then judged by ``PairedComparison``.
///
/// The run warms up (``warmupRounds`` rounds, the last three of which size each row's steps so
/// that a pair takes about ``targetNanoseconds`` on each side), then takes rounds until the time is
/// up, judging at an eighth, a quarter and half of it, and stopping at a look where every row is
/// decided.
struct PairedRun {
  let base: String
  let current: String
  let workload: String
  let quick: Bool
  let seconds: Double
  /// The longest any one wait on a worker may take: its handshake, its preparing, one step.
  let timeout: Duration
  /// Whether a look where every row is decided ends the run.
  var stopsEarly = true
  let options: PairedComparison.Options

  static let warmupRounds = 5
  /// What one side's half of a pair should take: long enough that the clock and the pipe's round
  /// trip (some 20 µs) are small beside it, short enough for many pairs a second.
  static let targetNanoseconds = 1_000_000.0
  /// The looks before the last, as fractions of `seconds`.
  static let looks = [0.125, 0.25, 0.5]

  struct Outcome {
    let comparison: PairedComparison
    let rounds: Int
    let elapsed: Double
    let stoppedEarly: Bool
    /// Rows one build has and the other has not (or of another size): not judged.
    let unmatched: [String]
  }

  func run(directory: URL) throws -> Outcome {
    let arguments = [workload] + (quick ? ["--quick"] : [])
    AddressLayout.fixForChildren()
    let padding = WorkerProcess.padding(for: [base, current])
    let workers = try [("base", base, padding[0]), ("current", current, padding[1])].map { side, command, padding in
      try WorkerProcess(command: command, arguments: arguments, side: side, directory: directory, timeout: timeout, padding: padding)
    }
    for worker in workers { try handshake(worker) }
    writeStandardError("cachebench ab --paired: preparing both workers\n")
    let pairing = try prepare(workers)
    var schedule = try warmUp(pairing)
    var samples = pairing.rows.map { row in
      PairedSamples(
        key: MetricKey(
          workload: pairing.workload, variant: row.variant, store: row.store, keys: row.keys, phase: row.kind.phase,
          metric: Metric.pairedStep(row.kind.phase).name),
        base: [], current: [])
    }
    let start = DispatchTime.now().uptimeNanoseconds
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    var looks = Self.looks.map { $0 * seconds }
    var rounds = 0
    var stoppedEarly = false
    while elapsed() < seconds {
      for step in schedule.nextRound() {
        let times = try pairing.pair(step)
        samples[step.row].base.append(times.base)
        samples[step.row].current.append(times.current)
      }
      rounds += 1
      guard let look = looks.first, elapsed() >= look else { continue }
      looks.removeFirst()
      let comparison = PairedComparison(samples, options: options)
      let decided = comparison.rows.count(where: \.decided)
      writeStandardError(
        "cachebench ab --paired: \(Int(elapsed())) s, \(rounds) pairs a row, \(decided) of \(samples.count) rows decided\n")
      if stopsEarly, comparison.allDecided {
        stoppedEarly = true
        break
      }
    }
    let total = elapsed()
    for worker in workers { worker.quit() }
    return Outcome(
      comparison: PairedComparison(samples, options: options), rounds: rounds, elapsed: total, stoppedEarly: stoppedEarly,
      unmatched: pairing.unmatched)
  }

  /// `hello`, answered by a worker of this protocol's version; ``NoWorkerMode`` otherwise.
  private func handshake(_ worker: WorkerProcess) throws {
    let reply: WorkerProtocol.Reply?
    do {
      reply = try worker.request(.hello, doing: "answering 'hello'")
    } catch is WorkerProcess.MalformedReply {
      // Something else than a worker answered: a build that has no worker mode.
      throw NoWorkerMode(side: worker.side, detail: worker.failure(reply: nil))
    }
    guard case .hello(let version, _) = reply else {
      throw NoWorkerMode(side: worker.side, detail: worker.failure(reply: reply))
    }
    guard version == WorkerProtocol.version else {
      throw NoWorkerMode(side: worker.side, detail: "it speaks worker protocol \(version), this build \(WorkerProtocol.version)")
    }
  }

  /// Both workers prepare at once; the rows they share are judged.
  private func prepare(_ workers: [WorkerProcess]) throws -> Pairing {
    for worker in workers where !worker.send(.prepare) {
      throw CommandError("\(worker.name) failed: \(worker.failure(reply: nil))", .failure)
    }
    let listings = try workers.map(readRows)
    let indices = listings.map { listing in
      Dictionary(listing.rows.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
    let common = listings[1].rows.filter { indices[0][$0] != nil }
    guard !common.isEmpty else { throw CommandError("the two builds have no timing row in common on \(workload)", .failure) }
    let unmatched = (listings[0].rows + listings[1].rows).filter { indices[0][$0] == nil || indices[1][$0] == nil }
      .map { "\($0.store) × \($0.keys) \($0.kind.rawValue)" }
    return Pairing(
      workers: workers, rows: common, positions: indices.map { index in common.map { index[$0]! } },
      workload: listings[0].name, seed: listings[0].seed, unmatched: unmatched)
  }

  /// ``warmupRounds`` rounds of single steps, untimed but for the last three, which size each
  /// row's steps to about ``targetNanoseconds`` a side; returns the schedule with those sizes.
  private func warmUp(_ pairing: Pairing) throws -> PairedSchedule {
    var schedule = PairedSchedule(
      seed: pairing.seed, sizes: pairing.rows.map(\.size), counts: Array(repeating: 1, count: pairing.rows.count))
    var perStep = Array(repeating: [Double](), count: pairing.rows.count)
    for round in 0..<Self.warmupRounds {
      for step in schedule.nextRound() {
        let times = try pairing.pair(step)
        if round >= Self.warmupRounds - 3 { perStep[step.row].append((times.base + times.current) / 2) }
      }
    }
    schedule.counts = perStep.map { times in
      let typical = max(1, Statistics.median(times))
      return max(1, min(100_000, Int((Self.targetNanoseconds / typical).rounded(.up))))
    }
    return schedule
  }

  /// The `ready` line and the rows after it.
  private func readRows(_ worker: WorkerProcess) throws -> (name: String, seed: UInt64, rows: [StepRow]) {
    let ready = try worker.nextReply(doing: "preparing the workload")
    guard case .ready(let name, let seed, let count) = ready else {
      throw CommandError("\(worker.name) failed to prepare: \(worker.failure(reply: ready))", .failure)
    }
    var rows: [StepRow] = []
    for _ in 0..<count {
      let reply = try worker.nextReply(doing: "listing its rows")
      guard case .row(let row) = reply else {
        throw CommandError("\(worker.name) sent a malformed row: \(worker.failure(reply: reply))", .failure)
      }
      rows.append(row)
    }
    return (name, seed, rows)
  }
}

/// The two workers and the rows both have: each row's position in each worker's listing.
private struct Pairing {
  let workers: [WorkerProcess]
  let rows: [StepRow]
  /// `positions[side][row]`: the row's number in that worker.
  let positions: [[Int]]
  let workload: String
  let seed: UInt64
  let unmatched: [String]

  /// Both workers perform one step, in the step's order; nanoseconds per operation of each.
  func pair(_ step: PairedSchedule.Step) throws -> (base: Double, current: Double) {
    var times = [0.0, 0.0]
    for side in step.baseFirst ? [0, 1] : [1, 0] {
      let worker = workers[side]
      let row = rows[step.row]
      let reply = try worker.request(
        .step(row: positions[side][step.row], index: step.index, count: step.count),
        doing: "performing \(step.count) \(row.kind.rawValue) step\(step.count == 1 ? "" : "s") of \(row.store) × \(row.keys)")
      guard case .nanoseconds(let ns) = reply else {
        throw CommandError("\(worker.name) failed: \(worker.failure(reply: reply))", .failure)
      }
      times[side] = Double(ns) / Double(step.count)
    }
    return (times[0], times[1])
  }
}
