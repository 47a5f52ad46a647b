/// The words synthetic schemas are made of, so that they read like an app's schema.
///
/// A scalar field's name fixes its type everywhere (`rating` is always `Float`), so two
/// fragments on different types may select the same name without breaking GraphQL's rule that
/// fields of one response key have one shape.
enum Vocabulary {
  static let typeNouns = [
    "Product", "Review", "Author", "Store", "Order", "Customer", "Category", "Brand", "Offer", "Image",
    "Address", "Article", "Comment", "Playlist", "Track", "Album", "Artist", "Event", "Venue", "Ticket",
    "Team", "Player", "Match", "Course", "Lesson", "Message", "Thread", "Channel", "Photo", "Video",
    "Recipe", "Ingredient", "Hotel", "Room", "Booking", "Flight", "Airport", "Vehicle", "Driver", "Route",
    "Station", "Book", "Library", "Movie", "Actor", "Studio", "Episode", "Season", "Podcast", "Invoice",
    "Payment", "Shipment", "Warehouse", "Supplier", "Coupon", "Badge", "Survey", "Question", "Answer",
    "Project", "Task", "Milestone", "Document", "Folder",
  ]

  static let entityInterfaceNames = ["Node", "Entity", "Resource", "Identifiable"]
  static let traitInterfaceNames = ["Named", "Timestamped", "Rated", "Taggable", "Describable", "Ranked"]
  static let unionNames = ["SearchResult", "FeedItem", "Attachment", "Notification", "Activity", "MediaItem"]

  /// Roles that name an object field after its target: `featuredProduct`, `relatedReviews`.
  static let singleRoles = ["featured", "primary", "parent", "linked", "latest", "main", "default", "pinned"]
  static let listRoles = ["related", "recent", "top", "similar", "popular", "suggested", "nearby", "saved"]

  /// Enums of the schema: scalar fields and arguments use them.
  static let enums: [(name: String, values: [String])] = [
    ("Status", ["ACTIVE", "INACTIVE", "PENDING", "ARCHIVED"]),
    ("Visibility", ["PUBLIC", "PRIVATE", "UNLISTED"]),
    ("SortOrder", ["ASC", "DESC"]),
    ("Currency", ["USD", "EUR", "GBP", "JPY"]),
    ("ImageSize", ["SMALL", "MEDIUM", "LARGE"]),
    ("DateFormat", ["SHORT", "LONG", "ISO"]),
  ]

  /// Scalar fields; a few take an optional argument whose value changes the field key.
  static let scalarFields: [ScalarFieldModel] = [
    .init("name", .string), .init("title", .string), .init("description", .string),
    .init("summary", .string), .init("label", .string), .init("email", .string), .init("url", .string),
    .init("createdAt", .string), .init("updatedAt", .string), .init("color", .string),
    .init("subtitle", .string), .init("body", .string), .init("caption", .string),
    .init("username", .string), .init("displayName", .string), .init("location", .string),
    .init("language", .string), .init("timezone", .string),
    .init("count", .int), .init("rank", .int), .init("position", .int), .init("likes", .int),
    .init("views", .int), .init("quantity", .int), .init("duration", .int), .init("year", .int),
    .init("rating", .float), .init("score", .float), .init("weight", .float), .init("latitude", .float),
    .init("longitude", .float),
    .init("isActive", .boolean), .init("isFeatured", .boolean), .init("isPublic", .boolean),
    .init("isVerified", .boolean),
    .init("status", .enumeration("Status")), .init("visibility", .enumeration("Visibility")),
    .init("tags", .stringList), .init("keywords", .stringList),
    .init("price", .float, argument: .init(name: "currency", type: "Currency", values: ["USD", "EUR", "GBP", "JPY"])),
    .init("imageUrl", .string, argument: .init(name: "size", type: "ImageSize", values: ["SMALL", "MEDIUM", "LARGE"])),
    .init(
      "formattedDate", .string, argument: .init(name: "format", type: "DateFormat", values: ["SHORT", "LONG", "ISO"])),
    .init("excerpt", .string, argument: .init(name: "maxLength", type: "Int", values: ["40", "80", "160"])),
  ]

  /// The scalar field of index `index` of an endless vocabulary: the list above, then the same
  /// names with a number (`name2: String`), so a type can have any number of scalar fields.
  static func scalarField(_ index: Int) -> ScalarFieldModel {
    let base = scalarFields[index % scalarFields.count]
    let round = index / scalarFields.count
    guard round > 0 else { return base }
    return ScalarFieldModel(base.name + String(round + 1), base.kind, argument: base.argument)
  }

  /// Key fields of composite keys: the value of each is a slice of the entity's 64-bit identity,
  /// so the combination is unique. Names appear in no other role, so their type is fixed too.
  static let compositeKeys: [[(name: String, isInt: Bool, prefix: String)]] = [
    [("sku", false, "SKU-"), ("region", true, "")],
    [("slug", false, "s-"), ("revision", true, "")],
    [("code", false, "C"), ("version", true, "")],
    [("isbn", false, "978-"), ("edition", false, "ed-"), ("printing", true, "")],
    [("country", false, "CC-"), ("city", false, "city-"), ("number", true, "")],
  ]

  /// Plural of a noun: `Category` gives `Categories`, `Match` gives `Matches`.
  static func plural(_ noun: String) -> String {
    if noun.hasSuffix("y"), let last = noun.dropLast().last, !"aeiou".contains(last) {
      return noun.dropLast() + "ies"
    }
    if noun.hasSuffix("s") || noun.hasSuffix("x") || noun.hasSuffix("ch") || noun.hasSuffix("sh") {
      return noun + "es"
    }
    return noun + "s"
  }

  /// `Product` gives `product`.
  static func lowerFirst(_ name: String) -> String {
    guard let first = name.first else { return name }
    return first.lowercased() + name.dropFirst()
  }

  /// `product` gives `Product`; `EUR` gives `Eur`.
  static func upperFirst(_ name: String) -> String {
    guard let first = name.first else { return name }
    let rest = name.dropFirst()
    return first.uppercased() + (rest.allSatisfy { $0.isUppercase || $0.isNumber } ? rest.lowercased() : String(rest))
  }
}

/// Names handed out once each: a taken name gets the next free number (`product2`).
struct NameRegistry {
  private var taken: Set<String> = []

  init(reserved: [String] = []) {
    taken = Set(reserved)
  }

  mutating func claim(_ name: String) -> String {
    if taken.insert(name).inserted { return name }
    var number = 2
    while !taken.insert(name + String(number)).inserted { number += 1 }
    return name + String(number)
  }

  func contains(_ name: String) -> Bool { taken.contains(name) }
}
