import Generator

/// The list scenarios (`"lists"`, docs/workloads.md#lists): for each list size N and each kind of
/// element (strings, references, lists of strings), a record whose list field holds N elements is
/// read, written under a new key, and changed at one element, ADR 0006's
/// `read-record-with-list-of-N`, `write-list-of-N` and `mutate-element-at-position-K-in-list-of-N`.
///
/// ```swift
/// var lists = ListsConfig()          // sizes [10, 100, 1000], position 0.5
/// lists.changedIndex(size: 100)      // 50
/// ```
public struct ListsConfig: Sendable, Equatable {
  /// The list sizes N, in the order they run; each from 1 to ``largestSize``, none twice.
  public var sizes = [10, 100, 1_000]
  /// Where the changed element sits, as a share of the list: element K = ⌊N × position⌋, the last
  /// one for 1.
  public var position = 0.5

  /// The largest list a file may ask for.
  public static let largestSize = 100_000

  public init() {}

  /// The bytes one element takes, about, in a record and in a store: a reference `Item:12345`
  /// and its length.
  public static let bytesPerElement = 16

  /// The most bytes of lists the write scenario keeps in one store without `--allow-large`: each
  /// iteration writes a record of its own, and the store keeps them all.
  public static let largeBytes = 2e9

  /// Why `iterations` writes of the largest list are too large to run without `--allow-large`;
  /// nil when they are not.
  public func tooLarge(iterations: Int) -> String? {
    let bytes = Double(iterations * (sizes.max() ?? 0) * Self.bytesPerElement)
    guard bytes > Self.largeBytes else { return nil }
    return "\(iterations) iterations writing lists of \(sizes.max() ?? 0) elements would keep about "
      + "\(GeneratorConfig.Estimate.bytes(bytes)) in one store; the limit is \(GeneratorConfig.Estimate.bytes(Self.largeBytes))"
  }

  /// K, the index of the element a mutation changes in a list of `size`: ⌊size × position⌋, at
  /// most the last index. The product is floored with a tolerance of 10⁻⁹, so that a decimal
  /// position means what it says (100 × 0.29 is 28.999999999999996 in binary, and K is 29).
  public func changedIndex(size: Int) -> Int {
    min(size - 1, Int((Double(size) * position + 1e-9).rounded(.down)))
  }
}
