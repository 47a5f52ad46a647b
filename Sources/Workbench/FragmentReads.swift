import Generator
import GraphQLLanguage
import NormalizedCache

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
    var last: [CacheKey: (object: KeyedObject, label: String)] = [:]
    for item in source.items {
      for object in try normalizer.keyedObjects(in: item.response, plan: item.plan) {
        last[object.key] = (object, item.label)
      }
    }
    guard !last.isEmpty else { return FragmentReads(reads: []) }
    let keys = last.keys.sorted()
    var random = SplitMix64(seed: seed)
    var reads: [Read] = []
    reads.reserveCapacity(count)
    var expected: [CacheKey: JSONObject] = [:]
    for _ in 0..<count {
      let key = keys[random.int(below: keys.count)]
      let (object, label) = last[key]!
      if expected[key] == nil {
        expected[key] = try ResponseProjection.selectedData(of: object.object, selection: object.selection)
      }
      reads.append(Read(key: key, selection: object.selection, expected: expected[key]!, label: label))
    }
    return FragmentReads(reads: reads)
  }
}
