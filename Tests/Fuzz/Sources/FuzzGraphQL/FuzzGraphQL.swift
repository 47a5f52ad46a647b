import GraphQLLanguage
import NormalizedCache

/// Any bytes as a GraphQL document: parsed, fragments checked, every operation planned and
/// walked over an empty response; or an error. Never a crash or a hang (fragment bombs included).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let source = try? Source(name: "fuzz.graphql", utf8: bytes) else { return 0 }
  // As a schema too: type definitions, extensions and policies.
  _ = try? Schema(parsing: [source])
  guard let document = try? ExecutableDocument(parsing: [source]) else { return 0 }
  for operation in document.operations {
    guard let plan = try? OperationPlan(document: document, operationName: operation.name) else { continue }
    for strategy in [KeyStrategy.path, .typePolicy] {
      _ = try? Normalizer(strategy: strategy).normalize(.object(["data": .object([:])]), plan: plan)
    }
    _ = try? CacheReader(cache: InMemoryNormalizedCache()).read(plan)
  }
  for name in document.fragments.keys {
    _ = try? ObjectSelection(fragment: name, document: document)
  }
  return 0
}
