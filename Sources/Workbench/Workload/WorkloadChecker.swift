import GraphQLLanguage
import NormalizedCache

/// The deeper checks of `cachebench validate`: for a recorded workload, that every file it names
/// exists, parses and fits its operation; for a generator, that every sweep point is in range.
public enum WorkloadChecker {
  /// - Throws: ``WorkloadError`` naming the key whose file is missing (exit 66) or does not fit
  ///   (65); ``GraphQLError`` with the line and column in a file that does not parse.
  public static func check(_ workload: Workload) throws {
    _ = try workload.variants
    guard case .recorded(let recorded) = workload.source else { return }
    func wrap<T>(_ keyPath: String, _ body: () throws -> T) throws -> T {
      do {
        return try body()
      } catch let error as InputError {
        throw WorkloadError(file: workload.file, location: nil, keyPath: keyPath, message: error.description, exitCode: 66)
      }
    }
    var schemaSources: [Source] = []
    for (index, path) in recorded.schema.enumerated() {
      schemaSources.append(try wrap("recorded.schema[\(index)]") { try InputFile.source(path) })
    }
    let schema = try Schema(parsing: schemaSources)
    for (index, operation) in recorded.operations.enumerated() {
      let keyPath = "recorded.operations[\(index)]"
      let documents = try wrap(keyPath + ".document") { try operation.documents.map(InputFile.source) }
      let document = try ExecutableDocument(parsing: documents)
      let response = try wrap(keyPath + ".response") { try InputFile.json(operation.response) }
      do {
        let plan = try OperationPlan(document: document, operationName: operation.operationName, schema: schema, variables: operation.variables)
        _ = try Normalizer(strategy: .path).normalize(response, plan: plan)
      } catch let error as NormalizationError {
        throw WorkloadError(file: workload.file, location: nil, keyPath: keyPath, message: "\(operation.response): \(error)")
      }
    }
  }
}
