import GraphQLLanguage

/// A programmatic key function (docs/keys.md): given a response object's concrete type and data,
/// its cache key info, or nil to fall through to the type policy and then the path.
public typealias CacheKeyResolver = @Sendable (ObjectType, ObjectData) -> CacheKeyInfo?

/// Key resolvers by name, so workloads and the command line can select them.
///
/// The built-ins are `id`, `seed-books` and `interface-group`. Add your own:
/// ```swift
/// var resolvers = CacheKeyResolvers.builtIn
/// resolvers.register("sku") { type, object in
///   type.name == "Product" ? object.string("sku").map { CacheKeyInfo(id: $0) } : nil
/// }
/// let normalizer = Normalizer(strategy: .programmatic(try resolvers.resolver(named: "sku")))
/// ```
public struct CacheKeyResolvers: Sendable {
  private var table: [String: CacheKeyResolver] = [:]

  public init() {}

  /// `id`, `seed-books` and `interface-group`.
  public static let builtIn: CacheKeyResolvers = {
    var resolvers = CacheKeyResolvers()
    resolvers.register("id", BuiltInResolvers.id)
    resolvers.register("seed-books", BuiltInResolvers.seedBooks)
    resolvers.register("interface-group", BuiltInResolvers.interfaceGroup)
    return resolvers
  }()

  /// Adds a resolver under a name, replacing any of the same name.
  public mutating func register(_ name: String, _ resolver: @escaping CacheKeyResolver) {
    table[name] = resolver
  }

  /// The names, sorted.
  public var names: [String] { table.keys.sorted() }

  /// The resolver of this name.
  /// - Throws: ``UnknownResolver`` naming the known ones.
  public func resolver(named name: String) throws(UnknownResolver) -> CacheKeyResolver {
    guard let resolver = table[name] else { throw UnknownResolver(name: name, known: names) }
    return resolver
  }

  public struct UnknownResolver: Error, Sendable, CustomStringConvertible {
    public let name: String
    public let known: [String]
    public var description: String {
      "unknown key resolver '\(name)'; known resolvers: \(known.joined(separator: ", "))"
    }
  }
}

/// The built-in resolvers of docs/keys.md.
public enum BuiltInResolvers {
  /// Any object with a scalar `id` (String, Int or Float) is keyed `Typename:id`.
  public static let id: CacheKeyResolver = { _, object in
    try? CacheKeyInfo(jsonValue: object["id"])
  }

  /// The Book, Author and BookEdition rules of the seed article (`000_82e5ed111e8dc034.txt`):
  /// - Book: `isbn:ISBN` when it has a non-empty ISBN, else its `id`;
  /// - Author: the last path component of its `uri`;
  /// - BookEdition: `bookId:editionN` for special and limited editions, else `bookId`.
  public static let seedBooks: CacheKeyResolver = { type, object in
    switch type.name {
    case "Book":
      if let isbn = object.string("isbn"), !isbn.isEmpty { return CacheKeyInfo(id: "isbn:\(isbn)") }
      if let id = object.string("id") { return CacheKeyInfo(id: id) }
      return nil
    case "Author":
      guard let uri = object.string("uri") else { return nil }
      guard let slug = lastPathComponent(ofURI: uri) else { return nil }
      return CacheKeyInfo(id: slug)
    case "BookEdition":
      guard let bookId = object.string("bookId") else { return nil }
      let editionType = object.string("editionType")
      if editionType == "special" || editionType == "limited" {
        guard let number = object.int("editionNumber") else { return nil }
        return CacheKeyInfo(id: "\(bookId):edition\(number)")
      }
      return CacheKeyInfo(id: bookId)
    default:
      return nil
    }
  }

  /// Objects implementing an interface are grouped under the first such interface's name, keyed
  /// by `id`: a Dog and a Cat that implement `Animal` become `Animal:1` and `Animal:2`.
  public static let interfaceGroup: CacheKeyResolver = { type, object in
    guard let interface = type.interfaces.first else { return nil }
    return try? CacheKeyInfo(jsonValue: object["id"], uniqueKeyGroup: interface)
  }

  /// The last non-empty path component of a URI, without its query or fragment:
  /// `https://example.com/authors/ray-bradbury?x=1` gives `ray-bradbury`.
  static func lastPathComponent(ofURI uri: String) -> String? {
    var path = Substring(uri)
    if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
    let utf8 = Array(path.utf8)
    if let schemeEnd = (0..<max(0, utf8.count - 2)).first(where: { utf8[$0] == 0x3A && utf8[$0 + 1] == 0x2F && utf8[$0 + 2] == 0x2F }) {
      // Drop "scheme://authority": the path starts at the first "/" after it.
      let afterScheme = path.utf8.index(path.startIndex, offsetBy: schemeEnd + 3)
      guard let slash = path[afterScheme...].firstIndex(of: "/") else { return nil }
      path = path[slash...]
    }
    return path.split(separator: "/").last.map(String.init)
  }
}
