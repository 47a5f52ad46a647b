import Generator
import GraphQLLanguage
import Testing

@Suite("generator.cacheControl writes @cacheControl into the schema's extensions")
struct GeneratorCacheControlTests {
  /// Every field of every object type and of `Query`, with the maxAge its schema gives it.
  func maxAges(_ schema: Schema) -> [String: Int?] {
    var result: [String: Int?] = [:]
    for type in schema.types.values where type.kind == .object && type.location != nil {
      for field in type.fields.keys {
        result["\(type.name).\(field)"] = schema.maxAge(ofField: field, on: type.name, operation: nil)
      }
    }
    return result
  }

  @Test("without it, no directive; with it, the responses, operations and schema file are the same")
  func independentStream() throws {
    let plain = try GeneratorTestSupport.make()
    let dated = try GeneratorTestSupport.make { $0.cacheControl = CacheControlConfig() }
    #expect(!plain.extensionsSDL.contains("cacheControl"))
    #expect(try !Schema(parsing: plain.schemaSources).hasCacheControls)
    // The header line records the knobs; the rest is the same.
    #expect(dated.schemaSDL.split(separator: "\n").dropFirst() == plain.schemaSDL.split(separator: "\n").dropFirst())
    #expect(dated.operations.map(\.documentText) == plain.operations.map(\.documentText))
    #expect(Array(dated.responses).map(\.bytes) == Array(plain.responses).map(\.bytes))
  }

  @Test("share 1 gives every type and field a directive; zeroShare 1 makes every maxAge 0")
  func shares() throws {
    let all = try GeneratorTestSupport.make {
      var config = CacheControlConfig()
      config.share = 1
      config.zeroShare = 1
      $0.cacheControl = config
    }
    let schema = try Schema(parsing: all.schemaSources)
    let ages = maxAges(schema)
    // A scalar takes its own 0 or its type's 0; an object field its own 0 or, with inheritMaxAge,
    // its parent type's 0; Query has no type-level directive, so a root field that inherits has none.
    #expect(!ages.isEmpty)
    for (field, age) in ages {
      if field.hasPrefix("Query.") {
        #expect(age == 0 || age == nil, "\(field)")
      } else {
        #expect(age == 0, "\(field)")
      }
    }
    #expect(ages.filter { $0.key.hasPrefix("Query.") }.values.contains(0))
  }

  @Test("share 0 writes no directive; maxAges fall in their range")
  func ranges() throws {
    let none = try GeneratorTestSupport.make {
      var config = CacheControlConfig()
      config.share = 0
      $0.cacheControl = config
    }
    #expect(try !Schema(parsing: none.schemaSources).hasCacheControls)
    let some = try GeneratorTestSupport.make {
      var config = CacheControlConfig()
      config.share = 0.5
      config.zeroShare = 0
      config.maxAge = .init(100, 200)
      $0.cacheControl = config
    }
    let ages = maxAges(try Schema(parsing: some.schemaSources)).values.compactMap { $0 }
    #expect(!ages.isEmpty)
    #expect(ages.allSatisfy { (100...200).contains($0) })
  }

  @Test(
    "its settings are checked by name",
    arguments: [
      (#"{"cacheControl": {"share": 2}}"#, "cacheControl.share must be in 0...1, got 2.0"),
      (#"{"cacheControl": {"maxAge": {"min": -1, "max": 5}}}"#, "cacheControl.maxAge.min must be in 0...2147483647, got -1"),
      (#"{"cacheControl": {"maxAge": {"min": 9, "max": 5}}}"#, "cacheControl.maxAge min 9 must not be greater than max 5"),
      (#"{"cacheControl": {"ttl": 5}}"#, "cacheControl.ttl is not a setting of cacheControl; known: share, maxAge, zeroShare"),
      (
        #"{"cacheControl": 5}"#,
        #"cacheControl must be an object ({"share": 0.5, "maxAge": {"min": 60, "max": 3600}, "zeroShare": 0.02}) or null, not an integer"#
      ),
    ])
  func errors(json: String, message: String) throws {
    guard case .object(let object) = try JSONParser.parse(Array(json.utf8), file: "w.json") else { return }
    let error = #expect(throws: GeneratorConfigError.self) { try GeneratorConfig(json: object) }
    #expect(error?.description == message)
  }
}
