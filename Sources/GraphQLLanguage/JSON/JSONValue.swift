/// A JSON value as a GraphQL response or variables carry it, keeping `1` (Int), `1.0` (Double)
/// and `true` (Bool) distinct, and object members in the order written.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  public var objectValue: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let array) = self { return array }
    return nil
  }

  public var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// A short name of the kind of value, for error messages: `an object`, `a string`.
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int: "an integer"
    case .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A JSON object: members in the order written; equality ignores the order.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  public struct Member: Sendable, Hashable {
    public let key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public private(set) var members: [Member]

  public init() { members = [] }

  public init(members: [Member]) { self.members = members }

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    members = elements.map { Member(key: $0.0, value: $0.1) }
  }

  public var count: Int { members.count }
  public var isEmpty: Bool { members.isEmpty }
  public var keys: [String] { members.map(\.key) }

  /// The value of a member, or nil when the object has no member of that key.
  ///
  /// - Complexity: O(n): response objects are small, and a linear scan beats hashing for them.
  public subscript(key: String) -> JSONValue? {
    get {
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }

  /// The position of the member keyed `key`, looking from `hint` on first and then from the start:
  /// a reader asking for the members in the order they were written finds each at the first look.
  @inline(__always)
  public func index(ofKey key: String, from hint: Int) -> Int? {
    let count = members.count
    var index = hint < count ? hint : 0
    for _ in 0..<count {
      if members[index].key == key { return index }
      index += 1
      if index == count { index = 0 }
    }
    return nil
  }

  /// Appends a member without checking for an existing one of that key (the parser's fast path).
  public mutating func append(key: String, value: JSONValue) {
    members.append(Member(key: key, value: value))
  }

  public mutating func reserveCapacity(_ capacity: Int) { members.reserveCapacity(capacity) }

  public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.members.count == rhs.members.count else { return false }
    if lhs.members == rhs.members { return true }
    for member in lhs.members {
      guard let other = rhs[member.key], other == member.value else { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent, to agree with ==.
    var combined = 0
    for member in members {
      var memberHasher = Hasher()
      memberHasher.combine(member)
      combined ^= memberHasher.finalize()
    }
    hasher.combine(members.count)
    hasher.combine(combined)
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
  }
}
