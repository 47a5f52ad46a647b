import GraphQLLanguage

/// What a programmatic key resolver returns: the object's cache ID and, optionally, the group it is
/// keyed under instead of its `__typename` (as Apollo iOS's `CacheKeyInfo`).
///
/// ```swift
/// CacheKeyInfo(id: "123", uniqueKeyGroup: "Animal")   // the object's key is "Animal:123"
/// ```
public struct CacheKeyInfo: Sendable, Hashable {
  public let id: String
  public let uniqueKeyGroup: String?

  public init(id: String, uniqueKeyGroup: String? = nil) {
    self.id = id
    self.uniqueKeyGroup = uniqueKeyGroup
  }

  /// The ID from a JSON scalar: a String as it is, an Int as digits, a Float as `String(Double)`.
  ///
  /// Use `try?` to fall through when the value is missing, as with Apollo's `init(jsonValue:)`.
  /// - Throws: ``CacheKeyInfo/Error`` when the value is missing, null, a Bool, a list or an object.
  public init(jsonValue: JSONValue?, uniqueKeyGroup: String? = nil) throws(CacheKeyInfo.Error) {
    guard let jsonValue else { throw .missingValue }
    guard let id = Self.idString(jsonValue) else { throw .notAnID(jsonValue.kindDescription) }
    self.init(id: id, uniqueKeyGroup: uniqueKeyGroup)
  }

  public enum Error: Swift.Error, Sendable, Hashable {
    case missingValue
    case notAnID(String)
  }

  /// The key `Group:ID`, with the object's type name as the group unless a group was given.
  public func cacheKey(typename: String) -> CacheKey {
    (uniqueKeyGroup ?? typename) + ":" + id
  }

  /// The key-field rendering of docs/keys.md: String and ID raw, Int as digits, Float as
  /// `String(Double)`; nil for anything else.
  static func idString(_ value: JSONValue) -> String? {
    switch value {
    case .string(let string): string
    case .int(let int): String(int)
    case .double(let double): String(double)
    default: nil
    }
  }
}

/// The concrete type of a response object, as a key resolver sees it.
///
/// ```swift
/// if type.implements("Animal") { return try? CacheKeyInfo(jsonValue: object["id"], uniqueKeyGroup: "Animal") }
/// ```
public struct ObjectType: Sendable, Hashable {
  public let name: String
  /// Every interface the type implements, in declaration order.
  public let interfaces: [String]
  /// The unions the type is a member of.
  public let unions: [String]

  public init(name: String, interfaces: [String] = [], unions: [String] = []) {
    self.name = name
    self.interfaces = interfaces
    self.unions = unions
  }

  public init(name: String, schema: Schema) {
    self.init(name: name, interfaces: schema.interfaces(of: name), unions: schema.unions(containing: name))
  }

  public func implements(_ interface: String) -> Bool { interfaces.contains(interface) }

  public func isMember(ofUnion union: String) -> Bool { unions.contains(union) }
}

/// A response object as a key resolver sees it: its members by response key (aliases, not field
/// names, as Apollo iOS's `ObjectData`).
public struct ObjectData: Sendable {
  public let object: JSONObject

  public init(_ object: JSONObject) {
    self.object = object
  }

  public subscript(key: String) -> JSONValue? { object[key] }

  /// The member as a String, if it is one.
  public func string(_ key: String) -> String? { object[key]?.stringValue }

  /// The member as an Int, if it is one.
  public func int(_ key: String) -> Int? {
    if case .int(let int)? = object[key] { return int }
    return nil
  }
}
