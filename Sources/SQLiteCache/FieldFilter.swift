@_spi(RecordBytes) import NormalizedCache

/// What a projected load (docs/stores.md#projected-loads) keeps of each record of one
/// ``FieldSet``: the fields the set names, and the dates field (the empty name), whatever the
/// layout. Made once per set and load (``RecordFormat/filter(for:)``).
struct FieldFilter {
  let set: FieldSet
  /// The compact layout's field numbers the set names, indexed by number: a stored field is kept
  /// or skipped by its number, without reading its name. Empty in the other layouts.
  var keptNumbers: [Bool] = []

  /// Whether the field of this name (its UTF-8) is kept: the dates field always.
  @inline(__always)
  func keeps(name: UnsafeRawBufferPointer) -> Bool { name.isEmpty || set.contains(name) }

  /// Whether the compact layout's field of this number is kept.
  @inline(__always)
  func keeps(number: Int) -> Bool { number < keptNumbers.count && keptNumbers[number] }
}

/// A load's filters: one per set of its projection, and each key's. A projection of one set,
/// the common case (every key read by one selection), keeps its filter alone, not in an array:
/// an array of filters cost every load of one record the runtime looking up its type's metadata.
struct LoadFilters {
  private let only: FieldFilter?
  private let filters: [FieldFilter]
  private let setIndices: [Int]

  init(_ filters: [FieldFilter], setIndices: [Int]) {
    self.filters = filters
    self.setIndices = setIndices
    only = nil
  }

  init(only filter: FieldFilter) {
    only = filter
    filters = []
    setIndices = []
  }

  /// The filter of the key at `position` of the load.
  @inline(__always)
  func filter(at position: Int) -> FieldFilter { only ?? filters[setIndices[position]] }
}

extension RecordFormat {
  /// A filter that knows the set's names only (the apollo layout's JSON spells them out).
  func filter(for set: FieldSet) -> FieldFilter { FieldFilter(set: set) }
  var filterGeneration: Int { 0 }
}

/// The filters a store made last, kept while its format's ``RecordFormat/filterGeneration``
/// stays: a reader asks the same sets load after load (one per place of its operations), and the
/// compact layout's filter costs a lookup per name and an array as long as its names (some 1,400
/// instructions of a 14,000-instruction load of one record). The sets are held, so that an
/// identity means one set.
struct FilterCache {
  private var entries: [(set: FieldSet, filter: FieldFilter)] = []
  private var generation = 0
  /// The most sets kept; the oldest goes first.
  static let capacity = 16

  /// The filters of a load's projection.
  mutating func filters(for projection: FieldProjection, in format: any RecordFormat) -> LoadFilters {
    if generation != format.filterGeneration {
      entries.removeAll(keepingCapacity: true)
      generation = format.filterGeneration
    }
    if projection.sets.count == 1 { return LoadFilters(only: filter(for: projection.sets[0], in: format)) }
    var filters: [FieldFilter] = []
    filters.reserveCapacity(projection.sets.count)
    for set in projection.sets { filters.append(filter(for: set, in: format)) }
    return LoadFilters(filters, setIndices: projection.setIndices)
  }

  /// The filter of one set: the one made before, or a new one kept.
  private mutating func filter(for set: FieldSet, in format: any RecordFormat) -> FieldFilter {
    if let known = entries.first(where: { $0.set === set }) { return known.filter }
    let filter = format.filter(for: set)
    if entries.count == Self.capacity { entries.removeFirst() }
    entries.append((set, filter))
    return filter
  }
}

extension FieldFilter {
  /// Decoded fields (``RecordCodec``'s encoding, with the dates field where the record has one)
  /// from which a decoder left fields out as it went: where the record's dates were not all one
  /// date, the positions of its dates field's exceptions counted every field, so the record is
  /// projected again from its whole decoding (`whole`), dates rewritten
  /// (``RecordDates/projected(_:keeping:)``). Rare: a record merged in part at another time.
  func settled(_ decoded: [UInt8], skippedAny: Bool, whole: () throws(SQLiteError) -> [UInt8]) throws(SQLiteError) -> [UInt8] {
    guard skippedAny, decoded.withUnsafeBytes({ RecordDates.View($0).map { !$0.isUniform } ?? false }) else { return decoded }
    return try whole().withUnsafeBytes { whole in RecordDates.projected(whole) { keeps(name: $0) } }
  }
}
