import Support

/// A generator knob out of its range, or a workload's `generator` section that does not fit.
///
/// Prints one line per problem, each starting with the knob's name:
/// `duplication must be in 0...1, got 1.5`.
public struct GeneratorConfigError: Error, Sendable, Hashable, CustomStringConvertible {
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The knob's name as workload files spell it (`listLength.min` for an end of a range).
    public let knob: String
    public let message: String

    public var description: String { "\(knob) \(message)" }
  }

  public let problems: [Problem]

  public var description: String { problems.map(\.description).joined(separator: "; ") }
}

extension GeneratorConfig {
  /// The knobs by the names workload files and sweeps use (`generator.duplication`).
  public enum Knob: String, Sendable, CaseIterable {
    case responses, operations, depth, fanOut, listLength, listShare, types, fieldsPerType, poolSize
    case duplication, zipf, keyedShare, compositeKeyShare, interfaces, unions, stringLength, cacheControl
    case narrowReads
  }

  /// Checks every knob against its documented range.
  /// - Throws: ``GeneratorConfigError`` listing every knob out of range, by name.
  public func validate() throws(GeneratorConfigError) {
    var problems: [GeneratorConfigError.Problem] = []
    func check(_ knob: Knob, _ value: Int, _ range: ClosedRange<Int>) {
      if !range.contains(value) {
        problems.append(.init(knob: knob.rawValue, message: "must be in \(range), got \(value)"))
      }
    }
    func check(_ knob: Knob, _ value: Double, _ range: ClosedRange<Double>) {
      if !value.isFinite || !range.contains(value) {
        problems.append(
          .init(knob: knob.rawValue, message: "must be in \(Self.format(range)), got \(value)"))
      }
    }
    func check(_ knob: Knob, _ bounds: Bounds, _ range: ClosedRange<Int>) {
      let before = problems.count
      for (end, value) in [("min", bounds.min), ("max", bounds.max)] where !range.contains(value) {
        problems.append(.init(knob: "\(knob.rawValue).\(end)", message: "must be in \(range), got \(value)"))
      }
      if problems.count == before, bounds.min > bounds.max {
        problems.append(
          .init(knob: knob.rawValue, message: "min \(bounds.min) must not be greater than max \(bounds.max)"))
      }
    }
    check(.responses, responses, 1...Int(Int32.max))
    check(.operations, operations, 1...10_000)
    check(.depth, depth, 1...32)
    check(.fanOut, fanOut, 1...16)
    check(.listLength, listLength, 0...10_000)
    check(.listShare, listShare, 0...1)
    check(.types, types, 1...10_000)
    // With narrow reads, the count is checked as their `of` (below).
    if narrowReads == nil { check(.fieldsPerType, fieldsPerType, 1...500) }
    check(.poolSize, poolSize, 1...10_000_000)
    check(.duplication, duplication, 0...1)
    check(.zipf, zipf, 0...100)
    check(.keyedShare, keyedShare, 0...1)
    check(.compositeKeyShare, compositeKeyShare, 0...1)
    check(.interfaces, interfaces, 0...1_000)
    check(.unions, unions, 0...1_000)
    check(.stringLength, stringLength, 0...1_000_000)
    if let cacheControl {
      problems += cacheControl.problems()
    }
    if let narrowReads {
      problems += narrowReads.problems(of: self)
    }
    if !problems.isEmpty { throw GeneratorConfigError(problems: problems) }
  }

  /// `0...1`, not `0.0...1.0`.
  private static func format(_ range: ClosedRange<Double>) -> String {
    func number(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
    return "\(number(range.lowerBound))...\(number(range.upperBound))"
  }
}

extension CacheControlConfig {
  /// Each of its settings out of range, named `cacheControl.<setting>`.
  func problems() -> [GeneratorConfigError.Problem] {
    var problems: [GeneratorConfigError.Problem] = []
    for (name, value) in [("share", share), ("zeroShare", zeroShare)] where !value.isFinite || !(0...1).contains(value) {
      problems.append(.init(knob: "cacheControl.\(name)", message: "must be in 0...1, got \(value)"))
    }
    let range = 0...Int(Int32.max)
    for (end, value) in [("min", maxAge.min), ("max", maxAge.max)] where !range.contains(value) {
      problems.append(.init(knob: "cacheControl.maxAge.\(end)", message: "must be in \(range), got \(value)"))
    }
    if range.contains(maxAge.min), range.contains(maxAge.max), maxAge.min > maxAge.max {
      problems.append(
        .init(knob: "cacheControl.maxAge", message: "min \(maxAge.min) must not be greater than max \(maxAge.max)"))
    }
    return problems
  }
}

extension NarrowReadsConfig {
  /// Each of its settings out of range, named `narrowReads.<setting>` (the fields per type as
  /// `narrowReads.of`), and a schema with no keyed type (nothing to read by list and by detail).
  func problems(of config: GeneratorConfig) -> [GeneratorConfigError.Problem] {
    var problems: [GeneratorConfigError.Problem] = []
    let of = config.fieldsPerType
    let ofRange = 1...500
    if !ofRange.contains(of) {
      problems.append(.init(knob: "narrowReads.of", message: "must be in \(ofRange), got \(of)"))
    } else if !(1...of).contains(fields) {
      problems.append(.init(knob: "narrowReads.fields", message: "must be in 1...\(of) (narrowReads.of), got \(fields)"))
    }
    if !share.isFinite || !(0...1).contains(share) {
      problems.append(.init(knob: "narrowReads.share", message: "must be in 0...1, got \(share)"))
    }
    if config.keyedTypeCount == 0 {
      problems.append(
        .init(
          knob: "narrowReads",
          message: "needs a keyed type to read by list and by detail; keyedShare \(config.keyedShare) of \(config.types) types keys none"))
    }
    return problems
  }
}

extension GeneratorConfigError: ExitCodeCarrying {
  public var exitCode: ExitCode { .dataError }
}
