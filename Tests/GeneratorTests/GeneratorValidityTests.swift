import Generator
import GraphQLLanguage
import NormalizedCache
import Testing

@Suite("Generated workloads parse, validate and normalize")
struct GeneratorValidityTests {
  /// Seeds and knob sets that between them reach every feature: many types, composite keys only,
  /// no keys, no abstract types, deep and wide, all reuse.
  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let seed: UInt64
    let config: GeneratorConfig

    init(_ name: String, seed: UInt64, _ change: (inout GeneratorConfig) -> Void = { _ in }) {
      testDescription = name
      self.seed = seed
      var config = GeneratorTestSupport.smallConfig()
      change(&config)
      self.config = config
    }

    func make() throws -> SyntheticWorkload { try Generator.make(seed: seed, config: config) }
  }

  static let cases: [Case] = [
    Case("small", seed: 1),
    Case("many types, interfaces and unions", seed: 2) {
      $0.types = 40
      $0.interfaces = 6
      $0.unions = 4
      $0.operations = 10
    },
    Case("composite keys only", seed: 3) {
      $0.compositeKeyShare = 1
      $0.interfaces = 3
    },
    Case("no keys", seed: 4) {
      $0.keyedShare = 0
      $0.duplication = 0.9
    },
    Case("one type, no abstract types", seed: 5) {
      $0.interfaces = 0
      $0.unions = 0
      $0.types = 1
    },
    Case("deep, narrow, empty lists, many fields", seed: 6) {
      $0.depth = 5
      $0.fanOut = 1
      $0.listLength = .init(0, 2)
      $0.fieldsPerType = 60
    },
    Case("everything reused from tiny pools", seed: 7) {
      $0.duplication = 1
      $0.poolSize = 2
      $0.zipf = 3
    },
  ]

  @Test(
    "the schema and extensions parse, and every operation parses and is valid against the schema",
    arguments: cases)
  func operationsAreValid(_ testCase: Case) throws {
    let workload = try testCase.make()
    let schema = try Schema(parsing: workload.schemaSources)
    for operation in workload.operations {
      let document = try ExecutableDocument(parsing: [operation.source])
      #expect(document.operations.count == 1)
      #expect(document.operations.first?.name == operation.name)
      #expect(OperationValidator.problems(schema: schema, document: document) == [], "\(operation.name)")
    }
  }

  @Test("every response parses and holds exactly what its operation selects", arguments: cases)
  func responsesMatchSelections(_ testCase: Case) throws {
    let workload = try testCase.make()
    let schema = try Schema(parsing: workload.schemaSources)
    for response in workload.responses {
      let document = try ExecutableDocument(parsing: [workload.operation(named: response.operationName)!.source])
      let json = try JSONParser.parse(response.bytes, file: response.fileName)
      let data = try #require(json.objectValue?["data"]?.objectValue)
      let problems = ResponseShapeChecker.problems(
        schema: schema, document: document, operationName: response.operationName, data: data)
      #expect(problems == [], "\(response.fileName)")
    }
  }

  @Test(
    "every response normalizes under path, typePolicy and programmatic keys, counting the objects written",
    arguments: cases)
  func responsesNormalize(_ testCase: Case) throws {
    let workload = try testCase.make()
    let strategies: [KeyStrategy] = [.path, .typePolicy, .programmatic(BuiltInResolvers.id)]
    for strategy in strategies {
      let written = try GeneratorTestSupport.write(workload, strategy: strategy) { response, normalized, _ in
        #expect(normalized.objectCount == response.objectCount)
      }
      #expect(written.objects == workload.responses.reduce(0) { $0 + $1.objectCount })
      #expect(written.records > 0)
    }
  }

  @Test("a field policy key built from an entity field's variables is the key of the record written")
  func fieldPoliciesHitRecords() throws {
    let workload = try GeneratorTestSupport.make(seed: 9) {
      $0.operations = 12
      $0.responses = 24
    }
    let schema = try Schema(parsing: workload.schemaSources)
    var checked = 0
    _ = try GeneratorTestSupport.write(workload, strategy: .typePolicy) { response, normalized, _ in
      let document = try ExecutableDocument(parsing: [workload.operation(named: response.operationName)!.source])
      for case .field(let field) in try document.operation(named: response.operationName).selectionSet {
        guard let policy = schema.fieldPolicy(forField: field.name, on: "Query"),
          let returnType = schema.field(field.name, on: "Query")?.type.namedType
        else { continue }
        let id = policy.keyArgs.map { path -> String in
          let argument = field.arguments.first { $0.name == path[0] }!
          guard case .variable(let name) = argument.value, let value = response.variables[name] else { return "?" }
          return FieldKey.render(json: value)
        }.joined(separator: "+")
        #expect(normalized.records["\(returnType):\(id)"] != nil, "\(response.fileName): \(returnType):\(id)")
        checked += 1
      }
    }
    #expect(checked > 0)
  }

  @Test("an entity that recurs has the same values for the fields it had, so a merge only adds fields")
  func reusedEntitiesAreConsistent() throws {
    let workload = try GeneratorTestSupport.make(seed: 11) {
      $0.duplication = 0.9
      $0.poolSize = 4
      $0.responses = 24
    }
    var recurring = 0
    _ = try GeneratorTestSupport.write(workload, strategy: .typePolicy) { _, normalized, cache in
      let stored = cache.loadRecords(forKeys: normalized.records.keys)
      for record in normalized.records where record.key != RootKey.query {
        guard let old = stored[record.key] else { continue }
        recurring += 1
        for (field, value) in record.fields where old.hasField(field) {
          #expect(old[field] == value, "\(record.key).\(field)")
        }
      }
    }
    #expect(recurring > 0)
  }
}
