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
    /// The clock of the read: the `--at` after `--read` (else 0), and `--ttl`.
    let clock: ReadClock
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
  init(_ arguments: ParsedArguments) throws(UsageError) {
    typealias Options = NormalizeCommand.Options
    let usage = arguments.usage
    var clock = 0
    // The last --at given before --read that no --operation has taken yet.
    var unusedClock: String?
    var readClock: (text: String, seconds: Int)?
    var isReading = false
    var operations: [(path: String, writtenAt: Int)] = []
    for occurrence in arguments.occurrences {
      guard let value = occurrence.value else { continue }
      switch occurrence.name {
      case Options.at.name where isReading:
        if let readClock {
          throw UsageError(message: "The read takes one --at; got '\(readClock.text)' and '\(value)'.", usage: usage)
        }
        readClock = (value, try arguments.value(value, of: Options.at))
      case Options.at.name:
        if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
        clock = try arguments.value(value, of: Options.at)
        unusedClock = value
      case Options.operation.name:
        if isReading {
          throw UsageError(message: "--operation '\(value)' comes after --read: give the writes first, then the read.", usage: usage)
        }
        operations.append((value, clock))
        unusedClock = nil
      case Options.read.name:
        if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
        isReading = true
      default:
        continue
      }
    }
    if let unusedClock { throw Self.datesNoWrite(unusedClock, usage: usage) }
    writes = try Self.pairs(operations, responses: try arguments.all(Options.response), usage: usage)
    read = try Self.read(arguments, at: readClock?.seconds ?? 0)
    isDated = isReading || arguments.isSet(Options.at)
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
  private static func read(_ arguments: ParsedArguments, at seconds: Int) throws(UsageError) -> Read? {
    typealias Options = NormalizeCommand.Options
    guard let operation = try arguments[Options.read] else {
      let readOptions: [any OptionDeclaration] = [Options.ttl, Options.readVariables, Options.readOperationName]
      for option in readOptions where arguments.isSet(option) {
        throw UsageError(message: "--\(option.name) needs --read.", usage: arguments.usage)
      }
      return nil
    }
    if arguments.isSet(Options.format) {
      throw UsageError(
        message: "--format lists the records, and --read prints the read's outcome instead: give one of them.", usage: arguments.usage)
    }
    return Read(
      operation: operation, variables: try arguments[Options.readVariables], operationName: try arguments[Options.readOperationName],
      clock: ReadClock(now: seconds, ttl: try arguments[Options.ttl]))
  }

  /// Seconds as `--at` takes them: digits only, from 0 to ``latestSecond``; nil for any other text.
  static func seconds(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seconds = Int(text),
      seconds <= latestSecond
    else { return nil }
    return seconds
  }

  private static func datesNoWrite(_ text: String, usage: String) -> UsageError {
    UsageError(
      message:
        "'--at \(text)' dates no write: no --operation follows it before the next --at or --read (the read's clock goes after --read).",
      usage: usage)
  }
}
