import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import Support

/// The deeper checks of `cachebench validate`: for a recorded workload, that every file it names
/// exists, parses and fits its operation; for a generator, that every sweep point is in range.
public enum WorkloadChecker {
  /// - Throws: ``WorkloadError`` naming the key whose file is missing (exit 66) or does not fit
  ///   (65); ``GraphQLError`` with the line and column in a file that does not parse.
  /// - Parameter allowLarge: run generator settings past ``GeneratorConfig/largeLimits`` anyway.
  public static func check(_ workload: Workload, allowLarge: Bool = false) throws {
    if !allowLarge { try checkSize(workload) }
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
    if workload.variants.contains(where: { $0.read.fragments > 0 }), !schema.hasTypePolicies,
      !workload.keys.contains(where: { $0.kind == .programmatic })
    {
      throw error(
        "read.fragments",
        "reads records by their own keys, but the schema has no @typePolicy and no programmatic resolver is run: no type is keyed",
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

  /// Refuses, before anything runs, what is estimated too large to run without `--allow-large`:
  /// generated responses and what a run of them holds (``GeneratorConfig/tooLarge``), store records
  /// (``StoreRecordsConfig/tooLarge``) and a traffic session (``TrafficSettings/tooLarge(bytesPerResponse:)``).
  /// Check the workload as it will run (after ``Workload/quick()``).
  static func checkSize(_ workload: Workload) throws {
    func refuse(_ keyPath: String, _ problem: String) -> WorkloadError {
      WorkloadError(file: workload.file, location: nil, keyPath: keyPath, message: "\(problem): pass --allow-large to run it anyway")
    }
    for variant in workload.variants {
      let place = variant.name.isEmpty ? nil : "sweep (\(variant.name))"
      switch variant.source {
      case .generator(let config):
        if let problem = config.tooLarge { throw refuse(place ?? "generator", problem) }
        if let problem = variant.traffic?.tooLarge(bytesPerResponse: config.estimate.bytesPerResponse) {
          throw refuse(place.map { "traffic, \($0)" } ?? "traffic", problem)
        }
      case .storeRecords(let config):
        if let problem = config.tooLarge { throw refuse("storeRecords.count", problem) }
      case .apolloTier2:
        continue
      case .apolloTier3(let config):
        if let problem = config.tooLarge { throw refuse(config.sizes.isEmpty ? "apolloTier3.records" : "apolloTier3.sizes", problem) }
      case .lists(let config):
        if let problem = config.tooLarge(iterations: workload.warmup + workload.repetitions) { throw refuse("lists.sizes", problem) }
      case .recorded(let recorded):
        guard let traffic = variant.traffic, !recorded.operations.isEmpty else { continue }
        let sizes = recorded.operations.map { operation in
          ((try? FileManager.default.attributesOfItem(atPath: operation.response)[.size]) as? Int) ?? 0
        }
        let mean = Double(sizes.reduce(0, +)) / Double(sizes.count)
        if let problem = traffic.tooLarge(bytesPerResponse: mean) {
          throw refuse(place.map { "traffic.steps, \($0)" } ?? "traffic.steps", problem)
        }
      }
    }
  }
}
