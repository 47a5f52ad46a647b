/// The synthetic source of workloads (docs/workloads.md, `generator`): from one seed and a set of
/// knobs, a schema, schema extensions, operations and responses that read like a real app's.
///
/// ```swift
/// var config = GeneratorConfig()
/// config.duplication = 0
/// let workload = try Generator.make(seed: 7, config: config)
/// try workload.write(to: URL(fileURLWithPath: "out"), name: "synthetic")
/// ```
/// The same seed and knobs give byte-identical text and responses, in any process.
public enum Generator {
  /// Checks the knobs and draws the schema and the operations; responses are made on demand.
  /// - Throws: ``GeneratorConfigError`` naming every knob out of range.
  /// - Complexity: O(size of the schema and operations + `poolSize`).
  public static func make(seed: UInt64, config: GeneratorConfig) throws(GeneratorConfigError) -> SyntheticWorkload {
    try config.validate()
    return SyntheticWorkload(seed: seed, config: config)
  }
}
