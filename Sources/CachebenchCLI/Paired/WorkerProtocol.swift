import Support
import Workbench

/// The text `cachebench worker` and `ab --paired` speak over the worker's standard input and
/// output: one request per line, one reply per line (the rows after `ready` excepted), fields
/// separated by tabs. Both sides read and write it through ``Request`` and ``Reply`` (docs/gate.md#the-worker-protocol).
///
/// ```
/// > hello                      < cachebench-worker	1	0.26.0
/// > prepare                    < ready	<workload>	<seed>	<rows>
///                              < row	<variant>	<store>	<keys>	<merge|read|lookup>	<size>   (one per row)
/// > step	<row>	<index>	<count>  < ns	<nanoseconds>
/// > quit                       (the worker exits 0)
/// ```
///
/// A worker that fails answers `error	<message>` and exits with its code. A build without a worker
/// mode fails the `hello` (`cachebench: Unknown command 'worker'`), which is how `ab --paired`
/// knows to fall back to whole runs. No line is longer than ``maximumLineBytes``: a longer one is
/// a protocol error on either side, found without reading on.
enum WorkerProtocol {
  /// The first field of the answer to `hello`.
  static let greeting = "cachebench-worker"
  /// Bumped when a request or reply changes meaning; both sides must speak the same.
  static let version = 1
  /// The longest line either side reads, its newline included: a row names a variant, a store
  /// and a key strategy, all short; an error message is cut to some 2,000 characters.
  static let maximumLineBytes = 65_536
  /// The most steps one `step` request may ask for: `ab --paired` asks for at most 100,000 (a
  /// pair of about a millisecond of the quickest steps).
  static let maximumStepCount = 100_000

  /// What the coordinator asks.
  enum Request: Hashable {
    case hello
    case prepare
    /// Steps `index`, `index + 1`, ... (`count` of them) of row `row`.
    case step(row: Int, index: Int, count: Int)
    case quit
  }

  /// What the worker answers.
  enum Reply: Hashable {
    /// The answer to `hello`: the protocol's version and the build's.
    case hello(protocolVersion: Int, build: String)
    /// The answer to `prepare`, before its `rows` row lines.
    case ready(workload: String, seed: UInt64, rows: Int)
    case row(StepRow)
    /// The answer to `step`: the nanoseconds its steps took together.
    case nanoseconds(UInt64)
    /// A failure; the worker exits after it.
    case error(String)
  }

  /// A line that is not what the protocol allows there.
  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  /// Tabs and line breaks in a name (a store's label) would break a line apart.
  static func field(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }

  static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: "\t") + "\n"
  }

  static func fields(_ line: String) -> [String] {
    line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
  }
}

extension WorkerProtocol.Request {
  /// The request's line, its newline included.
  var line: String {
    switch self {
    case .hello: WorkerProtocol.line(["hello"])
    case .prepare: WorkerProtocol.line(["prepare"])
    case .step(let row, let index, let count): WorkerProtocol.line(["step", String(row), String(index), String(count)])
    case .quit: WorkerProtocol.line(["quit"])
    }
  }

  /// The request of a line (without its newline).
  ///
  /// - Throws: ``WorkerProtocol/Malformed`` naming what is wrong: an unknown verb, a `step` without
  ///   three whole numbers, a count past ``WorkerProtocol/maximumStepCount``.
  init(line: String) throws(WorkerProtocol.Malformed) {
    let fields = WorkerProtocol.fields(line)
    switch fields[0] {
    case "hello" where fields.count == 1: self = .hello
    case "prepare" where fields.count == 1: self = .prepare
    case "quit" where fields.count == 1: self = .quit
    case "step":
      guard fields.count == 4 else {
        throw .init(description: "expected 'step<TAB>row<TAB>index<TAB>count', got '\(line)'")
      }
      func number(_ name: String, _ text: String, _ range: ClosedRange<Int>) throws(WorkerProtocol.Malformed) -> Int {
        guard let value = DecimalNumber.integer(text, negative: range.lowerBound < 0), range.contains(value) else {
          throw .init(description: "step: the \(name) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
      }
      self = .step(
        row: try number("row", fields[1], 0...Int(Int32.max)), index: try number("index", fields[2], 0...Int(Int32.max)),
        count: try number("count", fields[3], 1...WorkerProtocol.maximumStepCount))
    default:
      throw .init(description: "unknown request '\(line)'; expected hello, prepare, step or quit")
    }
  }
}

extension WorkerProtocol.Reply {
  /// The reply's line, its newline included.
  var line: String {
    switch self {
    case .hello(let protocolVersion, let build): WorkerProtocol.line([WorkerProtocol.greeting, String(protocolVersion), build])
    case .ready(let workload, let seed, let rows): WorkerProtocol.line(["ready", workload, String(seed), String(rows)])
    case .row(let row): WorkerProtocol.line(["row", row.variant, row.store, row.keys, row.kind.rawValue, String(row.size)])
    case .nanoseconds(let nanoseconds): WorkerProtocol.line(["ns", String(nanoseconds)])
    case .error(let message): WorkerProtocol.line(["error", message])
    }
  }

  /// The reply of a line (without its newline).
  ///
  /// - Throws: ``WorkerProtocol/Malformed`` when it is no reply of this protocol.
  init(line: String) throws(WorkerProtocol.Malformed) {
    let fields = WorkerProtocol.fields(line)
    switch fields[0] {
    case WorkerProtocol.greeting where fields.count >= 2:
      guard let version = Int(fields[1]) else { break }
      self = .hello(protocolVersion: version, build: fields.count > 2 ? fields[2] : "")
      return
    case "ready" where fields.count == 4:
      guard let seed = UInt64(fields[2]), let rows = Int(fields[3]), rows >= 0 else { break }
      self = .ready(workload: fields[1], seed: seed, rows: rows)
      return
    case "row" where fields.count == 6:
      guard let kind = StepKind(rawValue: fields[4]), let size = Int(fields[5]), size > 0 else { break }
      self = .row(StepRow(variant: fields[1], store: fields[2], keys: fields[3], kind: kind, size: size))
      return
    case "ns" where fields.count == 2:
      guard let nanoseconds = UInt64(fields[1]) else { break }
      self = .nanoseconds(nanoseconds)
      return
    case "error" where fields.count >= 2:
      self = .error(fields.dropFirst().joined(separator: " "))
      return
    default:
      break
    }
    throw .init(description: "'\(line.prefix(200))' is no reply of worker protocol \(WorkerProtocol.version)")
  }
}
