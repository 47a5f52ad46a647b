import Results
import Support

/// A type an option's value is read as: its parsing from the command line, the values it allows
/// when they are few, and how a value of it is written back (for `Default: x` in help).
///
/// An enum of choices conforms with nothing more to write, through its `String` raw values, as
/// swift-argument-parser's `ExpressibleByArgument` enums do:
///
/// ```swift
/// extension TTLEnforcement: OptionValue {}   // --ttl strict|permissive, "(values: strict, permissive)"
/// ```
protocol OptionValue: Sendable {
  /// The value `argument` gives, or nil when it gives none of this type.
  init?(argument: String)
  /// Every value allowed, when they are few (an enum's cases), in the order help lists them; nil
  /// when any value of the type may be given.
  static var allowedValues: [String]? { get }
  /// The value as a command line would give it; nil for an absent optional.
  var argument: String? { get }
}

extension OptionValue {
  static var allowedValues: [String]? { nil }
}

extension OptionValue where Self: CaseIterable & RawRepresentable, RawValue == String {
  init?(argument: String) { self.init(rawValue: argument) }
  static var allowedValues: [String]? { allCases.map(\.rawValue) }
  var argument: String? { rawValue }
}

extension String: OptionValue {
  init?(argument: String) { self = argument }
  var argument: String? { self }
}

extension Int: OptionValue {
  init?(argument: String) {
    guard let value = DecimalNumber.integer(argument) else { return nil }
    self = value
  }
  var argument: String? { String(self) }
}

extension Double: OptionValue {
  init?(argument: String) {
    guard let value = DecimalNumber.number(argument) else { return nil }
    self = value
  }
  /// A whole number without its `.0` (`Default: 10`).
  var argument: String? { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// An option that may be absent: its value is nil then, unless a default is declared.
extension Optional: OptionValue where Wrapped: OptionValue {
  init?(argument: String) {
    guard let value = Wrapped(argument: argument) else { return nil }
    self = value
  }
  static var allowedValues: [String]? { Wrapped.allowedValues }
  var argument: String? { self?.argument }
}

extension Shard: OptionValue {
  init?(argument: String) { self.init(parsing: argument) }
  var argument: String? { description }
}
