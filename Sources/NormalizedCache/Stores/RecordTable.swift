#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The in-memory store's hash table: open addressing with linear probing, each slot holding a key
/// and its record's encoded fields side by side, so a lookup costs one cache miss, not the two or
/// three of a `Dictionary` (whose keys, values and occupancy live in separate arrays).
///
/// Loads of many keys resolve in passes (hash every key and touch its slot; probe and touch each
/// record's buffer; build the result) so the memory accesses of a batch overlap instead of
/// waiting one after another. Deletion shifts later entries back (no tombstones).
struct RecordTable {
  struct Entry {
    var key: CacheKey = ""
    /// Nil for an empty slot.
    var fields: [UInt8]? = nil
  }

  private(set) var slots: [Entry]
  private(set) var count = 0
  private var mask: Int

  init() {
    slots = Array(repeating: Entry(), count: 16)
    mask = 15
  }

  /// The key's first slot: its bytes hashed eight at a time (``HashedKey``) with a per-process
  /// seed from `Hasher` (fixed under `SWIFT_DETERMINISTIC_HASHING`), where `hashValue` would run
  /// SipHash over every byte.
  @inline(__always)
  private func home(_ key: CacheKey) -> Int { Self.hash(key) & mask }

  static let seed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5EED_CAC4E)
    return UInt64(bitPattern: Int64(hasher.finalize()))
  }()

  @inline(__always)
  static func hash(_ key: CacheKey) -> Int {
    Int(truncatingIfNeeded: HashedKey.hash(key, seed: seed))
  }

  /// The slot holding `key`, if any.
  func index(of key: CacheKey) -> Int? { index(of: key, hash: Self.hash(key)) }

  /// The slot holding `key`, whose ``hash(_:)`` the caller has.
  func index(of key: CacheKey, hash: Int) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      var index = hash & mask
      while slots[index].fields != nil {
        if slots[index].key.equalsKey(key) { return index }
        index = (index + 1) & mask
      }
      return nil
    }
  }

  subscript(key: CacheKey) -> [UInt8]? {
    index(of: key).flatMap { slots[$0].fields }
  }

  /// Replaces the fields at a slot found by ``index(of:)``.
  mutating func update(at index: Int, fields: [UInt8]) {
    slots[index].fields = fields
  }

  /// Merges `new` into the fields at a slot found by ``index(of:)``, as
  /// ``RecordCodec/merge(existing:new:)`` does.
  ///
  /// An unchanged refetch a step later (every field's value the same, every date moved to one,
  /// ``RecordCodec/onlyDatesMoved(_:_:)``) of the stored length gets its new dates written over
  /// the stored ones in place, where the merge would hand back the incoming record to replace the
  /// stored one (freed then): the common write of a TTL cache costs a comparison and a copy of a
  /// few bytes (docs/ttl.md#what-dates-cost). A buffer a reader still holds is copied first (an
  /// array's copy on write), so no record handed out changes.
  /// - Returns: nil when nothing changes; else the changed fields' names and how many bytes the
  ///   record grew by.
  @inline(__always)
  mutating func merge(at index: Int, _ new: [UInt8]) -> (changed: [String], grew: Int)? {
    // Of another length: neither unchanged nor only its dates moved in place.
    guard slots[index].fields.unsafelyUnwrapped.count == new.count else { return replace(at: index, mergedWith: new) }
    let outcome = new.withUnsafeBytes { incoming in
      slots.withUnsafeBufferPointer { slots in
        slots[index].fields.unsafelyUnwrapped.withUnsafeBytes { stored -> SameLengthMerge in
          if stored.isEmpty || memcmp(stored.baseAddress!, incoming.baseAddress!, stored.count) == 0 { return .unchanged }
          return RecordCodec.onlyDatesMoved(stored, incoming) ? .datesMoved(RecordDates.fieldsStart(incoming)) : .merge
        }
      }
    }
    switch outcome {
    case .unchanged:
      return nil
    case .datesMoved(let datesLength):
      // The fields are the same bytes, so the dates field is as long as the stored one.
      new.withUnsafeBytes { incoming in
        slots[index].fields!.withUnsafeMutableBytes { stored in
          stored.baseAddress!.copyMemory(from: incoming.baseAddress!, byteCount: datesLength)
        }
      }
      return ([], 0)
    case .merge:
      return replace(at: index, mergedWith: new)
    }
  }

  /// The merge of `new`, known to differ from the slot's fields, in place of them.
  @inline(__always)
  private mutating func replace(at index: Int, mergedWith new: [UInt8]) -> (changed: [String], grew: Int)? {
    let existing = slots[index].fields!
    guard let (merged, changed) = RecordCodec.mergeUnequal(existing: existing, new: new) else { return nil }
    slots[index].fields = merged
    return (changed, merged.count - existing.count)
  }

  /// What merging an incoming record into the stored one of its length needs: nothing, when
  /// their bytes are equal; a copy of the dates, when only they moved; else a merge.
  private enum SameLengthMerge {
    case unchanged
    /// Only the dates field, of this many bytes, differs.
    case datesMoved(Int)
    case merge
  }

  /// Adds a key the table does not have.
  mutating func insert(_ key: CacheKey, fields: [UInt8]) { insert(key, fields: fields, hash: Self.hash(key)) }

  /// Adds a key the table does not have, whose ``hash(_:)`` the caller has.
  mutating func insert(_ key: CacheKey, fields: [UInt8], hash: Int) {
    if (count + 1) * 5 > slots.count * 4 { grow() }
    var index = hash & mask
    while slots[index].fields != nil { index = (index + 1) & mask }
    slots[index] = Entry(key: key, fields: fields)
    count += 1
  }

  /// Removes a key and returns its fields.
  @discardableResult
  mutating func remove(_ key: CacheKey) -> [UInt8]? {
    guard var hole = index(of: key) else { return nil }
    let removed = slots[hole].fields
    slots[hole] = Entry()
    count -= 1
    // Shift back every entry of the run after the hole that may live there.
    var index = (hole + 1) & mask
    while let fields = slots[index].fields {
      let want = home(slots[index].key)
      // The entry may move to the hole when the hole lies cyclically within [want, index).
      let distanceToHole = (hole - want) & mask
      let distanceToIndex = (index - want) & mask
      if distanceToHole < distanceToIndex {
        slots[hole] = Entry(key: slots[index].key, fields: fields)
        slots[index] = Entry()
        hole = index
      }
      index = (index + 1) & mask
    }
    return removed
  }

  mutating func removeAll() {
    self = RecordTable()
  }

  /// Removes every entry whose key `matches`, calling `removed` with each key and its fields: one
  /// pass over the slots, then, when anything went, the kept entries placed again in a table of the
  /// same size. Removing entries one by one shifts the run after each hole (``remove(_:)``); after
  /// a removal of most of the table, placing the few kept ones anew costs less.
  /// - Complexity: O(capacity).
  mutating func removeAll(where matches: (CacheKey) -> Bool, removed: (CacheKey, [UInt8]) -> Void) {
    let before = count
    for index in slots.indices {
      guard let fields = slots[index].fields, matches(slots[index].key) else { continue }
      removed(slots[index].key, fields)
      slots[index] = Entry()
      count -= 1
    }
    guard count < before else { return }
    // The holes broke the probe runs: every entry left is placed again from its home slot.
    let old = slots
    slots = Array(repeating: Entry(), count: old.count)
    for slot in old {
      guard let fields = slot.fields else { continue }
      var index = home(slot.key)
      while slots[index].fields != nil { index = (index + 1) & mask }
      slots[index] = Entry(key: slot.key, fields: fields)
    }
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Entry(), count: old.count * 2)
    mask = slots.count - 1
    for slot in old {
      guard let fields = slot.fields else { continue }
      var index = home(slot.key)
      while slots[index].fields != nil { index = (index + 1) & mask }
      slots[index] = Entry(key: slot.key, fields: fields)
    }
  }

  /// The fields of each key, in order (nil where missing), resolving the batch in passes.
  func load(_ keys: [CacheKey]) -> [Record?] { load(keys, hashes: nil) }

  /// ``load(_:)``, writing each key's ``hash(_:)`` to `hashes` (room for `keys.count`) when given:
  /// a bounded store's ledger takes them.
  func load(_ keys: [CacheKey], hashes: UnsafeMutablePointer<Int>?) -> [Record?] {
    withLender { $0.load(keys, hashes: hashes) }
  }

  /// The fields of each key, in order, lent in place (``LentRecords``), as ``Lender/lend(_:to:)``.
  func lend(_ keys: [CacheKey], to lent: inout LentRecords) {
    withLender { $0.lend(keys, to: &lent) }
  }

  /// Runs `body` with the slots lent: the loads of a consistent read go through one ``Lender``,
  /// so that none of them copies the table (a copy counts a reference to the slots' array, which
  /// every thread's loads would write).
  func withLender<Result, Failure: Error>(_ body: (Lender) throws(Failure) -> Result) throws(Failure) -> Result {
    try slots.withUnsafeBufferPointer { slots throws(Failure) in try body(Lender(slots: slots, mask: mask)) }
  }

  /// The slots of a table that no one mutates while this lives (the store's lock is held).
  struct Lender {
    let slots: UnsafeBufferPointer<Entry>
    let mask: Int

    /// The fields of each key found, by key: ``load(_:hashes:)``'s passes without the array of
    /// optionals between them (``NormalizedCache/loadRecords(forKeys:)``'s result).
    func loadByKey(_ keys: [CacheKey]) -> [CacheKey: Record] {
      if keys.count == 1 {
        // A single key: one probe, and a dictionary of one.
        let key = keys[0]
        var index = RecordTable.hash(key) & mask
        while let fields = slots[index].fields {
          if slots[index].key.equalsKey(key) { return [key: Record(key: key, uncheckedEncodedFields: fields)] }
          index = (index + 1) & mask
        }
        return [:]
      }
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
        RecordTable.find(keys, in: slots, mask: mask, hashes: nil, found: found.baseAddress!)
        var records: [CacheKey: Record] = [:]
        records.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() where found[position] >= 0 {
          records[key] = Record(key: key, uncheckedEncodedFields: slots[found[position]].fields!)
        }
        return records
      }
    }

    /// ``RecordTable/load(_:hashes:)``.
    func load(_ keys: [CacheKey], hashes: UnsafeMutablePointer<Int>?) -> [Record?] {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
        RecordTable.find(keys, in: slots, mask: mask, hashes: hashes, found: found.baseAddress!)
        var records: [Record?] = []
        records.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
          let index = found[position]
          records.append(index < 0 ? nil : Record(key: key, uncheckedEncodedFields: slots[index].fields!))
        }
        return records
      }
    }

    /// The fields of each key, in order, lent in place (``LentRecords``): no record is made and
    /// no reference counted. The bytes are valid while the table is not mutated: the store's
    /// lock, held across a consistent read, keeps merges out (an entry's array is replaced,
    /// ``update(at:fields:)``, or written over in place, ``merge(at:_:)``, only under the write
    /// lock), and a slot moved by ``remove(_:)`` or ``grow()`` moves the array's reference, not
    /// its storage.
    func lend(_ keys: [CacheKey], to lent: inout LentRecords) {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
        RecordTable.find(keys, in: slots, mask: mask, hashes: nil, found: found.baseAddress!)
        lent.lendInPlace(count: keys.count) { spans in
          for position in 0..<keys.count where found[position] >= 0 {
            spans[position] = slots[found[position]].fields!.withUnsafeBytes { $0 }
          }
        }
      }
    }

    /// ``lend(_:to:)`` with only the fields of each key's set in `projection`
    /// (``LentRecords/lendProjected(count:projection:keeping:_:)``): a record whose fields are all
    /// asked in place, another cut.
    func lend(_ keys: [CacheKey], projection: FieldProjection, to lent: inout LentRecords) {
      withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { found in
        RecordTable.find(keys, in: slots, mask: mask, hashes: nil, found: found.baseAddress!)
        lent.lendProjected(count: keys.count, projection: projection) { position in
          found[position] < 0 ? nil : slots[found[position]].fields!.withUnsafeBytes { $0 }
        }
      }
    }
  }

  /// The slot of each key, in order (-1 where missing), into `found`, in passes so that the
  /// memory accesses of a batch overlap instead of waiting one after another.
  @inline(__always)
  private static func find(
    _ keys: [CacheKey], in slots: UnsafeBufferPointer<Entry>, mask: Int, hashes: UnsafeMutablePointer<Int>?,
    found: UnsafeMutablePointer<Int>
  ) {
    // Pass 1: hash every key and touch its home slot; the loads do not depend on each other.
    var touched = 0
    for (position, key) in keys.enumerated() {
      let hash = Self.hash(key)
      hashes?[position] = hash
      let home = hash & mask
      found[position] = home
      touched &+= slots[home].fields == nil ? 0 : 1
    }
    // Pass 2: probe (the slots are now cached) and touch each record's buffer.
    for (position, key) in keys.enumerated() {
      var index = found[position]
      found[position] = -1
      while let fields = slots[index].fields {
        if slots[index].key.equalsKey(key) {
          found[position] = index
          touched &+= fields.count
          break
        }
        index = (index + 1) & mask
      }
    }
    if touched == Int.min { preconditionFailure("unreachable: keeps the touches") }
  }
}
