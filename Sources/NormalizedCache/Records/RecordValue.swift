/// A value of a record's field (docs/records.md): a scalar, a reference to another record, or a
/// list.
///
/// `.bool(true)` is never equal to `.int(1)`.
public enum RecordValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case reference(CacheReference)
  case list([RecordValue])

  /// A reference to the record with this key.
  public static func reference(_ key: CacheKey) -> RecordValue { .reference(CacheReference(key)) }

  /// Every key this value references, lists included.
  public var referencedKeys: [CacheKey] {
    switch self {
    case .reference(let reference): [reference.key]
    case .list(let values): values.flatMap(\.referencedKeys)
    default: []
    }
  }
}

extension RecordValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: RecordValue...) { self = .list(elements) }
}
