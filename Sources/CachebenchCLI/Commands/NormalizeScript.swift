import NormalizedCache

/// What `cachebench normalize` is asked to do, read from its options in command-line order
/// (docs/command-line.md#normalize): the writes, each with its clock, and the read after them.
///
/// ```
/// --at 100 --operation A.graphql --response a.json    a write at 100
/// --operation B.graphql --response b.json             at 100 too: a clock holds until the next --at
/// --read A.graphql --at 450 --ttl permissive          the read, at 450
/// ```
struct NormalizeScript {
  struct Write {
    let operation: String
    let response: String
    /// The clock of the write, in seconds: the last `--at` before its `--operation`, else 0.
    let writtenAt: Int
  }

  struct Read {
    let operation: String
    let variables: String?
    let operationName: String?
    /// The clock of the read: the `--at` after `--read`, else 0.
    let at: Int
    let ttl: TTLEnforcement
  }

  /// The last second `--at` takes: 9999-12-31T23:59:59Z. Far enough for any cache, and a date
  /// plus the largest `maxAge` (GraphQL's Int) stays far from overflow.
  static let latestSecond = 253_402_300_799

  let writes: [Write]
  let read: Read?
  /// Whether the writes keep dates: any `--at` or `--read` asks for them; without either, records
  /// are written without dates, as before clocks existed.
  let isDated: Bool

  /// - Throws: ``UsageError`` for an `--at` out of range or dating no write, an `--operation`
  ///   after `--read`, a read given two clocks, no `--operation` or unmatched `--operation` and
  ///   `--response` counts, the read's options without `--read`, `--format` with it.
  init(_ arguments: ParsedArguments, usage: String) throws(UsageError) {
    var clock = 0
    // The last --at given before --read that no --operation has taken yet.
    var unusedClock: String?
    var readClock: (text: String, seconds: Int)?
    var isReading = false
    var operations: [(path: String, writtenAt: Int)] = []
    for (name, value) in arguments.occurrences {
      guard let value else { continue }
      switch name {
      case "at" where isReading:
        if let readClock {
          throw UsageError(message: "The read takes one --at; got '\(readClock.text)' and '\(value)'.", usage: usage)
        }
        readClock = (value, try Self.seconds(value, usage: usage))
      case "at":
        if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
        clock = try Self.seconds(value, usage: usage)
        unusedClock = value
      case "operation":
        if isReading {
          throw UsageError(message: "--operation '\(value)' comes after --read: give the writes first, then the read.", usage: usage)
        }
        operations.append((value, clock))
        unusedClock = nil
      case "read":
        if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
        isReading = true
      default:
        continue
      }
    }
    if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
    writes = try Self.pairs(operations, responses: arguments.values("response"), usage: usage)
    read = try Self.read(arguments, at: readClock?.seconds ?? 0, usage: usage)
    isDated = isReading || arguments.has("at")
  }

  /// Each `--operation` with its `--response`, in order.
  private static func pairs(
    _ operations: [(path: String, writtenAt: Int)], responses: [String], usage: String
  ) throws(UsageError) -> [Write] {
    guard !operations.isEmpty else { throw UsageError(message: "Missing expected option '--operation <file>'.", usage: usage) }
    guard operations.count == responses.count else {
      throw UsageError(
        message: "Give one --response per --operation (got \(operations.count) operations and \(responses.count) responses).",
        usage: usage)
    }
    return zip(operations, responses).map { Write(operation: $0.path, response: $1, writtenAt: $0.writtenAt) }
  }

  /// The read `--read` asks for, nil without it; its options without it are wrong.
  private static func read(_ arguments: ParsedArguments, at seconds: Int, usage: String) throws(UsageError) -> Read? {
    guard let operation = arguments.value("read") else {
      for option in ["ttl", "read-variables", "read-operation-name"] where arguments.has(option) {
        throw UsageError(message: "--\(option) needs --read.", usage: usage)
      }
      return nil
    }
    if arguments.has("format") {
      throw UsageError(
        message: "--format lists the records, and --read prints the read's outcome instead: give one of them.", usage: usage)
    }
    return Read(
      operation: operation, variables: arguments.value("read-variables"), operationName: arguments.value("read-operation-name"),
      at: seconds, ttl: arguments.value("ttl").flatMap(TTLEnforcement.init(rawValue:)) ?? .strict)
  }

  /// Seconds as `--at` takes them: digits only, from 0 to ``latestSecond``.
  static func seconds(_ text: String, usage: String) throws(UsageError) -> Int {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seconds = Int(text),
      seconds <= latestSecond
    else {
      throw UsageError(
        message:
          "The value '\(text)' is invalid for '--at'; expected whole seconds from 0 to \(latestSecond) (9999-12-31T23:59:59Z).",
        usage: usage)
    }
    return seconds
  }

  private static func datesNoWrite(_ text: String, usage: String) -> UsageError {
    UsageError(
      message:
        "'--at \(text)' dates no write: no --operation follows it before the next --at or --read (the read's clock goes after --read).",
      usage: usage)
  }
}
