import Generator
import GraphQLLanguage
import Testing

@Suite("Generator knobs: ranges and workload JSON")
struct GeneratorConfigTests {
  @Test("the defaults are valid")
  func defaultsAreValid() throws {
    try GeneratorConfig().validate()
  }

  static let outOfRange: [(knob: String, change: @Sendable (inout GeneratorConfig) -> Void, message: String)] = [
    ("responses", { $0.responses = 0 }, "responses must be in 1...2147483647, got 0"),
    ("operations", { $0.operations = 0 }, "operations must be in 1...10000, got 0"),
    ("depth", { $0.depth = 33 }, "depth must be in 1...32, got 33"),
    ("fanOut", { $0.fanOut = 0 }, "fanOut must be in 1...16, got 0"),
    ("listLength.min", { $0.listLength = .init(-1, 3) }, "listLength.min must be in 0...10000, got -1"),
    ("listLength", { $0.listLength = .init(5, 2) }, "listLength min 5 must not be greater than max 2"),
    ("listShare", { $0.listShare = -0.1 }, "listShare must be in 0...1, got -0.1"),
    ("types", { $0.types = 0 }, "types must be in 1...10000, got 0"),
    ("fieldsPerType", { $0.fieldsPerType = 0 }, "fieldsPerType must be in 1...500, got 0"),
    ("poolSize", { $0.poolSize = 0 }, "poolSize must be in 1...10000000, got 0"),
    ("duplication", { $0.duplication = 1.5 }, "duplication must be in 0...1, got 1.5"),
    ("zipf", { $0.zipf = -1 }, "zipf must be in 0...100, got -1.0"),
    ("zipf", { $0.zipf = .nan }, "zipf must be in 0...100, got nan"),
    ("keyedShare", { $0.keyedShare = 2 }, "keyedShare must be in 0...1, got 2.0"),
    ("compositeKeyShare", { $0.compositeKeyShare = -1 }, "compositeKeyShare must be in 0...1, got -1.0"),
    ("interfaces", { $0.interfaces = -1 }, "interfaces must be in 0...1000, got -1"),
    ("unions", { $0.unions = 1001 }, "unions must be in 0...1000, got 1001"),
    (
      "stringLength.max", { $0.stringLength = .init(0, 2_000_000) },
      "stringLength.max must be in 0...1000000, got 2000000"
    ),
  ]

  @Test("validate() rejects a knob out of range, naming it", arguments: 0..<outOfRange.count)
  func rejectsOutOfRange(_ index: Int) {
    var config = GeneratorConfig()
    Self.outOfRange[index].change(&config)
    #expect(throws: GeneratorConfigError.self) { try config.validate() }
    do {
      try config.validate()
    } catch {
      #expect(error.problems.map(\.knob) == [Self.outOfRange[index].knob])
      #expect(error.description == Self.outOfRange[index].message)
    }
  }

  @Test("validate() lists every knob out of range; make refuses them")
  func listsEveryProblem() {
    var config = GeneratorConfig()
    config.depth = 0
    config.duplication = 2
    do {
      _ = try Generator.make(seed: 1, config: config)
      Issue.record("make accepted depth 0 and duplication 2")
    } catch {
      #expect(error.description == "depth must be in 1...32, got 0; duplication must be in 0...1, got 2.0")
    }
  }

  @Test("a generator section reads knobs by name and keeps the defaults of the others")
  func readsJSON() throws {
    let json = try JSONParser.parse(
      #"{"responses": 3, "duplication": 0.25, "listLength": {"min": 1, "max": 4}, "stringLength": 7}"#)
    let config = try GeneratorConfig(json: json.objectValue!)
    var expected = GeneratorConfig()
    expected.responses = 3
    expected.duplication = 0.25
    expected.listLength = .init(1, 4)
    expected.stringLength = .init(7, 7)
    #expect(config == expected)
    #expect(try GeneratorConfig(json: GeneratorConfig().json) == GeneratorConfig())
    // cacheControl and narrowReads are written only when set, so that a workload without them
    // records what it did before.
    let optional: Set = ["cacheControl", "narrowReads"]
    #expect(GeneratorConfig().json.keys == GeneratorConfig.Knob.allCases.map(\.rawValue).filter { !optional.contains($0) })
    var dated = GeneratorConfig()
    dated.cacheControl = CacheControlConfig()
    dated.narrowReads = NarrowReadsConfig()
    // With narrowReads, its `of` is the fields per type: fieldsPerType is left out.
    #expect(dated.json.keys == GeneratorConfig.Knob.allCases.map(\.rawValue).filter { $0 != "fieldsPerType" })
    #expect(try GeneratorConfig(json: dated.json) == dated)
  }

  @Test("a generator section names unknown knobs, values of the wrong kind and values out of range")
  func rejectsBadJSON() throws {
    let json = try JSONParser.parse(#"{"colour": 1, "depth": "deep", "listLength": {"min": 1}}"#).objectValue!
    #expect(throws: GeneratorConfigError.self) { try GeneratorConfig(json: json) }
    do {
      _ = try GeneratorConfig(json: json)
    } catch {
      #expect(error.problems.map(\.knob) == ["colour", "depth", "listLength.max"])
      #expect(error.problems[1].description == "depth must be an integer, not a string")
    }
    do {
      _ = try GeneratorConfig(json: ["duplication": 3])
      Issue.record("accepted duplication 3")
    } catch {
      #expect(error.description == "duplication must be in 0...1, got 3.0")
    }
  }

  @Test("a sweep sets one knob by name")
  func setsOneKnob() throws {
    var config = GeneratorConfig()
    try config.set(.duplication, to: 0.9)
    try config.set(.zipf, to: 2)
    #expect(config.duplication == 0.9)
    #expect(config.zipf == 2)
  }
}
