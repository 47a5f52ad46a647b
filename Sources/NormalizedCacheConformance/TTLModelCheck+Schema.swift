import GraphQLLanguage
import NormalizedCache

/// The schema, the operations and the responses of ``TTLModelCheck``: a small bookshop with
/// `@cacheControl` on types and fields (maxAge 0, N, none, inheritMaxAge, an interface's), a field
/// policy, lists, and a type of 73 fields (past the compact layout's 64, so its records split).
enum TTLModelSchema {
  static let wideFields = 70
  /// The wide fields with a `@cacheControl` of their own; the others take Wide's 20.
  static let wideMaxAges = [5: 0, 66: 300]

  static let text = """
    type Query { book(id: ID!): Book  books: [Book!]!  shelf: Shelf  featured: Media  wide: Wide }
    interface Media @cacheControl(maxAge: 40) { id: ID!  title: String @cacheControl(maxAge: 45) }
    type Book implements Media @cacheControl(maxAge: 60) {
      id: ID!
      title: String
      price: Int @cacheControl(maxAge: 10)
      stock: Int @cacheControl(maxAge: 0)
      tags: [String]
      author: Author
      publisher: Publisher @cacheControl(inheritMaxAge: true)
    }
    type Film implements Media { id: ID!  title: String  runtime: Int @cacheControl(maxAge: 5) }
    type Author { id: ID!  name: String  books: [Book!] @cacheControl(maxAge: 30) }
    type Publisher @cacheControl(inheritMaxAge: true) { name: String  city: String @cacheControl(maxAge: 15) }
    type Shelf { label: String  books: [Book!]! }
    type Wide @cacheControl(maxAge: 20) {
      id: ID!
      publisher: Publisher
    \((0..<wideFields).map { "  f\($0): Int" + (wideMaxAges[$0].map { " @cacheControl(maxAge: \($0))" } ?? "") }.joined(separator: "\n"))
    }
    extend type Book @typePolicy(keyFields: "id")
    extend type Film @typePolicy(keyFields: "id")
    extend type Author @typePolicy(keyFields: "id")
    extend type Wide @typePolicy(keyFields: "id")
    extend type Query @fieldPolicy(forField: "book", keyArgs: "id")
    """

  /// What a response holds in a field.
  enum Kind {
    case typename, id, string, int, strings
    case object(String, nullable: Bool)
    case objects(String, nullable: Bool)
  }

  /// A field of the schema: its kind, and its `maxAge` worked out by hand from the text above by
  /// docs/ttl.md's rules, not by the code under test: a leaf takes its type's own maxAge, else its
  /// interface's (Book's 60 over Media's 40; Film has only Media's); a field's own directive beats
  /// its type's (price 10), an interface's field's too (Media's title 45 on Book and Film); an
  /// object-typed field takes none (author) unless it inherits, by its own `inheritMaxAge`
  /// (Book.publisher: Book's 60) or its type's (Wide.publisher: Wide's 20); Publisher's own
  /// `inheritMaxAge` gives its leaves nothing; `__typename` is a leaf of its type.
  struct Field {
    let kind: Kind
    let maxAge: Int?
  }

  static let fields: [String: [String: Field]] = [
    "Query": [
      "__typename": Field(kind: .typename, maxAge: nil), "book": Field(kind: .object("Book", nullable: true), maxAge: nil),
      "books": Field(kind: .objects("Book", nullable: false), maxAge: nil),
      "shelf": Field(kind: .object("Shelf", nullable: true), maxAge: nil),
      "featured": Field(kind: .object("Media", nullable: true), maxAge: nil),
      "wide": Field(kind: .object("Wide", nullable: true), maxAge: nil),
    ],
    "Book": [
      "__typename": Field(kind: .typename, maxAge: 60), "id": Field(kind: .id, maxAge: 60), "title": Field(kind: .string, maxAge: 45),
      "price": Field(kind: .int, maxAge: 10), "stock": Field(kind: .int, maxAge: 0), "tags": Field(kind: .strings, maxAge: 60),
      "author": Field(kind: .object("Author", nullable: true), maxAge: nil),
      "publisher": Field(kind: .object("Publisher", nullable: true), maxAge: 60),
    ],
    "Film": [
      "__typename": Field(kind: .typename, maxAge: 40), "id": Field(kind: .id, maxAge: 40), "title": Field(kind: .string, maxAge: 45),
      "runtime": Field(kind: .int, maxAge: 5),
    ],
    "Author": [
      "__typename": Field(kind: .typename, maxAge: nil), "id": Field(kind: .id, maxAge: nil), "name": Field(kind: .string, maxAge: nil),
      "books": Field(kind: .objects("Book", nullable: true), maxAge: 30),
    ],
    "Publisher": [
      "__typename": Field(kind: .typename, maxAge: nil), "name": Field(kind: .string, maxAge: nil),
      "city": Field(kind: .string, maxAge: 15),
    ],
    "Shelf": [
      "__typename": Field(kind: .typename, maxAge: nil), "label": Field(kind: .string, maxAge: nil),
      "books": Field(kind: .objects("Book", nullable: false), maxAge: nil),
    ],
    "Wide": [
      "__typename": Field(kind: .typename, maxAge: 20), "id": Field(kind: .id, maxAge: 20),
      "publisher": Field(kind: .object("Publisher", nullable: true), maxAge: 20),
    ].merging((0..<wideFields).map { ("f\($0)", Field(kind: .int, maxAge: wideMaxAges[$0] ?? 20)) }) { $1 },
  ]

  /// The ids each keyed type's objects take: few, so that operations meet the same records.
  static let ids = ["Book": ["1", "2", "3", "4"], "Film": ["f1", "f2"], "Author": ["a1", "a2", "a3"], "Wide": ["w1", "w2"]]

  /// The types an object of an abstract type can be.
  static let implementations = ["Media": ["Book", "Film"]]

  typealias Selected = ReferenceTTL.Selected

  static func leaf(_ name: String, on type: String? = nil) -> Selected { Selected(name: name, onType: type) }

  static func object(_ name: String, _ type: String, _ children: [Selected], on condition: String? = nil) -> Selected {
    Selected(name: name, onType: condition, type: type, children: [leaf("__typename")] + children)
  }

  static let bookLeaves = ["id", "title", "price", "stock", "tags"].map { leaf($0) }
  static let author = object("author", "Author", [leaf("id"), leaf("name")])
  static let publisher = object("publisher", "Publisher", [leaf("name"), leaf("city")])

  /// The operations, by name, with their whole selections; a write or a read takes a random part.
  /// `book(id:)` takes its id when it is drawn (``Selected/id``).
  static let operations: [(name: String, selection: [Selected])] = [
    ("Book", [object("book", "Book", bookLeaves + [author, publisher])]),
    ("Books", [object("books", "Book", [leaf("id"), leaf("title"), leaf("price"), authorWithBooks])]),
    ("Shelf", [object("shelf", "Shelf", [leaf("label"), object("books", "Book", [leaf("id"), leaf("title"), leaf("stock"), publisher])])]),
    ("Featured", [object("featured", "Media", [leaf("id"), leaf("title")] + featuredByType)]),
    ("Wide", [object("wide", "Wide", [leaf("id"), publisher] + (0..<wideFields).map { leaf("f\($0)") })]),
  ]

  /// An author with their books, a list below a list.
  static let authorWithBooks = object("author", "Author", [leaf("id"), leaf("name"), object("books", "Book", [leaf("id"), leaf("title")])])

  /// What `featured` selects by its runtime type, in inline fragments.
  static let featuredByType = [
    leaf("price", on: "Book"), object("author", "Author", [leaf("id"), leaf("name")], on: "Book"), leaf("runtime", on: "Film"),
  ]
}
