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

/// A load's filters: one per set of its projection, and each key's.
struct LoadFilters {
  let filters: [FieldFilter]
  let setIndices: [Int]

  /// The filter of the key at `position` of the load.
  @inline(__always)
  func filter(at position: Int) -> FieldFilter { filters[setIndices[position]] }
}

extension RecordFormat {
  /// A filter that knows the set's names only (the apollo layout's JSON spells them out).
  func filter(for set: FieldSet) -> FieldFilter { FieldFilter(set: set) }

  /// The filters of a load's projection.
  func filters(for projection: FieldProjection) -> LoadFilters {
    LoadFilters(filters: projection.sets.map { filter(for: $0) }, setIndices: projection.setIndices)
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
