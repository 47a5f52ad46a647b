import Generator
import GraphQLLanguage
import NormalizedCache
import Support

/// The fragment reads of one strategy (`read.fragments`, phase `fragment`): random records with
/// keys of their own, each read back by its key through the selection set it was last written
/// under, as Apollo iOS's `readObject(ofType:withKey:)` reads a fragment.
struct FragmentReads {
  struct Read {
    let key: CacheKey
    let selection: ObjectSelection
    /// The object as its response had it, projected through the selection: what the read must give.
    let expected: JSONObject
    /// The response that wrote it last, for messages.
    let label: String
  }

  let reads: [Read]

  var isEmpty: Bool { reads.isEmpty }

  /// Draws `count` of the keyed objects the responses write under `normalizer` (with replacement,
  /// from the seed); none when `count` is 0 or no object has a key of its own.
  static func make(source: PreparedSource, normalizer: Normalizer, count: Int, seed: UInt64) throws -> FragmentReads {
    guard count > 0 else { return FragmentReads(reads: []) }
    // First the keys and the response that wrote each last; then only the chosen objects, so that
    // memory holds `count` objects, not every keyed object of the workload.
    var lastItem: [CacheKey: Int] = [:]
    for (index, item) in source.items.enumerated() {
      for object in try normalizer.keyedObjects(in: try item.response(), plan: item.plan) {
        lastItem[object.key] = index
      }
    }
    guard !lastItem.isEmpty else { return FragmentReads(reads: []) }
    let keys = lastItem.keys.sorted()
    var random = SplitMix64(seed: seed)
    let chosen = (0..<count).map { _ in keys[random.int(below: keys.count)] }
    var wanted: [Int: Set<CacheKey>] = [:]
    for key in chosen { wanted[lastItem[key]!, default: []].insert(key) }
    var found: [CacheKey: Read] = [:]
    for (index, keysHere) in wanted {
      let item = source.items[index]
      for object in try normalizer.keyedObjects(in: try item.response(), plan: item.plan) where keysHere.contains(object.key) {
        // The last occurrence in the response, as the store holds it.
        found[object.key] = Read(
          key: object.key, selection: object.selection,
          expected: try ResponseProjection.selectedData(of: object.object, selection: object.selection), label: item.label)
      }
    }
    return FragmentReads(reads: chosen.map { found[$0]! })
  }
}
