import GraphQLLanguage
import Support

/// A generated workload: a schema with its cache directives, operations, and responses made on
/// demand, all as text and JSON bytes, so a synthetic workload goes through the same parsing and
/// normalizing as a recorded one.
///
/// ```swift
/// let workload = try Generator.make(seed: 42, config: GeneratorConfig())
/// let schema = try Schema(parsing: workload.schemaSources)
/// for response in workload.responses {
///   let operation = workload.operation(named: response.operationName)!
///   let document = try ExecutableDocument(parsing: [operation.source])
///   let plan = try OperationPlan(document: document, operationName: response.operationName,
///                                schema: schema, variables: response.variables)
///   let normalized = try Normalizer(strategy: .typePolicy).normalize(
///     try JSONParser.parse(response.bytes, file: response.fileName), plan: plan)
/// }
/// ```
/// Responses are made one at a time from the seed, so memory holds one response, not the
/// workload; the value is `Sendable` and ``response(at:)`` is pure, so threads may share it.
public struct SyntheticWorkload: Sendable {
  public let seed: UInt64
  public let config: GeneratorConfig
  /// `schema.graphqls`: types, interfaces, unions, enums, inputs and `Query`.
  public let schemaSDL: String
  /// `extensions.graphqls`: `@typePolicy` and `@fieldPolicy` as schema extensions.
  public let extensionsSDL: String
  public let operations: [SyntheticOperation]
  let generation: Generation
  let operationModels: [OperationModel]
  let compiledOperations: [CompiledOperation]
  /// The list and detail operations of `narrowReads`, when set.
  let narrowReads: NarrowReadOperations?

  init(seed: UInt64, config: GeneratorConfig) {
    self.seed = seed
    self.config = config
    var random = SplitMix64(seed: StableHash.combine(seed, StableHash.fnv1a("schema")))
    let schema = SchemaModel(config: config, random: &random)
    generation = Generation(seed: seed, config: config, schema: schema)
    var names = NameRegistry()
    var models: [OperationModel] = []
    if let narrow = config.narrowReads {
      let operations = NarrowReadOperations(schema: schema, config: narrow)
      narrowReads = operations
      models = operations.models(schema: schema, fields: narrow.fields, names: &names)
    } else {
      narrowReads = nil
      for index in 0..<config.operations {
        let operationSeed = StableHash.combine(seed, StableHash.fnv1a("operation"), UInt64(index))
        var builder = OperationBuilder(schema: schema, config: config, random: SplitMix64(seed: operationSeed))
        models.append(builder.build(names: &names))
      }
    }
    operationModels = models
    compiledOperations = models.map { CompiledOperation($0, schema: schema) }
    let header = "Synthetic workload by cachebench, seed \(seed), knobs \(JSONWriter.string(.object(config.json)))"
    schemaSDL = schema.schemaSDL(header: header)
    extensionsSDL = schema.extensionsSDL(header: header, cacheControl: config.cacheControl, seed: seed)
    operations = models.map { model in
      SyntheticOperation(
        name: model.name, documentText: model.documentText(schema: schema),
        fileName: "operations/\(model.name).graphql")
    }
  }

  /// The schema and its extensions, named as ``write(to:name:)`` names the files.
  public var schemaSources: [Source] {
    [Source(name: "schema.graphqls", text: schemaSDL), Source(name: "extensions.graphqls", text: extensionsSDL)]
  }

  public var responseCount: Int { config.responses }

  /// The operation of this name.
  public func operation(named name: String) -> SyntheticOperation? {
    operations.first { $0.name == name }
  }

  /// Which operation response `index` runs: `index % operations.count`, or with `narrowReads` its
  /// type's list or detail, as ``NarrowReadOperations/operationIndex(response:salt:)`` draws.
  public func operationIndex(ofResponse index: Int) -> Int {
    guard let narrowReads else { return index % operationModels.count }
    return narrowReads.operationIndex(response: index, salt: generation.responseSalt)
  }

  /// Response `index`: operation ``operationIndex(ofResponse:)``, its variables, and its JSON.
  ///
  /// The same index gives the same bytes every time, in any order, on any thread.
  /// - Complexity: O(size of the response).
  public func response(at index: Int) -> SyntheticResponse {
    precondition((0..<responseCount).contains(index), "response \(index) out of 0..<\(responseCount)")
    let chosen = operationIndex(ofResponse: index)
    let model = operationModels[chosen]
    let compiled = compiledOperations[chosen]
    var random = SplitMix64(seed: StableHash.combine(generation.responseSalt, UInt64(index)))
    var writer = ResponseWriter(generation: generation, operation: compiled, response: index)
    var entities: [(identity: UInt64, inPool: Bool)?] = []
    for root in compiled.roots {
      guard case .entity(let object) = root.kind else {
        entities.append(nil)
        continue
      }
      entities.append(writer.rootEntity(object, random: &random))
    }
    let variables = self.variables(of: model, response: index, entities: entities)
    writer.writeResponse(entities: entities, random: &random)
    return SyntheticResponse(
      index: index, operationName: model.name, variables: variables, bytes: writer.json.bytes,
      objectCount: writer.objectCount, fileName: Self.responseFileName(index, count: responseCount))
  }

  /// Every response, in order, each made when the iteration reaches it.
  public var responses: LazyMapSequence<Range<Int>, SyntheticResponse> {
    (0..<responseCount).lazy.map { response(at: $0) }
  }

  /// `responses/00042.json`: five digits, more when the count needs them.
  static func responseFileName(_ index: Int, count: Int) -> String {
    let digits = max(5, String(max(0, count - 1)).count)
    let number = String(index)
    return "responses/" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".json"
  }

  private func variables(
    of model: OperationModel, response: Int, entities: [(identity: UInt64, inPool: Bool)?]
  ) -> JSONObject {
    var random = SplitMix64(seed: StableHash.combine(generation.responseSalt, UInt64(response), 0x7A85))
    func word() -> JSONValue {
      let letters = (0..<random.int(in: 4...10)).map { _ in UInt8(ascii: "a") + UInt8(random.int(below: 26)) }
      return .string(String(decoding: letters, as: UTF8.self))
    }
    var variables = JSONObject()
    for variable in model.variables {
      let value: JSONValue
      switch variable.role {
      case .page:
        value = .int(response + 1)
      case .key(let root, let field):
        guard case .entity(let object) = compiledOperations[operationIndex(ofResponse: response)].roots[root].kind,
          let entity = entities[root]
        else { preconditionFailure("variable $\(variable.name) names root \(root), which is not an entity field") }
        value = generation.schema.objects[object].keyFields[field].value(of: entity.identity)
      case .query, .text:
        value = word()
      case .filter:
        value = ["query": word(), "order": .string(random.pick(["ASC", "DESC"]))]
      case .searchInput(let size):
        var input: JSONObject = ["text": word(), "page": .int(response + 1)]
        if let size { input["size"] = .int(size) }
        value = .object(input)
      }
      variables.append(key: variable.name, value: value)
    }
    return variables
  }
}
