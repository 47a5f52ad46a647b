import Generator
import GraphQLLanguage
import NormalizedCache
import Results

/// The deeper checks of `cachebench validate`: for a recorded workload, that every file it names
/// exists, parses and fits its operation; for a generator, that every sweep point is in range.
public enum WorkloadChecker {
  /// - Throws: ``WorkloadError`` naming the key whose file is missing (exit 66) or does not fit
  ///   (65); ``GraphQLError`` with the line and column in a file that does not parse.
  /// - Parameter allowLarge: run generator settings past ``GeneratorConfig/largeLimits`` anyway.
  public static func check(_ workload: Workload, allowLarge: Bool = false) throws {
    let variants = try workload.variants
    if !allowLarge {
      for variant in variants {
        guard case .generator(let config) = variant.source, let problem = config.tooLarge else { continue }
        throw WorkloadError(
          file: workload.file, location: nil, keyPath: variant.name.isEmpty ? "generator" : "sweep (\(variant.name))",
          message: "\(problem): pass --allow-large to run it anyway")
      }
    }
    guard case .recorded(let recorded) = workload.source else { return }
    func error(_ keyPath: String, _ message: String, _ exitCode: ExitCode) -> WorkloadError {
      WorkloadError(file: workload.file, location: nil, keyPath: keyPath, message: message, exitCode: exitCode)
    }
    let schema: Schema
    do {
      schema = try recorded.loadSchema()
    } catch let input as InputError {
      let index = recorded.schema.firstIndex(of: input.path) ?? 0
      throw error("recorded.schema[\(index)]", input.description, .noInput)
    }
    if workload.read.fragments > 0, !schema.hasTypePolicies, !workload.keys.contains(where: { $0.kind == .programmatic }) {
      throw error(
        "read.fragments", "reads records by their own keys, but the schema has no @typePolicy and no programmatic resolver is run: no type is keyed",
        .dataError)
    }
    for (index, operation) in recorded.operations.enumerated() {
      let keyPath = "recorded.operations[\(index)]"
      do {
        let loaded = try operation.load(schema: schema)
        _ = try Normalizer(strategy: .path).normalize(loaded.response, plan: loaded.plan)
      } catch let input as InputError {
        let key = input.path == operation.response ? ".response" : ".document"
        throw error(keyPath + key, input.description, .noInput)
      } catch let mismatch as NormalizationError {
        throw error(keyPath, "\(operation.response): \(mismatch)", .dataError)
      } catch let data as InputDataError {
        throw error(keyPath, data.description, .dataError)
      }
    }
  }
}
