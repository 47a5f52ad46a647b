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

  /// A field of the schema: its kind, and the `@cacheControl` that applies to it, read by hand from
  /// the text above, not by the code under test: its own (price 10), else its interface's
  /// field's (Media's title 45 on Book and Film), else none; `inheritMaxAge` as `.inherit`
  /// (Book.publisher). ``ReferenceTTL`` applies docs/ttl.md's rules to these.
  struct Field {
    let kind: Kind
    let directive: ReferenceTTL.Hint
  }

  /// Each type's `@cacheControl`, by hand: its own, else its interface's (Film has Media's 40).
  static let types: [String: ReferenceTTL.Hint] = [
    "Query": .none, "Media": .maxAge(40), "Book": .maxAge(60), "Film": .maxAge(40), "Author": .none, "Publisher": .inherit,
    "Shelf": .none, "Wide": .maxAge(20),
  ]

  static let fields: [String: [String: Field]] = [
    "Query": [
      "__typename": Field(kind: .typename, directive: .none), "book": Field(kind: .object("Book", nullable: true), directive: .none),
      "books": Field(kind: .objects("Book", nullable: false), directive: .none),
      "shelf": Field(kind: .object("Shelf", nullable: true), directive: .none),
      "featured": Field(kind: .object("Media", nullable: true), directive: .none),
      "wide": Field(kind: .object("Wide", nullable: true), directive: .none),
    ],
    "Book": [
      "__typename": Field(kind: .typename, directive: .none), "id": Field(kind: .id, directive: .none),
      "title": Field(kind: .string, directive: .maxAge(45)), "price": Field(kind: .int, directive: .maxAge(10)),
      "stock": Field(kind: .int, directive: .maxAge(0)), "tags": Field(kind: .strings, directive: .none),
      "author": Field(kind: .object("Author", nullable: true), directive: .none),
      "publisher": Field(kind: .object("Publisher", nullable: true), directive: .inherit),
    ],
    "Film": [
      "__typename": Field(kind: .typename, directive: .none), "id": Field(kind: .id, directive: .none),
      "title": Field(kind: .string, directive: .maxAge(45)), "runtime": Field(kind: .int, directive: .maxAge(5)),
    ],
    "Author": [
      "__typename": Field(kind: .typename, directive: .none), "id": Field(kind: .id, directive: .none),
      "name": Field(kind: .string, directive: .none), "books": Field(kind: .objects("Book", nullable: true), directive: .maxAge(30)),
    ],
    "Publisher": [
      "__typename": Field(kind: .typename, directive: .none), "name": Field(kind: .string, directive: .none),
      "city": Field(kind: .string, directive: .maxAge(15)),
    ],
    "Shelf": [
      "__typename": Field(kind: .typename, directive: .none), "label": Field(kind: .string, directive: .none),
      "books": Field(kind: .objects("Book", nullable: false), directive: .none),
    ],
    "Wide": [
      "__typename": Field(kind: .typename, directive: .none), "id": Field(kind: .id, directive: .none),
      "publisher": Field(kind: .object("Publisher", nullable: true), directive: .none),
    ].merging((0..<wideFields).map { ("f\($0)", Field(kind: .int, directive: wideMaxAges[$0].map { .maxAge($0) } ?? .none)) }) { $1 },
  ]

  /// The `@cacheControl`s of the schema, for ``ReferenceTTL/read(_:rootKey:rootType:at:ttl:policies:controls:)``.
  static let controls = ReferenceTTL.Controls(
    field: { fields[$0]?[$1]?.directive ?? .none }, type: { types[$0] ?? .none })

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
    (
      "Shelf", [object("shelf", "Shelf", [leaf("label"), object("books", "Book", [leaf("id"), leaf("title"), leaf("stock"), publisher])])]
    ),
    ("Featured", [object("featured", "Media", [leaf("id"), leaf("title")] + featuredByType)]),
    ("Wide", [object("wide", "Wide", [leaf("id"), publisher] + (0..<wideFields).map { leaf("f\($0)") })]),
  ]

  /// An author with their books, a list below a list.
  static let authorWithBooks = object(
    "author", "Author", [leaf("id"), leaf("name"), object("books", "Book", [leaf("id"), leaf("title")])])

  /// What `featured` selects by its runtime type, in inline fragments.
  static let featuredByType = [
    leaf("price", on: "Book"), object("author", "Author", [leaf("id"), leaf("name")], on: "Book"), leaf("runtime", on: "Film"),
  ]
}
