import Foundation
import GraphQLLanguage
import Testing

@testable import Generator

/// `generator.narrowReads` (issue 39 item 3): list screens reading `fields` of a keyed type's `of`
/// fields beside detail screens reading them all, over the same entities.
@Suite("Narrow reads beside whole ones")
struct GeneratorNarrowReadsTests {
  static func make(fields: Int = 3, of: Int = 12, share: Double = 0.5, responses: Int = 40) throws -> SyntheticWorkload {
    try GeneratorTestSupport.make {
      $0.responses = responses
      $0.fieldsPerType = of
      $0.narrowReads = NarrowReadsConfig(fields: fields, share: share)
    }
  }

  /// The scalar fields (not `__typename`, not a key field) an operation's root field selects.
  static func scalars(_ model: OperationModel) -> [String] {
    model.rootFields[0].selections.compactMap {
      if case .scalar(let scalar) = $0 { return scalar.field.name }
      return nil
    }
  }

  @Test("each keyed type has a list selecting k of its n fields and a detail selecting all n", arguments: [1, 3, 12])
  func selections(fields: Int) throws {
    let workload = try Self.make(fields: fields)
    let schema = workload.generation.schema
    let keyed = schema.objects.indices.filter { schema.objects[$0].isKeyed }
    #expect(keyed.count == 8)
    #expect(workload.operations.count == 2 * keyed.count)
    for (position, object) in keyed.enumerated() {
      let type = schema.objects[object]
      #expect(type.scalarFields.count == 12)
      let list = workload.operationModels[2 * position]
      let detail = workload.operationModels[2 * position + 1]
      #expect(list.name == type.name + "ListQuery")
      #expect(detail.name == type.name + "DetailQuery")
      #expect(list.variables.isEmpty)
      #expect(list.documentText(schema: schema).contains("(page: 1) {"))
      #expect(Self.scalars(list) == type.scalarFields.prefix(fields).map(\.name))
      #expect(Self.scalars(detail) == type.scalarFields.map(\.name))
    }
  }

  @Test("a narrow response's objects hold its k fields, a whole one's all n, besides __typename and the key")
  func responses() throws {
    let workload = try Self.make(fields: 3, of: 12)
    let schema = workload.generation.schema
    var narrow = 0
    var whole = 0
    for response in workload.responses {
      let operation = workload.operationIndex(ofResponse: response.index)
      guard case .object(let data)? = try JSONParser.parse(response.bytes).objectValue?["data"],
        let value = data.members.first?.value
      else {
        Issue.record("response \(response.index) has no data")
        continue
      }
      let objects = value.arrayValue?.compactMap(\.objectValue) ?? [value.objectValue].compactMap { $0 }
      for object in objects {
        guard case .string(let typename)? = object["__typename"] else {
          Issue.record("response \(response.index): an object without __typename")
          continue
        }
        let type = try #require(schema.objects.first { $0.name == typename })
        let expected = 1 + type.keyFields.count + (NarrowReadOperations.isNarrow(operation: operation) ? 3 : 12)
        #expect(object.count == expected, "response \(response.index)")
      }
      if NarrowReadOperations.isNarrow(operation: operation) { narrow += objects.count } else { whole += objects.count }
    }
    #expect(narrow > 0 && whole > 0)
  }

  @Test("response i reads keyed type i mod T; a share of them narrowly, drawn from the seed")
  func share() throws {
    let workload = try Self.make(share: 0.3, responses: 2_000)
    let types = workload.operations.count / 2
    var narrow = 0
    for index in 0..<workload.responseCount {
      let operation = workload.operationIndex(ofResponse: index)
      #expect(operation / 2 == index % types)
      if NarrowReadOperations.isNarrow(operation: operation) { narrow += 1 }
    }
    // 2,000 draws of p = 0.3: mean 600, standard deviation 20.5.
    #expect((540...660).contains(narrow), "\(narrow) narrow of 2000")
    let again = try Self.make(share: 0.3, responses: 2_000)
    #expect((0..<2_000).map(again.operationIndex(ofResponse:)) == (0..<2_000).map(workload.operationIndex(ofResponse:)))
    let none = try Self.make(share: 0, responses: 100)
    #expect((0..<100).allSatisfy { !NarrowReadOperations.isNarrow(operation: none.operationIndex(ofResponse: $0)) })
    let all = try Self.make(share: 1, responses: 100)
    #expect((0..<100).allSatisfy { NarrowReadOperations.isNarrow(operation: all.operationIndex(ofResponse: $0)) })
  }

  @Test("list and detail reads meet on the same pool entities")
  func sameEntities() throws {
    let workload = try GeneratorTestSupport.make {
      $0.responses = 200
      $0.duplication = 1
      $0.poolSize = 4
      $0.fieldsPerType = 10
      $0.narrowReads = NarrowReadsConfig(fields: 2, share: 0.5)
    }
    var listed: Set<String> = []
    var detailed: Set<String> = []
    for response in workload.responses {
      let text = String(decoding: response.bytes, as: UTF8.self)
      let keys = Set(text.matches(of: #/"id":"([0-9a-f-]+)"/#).map { String($0.output.1) })
      if NarrowReadOperations.isNarrow(operation: workload.operationIndex(ofResponse: response.index)) {
        listed.formUnion(keys)
      } else {
        detailed.formUnion(keys)
      }
    }
    #expect(!listed.isEmpty)
    #expect(listed.intersection(detailed).count > listed.count / 2, "\(listed.intersection(detailed).count) of \(listed.count)")
  }

  /// FNV-1a, 64 bits, over everything the generator makes.
  static func fingerprint(_ workload: SyntheticWorkload) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ bytes: some Sequence<UInt8>) {
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    add(workload.schemaSDL.utf8)
    add(workload.extensionsSDL.utf8)
    for response in workload.responses {
      add(workload.operations[workload.operationIndex(ofResponse: response.index)].documentText.utf8)
      add(response.bytes)
    }
    return hash
  }

  @Test("without the knob, the gate's workload is made byte for byte as before it existed")
  func defaultsUnchanged() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let file = try JSONParser.parse(try Array(Data(contentsOf: root.appendingPathComponent("Workloads/gate.json"))))
    let config = try GeneratorConfig(json: try #require(file.objectValue?["generator"]?.objectValue))
    #expect(config.narrowReads == nil)
    let workload = try Generator.make(seed: 7, config: config)
    #expect(workload.operations.count == config.operations)
    #expect((0..<workload.responseCount).map(workload.operationIndex(ofResponse:)) == (0..<8).map { $0 % 4 })
    // FNV-1a of schema.graphqls, extensions.graphqls, then each response's operation file and
    // response (its final line end dropped), as `cachebench generate Workloads/gate.json` wrote them
    // at 4a95ccc, before the knob: computed from those files by a Python script.
    #expect(Self.fingerprint(workload) == 0xf337_668d_35cc_60ba)
  }

  @Test(
    "bad narrowReads settings are rejected, naming the setting",
    arguments: [
      (#"{"narrowReads": {"fields": 0, "of": 40}}"#, "narrowReads.fields must be in 1...40 (narrowReads.of), got 0"),
      (#"{"narrowReads": {"fields": 41, "of": 40}}"#, "narrowReads.fields must be in 1...40 (narrowReads.of), got 41"),
      (#"{"narrowReads": {"of": 501}}"#, "narrowReads.of must be in 1...500, got 501"),
      (#"{"narrowReads": {"share": 1.5}}"#, "narrowReads.share must be in 0...1, got 1.5"),
      (#"{"narrowReads": {"feilds": 3}}"#, "narrowReads.feilds is not a setting of narrowReads; known: fields, of, share"),
      (#"{"narrowReads": {"fields": "3"}}"#, "narrowReads.fields must be an integer, not a string"),
      (
        #"{"narrowReads": 3}"#,
        #"narrowReads must be an object ({"fields": 3, "of": 40, "share": 0.5}) or null, not an integer"#
      ),
      (
        #"{"fieldsPerType": 10, "narrowReads": {"of": 40}}"#,
        "fieldsPerType is 10, but narrowReads.of sets the fields per type (40); leave fieldsPerType out"
      ),
      // Written out at the default (6), as any other number: one count given as two.
      (
        #"{"narrowReads": {"of": 40}, "fieldsPerType": 6}"#,
        "fieldsPerType is 6, but narrowReads.of sets the fields per type (40); leave fieldsPerType out"
      ),
      // With narrow reads, the count is checked as their `of`, however the file spells it.
      (#"{"fieldsPerType": 501, "narrowReads": {}}"#, "narrowReads.of must be in 1...500, got 501"),
      (
        #"{"keyedShare": 0, "narrowReads": {}}"#,
        "narrowReads needs a keyed type to read by list and by detail; keyedShare 0.0 of 16 types keys none"
      ),
    ])
  func rejects(json: String, message: String) throws {
    let object = try #require(try JSONParser.parse(json).objectValue)
    do {
      _ = try GeneratorConfig(json: object)
      Issue.record("accepted \(json)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("fieldsPerType and narrowReads.of are one count: either spelling sets it, both agreeing is accepted, 40 without either")
  func fieldsPerTypeIsOf() throws {
    func config(_ text: String) throws -> GeneratorConfig {
      try GeneratorConfig(json: try #require(try JSONParser.parse(text).objectValue))
    }
    #expect(try config(#"{"fieldsPerType": 6, "narrowReads": {"of": 6, "fields": 2}}"#).fieldsPerType == 6)
    #expect(try config(#"{"narrowReads": {"of": 12}}"#).fieldsPerType == 12)
    #expect(try config(#"{"fieldsPerType": 12, "narrowReads": {}}"#).fieldsPerType == 12)
    #expect(try config(#"{"narrowReads": {}}"#).fieldsPerType == NarrowReadsConfig.defaultFieldsPerType)
    #expect(try config(#"{"narrowReads": null}"#).fieldsPerType == 6)
    // Written out with narrow reads, the count is their `of`, and fieldsPerType is not written.
    let written = try config(#"{"fieldsPerType": 12, "narrowReads": {"fields": 2}}"#).json
    #expect(written["fieldsPerType"] == nil)
    #expect(written["narrowReads"] == ["fields": 2, "of": 12, "share": 0.5])
  }

  @Test("a narrowReads section reads back as written; null and absence are the same: off")
  func json() throws {
    let config = try GeneratorConfig(json: try #require(try JSONParser.parse(#"{"narrowReads": {"fields": 1}}"#).objectValue))
    #expect(config.narrowReads == NarrowReadsConfig(fields: 1, share: 0.5))
    #expect(config.fieldsPerType == 40)
    #expect(try GeneratorConfig(json: config.json) == config)
    #expect(try GeneratorConfig(json: ["narrowReads": .null]) == GeneratorConfig())
  }
}
