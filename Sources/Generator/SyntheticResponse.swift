import GraphQLLanguage

/// One generated response and what to run it with.
public struct SyntheticResponse: Sendable {
  public let index: Int
  public let operationName: String
  public let variables: JSONObject
  /// `{"data": {...}}`, compact JSON.
  public let bytes: [UInt8]
  /// Objects below the root data object: what the normalizer counts as `objects`.
  public let objectCount: Int
  /// `responses/NNNNN.json`, relative to the workload directory.
  public let fileName: String
}
