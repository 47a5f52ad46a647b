import GraphQLLanguage
import Testing

@testable import NormalizedCache

/// The worked examples of `002_250868d68580997f.txt` (Apollo iOS, "Client-side caching").
///
/// The seed's responses carry no `__typename`; the schema its queries imply lets the normalizer
/// infer each object's type from its field, which the `Book:bk123` examples need.
@Suite("Seed 002: normalizing responses, path keys and cache keys")
struct SeedNormalizedCacheDocumentTests {
  static let schemaText = """
    type Query { favoriteBook: Book  bestFriend: Person }
    type Person { favoriteBook: Book }
    type Book { id: ID!  title: String  author: Author  yearPublished: Int  genre: String }
    type Author { id: ID!  name: String }
    """

  static let getFavoriteBook = """
    query GetFavoriteBook {
      favoriteBook { # Book object
        id
        title
        author {     # Author object
          id
          name
        }
      }
    }
    """
  // The response as the seed gives it. Its listing below prints the title "Les guerriers du
  // silence" with a lower-case g: a typo of the document; the cache stores what the response says.
  static let getFavoriteBookResponse = """
    {
      "favoriteBook": {
        "id": "bk123",
        "title": "Les Guerriers du silence",
        "author": {
          "id": "au456",
          "name": "Pierre Bordage"
        }
      }
    }
    """
  static let favoriteBookYear = "query FavoriteBookYear { favoriteBook { id yearPublished } }"
  static let favoriteBookYearResponse = #"{ "favoriteBook": { "id": "bk123", "yearPublished": 1993 } }"#
  static let bestFriendsFavoriteBook = """
    query BestFriendsFavoriteBook {
      bestFriend {
        favoriteBook { # Book object
          id
          title
          genre
        }
      }
    }
    """
  // The seed's response lacks a ":" after "bestFriend" (invalid JSON); fixed here.
  static let bestFriendsFavoriteBookResponse = """
    {
      "bestFriend": {
        "favoriteBook": {
          "id": "bk123",
          "title": "Les guerriers du silence",
          "genre": "SCIENCE_FICTION"
        }
      }
    }
    """

  @Test("path keys and references: GetFavoriteBook is stored under QUERY_ROOT.favoriteBook and its author")
  func pathKeysAndReferences() throws {
    let records = try normalize(Self.getFavoriteBook, Self.getFavoriteBookResponse)
    #expect(
      RecordListing.entries.render(records) == """
        "QUERY_ROOT": {
          "favoriteBook": "-> #QUERY_ROOT.favoriteBook"
        }

        "QUERY_ROOT.favoriteBook": {
          "id": "bk123",
          "title": "Les Guerriers du silence",
          "author": "-> #QUERY_ROOT.favoriteBook.author"
        }

        "QUERY_ROOT.favoriteBook.author": {
          "id": "au456",
          "name": "Pierre Bordage"
        }

        """)
    #expect(records["QUERY_ROOT"]?["favoriteBook"] == .reference("QUERY_ROOT.favoriteBook"))
  }

  @Test("merging a second query's fields: FavoriteBookYear adds yearPublished to QUERY_ROOT.favoriteBook")
  func mergingSecondQuery() throws {
    var cache = try normalize(Self.getFavoriteBook, Self.getFavoriteBookResponse)
    let changed = cache.merge(records: try normalize(Self.favoriteBookYear, Self.favoriteBookYearResponse))
    // id is unchanged and QUERY_ROOT.favoriteBook still points to the same record: only the new field changed.
    #expect(Set(changed) == ["QUERY_ROOT.favoriteBook.yearPublished"])
    #expect(
      RecordListing.entries.render(RecordSet(records: [cache["QUERY_ROOT.favoriteBook"]!])) == """
        "QUERY_ROOT.favoriteBook": {
          "id": "bk123",
          "title": "Les Guerriers du silence",
          "author": "-> #QUERY_ROOT.favoriteBook.author",
          "yearPublished": 1993
        }

        """)
  }

  @Test("by path alone, the same book fetched through bestFriend is stored twice")
  func pathKeysDuplicate() throws {
    var cache = try normalize(Self.getFavoriteBook, Self.getFavoriteBookResponse)
    cache.merge(records: try normalize(Self.favoriteBookYear, Self.favoriteBookYearResponse))
    cache.merge(records: try normalize(Self.bestFriendsFavoriteBook, Self.bestFriendsFavoriteBookResponse))
    #expect(
      cache["QUERY_ROOT.bestFriend"]
        == Record(key: "QUERY_ROOT.bestFriend", ["favoriteBook": .reference("QUERY_ROOT.bestFriend.favoriteBook")]))
    #expect(
      cache["QUERY_ROOT.bestFriend.favoriteBook"]
        == Record(
          key: "QUERY_ROOT.bestFriend.favoriteBook",
          ["id": "bk123", "title": "Les guerriers du silence", "genre": "SCIENCE_FICTION"]))
    #expect(cache["QUERY_ROOT.favoriteBook"]?["genre"] == nil)
    #expect(cache.count == 5)
  }

  /// The seed's listing shows "BOOK:bk123" (a typo: the key is `Book:bk123`) and keeps
  /// `"author": "-> #QUERY_ROOT.favoriteBook.author"`, written before the key was configured. With
  /// the key configured from the start, the author's path restarts below the book: `Book:bk123.author`
  /// (docs/keys.md#two-details-of-the-seeds).
  @Test(
    "Book:bk123 shared by two paths, keyed by a programmatic id rule or by @typePolicy",
    arguments: ["programmatic", "typePolicy"])
  func bookSharedByTwoPaths(configuration: String) throws {
    let schema: Schema
    let strategy: KeyStrategy
    if configuration == "programmatic" {
      // The seed's SchemaConfiguration: `case Book: return try? CacheKeyInfo(jsonValue: object["id"])`.
      schema = try makeSchema(Self.schemaText)
      strategy = try resolver { type, object in
        type.name == "Book" ? try? CacheKeyInfo(jsonValue: object["id"]) : nil
      }
    } else {
      schema = try makeSchema(Self.schemaText, #"extend type Book @typePolicy(keyFields: "id")"#)
      strategy = .typePolicy
    }
    func normalized(_ operation: String, _ response: String) throws -> RecordSet {
      try normalize(operation, response, schema: schema, strategy: strategy)
    }
    var cache = try normalized(Self.getFavoriteBook, Self.getFavoriteBookResponse)
    cache.merge(records: try normalized(Self.favoriteBookYear, Self.favoriteBookYearResponse))
    let changed = cache.merge(records: try normalized(Self.bestFriendsFavoriteBook, Self.bestFriendsFavoriteBookResponse))
    #expect(
      RecordListing.entries.render(cache) == """
        "QUERY_ROOT": {
          "favoriteBook": "-> #Book:bk123",
          "bestFriend": "-> #QUERY_ROOT.bestFriend"
        }

        "Book:bk123": {
          "id": "bk123",
          "title": "Les guerriers du silence",
          "author": "-> #Book:bk123.author",
          "yearPublished": 1993,
          "genre": "SCIENCE_FICTION"
        }

        "Book:bk123.author": {
          "id": "au456",
          "name": "Pierre Bordage"
        }

        "QUERY_ROOT.bestFriend": {
          "favoriteBook": "-> #Book:bk123"
        }

        """)
    // The third response changed the title's case, added the genre and the bestFriend entries.
    #expect(
      Set(changed) == [
        "QUERY_ROOT.bestFriend", "QUERY_ROOT.bestFriend.favoriteBook", "Book:bk123.title", "Book:bk123.genre",
      ])
  }

  @Test("the cache key format: the group is __typename when no uniqueKeyGroup is given")
  func typenameGroup() throws {
    #expect(CacheKeyInfo(id: "bk123").cacheKey(typename: "Book") == "Book:bk123")
  }
}
